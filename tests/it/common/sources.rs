//! Fixtures for many extensions and their sources: installing several,
//! moving a source on, breaking one, a linked checkout, and whether ext.lock
//! and ext.index agree.

use crate::common::*;

use std::ffi::OsStr;

/// An extension NAME claiming the command NAME, committed, pushed and
/// installed from owner/roost-NAME, the authority it asks for granted by
/// name as a script must.
pub(crate) fn installed(env: &TestEnv, name: &str, needs: &[&str]) -> Fixture {
    let repo = format!("owner/roost-{name}");
    let f = env.simple_ext(&repo, name, &[name], needs);
    let mut args = vec!["ext", "install", &repo, "--yes"];
    for need in needs {
        args.extend(["--grant", need]);
    }
    succeeded(&env.run(args));
    f
}

/// A new commit of NAME's repository whose command prints `text`.
pub(crate) fn bump(f: &Fixture, name: &str, text: &str) -> String {
    f.exec(
        &format!("bin/roost-{name}"),
        &format!("#!/bin/sh\necho {text}\n"),
    );
    f.commit(text)
}

/// Makes a source unreachable: its bare repository is moved away.
pub(crate) fn break_source(f: &Fixture) {
    let gone = f.bare.with_extension("gone");
    std::fs::rename(&f.bare, gone).unwrap();
}

/// A checkout linked with `install --link`: extension `dev`.
pub(crate) fn linked(env: &TestEnv) -> std::path::PathBuf {
    let f = env.simple_ext("owner/roost-dev", "dev", &["dev"], &[]);
    succeeded(&env.run([
        OsStr::new("ext"),
        OsStr::new("install"),
        OsStr::new("--link"),
        f.work.as_os_str(),
        OsStr::new("--yes"),
    ]));
    f.work.clone()
}

/// ext.lock and ext.index agree (list warns on stderr when they do not).
pub(crate) fn lock_and_index_agree(env: &TestEnv) {
    clean(&env.run(["ext", "list"]));
}
