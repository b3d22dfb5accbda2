//! `roost kill`: one session, one agent by every target form, the whole
//! server (`down`, `stop`, and only after a yes on a terminal).

use crate::common::*;

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
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
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
        assert_eq!(exit_of(&out), Exit::Ok, "{word}: {}", describe(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{word}: {}",
            describe(&out)
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
        &env.run(["kill", "alice", "--all"]),
        Exit::Usage,
        "roost kill: TARGET cannot be used with --all\n",
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

    let silent = |args: &[&str]| {
        let out = env.run(args);
        assert_eq!(exit_of(&out), Exit::Ok, "{args:?}: {}", describe(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{}",
            describe(&out)
        );
    };
    silent(&["kill", "bob"]);
    assert_eq!(windows(&env, "main"), "sh\nalice\ncarol\ndave\n");
    silent(&["kill", &alice]);
    silent(&["stop", "main:carol"]);
    assert_eq!(windows(&env, "main"), "sh\ndave\n");
    silent(&["down", erin.trim()]);
    assert_eq!(windows(&env, "work"), "sh\n");
    // A pane of a split window: only that pane ends.
    let second = env.tmux_ok(&["split-window", "-d", "-P", "-F", "#{pane_id}", "-t", &dave]);
    silent(&["kill", "main:dave.1"]);
    assert!(!env
        .tmux_ok(&["list-panes", "-a", "-F", "#{pane_id}"])
        .contains(second.trim()));
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
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert!(!env.server_running());
}
