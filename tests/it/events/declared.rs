//! Events declared in a manifest and consented to at install: the real
//! `roost ext install` of the example extension (share/examples/roost-notify)
//! writes ext.events, and a pane's change of state runs its handler.

use crate::common::ext::{clone_dir, lock, state_dir};
use crate::common::Fixture;
use crate::common::*;
use std::time::Duration;

/// The example extension, committed to a bare repository `o/roost-notify`.
pub fn notify_repo(env: &TestEnv) -> Fixture {
    let f = env.ext_repo("o/roost-notify");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("share/examples/roost-notify");
    f.write(
        "roost-ext.json",
        &std::fs::read_to_string(root.join("roost-ext.json")).unwrap(),
    );
    f.exec(
        "bin/roost-events",
        &std::fs::read_to_string(root.join("bin/roost-events")).unwrap(),
    );
    f.commit("first");
    f
}

fn notifications(env: &TestEnv) -> String {
    std::fs::read_to_string(state_dir(env, "notify").join("notifications")).unwrap_or_default()
}

fn events_file(env: &TestEnv) -> std::path::PathBuf {
    env.path("state/roost/ext.events")
}

#[test]
fn an_installed_events_extension_runs_its_handler_on_a_state_change() {
    let env = TestEnv::new();
    notify_repo(&env);
    let out = env.run([
        "ext",
        "install",
        "o/roost-notify",
        "--yes",
        "--grant",
        "events",
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let entry = &lock(&env)["notify"];
    assert_eq!(
        entry["events"],
        serde_json::json!({"on": ["agent.done", "agent.blocked"], "timeout": 5})
    );
    let commit = entry["commit"].as_str().unwrap().to_string();
    let program = clone_dir(&env, "notify").join("bin/roost-events");
    assert_eq!(
        std::fs::read_to_string(events_file(&env)).unwrap(),
        format!(
            "notify\t{}\t5\tagent.done,agent.blocked\tevents\t{commit}\ton\n",
            program.display()
        )
    );
    let pane = env.spawn(
        "w",
        "roost state working; roost state done; echo stamped; sleep 100",
    );
    env.wait_for_screen(&pane, "stamped");
    assert!(
        wait_until(Duration::from_secs(10), || !notifications(&env).is_empty()),
        "no handler ran"
    );
    assert_eq!(notifications(&env), format!("agent.done {pane}\n"));
}

#[test]
fn disable_and_remove_stop_handlers_and_purge_deletes_the_log() {
    let env = TestEnv::new();
    notify_repo(&env);
    let out = env.run([
        "ext",
        "install",
        "o/roost-notify",
        "--yes",
        "--grant",
        "events",
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let out = env.run(["ext", "disable", "notify"]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = std::fs::read_to_string(events_file(&env)).unwrap();
    assert!(text.ends_with("\toff\n"), "{text}");
    let pane = env.spawn("w", "roost state done; echo stamped; sleep 100");
    env.wait_for_screen(&pane, "stamped");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(notifications(&env), "");
    let out = env.run(["ext", "enable", "notify"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(std::fs::read_to_string(events_file(&env))
        .unwrap()
        .ends_with("\ton\n"));
    let out = env.run(["ext", "remove", "notify"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(!events_file(&env).exists());
}

#[test]
fn yes_without_grant_events_is_refused_and_installs_nothing() {
    let env = TestEnv::new();
    notify_repo(&env);
    let out = env.run(["ext", "install", "o/roost-notify", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--grant events"), "{err}");
    assert!(!events_file(&env).exists());
    assert!(!clone_dir(&env, "notify").exists());
}
