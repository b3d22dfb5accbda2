//! `roost ext log`: the run log of event handlers, last N, failed only,
//! as JSON, neutralised on the way to a terminal; `ext enable` resumes a
//! paused handler.

use crate::common::events::*;
use crate::common::*;

fn fire(env: &TestEnv) {
    assert!(env
        .roost(["__event", "fire", "agent.done"])
        .status()
        .unwrap()
        .success());
}

#[test]
fn the_log_shows_runs_failed_ones_and_json_and_neutralises_output() {
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(
            "printf 'out \\033]0;title\\007\\n'; [ \"$ROOST_EVENT_SEQ\" = 2 ] && exit 4; exit 0",
        ),
        &[],
        10,
    );
    for _ in 0..3 {
        fire(&env);
    }
    let all = env.ok(["ext", "log", "note"]);
    let lines: Vec<&str> = all.lines().filter(|l| !l.starts_with("  |")).collect();
    assert_eq!(lines.len(), 3, "{all}");
    assert!(lines[1].contains(" note agent.done - exit 4 "), "{all}");
    assert!(
        !all.contains('\x1b'),
        "the handler's escape reached the terminal: {all:?}"
    );
    assert!(all.contains("  | out "), "{all}");
    let failed = env.ok(["ext", "log", "--failed"]);
    assert_eq!(
        failed.lines().filter(|l| !l.starts_with("  |")).count(),
        1,
        "{failed}"
    );
    let last = env.ok(["ext", "log", "note", "-n", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(last.trim()).unwrap();
    assert_eq!(v["name"], "note");
    assert_eq!(v["seq"], 3);
    assert_eq!(v["outcome"], "exit 0");
    let out = env.run(["ext", "log", "nope"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such extension: nope"));
}

#[test]
fn enable_resumes_a_paused_handler() {
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "bad",
        &["agent.done"],
        &recording_handler("exit 1"),
        &[],
        10,
    );
    for _ in 0..5 {
        fire(&env);
    }
    fire(&env);
    assert!(log(&env, "bad").last().unwrap()["outcome"]
        .as_str()
        .unwrap()
        .starts_with("skipped: paused"));
    let out = env.ok(["ext", "enable", "bad"]);
    assert!(out.contains("resumed bad's event handler"), "{out}");
    fire(&env);
    assert_eq!(log(&env, "bad").last().unwrap()["outcome"], "exit 1");
}

/// `--follow` prints what is there, then each run as it is logged, until
/// it is stopped.
#[test]
fn follow_prints_each_new_run_as_it_is_logged() {
    use std::io::{BufRead, BufReader};
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    fire(&env);
    let mut child = env
        .roost(["ext", "log", "note", "--follow", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                return;
            }
        }
    });
    let next = || rx.recv_timeout(std::time::Duration::from_secs(15)).ok();
    let parse = |line: String| -> serde_json::Value {
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    };
    let first = parse(next().expect("the run already logged"));
    assert_eq!(first["seq"], 1);
    fire(&env);
    let second = parse(next().expect("the new run"));
    assert_eq!(second["seq"], 2);
    assert_eq!(second["outcome"], "exit 0");
    assert!(
        child.try_wait().unwrap().is_none(),
        "--follow ended by itself"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}
