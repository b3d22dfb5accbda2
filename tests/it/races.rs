//! Faults and races: `roost ext` commands running at the same time
//! serialise on the store's lock and end with exactly the expected set in
//! ext.lock and ext.index; and disk trouble (an unwritable state directory, a
//! lock file or record that is a directory, a data directory where no
//! temporary clone can be made) is a clear refusal that writes nothing.

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- helpers

const NAMES: [&str; 8] = [
    "alpha", "bravo", "charlie", "delta", "eagle", "falcon", "gamma", "hotel",
];

/// What the temporary and journal files of roost's writers start with: none
/// may be left once every command has ended.
const LEFTOVERS: [&str; 4] = [".fetch-", ".pending-", ".old-", ".roost-tmp"];

fn repo_of(name: &str) -> String {
    format!("owner/roost-{name}")
}

fn spawn(env: &TestEnv, args: &[&str]) -> Child {
    env.roost(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for every child, insisting they all end within `limit` together.
fn wait_all(children: Vec<(String, Child)>, limit: Duration) -> Vec<(String, Output)> {
    let end = Instant::now() + limit;
    let mut children = children;
    for (what, child) in &mut children {
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > end {
                let _ = child.kill();
                panic!("{what} still running after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    children
        .into_iter()
        .map(|(what, child)| (what, child.wait_with_output().unwrap()))
        .collect()
}

fn succeeded(what: &str, out: &Output) {
    assert!(out.status.success(), "{what}: {}", describe(out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{what}: {}", describe(out));
}

/// The names recorded in ext.lock (none when it is missing).
fn recorded(env: &TestEnv) -> BTreeSet<String> {
    match std::fs::read(env.path("state/roost/ext.lock")) {
        Ok(bytes) => {
            let lock: Value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("ext.lock is not JSON ({e}): {bytes:?}"));
            lock.as_object().unwrap().keys().cloned().collect()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeSet::new(),
        Err(e) => panic!("cannot read ext.lock: {e}"),
    }
}

/// Entries of `dir` whose names start with one of LEFTOVERS.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| LEFTOVERS.iter().any(|p| n.starts_with(p)))
                .collect()
        })
        .unwrap_or_default()
}

/// Everything that must hold when the installed set is exactly `expected`
/// and no command runs any more.
fn check_installed_set(env: &TestEnv, expected: &BTreeSet<String>) {
    assert_eq!(&recorded(env), expected, "ext.lock holds another set");
    let index = env.read("state/roost/ext.index");
    let mut commands = BTreeSet::new();
    for line in index.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(fields.len() >= 3, "malformed index line {line:?}");
        assert_eq!(fields[0], fields[1], "index line {line:?}");
        let exe = Path::new(fields[2]);
        assert!(exe.is_file(), "index line {line:?}: no executable");
        assert!(
            std::fs::metadata(exe).unwrap().permissions().mode() & 0o111 != 0,
            "index line {line:?}: not executable"
        );
        assert!(commands.insert(fields[0].to_string()), "twice: {line:?}");
    }
    assert_eq!(&commands, expected, "ext.index holds another set");

    let out = env.run(["ext", "list"]);
    succeeded("ext list", &out);
    assert!(
        out.stderr.is_empty(),
        "ext list warns that ext.lock and ext.index disagree: {}",
        describe(&out)
    );
    let out = env.run(["ext", "verify"]);
    succeeded("ext verify", &out);
    let text = String::from_utf8_lossy(&out.stdout);
    for name in expected {
        assert!(text.contains(&format!("{name}: ok")), "{}", describe(&out));
    }

    for dir in ["data/roost/ext", "state/roost"] {
        let left = leftovers(&env.path(dir));
        assert!(left.is_empty(), "left in {dir}: {left:?}");
    }
    for name in NAMES {
        let clone = env.path(&format!("data/roost/ext/{name}"));
        assert_eq!(
            clone.exists(),
            expected.contains(name),
            "clone of {name} on disk does not match the record"
        );
    }
    for name in expected {
        assert_eq!(env.ok([name.as_str(), "x"]), format!("{name} [x]\n"));
    }
}

// ------------------------------------------------------------------ races

#[test]
fn parallel_installs_and_removes_end_with_exactly_the_expected_set() {
    let env = TestEnv::new();
    for name in NAMES {
        env.simple_ext(&repo_of(name), name, &[name], &[]);
    }
    let limit = Duration::from_secs(120);

    // Eight installs started together; once some are recorded, three of
    // those are removed while the rest of the installs are still running.
    let installs: Vec<(String, Child)> = NAMES
        .iter()
        .map(|n| {
            let repo = repo_of(n);
            (
                format!("install {n}"),
                spawn(&env, &["ext", "install", &repo, "--yes"]),
            )
        })
        .collect();
    let mut seen = BTreeSet::new();
    let some_in = wait_until(Duration::from_secs(60), || {
        seen = recorded(&env);
        seen.len() >= 3
    });
    assert!(some_in, "installs did not get in: {seen:?}");
    let gone: Vec<String> = seen.into_iter().take(3).collect();
    let removes: Vec<(String, Child)> = gone
        .iter()
        .map(|n| (format!("remove {n}"), spawn(&env, &["ext", "remove", n])))
        .collect();
    for (what, out) in wait_all(installs.into_iter().chain(removes).collect(), limit) {
        succeeded(&what, &out);
    }
    let mut expected: BTreeSet<String> = NAMES.iter().map(|n| n.to_string()).collect();
    for n in &gone {
        expected.remove(n);
    }
    check_installed_set(&env, &expected);

    // Then, started in the same instant: the three removed ones installed
    // again (their kept data waiting) and two others removed.
    let others: Vec<String> = expected.iter().take(2).cloned().collect();
    let mut children = Vec::new();
    for n in &gone {
        let repo = repo_of(n);
        children.push((
            format!("install {n} again"),
            spawn(&env, &["ext", "install", &repo, "--yes"]),
        ));
    }
    for n in &others {
        children.push((format!("remove {n}"), spawn(&env, &["ext", "remove", n])));
    }
    for (what, out) in wait_all(children, limit) {
        succeeded(&what, &out);
    }
    for n in &others {
        expected.remove(n);
    }
    expected.extend(gone.iter().cloned());
    check_installed_set(&env, &expected);
}

// ----------------------------------------------------------- disk trouble

/// Insists `out` is a clear refusal: exit 1, one line naming the command
/// (plus at most a hint line), mentioning `about`, no panic.
fn refused(what: &str, out: &Output, about: &str) {
    assert_eq!(exit_of(out), Exit::Failed, "{what}: {}", describe(out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{what}: {}", describe(out));
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        (1..=2).contains(&lines.len()) && lines[0].starts_with("roost ext"),
        "{what}: not a one-line refusal: {}",
        describe(out)
    );
    assert!(lines[0].contains(about), "{what}: {}", describe(out));
    // Names the file roost meant to write, not a temporary one.
    assert!(
        !lines[0].contains(".roost-tmp"),
        "{what}: {}",
        describe(out)
    );
}

/// A command line and the environment it runs with on top of the test's.
type Run<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)]);

/// Runs each command in `runs`, insisting each is refused mentioning `about`
/// and that data/ and state/ are unchanged.
fn refused_unchanged(env: &TestEnv, runs: &[Run], about: &str) {
    let before = snapshot(env);
    for (args, vars) in runs {
        let out = env
            .roost(*args)
            .envs(vars.iter().copied())
            .output()
            .unwrap();
        let what = format!("roost {}", args.join(" "));
        refused(&what, &out, about);
        assert_eq!(snapshot(env), before, "{what} changed the disk");
    }
}

const INSTALL_BRAVO: &[&str] = &["ext", "install", "owner/roost-bravo", "--yes"];
const REMOVE_ALPHA: &[&str] = &["ext", "remove", "alpha"];
const UPDATE_ALPHA: &[&str] = &["ext", "update", "alpha", "--yes"];

/// alpha installed (with data of its own), bravo ready to install, and
/// alpha's remote moved on so that an update has work to do.
fn installed_alpha(env: &TestEnv) {
    let alpha = env.simple_ext(&repo_of("alpha"), "alpha", &["alpha"], &[]);
    env.simple_ext(&repo_of("bravo"), "bravo", &["bravo"], &[]);
    env.ok(["ext", "install", &repo_of("alpha"), "--yes"]);
    env.write("state/roost/ext/alpha/precious", "a year of data");
    alpha.exec("bin/roost-alpha", "#!/bin/sh\necho alpha two\n");
    alpha.commit("two");
}

/// The state directory cannot be written. Tests run as root, for whom a
/// chmod 0555 stops nothing, so the directory is made unwritable in two ways
/// that hold for root too: $XDG_STATE_HOME/roost is a symlink to /proc/self
/// (procfs refuses to create files, whoever asks), or it is a regular file
/// (no directory can be made there). XDG_STATE_HOME points at a separate
/// directory for these runs, so the real record must stay as it was.
#[test]
fn an_unwritable_state_directory_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    installed_alpha(&env);
    let proc_state = env.path("work/proc-state");
    std::fs::create_dir_all(&proc_state).unwrap();
    symlink("/proc/self", proc_state.join("roost")).unwrap();
    let file_state = env.path("work/file-state");
    std::fs::create_dir_all(&file_state).unwrap();
    std::fs::write(file_state.join("roost"), "not a directory").unwrap();
    for state in [&proc_state, &file_state] {
        let state = state.to_str().unwrap();
        let vars: &[(&str, &str)] = &[("XDG_STATE_HOME", state)];
        // Nothing is recorded there: install gets as far as taking the
        // lock and names the directory.
        refused_unchanged(&env, &[(INSTALL_BRAVO, vars)], state);
    }
    // remove is refused at once: where ext.lock cannot be read at all, naming
    // the directory; where it reads as empty, alpha is simply not installed.
    let vars: &[(&str, &str)] = &[("XDG_STATE_HOME", file_state.to_str().unwrap())];
    refused_unchanged(&env, &[(REMOVE_ALPHA, vars)], file_state.to_str().unwrap());
    let vars: &[(&str, &str)] = &[("XDG_STATE_HOME", proc_state.to_str().unwrap())];
    refused_unchanged(&env, &[(REMOVE_ALPHA, vars)], "no such extension: alpha");
    assert!(leftovers(&env.path("data/roost/ext")).is_empty());
    // The real one is untouched and still works.
    env.ok(["ext", "install", &repo_of("bravo"), "--yes"]);
    check_installed_set(&env, &["alpha", "bravo"].map(String::from).into());
}

