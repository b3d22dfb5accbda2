//! What events cost an agent's hook: one tmux client per `roost hook` and
//! `roost state`, with or without subscribers, and no wait for a handler.

use crate::common::events::*;
use crate::common::*;
use std::time::{Duration, Instant};

/// A `tmux` first on PATH that logs each start, then runs the real one.
fn counting_tmux(env: &TestEnv) -> (std::path::PathBuf, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let real = String::from_utf8(
        std::process::Command::new("sh")
            .args(["-c", "command -v tmux"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let dir = env.path("counting");
    std::fs::create_dir_all(&dir).unwrap();
    let calls = env.path("tmux-calls");
    let wrapper = dir.join("tmux");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            calls.display(),
            real.trim()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    (dir, calls)
}

#[test]
fn a_hook_and_a_stamp_are_one_tmux_call_with_or_without_subscribers() {
    let env = TestEnv::new();
    let (dir, calls) = counting_tmux(&env);
    let stop = env.write(
        "stop.json",
        r#"{"hook_event_name":"Stop","session_id":"s1","last_assistant_message":"ACK"}"#,
    );
    let script = format!(
        "PATH='{}':$PATH; export PATH; roost hook claude Stop < '{}'; roost state working; echo done-$?; sleep 100",
        dir.display(),
        stop.display()
    );
    let pane = env.spawn("a", &script);
    env.wait_for_screen(&pane, "done-0");
    let without = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(without.lines().count(), 2, "{without}");
    std::fs::remove_file(&calls).unwrap();
    subscribed(
        &env,
        "note",
        &["agent.done", "agent.working"],
        &recording_handler(""),
        &[],
        10,
    );
    let pane = env.spawn("b", &script);
    env.wait_for_screen(&pane, "done-0");
    let with = std::fs::read_to_string(&calls).unwrap();
    assert_eq!(with.lines().count(), 2, "{with}");
    assert!(wait_until(Duration::from_secs(10), || runs(&env, "note")
        .len()
        >= 2));
}

#[test]
fn the_hook_returns_while_a_slow_handler_still_runs() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "slow",
        &["agent.done"],
        &recording_handler("sleep 5"),
        &[],
        10,
    );
    let stop = env.write("stop.json", r#"{"hook_event_name":"Stop"}"#);
    let pane = env.spawn(
        "a",
        &format!(
            "a=$(date +%s%N); roost hook claude Stop < '{}'; b=$(date +%s%N); \
             echo took-$(( (b - a) / 1000000 ))-ms; sleep 100",
            stop.display()
        ),
    );
    let screen = env.wait_for_screen(&pane, "-ms");
    let took: u64 = screen
        .split("took-")
        .nth(1)
        .and_then(|r| r.split('-').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(wait_until(Duration::from_secs(10), || !runs(&env, "slow").is_empty()));
    // The handler has started and sleeps 5 s: the hook was long back.
    let started = Instant::now();
    assert!(took < 2500, "the hook took {took} ms");
    assert!(log(&env, "slow").is_empty(), "the handler is still running");
    assert!(wait_until(Duration::from_secs(15), || log(&env, "slow")
        .len()
        == 1));
    assert!(started.elapsed() > Duration::from_secs(2));
}

#[test]
fn a_new_session_id_is_recorded_for_resume_by_the_server_not_the_hook() {
    let env = TestEnv::new();
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("claude");
    std::fs::write(&fake, "#!/bin/sh\nexec sleep 100000\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = env
        .roost(["spawn", "alice", "claude"])
        .env("PATH", &path)
        .output()
        .unwrap();
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let start = r#"{"session_id":"5f0e-aa","hook_event_name":"SessionStart"}"#;
    assert!(
        crate::core::hook_in(&env, &pane, &["claude", "SessionStart"], start)
            .status
            .success()
    );
    let roster =
        || std::fs::read_to_string(env.path("state/roost/agents.json")).unwrap_or_default();
    assert!(
        wait_until(Duration::from_secs(10), || roster().contains("5f0e-aa")),
        "{}",
        roster()
    );
}
