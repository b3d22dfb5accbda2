//! roost ext install, update and remove killed with SIGKILL at many points:
//! nothing half-installed is ever dispatchable, state data survives, and the
//! next `roost ext` command cleans up and succeeds, leaving ext.lock and
//! ext.index in agreement. (ROOST_CRASH_TRIALS sets the number of trials.)

use crate::common::*;
use std::process::Stdio;
use std::time::{Duration, Instant};

use roost::testing::Rng;

fn installed(env: &TestEnv) -> bool {
    let lock = std::fs::read_to_string(env.path("state/roost/ext.lock")).unwrap_or_default();
    lock.contains("\"note\"")
}

/// What must hold right after a kill, before anything cleans up.
fn check_after_kill(env: &TestEnv, trial: usize) {
    let index = std::fs::read_to_string(env.path("state/roost/ext.index")).unwrap_or_default();
    for line in index.lines() {
        let path = line.split('\t').nth(2).unwrap();
        // Either the command is dispatchable and its clone is whole (verify
        // ok), or it is not dispatchable at all.
        if std::path::Path::new(path).is_file() {
            let out = env.run(["ext", "verify", "note"]);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.contains("note: ok") || !installed(env),
                "trial {trial}: a dispatchable extension does not match its pin:\n{}",
                describe(&out)
            );
        }
    }
    let kept = env.path("state/roost/ext/note/precious");
    assert_eq!(
        std::fs::read_to_string(&kept).unwrap_or_default(),
        "a year of data",
        "trial {trial}: state data lost"
    );
}

/// What must hold once the next ext command has run.
fn check_recovered(env: &TestEnv, trial: usize) {
    let out = env.run(["ext", "list"]);
    assert!(out.status.success(), "trial {trial}: {}", describe(&out));
    assert!(
        out.stderr.is_empty(),
        "trial {trial}: lock and index disagree after recovery: {}",
        describe(&out)
    );
    let leftovers: Vec<String> = std::fs::read_dir(env.path("data/roost/ext"))
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    assert!(
        leftovers.is_empty(),
        "trial {trial}: leftovers {leftovers:?}"
    );
    if installed(env) {
        let out = env.run(["ext", "verify"]);
        assert!(out.status.success(), "trial {trial}: {}", describe(&out));
        let out = env.run(["note", "x"]);
        assert!(
            out.status.success(),
            "trial {trial}: the installed command does not run: {}",
            describe(&out)
        );
    } else {
        assert!(
            !env.path("data/roost/ext/note").exists(),
            "trial {trial}: an unrecorded clone was left"
        );
    }
}

#[test]
fn killed_ext_commands_leave_nothing_half_done() {
    let trials: usize = std::env::var("ROOST_CRASH_TRIALS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(100);
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.write("state/roost/ext/note/precious", "a year of data");
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // How long an uninterrupted run takes here bounds the kill delays.
    let start = Instant::now();
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    let span = start.elapsed().as_micros().max(2_000) as u64;
    env.ok(["ext", "remove", "note"]);
    let deadline = Instant::now() + Duration::from_secs(240);
    for trial in 0..trials {
        let args: Vec<&str> = if !installed(&env) {
            vec!["ext", "install", "owner/roost-note", "--yes"]
        } else if rng.draw().is_multiple_of(2) {
            f.exec("bin/roost-note", &format!("#!/bin/sh\necho note {trial}\n"));
            f.commit(&format!("change {trial}"));
            vec!["ext", "update", "note", "--yes"]
        } else {
            vec!["ext", "remove", "note"]
        };
        let mut child = env
            .roost(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.draw() % (span * 12 / 10)));
        let _ = child.kill();
        let _ = child.wait();
        check_after_kill(&env, trial);
        // The next command of any kind recovers: run the same one again.
        let again = env.run(&args);
        let err = String::from_utf8_lossy(&again.stderr);
        assert!(!err.contains("panicked"), "trial {trial}: {err}");
        check_recovered(&env, trial);
        assert!(
            Instant::now() < deadline,
            "trial {trial}: the crash test ran out of time"
        );
    }
}
