//! The moments roost's commands and tmux's hooks know: a spawn, a kill, a
//! delivery, a program's end with its status, the server's start and end.

use crate::common::events::*;
use crate::common::*;
use std::time::Duration;

fn events_of(env: &TestEnv, name: &str) -> Vec<Vec<String>> {
    runs(env, name)
        .iter()
        .map(|r| r.split('|').map(String::from).collect())
        .collect()
}

fn wait_for(env: &TestEnv, name: &str, event: &str) -> Vec<String> {
    assert!(
        wait_until(Duration::from_secs(10), || events_of(env, name)
            .iter()
            .any(|r| r[0] == event)),
        "{event} never ran: {:?}",
        runs(env, name)
    );
    events_of(env, name)
        .into_iter()
        .find(|r| r[0] == event)
        .unwrap()
}

#[test]
fn spawn_send_kill_and_the_server_s_start_and_end_fire() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &[
            "server.start",
            "agent.spawned",
            "send.delivered",
            "agent.killed",
            "server.stop",
        ],
        &recording_handler(""),
        &[],
        10,
    );
    let pane = env.spawn("worker", "cat");
    wait_for(&env, "note", "server.start");
    let spawned = wait_for(&env, "note", "agent.spawned");
    assert_eq!(spawned[5], "worker");
    env.ok(["send", "worker", "hello there"]);
    let sent = wait_for(&env, "note", "send.delivered");
    assert_eq!(sent[6], "11", "the size, never the text: {sent:?}");
    let seen = std::fs::read_dir(crate::common::ext::state_dir(&env, "note"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect::<String>();
    assert!(!seen.contains("hello there"), "the text reached a handler");
    env.ok(["kill", "worker"]);
    let killed = wait_for(&env, "note", "agent.killed");
    assert_eq!(killed[5], "worker");
    let _ = pane;
    env.ok(["kill", "--all"]);
    wait_for(&env, "note", "server.stop");
}

#[test]
fn a_program_s_end_fires_agent_exited_with_its_status() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.exited"],
        &recording_handler(""),
        &[],
        10,
    );
    env.spawn("keep", "sleep 100");
    env.spawn("short", "exit 7");
    let exited = wait_for(&env, "note", "agent.exited");
    assert_eq!(exited[4], "7", "{exited:?}");
    assert_eq!(exited[5], "short");
}
