//! How handlers run: killed with their children at the timeout, leaving
//! no daemon behind, queued bounded and in order, extensions side by side,
//! paused after failing, and never given the agent's environment.

use crate::common::events::*;
use crate::common::*;
use std::time::{Duration, Instant};

/// Fires EVENT for the server of `env` as a state change does, from the
/// test (no pane), with the emitter's time `nanos`.
fn fire(env: &TestEnv, event: &str, nanos: u128) -> std::process::Child {
    env.roost(["__event", "fire", event, &format!("--time={nanos}")])
        .spawn()
        .unwrap()
}

fn now() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

#[test]
fn a_handler_past_its_timeout_is_killed_with_its_children_and_logged() {
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "late",
        &["agent.done"],
        &recording_handler("sleep 4321.5 & sleep 4321.5"),
        &[],
        1,
    );
    let started = Instant::now();
    let status = fire(&env, "agent.done", now()).wait().unwrap();
    assert!(status.success());
    assert!(started.elapsed() < Duration::from_secs(8));
    let log = log_of(&env, "late", 1, 5);
    assert_eq!(log[0]["outcome"], "timeout", "{log:?}");
    assert_eq!(log[0]["failed"], true);
    assert!(processes_with("4321.5").is_empty(), "children left running");
}

#[test]
fn a_handler_that_forks_a_daemon_leaves_nothing_behind() {
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "daemon",
        &["agent.done"],
        &recording_handler(
            "setsid sh -c 'sleep 5432.5 & exit 0' </dev/null >/dev/null 2>&1 & echo forked",
        ),
        &[],
        10,
    );
    assert!(fire(&env, "agent.done", now()).wait().unwrap().success());
    let log = log_of(&env, "daemon", 1, 5);
    assert_eq!(log[0]["outcome"], "exit 0", "{log:?}");
    assert_eq!(log[0]["head"], "forked\n");
    assert!(
        processes_with("5432.5").is_empty(),
        "a daemon was left running"
    );
}

#[test]
fn a_burst_stays_bounded_ordered_and_tells_the_drops() {
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "burst",
        &["agent.done"],
        &recording_handler("sleep 0.05"),
        &[],
        10,
    );
    let mut children: Vec<_> = (0..200).map(|_| fire(&env, "agent.done", now())).collect();
    for c in &mut children {
        assert!(c.wait().unwrap().success());
    }
    let runs = runs(&env, "burst");
    let seqs: Vec<u64> = runs
        .iter()
        .map(|r| r.split('|').nth(2).unwrap().parse().unwrap())
        .collect();
    let told: u64 = runs
        .iter()
        .map(|r| r.split('|').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    let log = log(&env, "burst");
    let dropped: u64 = log
        .iter()
        .filter_map(|r| {
            r["outcome"]
                .as_str()?
                .strip_prefix("dropped ")?
                .parse::<u64>()
                .ok()
        })
        .sum();
    assert!(dropped > 0, "a burst of 200 drops some: {runs:?}");
    assert_eq!(
        runs.len() as u64 + dropped,
        200,
        "every moment ran or was dropped"
    );
    assert_eq!(told, dropped, "the handlers were told every drop");
    let mut times: Vec<u128> = Vec::new();
    for seq in &seqs {
        let file = crate::common::ext::state_dir(&env, "burst").join(format!("json.{seq}"));
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
        times.push(json["time_ns"].as_str().unwrap().parse().unwrap());
    }
    let mut sorted = times.clone();
    sorted.sort();
    assert_eq!(times, sorted, "handlers ran in the order of the moments");
}

