//! `roost ext install` conflicts: a name or command already taken, a
//! destination in the way, a failure after the move, state kept from an
//! earlier install, installs started at the same time.

use crate::common::*;
use crate::ext::install::{install, read_lock};

use std::os::unix::fs::symlink;
use std::process::Stdio;

/// Installs `note`, then refuses `repo`: lock, index and disk unchanged.
fn assert_conflict(env: &TestEnv, repo: &str, want: &str) {
    let before = snapshot(env);
    let out = install(env, &[repo, "--yes"]);
    let err = refused(&out);
    assert_eq!(err, want);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert_eq!(snapshot(env), before);
}

#[test]
fn install_refuses_a_name_already_installed() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    env.simple_ext("other/roost-note", "note", &["jot"], &[]);
    assert_conflict(
        &env,
        "other/roost-note",
        &format!(
            "roost ext install: note is already installed (at {})\n\
             update it with `roost ext update note`, or remove it first with `roost ext remove note`\n",
            &f.head()[..7]
        ),
    );
    // The same repository twice is the same refusal.
    refused(&install(&env, &["owner/roost-note", "--yes"]));
}

#[test]
fn install_refuses_a_command_claimed_by_another_extension() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note", "notes"], &[]);
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    env.simple_ext("owner/roost-jot", "jot", &["jot", "notes"], &[]);
    assert_conflict(
        &env,
        "owner/roost-jot",
        "roost ext install: command notes is already claimed by the installed extension note\n\
         remove note first (roost ext remove note) to install this one\n",
    );
}

#[test]
fn install_refuses_a_destination_that_exists_without_a_lock_entry() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let dest = env.path("data/roost/ext/note");
    env.write("data/roost/ext/note/mine.txt", "not roost's\n");
    assert_conflict(
        &env,
        "owner/roost-note",
        &format!(
            "roost ext install: {} exists, but ext.lock has no entry for note\n\
             move that directory aside or delete it, then install again\n",
            dest.display()
        ),
    );
    // An empty directory, or a dangling symlink, is in the way all the same.
    std::fs::remove_dir_all(&dest).unwrap();
    std::fs::create_dir(&dest).unwrap();
    refused(&install(&env, &["owner/roost-note", "--yes"]));
    std::fs::remove_dir(&dest).unwrap();
    symlink("/nonexistent", &dest).unwrap();
    refused(&install(&env, &["owner/roost-note", "--yes"]));
    assert!(!lock_file(&env).exists());
}

#[test]
fn a_failure_after_the_move_undoes_the_install_but_keeps_existing_state() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    // ext.index cannot be written: it is a directory.
    std::fs::create_dir_all(index_file(&env)).unwrap();
    env.write("state/roost/ext/note/year-of-notes.txt", "precious\n");
    let out = install(&env, &["owner/roost-note", "--yes"]);
    let err = refused(&out);
    assert!(err.contains("nothing was installed"), "{err}");
    assert!(
        !env.path("data/roost/ext/note").exists(),
        "the clone stayed"
    );
    assert!(!lock_file(&env).exists());
    assert_eq!(
        env.read("state/roost/ext/note/year-of-notes.txt"),
        "precious\n"
    );
    let left: Vec<_> = std::fs::read_dir(env.path("data/roost/ext"))
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left behind: {left:?}");

    // Without earlier state, the state directory it made goes too.
    std::fs::remove_dir_all(env.path("state/roost/ext/note")).unwrap();
    refused(&install(&env, &["owner/roost-note", "--yes"]));
    assert!(!env.path("state/roost/ext/note").exists());
}

#[test]
fn state_kept_from_an_earlier_install_is_reused_not_replaced() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.write("state/roost/ext/note/notes.txt", "a year of notes\n");
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    assert_eq!(
        env.read("state/roost/ext/note/notes.txt"),
        "a year of notes\n"
    );
}

#[test]
fn installs_started_at_the_same_time_are_all_recorded() {
    let env = TestEnv::new();
    let names = ["alpha", "bravo", "charlie", "delta"];
    for n in names {
        env.simple_ext(&format!("owner/roost-{n}"), n, &[n], &[]);
    }
    let children: Vec<_> = names
        .iter()
        .map(|n| {
            env.roost(["ext", "install", &format!("owner/roost-{n}"), "--yes"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        succeeded(&child.wait_with_output().unwrap());
    }
    let lock = read_lock(&env);
    let recorded: Vec<&String> = lock.as_object().unwrap().keys().collect();
    assert_eq!(recorded, names.to_vec());
    let index = std::fs::read_to_string(index_file(&env)).unwrap();
    let commands: Vec<&str> = index
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(commands, names.to_vec());
    for n in names {
        assert_eq!(env.ok([n]), format!("{n}\n"));
    }
    let left: Vec<_> = std::fs::read_dir(env.path("data/roost/ext"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temp dirs left: {left:?}");
}