/// The real state directory, holding the record, made unwritable: install
/// and update refuse before they fetch or ask, naming the directory; remove
/// gets as far as writing ext.lock, fails there, and undoes what it did.
#[test]
fn a_state_directory_that_refuses_writes_rolls_everything_back() {
    let env = TestEnv::new();
    installed_alpha(&env);
    let Some(guard) = Unwritable::new(&env.path("state/roost")) else {
        eprintln!("skipped: cannot make a directory unwritable here (no chattr +i support)");
        return;
    };
    let none: &[(&str, &str)] = &[];
    refused_unchanged(
        &env,
        &[(INSTALL_BRAVO, none), (UPDATE_ALPHA, none)],
        &format!(
            "cannot write roost's files: {} is not writable",
            env.path("state/roost").display()
        ),
    );
    refused_unchanged(&env, &[(REMOVE_ALPHA, none)], "ext.lock");
    drop(guard);
    assert!(leftovers(&env.path("data/roost/ext")).is_empty());
    env.ok(["ext", "install", &repo_of("bravo"), "--yes"]);
    check_installed_set(&env, &["alpha", "bravo"].map(String::from).into());
}

/// The lock file that serialises roost's writers is a directory: install
/// and remove refuse, naming it.
#[test]
fn a_lock_file_that_is_a_directory_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    installed_alpha(&env);
    let flock = env.path("state/roost/ext.lock.flock");
    std::fs::remove_file(&flock).unwrap();
    std::fs::create_dir(&flock).unwrap();
    let none: &[(&str, &str)] = &[];
    refused_unchanged(
        &env,
        &[
            (INSTALL_BRAVO, none),
            (REMOVE_ALPHA, none),
            (UPDATE_ALPHA, none),
        ],
        "ext.lock.flock",
    );
    assert!(leftovers(&env.path("data/roost/ext")).is_empty());
    std::fs::remove_dir(&flock).unwrap();
    env.ok(["ext", "install", &repo_of("bravo"), "--yes"]);
    check_installed_set(&env, &["alpha", "bravo"].map(String::from).into());
}

