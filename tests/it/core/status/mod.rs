//! `roost status` (text and JSON) and `roost session` without a terminal.

mod screen_rules;
mod view;

use crate::common::*;

/// main: the first window, alice (working), bob (no state), both running
/// sleep; work: one window.
fn fleet(env: &TestEnv) -> [String; 4] {
    // The program itself, not a shell line, so the command column reads
    // `sleep` whichever shell /bin/sh is.
    let alice = env
        .ok(["spawn", "alice", "sleep", "100"])
        .trim()
        .to_string();
    let bob = env.ok(["spawn", "bob", "sleep", "100"]).trim().to_string();
    env.tmux_ok(&["set-option", "-p", "-t", &alice, "@agent_state", "working"]);
    let out = env.run(["session", "work"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    let first = env.tmux_ok(&[
        "display-message",
        "-p",
        "-t",
        "=main:0",
        "#{pane_id} #{window_name}",
    ]);
    let work = env.tmux_ok(&[
        "display-message",
        "-p",
        "-t",
        "=work:0",
        "#{pane_id} #{window_name}",
    ]);
    // SHELL=/bin/sh in the test environment: tmux names a shell window `sh`.
    let first = first
        .strip_suffix(" sh\n")
        .expect("first window is named sh")
        .to_string();
    let work = work
        .strip_suffix(" sh\n")
        .expect("work window is named sh")
        .to_string();
    [first, alice, bob, work]
}

// ---- status ----------------------------------------------------------------

#[test]
fn status_without_a_server_says_not_running_and_starts_none() {
    let env = TestEnv::new();
    let out = env.run(["status"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stdout(&out), "roost: not running\n");
    assert_eq!(stderr(&out), "");
    let out = env.run(["status", "--json"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["running"], false);
    assert_eq!(json["version"], 1);
    // Present whether or not a server runs: a reader never tests for it.
    assert_eq!(json["sessions"], serde_json::json!([]));
    assert!(!env.socket_file().exists(), "status started a server");
}

#[test]
fn status_lists_sessions_and_panes_in_the_documented_format() {
    let env = TestEnv::new();
    let [first, alice, bob, work] = fleet(&env);
    let out = env.run(["status"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    let dash = status_dash();
    let expected = format!(
        "roost: running (socket={})\n\
         \x20 session main {dash} 3 windows\n\
         \x20   {first}  main:0.0  sh     sh     [-]\n\
         \x20   {alice}  main:1.0  alice  sleep  [working]\n\
         \x20   {bob}  main:2.0  bob    sleep  [-]\n\
         \x20 session work {dash} 1 window\n\
         \x20   {work}  work:0.0  sh     sh     [-]\n",
        env.socket
    );
    assert_eq!(stdout(&out), expected);
}

#[test]
fn status_json_carries_the_same_facts() {
    let env = TestEnv::new();
    let [first, alice, bob, work] = fleet(&env);
    let out = env.run(["status", "--json"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["running"], true);
    assert_eq!(json["version"], 1);
    assert_eq!(json["socket"], env.socket.as_str());
    let sessions = json["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    let facts = |s: &serde_json::Value| {
        let panes: Vec<(String, String, String, serde_json::Value)> = s["panes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["id"].as_str().unwrap().to_string(),
                    p["target"].as_str().unwrap().to_string(),
                    p["window"].as_str().unwrap().to_string(),
                    p["state"].clone(),
                )
            })
            .collect();
        (
            s["name"].as_str().unwrap().to_string(),
            s["windows"].as_u64().unwrap(),
            s["attached"].as_bool().unwrap(),
            panes,
        )
    };
    let none = serde_json::Value::Null;
    let p = |id: &str,
             t: &str,
             w: &str,
             s: serde_json::Value|
     -> (String, String, String, serde_json::Value) {
        (id.to_string(), t.to_string(), w.to_string(), s)
    };
    assert_eq!(
        facts(&sessions[0]),
        (
            "main".to_string(),
            3,
            false,
            vec![
                p(&first, "main:0.0", "sh", none.clone()),
                p(&alice, "main:1.0", "alice", "working".into()),
                p(&bob, "main:2.0", "bob", none.clone()),
            ]
        )
    );
    assert_eq!(
        facts(&sessions[1]),
        (
            "work".to_string(),
            1,
            false,
            vec![p(&work, "work:0.0", "sh", none)]
        )
    );
}