#[test]
fn two_extensions_run_side_by_side() {
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    let stamp = "date +%s%N > \"$ROOST_EXT_STATE/started\"; sleep 2";
    subscribed(
        &env,
        "one",
        &["agent.done"],
        &recording_handler(stamp),
        &[],
        10,
    );
    subscribed(
        &env,
        "two",
        &["agent.done"],
        &recording_handler(stamp),
        &[],
        10,
    );
    let started = Instant::now();
    assert!(fire(&env, "agent.done", now()).wait().unwrap().success());
    assert!(
        started.elapsed() < Duration::from_millis(3900),
        "one after the other"
    );
    let at = |name: &str| -> i128 {
        std::fs::read_to_string(crate::common::ext::state_dir(&env, name).join("started"))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    assert!((at("one") - at("two")).abs() < 1_500_000_000);
}

#[test]
fn a_handler_that_keeps_failing_is_paused_and_says_so() {
    let env = TestEnv::new();
    env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "bad",
        &["agent.done"],
        &recording_handler("exit 3"),
        &[],
        10,
    );
    for _ in 0..6 {
        assert!(fire(&env, "agent.done", now()).wait().unwrap().success());
    }
    let log = log(&env, "bad");
    let outcomes: Vec<&str> = log.iter().map(|r| r["outcome"].as_str().unwrap()).collect();
    assert_eq!(&outcomes[..5], ["exit 3"; 5], "{outcomes:?}");
    assert_eq!(outcomes[5], "paused after 5 failures in a row");
    assert!(outcomes[6].starts_with("skipped: paused"), "{outcomes:?}");
    assert!(outcomes[6].contains("roost ext enable bad"));
    assert_eq!(runs(&env, "bad").len(), 5);
    let out = env.run(["doctor"]);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("extension bad: its event handler is paused after failing again and again"),
        "{text}"
    );
    assert!(text.contains("roost ext enable bad resumes it"), "{text}");
}

#[test]
fn a_handler_never_sees_the_agent_s_environment() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    let pane = env.spawn(
        "w",
        "FAKE_API_KEY=sk-test-not-a-key; export FAKE_API_KEY; roost state done; echo stamped; sleep 100",
    );
    env.wait_for_screen(&pane, "stamped");
    assert!(wait_until(Duration::from_secs(10), || !runs(&env, "note").is_empty()));
    let seen =
        std::fs::read_to_string(crate::common::ext::state_dir(&env, "note").join("env.1")).unwrap();
    assert!(!seen.contains("sk-test-not-a-key"), "{seen}");
    assert!(!seen.contains("TMUX"), "{seen}");
    assert!(
        !seen.contains("ROOST_SOCKET"),
        "no socket without fleet: {seen}"
    );
    assert!(seen.contains("ROOST_EVENT=agent.done"));
}

/// A handler gets its settings as a command does (the two directories,
/// never a secret's value in its environment), and a secret it prints is
/// masked in the run log.
#[test]
fn a_handler_reads_its_settings_and_no_secret_reaches_its_environment_or_the_log() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler("echo \"token is $(cat \"$ROOST_EXT_SECRETS/token\") ok\""),
        &[],
        10,
    );
    let secrets = env.path("config/roost/ext/note/secrets");
    std::fs::create_dir_all(&secrets).unwrap();
    std::fs::write(secrets.join("token"), "s3cret-value-42").unwrap();
    let pane = env.spawn("w", "roost state done; echo stamped; sleep 100");
    env.wait_for_screen(&pane, "stamped");
    assert!(wait_until(Duration::from_secs(10), || !runs(&env, "note").is_empty()));
    let seen =
        std::fs::read_to_string(crate::common::ext::state_dir(&env, "note").join("env.1")).unwrap();
    assert!(!seen.contains("s3cret-value-42"), "{seen}");
    assert!(
        seen.contains(&format!("ROOST_EXT_SECRETS={}\n", secrets.display())),
        "{seen}"
    );
    assert!(seen.contains("ROOST_EXT_CONFIG="), "{seen}");
    let mut log = String::new();
    assert!(wait_until(Duration::from_secs(10), || {
        log = env.ok(["ext", "log", "note", "--json"]);
        log.contains("token is")
    }));
    assert!(!log.contains("s3cret-value-42"), "{log}");
    assert!(log.contains("token is *** ok"), "{log}");
}