/// ext.lock, or ext.index, is a directory: every writer refuses, naming it.
#[test]
fn a_record_that_is_a_directory_is_refused_and_nothing_is_written() {
    for file in ["ext.lock", "ext.index"] {
        let env = TestEnv::new();
        installed_alpha(&env);
        let path = env.path(&format!("state/roost/{file}"));
        let aside = env.path(&format!("work/{file}"));
        std::fs::rename(&path, &aside).unwrap();
        std::fs::create_dir(&path).unwrap();
        let none: &[(&str, &str)] = &[];
        refused_unchanged(
            &env,
            &[
                (INSTALL_BRAVO, none),
                (REMOVE_ALPHA, none),
                (UPDATE_ALPHA, none),
            ],
            file,
        );
        assert!(leftovers(&env.path("data/roost/ext")).is_empty());
        std::fs::remove_dir(&path).unwrap();
        std::fs::rename(&aside, &path).unwrap();
        env.ok(["ext", "install", &repo_of("bravo"), "--yes"]);
        check_installed_set(&env, &["alpha", "bravo"].map(String::from).into());
    }
}

/// No temporary clone can be made: $XDG_DATA_HOME/roost is a symlink to
/// /proc/self, where nobody (root included) can create a directory. The
/// paths in ext.index keep their spelling, so the record is not rewritten
/// either: install and update refuse before anything is written.
#[test]
fn a_data_directory_without_room_for_a_clone_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    installed_alpha(&env);
    let data = env.path("data/roost");
    let aside = env.path("work/data-roost");
    std::fs::rename(&data, &aside).unwrap();
    symlink("/proc/self", &data).unwrap();
    let none: &[(&str, &str)] = &[];
    refused_unchanged(
        &env,
        &[(INSTALL_BRAVO, none), (UPDATE_ALPHA, none)],
        &format!(
            "cannot write roost's files: {} is not writable",
            data.display()
        ),
    );
    std::fs::remove_file(&data).unwrap();
    std::fs::rename(&aside, &data).unwrap();
    assert!(leftovers(&env.path("data/roost/ext")).is_empty());
    env.ok(["ext", "install", &repo_of("bravo"), "--yes"]);
    check_installed_set(&env, &["alpha", "bravo"].map(String::from).into());
}
