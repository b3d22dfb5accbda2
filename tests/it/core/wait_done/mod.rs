//! `roost wait-done`: done, idle, an error, a timeout, a target that goes
//! away or never was.

mod waiting;

use crate::common::*;

use std::process::Stdio;
use std::time::Duration;

// ---- wait-done ---------------------------------------------------------------

#[test]
fn wait_done_returns_0_when_the_target_says_done() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 0.5; roost state done; sleep 100");
    let out = env.run(["wait-done", "alice", "10"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
}

#[test]
fn wait_done_returns_0_when_the_target_is_idle() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "idle"]);
    let out = env.run(["wait-done", &pane, "5"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
}

#[test]
fn wait_done_returns_1_when_the_target_reports_an_error() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "error"]);
    let out = env.run(["wait-done", "alice", "5"]);
    assert_refusal(&out, Exit::Failed, "roost wait-done: 'alice' ");
    assert_eq!(
        stderr(&out),
        format!("roost wait-done: 'alice' ({pane}) reported an error\n")
    );
}

/// The error an agent's hooks keep as its reply is named on wait-done's
/// line (its first line, neutralised), and where to read all of it.
#[test]
fn wait_done_on_an_error_names_the_last_reply() {
    let env = TestEnv::new();
    let reply = "\nAPI Error: 400 \u{1b}[2Jbad request\nmore detail";
    let pane = env.spawn_replying("alice", reply);
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "error"]);
    let out = env.run(["wait-done", "alice", "5"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost wait-done: 'alice' ({pane}) reported an error; its last reply: API Error: 400 \\x1b[2Jbad request\n\
             roost read {pane} shows all of it\n"
        )
    );
}

#[test]
fn wait_done_returns_1_on_timeout() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
    let started = std::time::Instant::now();
    let out = env.run(["wait-done", "alice", "1"]);
    assert_refusal(&out, Exit::Failed, "roost wait-done: 'alice' ");
    assert!(stderr(&out).contains("working"), "{}", describe(&out));
    assert!(started.elapsed() >= Duration::from_secs(1));
}

#[test]
fn wait_done_returns_2_when_the_target_goes_away() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    let waiter = env
        .roost(["wait-done", "alice", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    env.tmux_ok(&["kill-window", "-t", &pane]);
    let out = waiter.wait_with_output().unwrap();
    assert_refusal(&out, Exit::NoTarget, "roost wait-done: 'alice' ");
}

#[test]
fn wait_done_returns_2_for_a_missing_target() {
    let env = TestEnv::new();
    assert_refusal(
        &env.run(["wait-done", "alice", "1"]),
        Exit::NoTarget,
        "roost wait-done: no such target",
    );
    env.spawn("bob", "sleep 100");
    assert_refusal(
        &env.run(["wait-done", "alice", "1"]),
        Exit::NoTarget,
        "roost wait-done: no such target 'alice'",
    );
}
