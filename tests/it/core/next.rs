//! `roost next` names the agent waiting for a person, its names shown
//! escaped.

use crate::common::*;

#[test]
fn next_finds_the_blocked_agent() {
    let env = TestEnv::new();
    let a = env.spawn("a", "sleep 100000");
    let b = env.spawn("b", "sleep 100000");
    let out = env.run(["next"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    env.tmux_ok(&["set-option", "-p", "-t", &b, "@agent_state", "blocked"]);
    env.tmux_ok(&["set-option", "-p", "-t", &a, "@agent_state", "done"]);
    let next = env.ok(["next"]);
    assert!(next.starts_with(&format!("{b} ")), "{next}");
}

/// A pane renames its window and its session with a direction control and
/// stamps itself blocked: `next` shows the names escaped.
#[test]
fn next_prints_a_hostile_window_and_session_name_escaped() {
    let env = TestEnv::new();
    let a = env.spawn("a", "sleep 100000");
    // tmux 3.8 refuses an ESC in a name; the direction control it takes.
    if !env
        .tmux(&["rename-window", "-t", &a, "alice\u{202e}live\u{1b}[2J"])
        .status
        .success()
    {
        env.tmux_ok(&["rename-window", "-t", &a, "alice\u{202e}live"]);
    }
    env.tmux_ok(&["rename-session", "-t", &a, "main\u{202e}x"]);
    env.tmux_ok(&["set-option", "-p", "-t", &a, "@agent_state", "blocked"]);
    let next = env.ok(["next"]);
    assert!(!next.contains(['\u{202e}', '\u{1b}']), "{next:?}");
    // (tmux itself shows the ESC in a name as the text \033.)
    assert!(next.contains("alice\\u{202e}live"), "{next}");
    assert!(next.contains("main\\u{202e}x:"), "{next}");
}
