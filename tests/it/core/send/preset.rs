//! `send` to a preset agent's pane honours the preset's `send` fields:
//! `bracketed_paste` false types the text without the paste brackets even
//! where the program asked for them, and `settle_ms` waits before Enter.
//! Against the reader that records every byte (tests/fixtures/paste-reader).

use crate::common::*;

use std::path::PathBuf;
use std::time::{Duration, Instant};

const READER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/paste-reader");

/// Installs the extension `rd` teaching the preset `rd` (the reader under
/// a name on PATH) with `send`, spawns it in window `name` and waits until
/// it reads; returns its pane and its log.
fn preset_reader(env: &TestEnv, send: serde_json::Value) -> (String, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    crate::ext::install::ext_with(
        env,
        "owner/roost-rd",
        serde_json::json!({"name": "rd", "contract": 1, "commands": ["rd-tool"],
        "agents": [{
            "name": "rd", "program": "rd",
            "first_message": {"by": "argument"},
            "resume": ["--resume", "{id}"],
            "state": {"hooks": true},
            "send": send
        }]}),
        &["rd-tool"],
    );
    env.ok(["ext", "install", "owner/roost-rd", "--yes"]);
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("rd");
    std::fs::write(&fake, format!("#!/bin/sh\nexec {READER} \"$@\"\n")).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let log = env.path("rd.log");
    let out = env
        .roost(["spawn", "agent", "rd", log.to_str().unwrap(), "0", "echo"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    env.wait_for_screen(&pane, "ready>");
    (pane, log)
}

fn have_python() -> bool {
    if on_path("python3") {
        return true;
    }
    skip_without("python3 is not installed");
    false
}

#[test]
fn a_preset_without_bracketed_paste_gets_its_text_typed_without_brackets() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (_pane, log) = preset_reader(
        &env,
        serde_json::json!({"bracketed_paste": false, "settle_ms": 0}),
    );
    let out = env.run(["send", "agent", "hello there"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let ok = wait_until(Duration::from_secs(10), || {
        std::fs::read(&log).unwrap_or_default().ends_with(b"\r")
    });
    assert!(ok, "{:?}", std::fs::read(&log));
    // The reader asked for bracketed paste; the preset says not to.
    assert_eq!(
        String::from_utf8_lossy(&std::fs::read(&log).unwrap()),
        "hello there\r"
    );
}

#[test]
fn a_preset_settle_time_passes_between_the_text_and_enter() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (_pane, log) = preset_reader(
        &env,
        serde_json::json!({"bracketed_paste": true, "settle_ms": 2000}),
    );
    let sender = env
        .roost(["send", "agent", "settle please"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let read = || String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
    assert!(
        wait_until(Duration::from_secs(10), || read().contains("\x1b[201~")),
        "{:?}",
        read()
    );
    let typed = Instant::now();
    assert!(
        wait_until(Duration::from_secs(10), || read().ends_with('\r')),
        "{:?}",
        read()
    );
    let waited = typed.elapsed();
    let out = sender.wait_with_output().unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(read(), "\x1b[200~settle please\x1b[201~\r");
    assert!(
        waited >= Duration::from_millis(1900),
        "Enter came {waited:?} after the text"
    );
}
