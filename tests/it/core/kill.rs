//! `roost kill`: one session, one agent by every target form, the whole
//! server (`down`, `stop`, and only after a yes on a terminal, however it
//! was named); the line that says what was ended; and every process of it
//! ended, none of another pane.

use crate::common::procs::{pane_pid, processes_of, Proc};
use crate::common::*;
use std::time::{Duration, Instant};

fn windows(env: &TestEnv, session: &str) -> String {
    env.tmux_ok(&[
        "list-windows",
        "-t",
        &format!("={session}"),
        "-F",
        "#{window_name}",
    ])
}

// ---- kill ------------------------------------------------------------------

#[test]
fn kill_session_kills_only_that_session() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    env.ok(["session", "work"]);
    let out = env.run(["kill", "work"]);
    assert_eq!(
        quiet(&out, Exit::Ok),
        "roost kill: ended session 'work' (1 window, 1 pane)\n"
    );
    assert_eq!(
        env.tmux_ok(&["list-sessions", "-F", "#{session_name}"]),
        "main\n"
    );
    assert_eq!(
        env.tmux_ok(&["list-windows", "-t", "=main", "-F", "#{window_name}"]),
        "sh\nalice\n"
    );
}

#[test]
fn kill_down_and_stop_kill_the_whole_server() {
    let env = TestEnv::new();
    for word in ["kill", "down", "stop"] {
        env.spawn("alice", "sleep 100");
        env.ok(["session", "work"]);
        // Without a terminal (a script), no question is asked.
        let out = env.run([word]);
        assert_eq!(
            quiet(&out, Exit::Ok),
            "roost kill: ended the whole roost server (3 panes in 2 sessions)\n",
            "{word}"
        );
        assert!(!env.server_running(), "{word} left the server running");
        assert_eq!(env.ok(["status"]), "roost: not running\n");
    }
    env.spawn("alice", "sleep 100");
    env.ok(["kill", "--all"]);
    assert!(!env.server_running());
    // Nothing to kill is not an error.
    assert_eq!(exit_of(&env.run(["kill"])), Exit::Ok);
}

#[test]
fn kill_of_a_missing_target_or_session_is_exit_2() {
    let env = TestEnv::new();
    let out = env.run(["kill", "nope"]);
    assert_refusal(
        &out,
        Exit::NoTarget,
        "roost kill: no such target or session 'nope': roost is not running",
    );
    env.spawn("alice", "sleep 100");
    let out = env.run(["kill", "nope"]);
    assert_refusal(
        &out,
        Exit::NoTarget,
        "roost kill: no such target or session 'nope'\n",
    );
    let out = env.run(["kill", "--session", "nope"]);
    assert_refusal(&out, Exit::NoTarget, "roost kill: no session 'nope'\n");
    for t in ["%99", "@99", "work:alice", "main:alice.5"] {
        let out = env.run(["kill", t]);
        assert_refusal(
            &out,
            Exit::NoTarget,
            &format!("roost kill: no such target or session '{t}'\n"),
        );
    }
    assert!(env.server_running());
    assert_refusal(
        &env.run(["kill", "a", "b"]),
        Exit::Usage,
        "roost kill: unexpected argument 'b'",
    );
    assert_refusal(
        &env.run(["kill", "alice", "--session", "main"]),
        Exit::Usage,
        "roost kill: TARGET cannot be used with --session\n",
    );
}

