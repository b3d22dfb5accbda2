//! `wait-done` sleeps in the server instead of polling: it wakes when the
//! target's state is stamped or its program ends, and a state set some other
//! way or a killed pane is still noticed by its slow look. (The safety look
//! comes every 10 s; every wake-up below must come well before that.)

use crate::common::*;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

fn waiter(env: &TestEnv, target: &str, seconds: &str) -> Child {
    env.roost(["wait-done", target, seconds])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The waiter's outcome, and how long after `since` it came.
fn outcome(child: Child, since: Instant) -> (std::process::Output, Duration) {
    let out = child.wait_with_output().unwrap();
    (out, since.elapsed())
}

const PROMPT: Duration = Duration::from_secs(3);

#[test]
fn a_stamp_from_inside_the_pane_wakes_every_waiter_at_once() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
    let waiters: Vec<Child> = (0..3).map(|_| waiter(&env, "alice", "60")).collect();
    std::thread::sleep(Duration::from_millis(500));
    // What the agent's hook runs, inside the pane.
    let tmux_var = format!(
        "{},{},0",
        env.socket,
        env.tmux_ok(&["display-message", "-p", "#{pid}"]).trim()
    );
    let since = Instant::now();
    let stamped = env
        .roost(["state", "done"])
        .env("TMUX", tmux_var)
        .env("TMUX_PANE", &pane)
        .output()
        .unwrap();
    assert!(stamped.status.success(), "{}", describe(&stamped));
    for w in waiters {
        let (out, after) = outcome(w, since);
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        assert!(after < PROMPT, "woke after {after:?}");
    }
}

#[test]
fn a_stamp_between_looking_and_sleeping_is_not_missed() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    for _ in 0..20 {
        env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
        let w = waiter(&env, &pane, "60");
        let since = Instant::now();
        // Stamped while the waiter may be anywhere between its look and its sleep.
        env.tmux_ok(&[
            "set-option",
            "-p",
            "-t",
            &pane,
            "@agent_state",
            "done",
            ";",
            "wait-for",
            "-S",
            &format!("roost-state-{pane}"),
        ]);
        let (out, after) = outcome(w, since);
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        assert!(after < PROMPT, "woke after {after:?}");
    }
}

#[test]
fn a_program_that_ends_while_waited_on_is_exit_2_at_once() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 1; exit 3");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
    let since = Instant::now();
    let (out, after) = outcome(waiter(&env, "alice", "60"), since);
    assert_eq!(exit_of(&out), Exit::NoTarget, "{}", describe(&out));
    // tmux 3.3a can lose the program's SIGCHLD under load: the pane is dead
    // and tmux never learns its status. roost gives the status tmux has.
    let status = env.tmux_ok(&["display-message", "-p", "-t", &pane, "#{pane_dead_status}"]);
    let how = match status.trim() {
        "" => String::new(),
        code => format!(" with status {code}"),
    };
    assert_eq!(
        stderr(&out),
        format!(
            "roost wait-done: 'alice' ({pane}) has exited{how}\nroost read alice shows its last output\n"
        ),
        "{}",
        describe(&out)
    );
    assert!(
        after < PROMPT + Duration::from_secs(3),
        "noticed after {after:?}"
    );
}

#[test]
fn a_killed_pane_is_noticed_at_once_and_a_state_set_by_hand_by_the_slow_look() {
    let env = TestEnv::new();
    let alice = env.spawn("alice", "sleep 100000");
    let bob = env.spawn("bob", "sleep 100000");
    for pane in [&alice, &bob] {
        env.tmux_ok(&["set-option", "-p", "-t", pane, "@agent_state", "working"]);
    }
    let a = waiter(&env, "alice", "60");
    let b = waiter(&env, "bob", "60");
    std::thread::sleep(Duration::from_millis(500));
    env.tmux_ok(&["kill-pane", "-t", &alice]);
    env.tmux_ok(&["set-option", "-p", "-t", &bob, "@agent_state", "done"]);
    let since = Instant::now();
    // Its program ends with the pane: the waiter sees that itself.
    let (out, after) = outcome(a, since);
    assert_eq!(exit_of(&out), Exit::NoTarget, "{}", describe(&out));
    assert!(after < PROMPT, "noticed after {after:?}");
    // A state set without a signal waits for the slow look.
    let (out, after) = outcome(b, since);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(after < Duration::from_secs(12), "noticed after {after:?}");
}

#[test]
fn a_server_killed_while_waited_on_is_exit_2() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
    let w = waiter(&env, "alice", "60");
    std::thread::sleep(Duration::from_millis(500));
    let pid: i32 = env
        .tmux_ok(&["display-message", "-p", "#{pid}"])
        .trim()
        .parse()
        .unwrap();
    let since = Instant::now();
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::SIGKILL).unwrap();
    let (out, after) = outcome(w, since);
    assert_eq!(exit_of(&out), Exit::NoTarget, "{}", describe(&out));
    assert!(after < PROMPT, "noticed after {after:?}");
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|stat| {
                // pid (comm) state ppid …; comm may hold spaces.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

/// A waiter killed outright takes its sleeping tmux client with it: none is
/// left waiting in the server for nobody.
#[test]
fn a_waiter_killed_outright_leaves_no_tmux_client_behind() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
    let mut w = waiter(&env, "alice", "60");
    let mut clients = Vec::new();
    assert!(
        wait_until(Duration::from_secs(5), || {
            clients = children(w.id());
            !clients.is_empty()
        }),
        "the waiter never started its tmux client"
    );
    w.kill().unwrap();
    w.wait().unwrap();
    let gone = |p: &u32| {
        std::fs::read_to_string(format!("/proc/{p}/stat")).map_or(true, |s| {
            s.rsplit_once(')')
                .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
        })
    };
    assert!(
        wait_until(Duration::from_secs(3), || clients.iter().all(gone)),
        "tmux clients {clients:?} outlived their waiter"
    );
}

#[test]
fn after_a_send_a_pane_without_a_state_is_said_to_have_none_since_then() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "cat");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "done"]);
    let out = env.run(["send", "alice", "a prompt no hook reports"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let out = env.run(["wait-done", "alice", "1"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out).lines().next(),
        Some(
            format!(
                "roost wait-done: 'alice' ({pane}) has reported no state since its last prompt was sent, so roost cannot tell when it is done (waited 1s)"
            )
            .as_str()
        )
    );
}

/// A send that typed its text but could not press Enter (exit 5): the pane
/// was given text, so wait-done does not say it never reported a state.
#[test]
fn after_a_send_that_typed_without_enter_a_pane_is_not_said_never_to_have_reported() {
    let env = TestEnv::new();
    // Raw mode, something drawn, and nothing ever read.
    let pane = env.spawn("alice", "stty raw -echo; echo ready; sleep 100000");
    env.wait_for_screen(&pane, "ready");
    let out = env.run(["send", "alice", "a prompt nobody reads"]);
    assert_eq!(exit_of(&out), Exit::TypedNotSubmitted, "{}", describe(&out));
    let out = env.run(["wait-done", "alice", "1"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost wait-done: 'alice' ({pane}) has reported no state since text was typed into it, whose Enter was never pressed, so roost cannot tell when it is done (waited 1s)\n\
             look at the pane (roost screen alice), then press Enter there or clear the line\n"
        )
    );
}
