//! Events declared in a manifest and consented to at install: the real
//! `roost ext install` of the example extension (share/examples/roost-notify)
//! writes ext.events, and a pane's change of state runs its handler.

use crate::common::ext::{clone_dir, lock, state_dir};
use crate::common::Fixture;
use crate::common::*;
use std::time::Duration;

/// The example extension, committed to a bare repository `o/roost-notify`.
pub fn notify_repo(env: &TestEnv) -> Fixture {
    crate::ext::config::notify_repo(env, "o/roost-notify")
}

/// The example installed as a script does it: `--yes --grant events`.
fn notify_installed(env: &TestEnv) {
    notify_repo(env);
    let out = env.run([
        "ext",
        "install",
        "o/roost-notify",
        "--yes",
        "--grant",
        "events",
    ]);
    assert!(out.status.success(), "{}", describe(&out));
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
    notify_installed(&env);
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
    let log = env.path("state/roost/events/notify/log");
    assert!(wait_until(Duration::from_secs(10), || log.exists()));
    let out = env.run(["ext", "list"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let row = text.lines().find(|l| l.starts_with("notify ")).unwrap();
    assert!(
        row.ends_with(&format!(" agent.done {pane} exit 0)")) && row.contains("(last event: "),
        "{text}"
    );
    let out = env.run(["ext", "info", "notify"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let at = text.find("last events (oldest first):\n").expect(&text);
    assert!(
        text[at..]
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(&format!(" agent.done {pane} exit 0")),
        "{text}"
    );
}

#[test]
fn disable_and_remove_stop_handlers_and_purge_deletes_the_log() {
    let env = TestEnv::new();
    notify_installed(&env);
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
    let log_dir = env.path("state/roost/events/notify");
    let pane = env.spawn("v", "roost state done; echo stamped; sleep 100");
    env.wait_for_screen(&pane, "stamped");
    assert!(wait_until(Duration::from_secs(10), || log_dir
        .join("log")
        .exists()));
    let out = env.run(["ext", "remove", "notify"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(!events_file(&env).exists());
    assert!(
        log_dir.join("log").exists(),
        "a plain remove keeps the run log"
    );
    let out = env.run(["ext", "remove", "notify", "--purge"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(!log_dir.exists(), "--purge deletes the run log and queue");
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

#[test]
fn the_consent_block_says_the_code_runs_on_its_own_and_when() {
    let env = TestEnv::new();
    let f = env.ext_repo("o/roost-notify");
    f.write(
        "roost-ext.json",
        r#"{"name":"notify","contract":1,"needs":["events"],
            "events":{"on":["agent.done","agent.blocked"],"timeout":5}}"#,
    );
    f.exec("bin/roost-events", "#!/bin/sh\n");
    f.commit("first");
    let out = env.run([
        "ext",
        "install",
        "o/roost-notify",
        "--yes",
        "--grant",
        "events",
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("  claims    no commands\n"), "{text}");
    let want = "\nThis extension asks to run code on its own. If you install it, its
bin/roost-events runs without you typing anything, each time one of
these happens, for at most 5 s each time:
  agent.done, agent.blocked
";
    assert!(text.contains(want), "{text}");
    assert!(
        text.contains("\nNothing runs during install. Code runs on the moments above.\n"),
        "{text}"
    );
    assert!(!text.contains("With fleet"), "{text}");
}

#[test]
fn with_fleet_the_block_says_what_running_on_its_own_adds() {
    let env = TestEnv::new();
    let f = env.ext_repo("o/watch");
    f.write(
        "roost-ext.json",
        r#"{"name":"watch","contract":1,"needs":["fleet","events"],"commands":["watch"],
            "events":{"on":["agent.blocked"]}}"#,
    );
    f.exec("bin/roost-watch", "#!/bin/sh\n");
    f.exec("bin/roost-events", "#!/bin/sh\n");
    f.commit("first");
    let out = env.run(["ext", "install", "o/watch", "--yes", "--grant", "fleet"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let out = env.run([
        "ext", "install", "o/watch", "--yes", "--grant", "fleet", "--grant", "events",
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let want = "  agent.blocked
With fleet as well, code that runs on its own can read any pane's
screen and send prompts to any agent while nobody is watching.
";
    assert!(text.contains(want), "{text}");
    assert!(
        text.contains(
            "\nNothing runs during install. Code runs when you type those commands,\nand on the moments above.\n"
        ),
        "{text}"
    );
}

#[test]
fn an_unknown_event_and_an_extension_with_neither_are_refused() {
    let env = TestEnv::new();
    let f = env.ext_repo("o/odd");
    f.write(
        "roost-ext.json",
        r#"{"name":"odd","contract":1,"needs":["events"],"events":{"on":["agent.finished"]}}"#,
    );
    f.exec("bin/roost-events", "#!/bin/sh\n");
    f.commit("first");
    let out = env.run(["ext", "install", "o/odd", "--yes", "--grant", "events"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown event \"agent.finished\""), "{err}");
    f.write("roost-ext.json", r#"{"name":"odd","contract":1}"#);
    f.commit("second");
    let out = env.run(["ext", "install", "o/odd", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("field \"commands\" is required (or \"events\""),
        "{err}"
    );
    assert!(!events_file(&env).exists());
    assert!(!clone_dir(&env, "odd").exists());
}

#[test]
fn an_entry_recorded_before_events_runs_nothing_until_update_asks() {
    let env = TestEnv::new();
    notify_installed(&env);
    // As the previous roost wrote it: no events in the entry, no ext.events.
    crate::common::ext::edit_lock(&env, |l| {
        l["notify"].as_object_mut().unwrap().remove("events");
    });
    std::fs::remove_file(events_file(&env)).unwrap();
    for verb in ["disable", "enable"] {
        let out = env.run(["ext", verb, "notify"]);
        assert!(out.status.success(), "{}", describe(&out));
    }
    assert!(!events_file(&env).exists(), "a handler never agreed to");
    let pane = env.spawn("w", "roost state done; echo stamped; sleep 100");
    env.wait_for_screen(&pane, "stamped");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(notifications(&env), "");
    let out = env.run(["ext", "list"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "roost ext list: note: notify declares events (agent.done, agent.blocked); \
         its events were never agreed to, so none of its handlers runs; \
         `roost ext update notify` shows them and asks\n"
    );
    let out = env.run(["doctor"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.contains("extension notify: declares events (agent.done, agent.blocked); its events were never agreed to"),
        "{text}"
    );
    // The commit has not moved: update shows the events and asks all the same.
    let out = env.run(["ext", "update", "notify", "--yes"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("events: now also runs on its own on agent.done, agent.blocked\n"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("--grant events"));
    assert!(!events_file(&env).exists());
    let out = env.run(["ext", "update", "notify", "--yes", "--grant", "events"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(std::fs::read_to_string(events_file(&env))
        .unwrap()
        .starts_with("notify\t"));
    let out = env.run(["ext", "list"]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let pane = env.spawn("v", "roost state done; echo stamped; sleep 100");
    env.wait_for_screen(&pane, "stamped");
    assert!(
        wait_until(Duration::from_secs(10), || !notifications(&env).is_empty()),
        "no handler ran after the update"
    );
}

#[test]
fn ext_check_holds_the_declaration_and_its_handler() {
    let env = TestEnv::new();
    let dir = env.path("authors/notify");
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::write(
        dir.join("roost-ext.json"),
        r#"{"name":"notify","contract":1,"needs":["events"],"events":{"on":["agent.done"]}}"#,
    )
    .unwrap();
    let out = crate::common::ext::check(&env, &dir, false);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("events: bin/roost-events is missing"), "{err}");
    std::fs::write(
        dir.join("roost-ext.json"),
        r#"{"name":"notify","contract":1,"needs":["events"],"events":{"on":["agent.gone"]}}"#,
    )
    .unwrap();
    let out = crate::common::ext::check(&env, &dir, false);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown event \"agent.gone\""), "{err}");
}

/// The example as a user sets it up: a notify command (here a script
/// that appends its arguments to a file), the level deciding which
/// moments reach it, the token read from stdin and never shown.
#[test]
fn the_example_calls_its_notify_command_for_the_moments_its_level_takes() {
    let env = TestEnv::new();
    notify_installed(&env);
    let called = env.path("called");
    let script = env.write(
        "bin/say",
        &format!("#!/bin/sh\necho \"$*\" >> {}\n", called.display()),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    env.ok([
        "ext".as_ref(),
        "config".as_ref(),
        "notify".as_ref(),
        "notify_command".as_ref(),
        script.as_os_str(),
    ]);
    let out =
        crate::ext::config::with_stdin(&env, &["ext", "config", "notify", "token"], b"tok-1\n");
    assert!(out.status.success(), "{}", describe(&out));
    // level is blocked by default: done is noted, only blocked is told.
    let pane = env.spawn(
        "w",
        "roost state done; roost state blocked; echo stamped; sleep 100",
    );
    env.wait_for_screen(&pane, "stamped");
    assert!(wait_until(Duration::from_secs(10), || {
        notifications(&env).lines().count() == 2
    }));
    assert!(wait_until(Duration::from_secs(10), || called.exists()));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        std::fs::read_to_string(&called).unwrap(),
        format!("agent.blocked {pane}\n")
    );
    // level all: done too.
    env.ok(["ext", "config", "notify", "level", "all"]);
    let other = env.spawn("v", "roost state done; echo stamped; sleep 100");
    env.wait_for_screen(&other, "stamped");
    assert!(wait_until(Duration::from_secs(10), || {
        std::fs::read_to_string(&called)
            .unwrap_or_default()
            .contains(&format!("agent.done {other}\n"))
    }));
    let log = env.ok(["ext", "log", "notify", "--json"]);
    assert!(!log.contains("tok-1"), "{log}");
}