#[test]
fn kill_target_ends_one_agent_by_every_target_form() {
    let env = TestEnv::new();
    let alice = env.spawn("alice", "sleep 100");
    env.spawn("bob", "sleep 100");
    env.spawn("carol", "sleep 100");
    let dave = env.spawn("dave", "sleep 100");
    env.ok(["session", "work"]);
    env.tmux_ok(&["new-window", "-d", "-t", "work:", "-n", "erin"]);
    let erin = env.tmux_ok(&["display", "-p", "-t", "=work:erin", "#{window_id}"]);
    assert_eq!(windows(&env, "main"), "sh\nalice\nbob\ncarol\ndave\n");

    let says = |args: &[&str], line: &str| {
        let out = env.run(args);
        assert_eq!(
            quiet(&out, Exit::Ok),
            format!("roost kill: ended {line}\n"),
            "{args:?}"
        );
    };
    says(&["kill", "bob"], "window 'bob' in session 'main' (@2)");
    assert_eq!(windows(&env, "main"), "sh\nalice\ncarol\ndave\n");
    says(
        &["kill", &alice],
        &format!("pane {alice} of window 'alice' in session 'main'"),
    );
    says(
        &["stop", "main:carol"],
        "window 'carol' in session 'main' (@3)",
    );
    assert_eq!(windows(&env, "main"), "sh\ndave\n");
    let erin = erin.trim();
    says(
        &["down", erin],
        &format!("window 'erin' in session 'work' ({erin})"),
    );
    assert_eq!(windows(&env, "work"), "sh\n");
    // A pane of a split window: only that pane ends.
    let second = env.tmux_ok(&["split-window", "-d", "-P", "-F", "#{pane_id}", "-t", &dave]);
    let second = second.trim();
    says(
        &["kill", "main:dave.1"],
        &format!("pane {second} of window 'dave' in session 'main'"),
    );
    assert!(!env
        .tmux_ok(&["list-panes", "-a", "-F", "#{pane_id}"])
        .contains(second));
    assert_eq!(windows(&env, "main"), "sh\ndave\n");
    assert!(env.server_running());
}

#[test]
fn a_word_naming_a_session_and_a_window_is_refused() {
    let env = TestEnv::new();
    env.spawn("work", "sleep 100");
    env.ok(["session", "work"]);
    let out = env.run(["kill", "work"]);
    assert_refusal(
        &out,
        Exit::Usage,
        "roost kill: 'work' names both a window in session main and a session\n\
         say which: roost kill main:work (the window) or roost kill --session work\n",
    );
    env.ok(["kill", "--session", "work"]);
    assert_eq!(windows(&env, "main"), "sh\nwork\n");
    env.ok(["kill", "work"]);
    assert_eq!(windows(&env, "main"), "sh\n");
}

#[test]
fn on_a_terminal_the_whole_server_ends_only_after_a_yes() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    let Some(out) = env.on_a_terminal("kill", b"n\n") else {
        return;
    };
    let seen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert_eq!(exit_of(&out), Exit::Failed, "{seen}");
    assert!(
        seen.contains("End the whole roost server: 2 panes in 1 session? [y/N] roost kill"),
        "{seen}"
    );
    assert!(
        seen.ends_with(
            "roost kill: nothing killed\n\
             roost kill TARGET ends one agent; roost kill --all ends every one without asking\n"
        ),
        "{seen}"
    );
    assert!(env.server_running());
    let out = env.on_a_terminal("down", b"y\n").unwrap();
    assert_eq!(exit_of(&out), Exit::Ok);
    assert!(!env.server_running());
    env.spawn("alice", "sleep 100");
    let out = env.on_a_terminal("stop --all", b"").unwrap();
    assert_eq!(exit_of(&out), Exit::Ok);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "roost kill: ended the whole roost server (2 panes in 1 session)\r\n"
    );
    assert!(!env.server_running());
}

