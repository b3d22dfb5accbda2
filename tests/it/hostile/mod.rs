//! Hostile repositories: submodules pointing anywhere, attribute filters and
//! conversions, a huge file, deep and wide trees, an oversized manifest,
//! symlink escapes beyond those of tests/it/ext/install/gates.rs, and
//! crafted trees and packs. Each install and verify must finish within a
//! stated time bound; the peak resident memory of roost is sampled from
//! /proc/PID/status (VmHWM, polled every few milliseconds until exit) where
//! the input is large. The helpers the modules share are here.

mod crafted;
mod links;
mod shapes;

use crate::common::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Every roost run here must end within this (debug build, 2 busy cores).
pub(crate) const LIMIT: Duration = Duration::from_secs(20);

pub(crate) fn install(env: &TestEnv, repo: &str) -> Run {
    install_within(env, repo, LIMIT)
}

pub(crate) fn install_within(env: &TestEnv, repo: &str, limit: Duration) -> Run {
    let run = bounded(env.roost(["ext", "install", repo, "--yes"]), limit);
    eprintln!("install {repo}: {:?}, peak {} KiB", run.took, run.peak_kib);
    run
}

pub(crate) fn verify(env: &TestEnv) -> Run {
    let run = bounded(env.roost(["ext", "verify"]), LIMIT);
    eprintln!("verify: {:?}, peak {} KiB", run.took, run.peak_kib);
    run
}

/// A plain extension `note` claiming `note`, not yet committed.
pub(crate) fn note_repo(env: &TestEnv) -> Fixture {
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
    f
}

/// Commits what is staged (no `add -A`) and pushes; returns the commit.
pub(crate) fn commit_staged(f: &Fixture, message: &str) -> String {
    f.git(&["commit", "-q", "--no-verify", "-m", message]);
    f.push();
    f.head()
}

/// The bytes of `rel` as stored in the commit `rev` of `f`.
pub(crate) fn blob(f: &Fixture, rev: &str, rel: &str) -> Vec<u8> {
    let out = Command::new("git")
        .args(["cat-file", "blob", &format!("{rev}:{rel}")])
        .current_dir(&f.work)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    out.stdout
}

/// Names, kinds, sizes and modification times of everything under `dir`.
pub(crate) fn listing(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                todo.push(p.clone());
            }
            out.insert(
                p,
                format!("{:?} {} {:?}", m.file_type(), m.len(), m.modified().ok()),
            );
        }
    }
    out
}

/// Commits, on top of the note repository, a tree holding its entries plus
/// the raw `git mktree` lines `extra` (which git itself would never make),
/// and pushes it.
pub(crate) fn crafted(f: &Fixture, extra: &[String]) -> String {
    f.commit("base");
    let mut lines = f.git(&["ls-tree", "HEAD"]);
    for line in extra {
        lines.push_str(line);
        lines.push('\n');
    }
    let tree = mktree(f, &lines);
    let commit = f.git(&["commit-tree", &tree, "-p", "HEAD", "-m", "crafted"]);
    f.git(&["update-ref", "refs/heads/main", commit.trim()]);
    f.push();
    commit.trim().to_string()
}

/// The tree `git mktree` makes of `lines` (its input format, which need
/// not be anything git itself would write); returns its id.
pub(crate) fn mktree(f: &Fixture, lines: &str) -> String {
    git_reading(f, &["mktree"], lines.as_bytes())
}

/// `git ARGS` in the fixture's work tree reading `input`; returns its
/// output, trimmed.
pub(crate) fn git_reading(f: &Fixture, args: &[&str], input: &[u8]) -> String {
    let path = f.work.join(".git/crafted-input");
    std::fs::write(&path, input).unwrap();
    let out = Command::new("git")
        .args(args)
        .current_dir(&f.work)
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A blob holding `content`; returns its id.
pub(crate) fn blob_of(f: &Fixture, content: &str) -> String {
    let path = f.work.join(".git/crafted-blob");
    std::fs::write(&path, content).unwrap();
    let id = f.git(&["hash-object", "-w", "--no-filters", &path.to_string_lossy()]);
    id.trim().to_string()
}

/// What a refused install left under roost's data directory (nothing).
pub(crate) fn leftovers_in(env: &TestEnv) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (path, _) in listing(&env.path("data/roost")) {
        if !path.starts_with("home") {
            out.push(path);
        }
    }
    out
}

/// A PATH whose `git-upload-pack` is tests/fixtures/hostile-upload-pack;
/// `None` (the test skips) where python3, which runs it, is missing.
pub(crate) fn hostile_server_path(env: &TestEnv) -> Option<String> {
    if !on_path("python3") {
        skip_without("python3 (the stand-in server) is not installed");
        return None;
    }
    let bin = env.path("stand-in");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/hostile-upload-pack"
        ),
        bin.join("git-upload-pack"),
    )
    .unwrap();
    Some(format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap()
    ))
}
