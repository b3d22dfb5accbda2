//! Fixtures for an extension living over time: two versions of `note`
//! (installed, then updated), and what ext.lock, ext.index, data/ and
//! state/ held, aged so that any rewrite shows.

use super::ext::install;
use crate::common::*;

use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, SystemTime};

/// ext.lock and ext.index (path, bytes, mtime), and everything under data/
/// and state/.
pub(crate) type Seen = (
    Vec<(PathBuf, Vec<u8>, SystemTime)>,
    Vec<(PathBuf, u32, Vec<u8>)>,
);

/// ext.lock and ext.index, bytes and mtimes (aged first, so any rewrite
/// shows), with everything under data/ and state/.
pub(crate) fn aged(env: &TestEnv) -> Seen {
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for p in [lock_file(env), index_file(env)] {
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    seen(env)
}

pub(crate) fn seen(env: &TestEnv) -> Seen {
    let files = [lock_file(env), index_file(env)]
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let mtime = std::fs::metadata(&p).unwrap().modified().unwrap();
            (p, bytes, mtime)
        })
        .collect();
    (files, snapshot(env))
}

/// The miss: exactly what the same word gets where nothing was ever
/// installed, and exit 2.
pub(crate) fn assert_never_installed(word: &str, out: &Output) {
    let never = TestEnv::new().run([word]);
    assert_eq!(exit_of(&never), Exit::Usage);
    assert_eq!(
        (out.status.code(), &out.stdout, &out.stderr),
        (never.status.code(), &never.stdout, &never.stderr),
        "{}",
        describe(out)
    );
}

/// `note` at v1 (installed), then v2 pushed; returns (fixture, v1, v2).
pub(crate) fn two_versions(env: &TestEnv) -> (Fixture, String, String) {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v1'\n");
    f.write("README", "one\n");
    let v1 = f.commit("v1");
    install(env, "owner/roost-note");
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v2'\n");
    f.write("NEWS", "two\n");
    let v2 = f.commit("v2");
    (f, v1, v2)
}

/// `two_versions`, updated to v2.
pub(crate) fn updated(env: &TestEnv) -> (Fixture, String, String) {
    let (f, v1, v2) = two_versions(env);
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    (f, v1, v2)
}