/// A stand-in `claude` that stays, in the test's `bin/`; returns the PATH
/// that finds it first.
fn stand_in_claude(env: &TestEnv) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("claude");
    std::fs::write(&fake, "#!/bin/sh\nexec sleep 100000\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

/// The window names of the agents `roost resume` would bring back.
fn recorded(env: &TestEnv) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(env.path("state/roost/agents.json")) else {
        return Vec::new();
    };
    let record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let socket = env.socket_file().to_string_lossy().into_owned();
    record["servers"][socket.as_str()]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["name"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The last session, the last window or the last pane is the whole server:
/// without a terminal such a kill is refused with nothing ended unless
/// --all is given; on a terminal it asks plain kill's question. Ending the
/// whole server so forgets no agent, as plain kill does not.
#[test]
fn a_kill_that_would_end_the_whole_server_asks_or_needs_all() {
    let env = TestEnv::new();
    let path = stand_in_claude(&env);
    let spawn = |name: &str, session: &str| {
        let out = env
            .roost(["spawn", "--session", session, name, "claude"])
            .env("PATH", &path)
            .output()
            .unwrap();
        succeeded(&out).trim().to_string()
    };
    let alice = spawn("alice", "main");
    let refusal = |args: &[&str], last: &str, spelled: &str| {
        let out = env.run(args);
        assert_eq!(
            quiet(&out, Exit::Failed),
            format!(
                "roost kill: {last}: ending it would end the whole roost server; nothing killed\n\
                 on a terminal roost kill asks first; roost kill --all {spelled} ends it without asking\n"
            ),
            "{args:?}"
        );
        assert!(env.server_running(), "{args:?} ended the server");
    };
    refusal(&["kill", "main"], "'main' is the last session", "main");
    refusal(
        &["kill", "--session", "main"],
        "'main' is the last session",
        "--session main",
    );
    env.ok(["kill", "sh"]);
    refusal(&["kill", "alice"], "'alice' is the last window", "alice");
    refusal(
        &["kill", &alice],
        &format!("{alice} is the last pane"),
        &alice,
    );
    assert_eq!(windows(&env, "main"), "alice\n");
    // On a terminal: the same question as plain kill's, after a line that
    // says why.
    if let Some(out) = env.on_a_terminal("kill main", b"n\n") {
        let seen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
        assert_eq!(exit_of(&out), Exit::Failed, "{seen}");
        // The terminal echoes the answer typed ahead before roost asks.
        assert_eq!(
            seen.trim_start_matches("n\n"),
            "roost kill: 'main' is the last session: ending it ends the whole roost server\n\
             End the whole roost server: 1 pane in 1 session? [y/N] roost kill: nothing killed\n\
             'main' is the last session, so ending it ends the whole roost server\n"
        );
        assert!(env.server_running());
    }
    assert_eq!(recorded(&env), ["alice"]);
    let out = env.run(["kill", "--all", "main"]);
    assert_eq!(
        quiet(&out, Exit::Ok),
        "roost kill: ended the whole roost server (1 pane in 1 session)\n"
    );
    assert!(!env.server_running());
    assert_eq!(recorded(&env), ["alice"], "the whole server's end forgot");
    // A session that is not the last is ended on its own, and forgotten.
    spawn("bob", "work");
    spawn("carol", "main");
    let out = env.run(["kill", "--all", "--session", "work"]);
    assert_eq!(
        quiet(&out, Exit::Ok),
        "roost kill: ended session 'work' (2 windows, 2 panes)\n"
    );
    assert!(env.server_running());
    assert_eq!(recorded(&env), ["alice", "carol"]);
}

/// A pane whose programs ignore the hangup and SIGTERM, one of them gone to
/// a session of its own, ends whole: SIGKILL after the grace period. The
/// processes of another pane are not touched, nor is the server.
#[test]
fn kill_ends_every_process_of_the_pane_and_none_of_another() {
    let env = TestEnv::new();
    let other = env.spawn("other", "sleep 1000");
    let stubborn = env.spawn(
        "stubborn",
        "trap '' HUP TERM; setsid sh -c 'exec sleep 1001' & sleep 1002; sleep 1003",
    );
    let theirs = processes_of(pane_pid(&env, &other));
    let mut mine = Vec::new();
    let found = wait_until(Duration::from_secs(10), || {
        mine = processes_of(pane_pid(&env, &stubborn));
        mine.iter().any(|p| p.name == "sleep") && mine.len() >= 3
    });
    assert!(found, "{mine:?}");
    let started = Instant::now();
    let out = env.run(["kill", "stubborn"]);
    let took = started.elapsed();
    let left: Vec<&Proc> = mine.iter().filter(|p| p.alive()).collect();
    assert!(left.is_empty(), "left running: {left:?}");
    assert_eq!(
        quiet(&out, Exit::Ok),
        "roost kill: ended window 'stubborn' in session 'main' (@2)\n"
    );
    assert!(took >= Duration::from_secs(2), "no grace period: {took:?}");
    assert!(theirs.iter().all(Proc::alive), "another pane's: {theirs:?}");
    assert!(env.server_running());
    // The whole server, the same.
    let again = env.spawn("again", "trap '' HUP TERM; sleep 1004");
    let mut mine = Vec::new();
    let found = wait_until(Duration::from_secs(10), || {
        mine = processes_of(pane_pid(&env, &again));
        mine.len() >= 2
    });
    assert!(found, "{mine:?}");
    mine.extend(theirs);
    env.ok(["kill"]);
    let left: Vec<&Proc> = mine.iter().filter(|p| p.alive()).collect();
    assert!(left.is_empty(), "left running: {left:?}");
}
