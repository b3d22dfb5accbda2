//! Each state event fires once per real change of a pane's state, never on
//! a re-stamp, from `roost state` and `roost hook` alike.

use crate::common::events::*;
use crate::common::*;
use std::time::Duration;

#[test]
fn a_state_fires_once_per_real_change_and_never_on_a_re_stamp() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.working", "agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    let pane = env.spawn(
        "w",
        "roost state working; roost state working; roost state done; roost state done; \
         roost state done; echo stamped; sleep 100",
    );
    env.wait_for_screen(&pane, "stamped");
    assert!(wait_until(Duration::from_secs(10), || runs(&env, "note")
        .len()
        >= 2));
    std::thread::sleep(Duration::from_millis(1500));
    let runs = runs(&env, "note");
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert!(runs[0].starts_with("agent.working||1|0|"), "{runs:?}");
    assert!(runs[1].starts_with("agent.done|working|2|0|"), "{runs:?}");
    let log = log(&env, "note");
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(log[1]["outcome"], "exit 0");
    assert_eq!(log[1]["pane"], pane.as_str());
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(state_dir_of(&env, "note").join("json.2")).unwrap())
            .unwrap();
    assert_eq!(json["event"], "agent.done");
    assert_eq!(json["previous"], "working");
    assert_eq!(json["window"], "w");
    assert_eq!(json["pane"], pane.as_str());
}

fn state_dir_of(env: &TestEnv, name: &str) -> std::path::PathBuf {
    crate::common::ext::state_dir(env, name)
}

#[test]
fn an_agent_s_hook_fires_on_a_real_change_only() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.working", "agent.done", "agent.blocked"],
        &recording_handler(""),
        &[],
        10,
    );
    let prompt = env.write(
        "prompt.json",
        r#"{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"hi"}"#,
    );
    let tool = env.write(
        "tool.json",
        r#"{"hook_event_name":"PostToolUse","session_id":"s1"}"#,
    );
    let stop = env.write(
        "stop.json",
        r#"{"hook_event_name":"Stop","session_id":"s1","last_assistant_message":"ACK"}"#,
    );
    let (p, t, s) = (prompt.display(), tool.display(), stop.display());
    let pane = env.spawn(
        "w",
        &format!(
            "roost hook claude < '{p}'; roost hook claude < '{t}'; roost hook claude < '{t}'; \
             roost hook claude < '{s}'; roost hook claude < '{s}'; echo hooked; sleep 100"
        ),
    );
    env.wait_for_screen(&pane, "hooked");
    assert!(wait_until(Duration::from_secs(10), || runs(&env, "note")
        .len()
        >= 2));
    std::thread::sleep(Duration::from_millis(1500));
    let runs = runs(&env, "note");
    let events: Vec<&str> = runs.iter().map(|r| r.split('|').next().unwrap()).collect();
    assert_eq!(events, ["agent.working", "agent.done"], "{runs:?}");
    assert_eq!(
        env.tmux_ok(&["show-options", "-pqv", "-t", &pane, "@roost-reply"])
            .trim(),
        "ACK"
    );
}

/// A reply too long for one tmux message goes with the stamp and the
/// event's start as one sourced file: still one change, one event.
#[test]
fn a_long_reply_goes_in_the_same_one_call_and_fires_once() {
    let env = TestEnv::new();
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    let reply = "the answer, it's long; $HOME #{x} ".repeat(800);
    let payload = serde_json::json!({"hook_event_name": "Stop", "last_assistant_message": reply});
    let stop = env.write("stop.json", &payload.to_string());
    let pane = env.spawn(
        "w",
        &format!(
            "roost hook claude < '{0}'; roost hook claude < '{0}'; echo hooked-$?; sleep 100",
            stop.display()
        ),
    );
    env.wait_for_screen(&pane, "hooked-0");
    assert!(wait_until(Duration::from_secs(10), || !runs(&env, "note").is_empty()));
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(runs(&env, "note").len(), 1, "{:?}", runs(&env, "note"));
    assert_eq!(env.ok(["read", "w"]).trim_end(), reply.trim_end());
}
