//! File modes: what roost creates is the user's alone whatever the umask
//! (under umask 000 nothing is group- or other-writable), and dispatch
//! refuses to run an extension's program when it, or a directory above it
//! up to the extension's directory, can be written by someone else.

use crate::common::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `cmd` started with umask 000.
fn wide_open(mut cmd: Command) -> std::process::Output {
    // SAFETY: umask(2) is async-signal-safe and touches no memory.
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::stat::umask(nix::sys::stat::Mode::empty());
            Ok(())
        });
    }
    cmd.output().unwrap()
}

/// Every file and directory under `dir` (links not followed), with its mode.
fn modes_under(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let m = std::fs::symlink_metadata(&d).unwrap();
        out.push((d.clone(), m.mode() & 0o7777));
        if m.is_dir() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if std::fs::symlink_metadata(&p)
                    .unwrap()
                    .file_type()
                    .is_symlink()
                {
                    continue;
                }
                todo.push(p);
            }
        }
    }
    out
}

/// Installed, then run (which makes the extension's state directory and,
/// for fleet, roost's scripts directory), all under umask 000: the state
/// directory, ext.lock, ext.index, the clone and every file in it, and
/// bin/roost-note have no group or other write bit.
#[test]
fn nothing_roost_creates_under_umask_000_is_writable_by_others() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &["fleet"]);
    let out = wide_open(env.roost(["ext", "install", &f.repo, "--yes", "--grant", "fleet"]));
    succeeded(&out);
    let out = wide_open(env.roost(["note"]));
    assert_eq!(succeeded(&out), "note\n");
    let state = env.path("state/roost");
    let data = env.path("data/roost");
    for must in [
        state.clone(),
        lock_file(&env),
        index_file(&env),
        data.join("ext/note"),
        data.join("ext/note/bin/roost-note"),
    ] {
        assert!(must.exists(), "{} was not made", must.display());
    }
    let mut seen = 0;
    for (path, mode) in modes_under(&state).into_iter().chain(modes_under(&data)) {
        seen += 1;
        assert_eq!(
            mode & 0o022,
            0,
            "{} is mode {mode:04o} under umask 000",
            path.display()
        );
    }
    assert!(seen > 10, "only {seen} paths looked at");
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `roost note` refused on two lines naming the path and what is wrong,
/// exit 1, nothing run.
fn refused_to_run(env: &TestEnv, path: &Path, what: &str) {
    let out = env.run(["note"]);
    let err = refused(&out);
    assert_eq!(
        err,
        format!(
            "roost: extension note: {} {what}; refusing to run it\n\
             roost: make it yours alone (chown, chmod go-w), then check its files with `roost ext verify note`\n",
            path.display()
        )
    );
    assert!(out.stdout.is_empty(), "it ran");
}

/// The program, its bin/ directory and the clone, each made group- or
/// other-writable in turn, or the program given to another user: refused
/// each time; put back, it runs.
#[test]
fn dispatch_refuses_a_program_others_can_write() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    succeeded(&env.run(["ext", "install", &f.repo, "--yes"]));
    let clone = env.path("data/roost/ext/note");
    let bin = clone.join("bin");
    let program = bin.join("roost-note");
    for (path, normal, widened) in [
        (&program, 0o755, 0o775),
        (&program, 0o755, 0o757),
        (&bin, 0o755, 0o777),
        (&clone, 0o755, 0o775),
    ] {
        assert_eq!(
            std::fs::metadata(path).unwrap().mode() & 0o7777,
            normal,
            "{}",
            path.display()
        );
        set_mode(path, widened);
        refused_to_run(
            &env,
            path,
            &format!("can be written by others (mode {widened:04o})"),
        );
        set_mode(path, normal);
        assert_eq!(succeeded(&env.run(["note"])), "note\n");
    }
    if nix::unistd::geteuid().is_root() {
        let me = nix::unistd::getuid().as_raw();
        std::os::unix::fs::chown(&program, Some(65534), None).unwrap();
        refused_to_run(&env, &program, "belongs to another user (uid 65534)");
        std::os::unix::fs::chown(&program, Some(me), None).unwrap();
        std::os::unix::fs::chown(&bin, Some(65534), None).unwrap();
        refused_to_run(&env, &bin, "belongs to another user (uid 65534)");
        std::os::unix::fs::chown(&bin, Some(me), None).unwrap();
        assert_eq!(succeeded(&env.run(["note"])), "note\n");
    }
}
