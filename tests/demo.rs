//! `roost demo`: the whole tour runs, and nothing of it outlives it.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Processes (other than zombies) whose command line mentions `needle`.
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(needle) {
            found.push(format!("{}: {cmdline}", name.to_string_lossy()));
        }
    }
    found
}

#[test]
fn demo_runs_the_tour_and_leaves_nothing_behind() {
    let env = TestEnv::new();
    let out = env.run(["demo"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));

    let first = text.lines().next().unwrap_or_default();
    let sandbox = first
        .strip_prefix("roost demo: a tour in a throwaway sandbox at ")
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
    let sandbox = PathBuf::from(sandbox);
    assert!(
        sandbox.starts_with("/tmp") && sandbox.to_string_lossy().contains("roost-demo-"),
        "{}",
        sandbox.display()
    );

    // The fake agent's recorded reply, fetched with `roost read`.
    assert!(
        text.lines()
            .any(|l| l.starts_with("alice: done. Your prompt had 8 words")),
        "no reply line:\n{text}"
    );
    // The status of the fleet, in the documented format.
    let socket = sandbox.join("roost");
    assert!(
        text.contains(&format!("roost: running (socket={})\n", socket.display())),
        "{text}"
    );
    assert!(
        text.contains("  session main \u{2014} 3 windows\n"),
        "{text}"
    );
    assert!(text.contains("main:1.0 alice  [done]\n"), "{text}");

    assert!(
        !Path::new(&sandbox).exists(),
        "{} is still there",
        sandbox.display()
    );
    let needle = sandbox.to_string_lossy().into_owned();
    let mut left = Vec::new();
    let gone = wait_until(Duration::from_secs(5), || {
        left = processes_mentioning(&needle);
        left.is_empty()
    });
    assert!(gone, "processes outlived the demo:\n{}", left.join("\n"));
    // The demo never touches the test's own server.
    assert!(!env.socket_file().exists());
}

#[test]
fn demo_refuses_arguments() {
    let env = TestEnv::new();
    let out = env.run(["demo", "now"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("roost demo: unexpected argument 'now'\n"),
        "{err}"
    );
}
