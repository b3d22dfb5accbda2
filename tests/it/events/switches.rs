//! The switches that stop extension commands stop handlers too, and a
//! skipped moment is logged with why; so is one too deep in handlers.

use crate::common::events::*;
use crate::common::*;
use std::time::Duration;

fn skipped(env: &TestEnv, name: &str) -> String {
    let log = log_of(env, name, 1, 10);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(runs(env, name).is_empty(), "the handler ran");
    log[0]["outcome"].as_str().unwrap().to_string()
}

fn stamp_in_a_pane(env: &TestEnv, prefix: &str) {
    let pane = env.spawn(
        "w",
        &format!("{prefix} roost state done; echo stamped; sleep 100"),
    );
    env.wait_for_screen(&pane, "stamped");
    std::thread::sleep(Duration::from_millis(500));
}

#[test]
fn roost_no_ext_skips_and_logs() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    stamp_in_a_pane(&env, "ROOST_NO_EXT=1");
    assert_eq!(skipped(&env, "note"), "skipped: ROOST_NO_EXT is set");
}

#[test]
fn the_server_switch_skips_and_logs() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    env.spawn("keep", "sleep 1000");
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    stamp_in_a_pane(&env, "");
    assert!(skipped(&env, "note").contains("switched off"));
}

#[test]
fn a_disabled_extension_skips_and_logs() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    set_on(&env, "note", false);
    stamp_in_a_pane(&env, "");
    assert_eq!(skipped(&env, "note"), "skipped: note is disabled");
}

#[test]
fn a_moment_too_deep_in_handlers_is_skipped() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    stamp_in_a_pane(&env, "ROOST_EVENT_DEPTH=3");
    assert!(skipped(&env, "note").starts_with("skipped: depth 4"));
}
