//! `roost demo`: the whole tour runs, and nothing of it outlives it.

use crate::common::*;

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
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
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
        text.contains(&format!("  session main {} 3 windows\n", status_dash())),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains("  main:1.0  alice  ") && l.ends_with("  [done]")),
        "{text}"
    );

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
fn demo_installs_runs_verifies_and_removes_the_example_extension() {
    let env = TestEnv::new();
    let out = env.run(["demo"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let text = String::from_utf8(out.stdout).unwrap();
    let sandbox = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("roost demo: a tour in a throwaway sandbox at "))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("no sandbox line in\n{text}"));
    let state = sandbox.join("state/roost/ext/tally");

    // Installed through the real path: a file:// repository, the consent
    // block, --yes answering the question.
    let block = format!(
        "$ roost ext install demo/roost-tally --yes --grant fleet\n\
         \x20 repo      file://{}/remote/demo/roost-tally\n\
         \x20 ref       HEAD\n",
        sandbox.display()
    );
    assert!(text.contains(&block), "want {block:?} in\n{text}");
    for line in [
        "  claims    roost tally",
        "  about     Counts your agents by state",
        "This extension asks to drive your agents. If you install it, the code",
        "Install? [y/N] yes (--yes)",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "no line {line:?} in\n{text}"
        );
    }
    let installed = text
        .lines()
        .find(|l| l.starts_with("installed tally at "))
        .unwrap_or_else(|| panic!("no install line in\n{text}"));
    let commit = &installed["installed tally at ".len()..][..40];
    assert!(commit.bytes().all(|b| b.is_ascii_hexdigit()), "{installed}");
    assert_eq!(
        installed,
        format!("installed tally at {commit}: roost tally")
    );
    assert!(
        text.contains(&format!("  commit    {commit} (pinned)\n")),
        "{text}"
    );

    // Its output: alice done, bob idle, the main window's shell unstamped.
    let ran = "$ roost tally\n   1  done\n   1  idle\n   1  no state\n";
    assert!(text.contains(ran), "want {ran:?} in\n{text}");
    let listed = format!(
        "$ roost ext list\nNAME   PINNED   COMMANDS\ntally  {}  tally\n$ roost ext verify\ntally: ok\n",
        &commit[..7]
    );
    assert!(text.contains(&listed), "want {listed:?} in\n{text}");
    let removed = format!(
        "$ roost ext remove tally --purge\nremoved tally\ndeleted its data: {}\n",
        state.display()
    );
    assert!(text.contains(&removed), "want {removed:?} in\n{text}");

    assert!(!sandbox.exists(), "{} is still there", sandbox.display());
    // Nothing of it reached the test's own places.
    assert!(!env.path("state/roost").exists());
    assert!(!env.path("data/roost").exists());
    assert!(!env.socket_file().exists());
}

#[test]
fn demo_refuses_arguments() {
    let env = TestEnv::new();
    let out = env.run(["demo", "now"]);
    let err = quiet(&out, Exit::Usage);
    assert!(
        err.starts_with("roost demo: unexpected argument 'now'\n"),
        "{err}"
    );
}

/// The real PATH less every directory that holds a `roost`.
fn path_without_roost() -> std::ffi::OsString {
    let real = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&real)
        .filter(|d| !d.join("roost").exists())
        .collect();
    std::env::join_paths(dirs).unwrap()
}

fn last_line(out: &std::process::Output) -> String {
    assert_eq!(exit_of(out), Exit::Ok, "{}", describe(out));
    stdout(out).lines().last().unwrap_or_default().to_string()
}

/// The tour's last line says what starts your own fleet from where you
/// are: `roost` only when that is this binary; else this binary by its
/// path, and how to put roost on PATH (the tour was run with `cargo run`).
#[test]
fn the_demo_ends_with_a_next_step_that_works_from_where_it_ran() {
    let env = TestEnv::new();
    let exe = std::fs::canonicalize(ROOST).unwrap();
    let exe = exe.to_str().unwrap();
    assert!(!exe.contains(['\'', ' ']), "{exe}");
    let out = env
        .roost(["demo"])
        .env("PATH", path_without_roost())
        .output()
        .unwrap();
    assert_eq!(
        last_line(&out),
        format!(
            "The sandbox and its server are gone. Next: `{exe}` starts your own fleet \
             (roost is not on your PATH yet: from roost's source tree, \
             cargo install --locked --path . puts it on your PATH)."
        )
    );
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(ROOST, bin.join("roost")).unwrap();
    let mut path = std::ffi::OsString::from(&bin);
    path.push(":");
    path.push(path_without_roost());
    let out = env.roost(["demo"]).env("PATH", path).output().unwrap();
    assert_eq!(
        last_line(&out),
        "The sandbox and its server are gone. Next: `roost` starts your own fleet."
    );
}

/// Without tmux the tour says so and nothing else: no banner, no step.
#[test]
fn without_tmux_the_demo_says_so_before_it_starts() {
    let env = TestEnv::new();
    let bin = env.path("only-sh");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", bin.join("sh")).unwrap();
    let out = env.roost(["demo"]).env("PATH", &bin).output().unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "roost demo: tmux is not installed (not found on PATH); roost runs its fleet in tmux 3.0 \
         or later: install it (apt-get install tmux, dnf install tmux, brew install tmux)\n"
    );
}
