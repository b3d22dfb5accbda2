//! `roost send`: words joined, a blocked pane, `--force`, and a target
//! that is missing, dead or on no server.

mod delivery;
mod preset;

use crate::common::*;
use crate::core::pane_option;

use std::time::Duration;

// ---- send ----------------------------------------------------------------

#[test]
fn send_joins_several_words_with_spaces() {
    let env = TestEnv::new();
    let pane = env.spawn("cat", "cat");
    let out = env.run(["send", "cat", "hello", "big", "world"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    env.wait_for_screen(&pane, "hello big world\nhello big world");
}

#[test]
fn send_refuses_a_blocked_pane_with_exit_3() {
    let env = TestEnv::new();
    let pane = env.spawn("agent", "cat");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "blocked"]);
    let out = env.run(["send", "agent", "hello"]);
    assert_refusal(&out, Exit::Blocked, "roost send: 'agent' ");
    assert!(stderr(&out).contains("blocked"), "{}", describe(&out));
    std::thread::sleep(Duration::from_millis(200));
    assert!(!env.screen(&pane).contains("hello"), "text was delivered");
    assert_eq!(pane_option(&env, &pane, "@agent_state"), "blocked");
}

#[test]
fn send_force_delivers_to_a_blocked_pane() {
    let env = TestEnv::new();
    let pane = env.spawn("agent", "cat");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "blocked"]);
    let out = env.run(["send", "--force", "agent", "hello"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    env.wait_for_screen(&pane, "hello\nhello");
}

#[test]
fn send_to_a_missing_target_is_exit_2() {
    let env = TestEnv::new();
    env.spawn("alice", "cat");
    for target in ["nope", "%99", "@99", "main:7", "other:alice", "ali"] {
        let out = env.run(["send", target, "hello"]);
        assert_refusal(
            &out,
            Exit::NoTarget,
            &format!("roost send: no such target '{target}'"),
        );
    }
}

#[test]
fn send_without_a_server_is_exit_2_and_starts_none() {
    let env = TestEnv::new();
    let out = env.run(["send", "alice", "hello"]);
    assert_refusal(&out, Exit::NoTarget, "roost send: no such target 'alice'");
    assert!(!env.socket_file().exists(), "send started a server");
}

#[test]
fn send_to_a_dead_pane_is_exit_2() {
    let env = TestEnv::new();
    let pane = env.spawn("gone", "cat");
    env.tmux_ok(&["set-option", "-w", "-t", &pane, "remain-on-exit", "on"]);
    env.tmux_ok(&["send-keys", "-t", &pane, "C-d"]);
    let dead = wait_until(Duration::from_secs(10), || {
        env.tmux_ok(&["display-message", "-p", "-t", &pane, "#{pane_dead}"]) == "1\n"
    });
    assert!(dead, "the pane never died");
    let out = env.run(["send", "gone", "hello"]);
    assert_refusal(&out, Exit::NoTarget, "roost send: 'gone' ");
    assert!(stderr(&out).contains("dead"), "{}", describe(&out));
}

#[test]
fn send_without_text_is_a_usage_error_with_exit_2() {
    let env = TestEnv::new();
    env.spawn("alice", "cat");
    let out = env.run(["send", "alice"]);
    assert_refusal(&out, Exit::Usage, "roost send: missing TEXT\n");
    assert_eq!(
        stderr(&out),
        "roost send: missing TEXT\nusage: roost send [--force] [--when-idle] [--lines] [--paste] [--wait SECONDS] TARGET TEXT...\n"
    );
    assert_refusal(
        &env.run(["send"]),
        Exit::Usage,
        "roost send: missing TARGET and TEXT\n",
    );
    assert_refusal(
        &env.run(["send", "alice", ""]),
        Exit::Usage,
        "roost send: TEXT is empty\n",
    );
    assert_refusal(
        &env.run(["send", "--bogus", "alice", "x"]),
        Exit::Usage,
        "roost send: unknown option '--bogus'\n",
    );
}
