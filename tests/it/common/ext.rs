//! Fixtures for the `ext` verbs that read and change what is installed:
//! installing by `owner/repo`, reading ext.lock and ext.index, the clone and
//! state directories, snapshots that show any rewrite, and the author's
//! scaffold, link and check runs.

use crate::common::*;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

/// An extension NAME claiming COMMANDS, committed, pushed and installed.
pub(crate) fn installed(
    env: &TestEnv,
    repo: &str,
    name: &str,
    commands: &[&str],
    needs: &[&str],
) -> Fixture {
    let f = env.simple_ext(repo, name, commands, needs);
    install(env, repo);
    f
}

/// Installs `repo` as a script that has read the consent block does:
/// `--yes`, granting the authorities it may ask for by name.
pub(crate) fn install(env: &TestEnv, repo: &str) {
    let out = env.run([
        "ext", "install", repo, "--yes", "--grant", "fleet", "--grant", "events",
    ]);
    assert!(out.status.success(), "install {repo}: {}", describe(&out));
}

pub(crate) fn clone_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("data/roost/ext").join(name)
}

pub(crate) fn state_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("state/roost/ext").join(name)
}

pub(crate) fn lock(env: &TestEnv) -> Value {
    serde_json::from_slice(&std::fs::read(lock_file(env)).unwrap()).unwrap()
}

pub(crate) fn index(env: &TestEnv) -> String {
    std::fs::read_to_string(index_file(env)).unwrap()
}

pub(crate) fn short(commit: &str) -> &str {
    &commit[..7]
}

/// Sets a file's mtime far in the past, so that any rewrite shows.
pub(crate) fn age(path: &Path) {
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(old)
        .unwrap();
}

/// A file's path, and its bytes and mtime when it exists.
pub(crate) type Seen = (PathBuf, Option<(Vec<u8>, SystemTime)>);

/// ext.lock and ext.index (bytes and mtimes) and every file of NAME's clone.
#[derive(Debug, PartialEq)]
pub(crate) struct Snapshot {
    files: Vec<Seen>,
    clone: Vec<(PathBuf, u32, Vec<u8>)>,
}

pub(crate) fn snapshot(env: &TestEnv, name: &str) -> Snapshot {
    let files = [lock_file(env), index_file(env)]
        .into_iter()
        .map(|p| {
            let seen = std::fs::read(&p)
                .ok()
                .map(|b| (b, std::fs::metadata(&p).unwrap().modified().unwrap()));
            (p, seen)
        })
        .collect();
    Snapshot {
        files,
        clone: listing(&clone_dir(env, name)),
    }
}

/// Ages ext.lock and ext.index, then snapshots.
pub(crate) fn aged_snapshot(env: &TestEnv, name: &str) -> Snapshot {
    age(&lock_file(env));
    age(&index_file(env));
    snapshot(env, name)
}

/// Rewrites ext.lock as JSON after `edit`.
pub(crate) fn edit_lock(env: &TestEnv, edit: impl FnOnce(&mut Value)) {
    let mut v = lock(env);
    edit(&mut v);
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    std::fs::write(lock_file(env), text).unwrap();
}

/// The lines of `text` as a vector (for exact comparisons with context).
pub(crate) fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// `note` installed with a README, then a second commit that rewrites its
/// command, removes README and adds NEWS. Returns (fixture, old, new).
pub(crate) fn changed(env: &TestEnv) -> (Fixture, String, String) {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.write("README", "read me\n");
    let old = f.commit("readme");
    install(env, "owner/roost-note");
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v2'\n");
    std::fs::remove_file(f.work.join("README")).unwrap();
    f.write("NEWS", "v2\n");
    let new = f.commit("v2");
    (f, old, new)
}

pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `git ARGS` in `dir`, with the test's isolated git configuration.
pub(crate) fn git(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env_clear()
        .envs(env.vars())
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", describe(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// `roost ext new NAME DIR` with DIR under the test's `authors/`; the
/// directory, as recorded when it is linked.
pub(crate) fn scaffold(env: &TestEnv, name: &str) -> PathBuf {
    let dir = env.path("authors").join(format!("roost-{name}"));
    clean(&env.run([
        "ext".as_ref(),
        "new".as_ref(),
        name.as_ref(),
        dir.as_os_str(),
    ]));
    std::fs::canonicalize(dir).unwrap()
}

pub(crate) fn check(env: &TestEnv, dir: &Path, json: bool) -> Output {
    let mut args = vec!["ext".as_ref(), "check".as_ref(), dir.as_os_str()];
    if json {
        args.push("--json".as_ref());
    }
    env.run(args)
}

/// Everything roost keeps: the test's data/ and state/ trees, except the
/// advisory lock file (and the directory holding it), which exists once any
/// ext verb has taken the lock.
pub(crate) fn roost_files(env: &TestEnv) -> Vec<(PathBuf, u32, Vec<u8>)> {
    let mut all = Vec::new();
    for top in ["data", "state"] {
        all.extend(
            listing(&env.path(top))
                .into_iter()
                .map(|(p, m, b)| (Path::new(top).join(p), m, b)),
        );
    }
    all.retain(|(p, _, _)| {
        p != Path::new("state/roost") && p != Path::new("state/roost/ext.lock.flock")
    });
    all
}

pub(crate) fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}
