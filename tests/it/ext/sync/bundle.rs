//! `roost ext export --bundle` and `roost ext sync --from`: a set carried
//! with its commits' objects, installed with no network and no git, and a
//! tampered bundle refused whole.

use super::first_home;
use crate::common::ext::{install, lock};
use crate::common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

fn bundled(env: &TestEnv) -> PathBuf {
    let file = env.path("carry/roost.bundle");
    env.ok([
        "ext".as_ref(),
        "export".as_ref(),
        "--bundle".as_ref(),
        file.as_os_str(),
    ]);
    file
}

/// `roost ext sync --from BUNDLE ARGS` in `env` with no git on PATH and
/// ROOST_EXT_GIT_BASE pointing nowhere.
fn offline(env: &TestEnv, bundle: &Path, more: &[&str]) -> std::process::Output {
    let empty = env.path("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let mut cmd = env.roost([
        "ext".as_ref(),
        "sync".as_ref(),
        "--from".as_ref(),
        bundle.as_os_str(),
    ]);
    cmd.args(more)
        .env("PATH", &empty)
        .env("ROOST_EXT_GIT_BASE", "file:///nowhere/at/all/");
    cmd.output().unwrap()
}

#[test]
fn a_bundle_installs_with_the_network_unreachable_and_no_git_on_path() {
    let one = first_home();
    let file = bundled(&one);
    // The sources are gone: nothing can be fetched from them.
    std::fs::rename(one.path("remote"), one.path("remote-gone")).unwrap();
    let two = TestEnv::new();
    let out = offline(&two, &file, &["--yes", "--grant", "fleet"]);
    let text = succeeded(&out);
    for name in ["abc", "zed"] {
        for field in ["commit", "tree", "ref", "url", "needs"] {
            assert_eq!(
                lock(&two)[name][field],
                lock(&one)[name][field],
                "{name} {field}"
            );
        }
        assert!(text.contains(&format!("{name}: installed at ")), "{text}");
    }
    assert_eq!(two.ok(["ext", "export"]), one.ok(["ext", "export"]));
    assert_eq!(two.ok(["ext", "verify"]), "abc: ok\nzed: ok\n");
    two.ok(["zed"]);
    // --frozen against the bundle's set: the same set.
    let out = offline(&two, &file, &["--frozen"]);
    assert_eq!(
        succeeded(&out),
        format!("the installed set matches {}\n", file.display())
    );
}

#[test]
fn a_bundle_holds_only_the_pinned_commits_objects() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.write("README", "two\n");
    f.commit("second");
    install(&env, "owner/roost-note");
    let file = bundled(&env);
    let bytes = std::fs::read(&file).unwrap();
    let pack = pack_of(&bytes);
    // The commit, its root tree, bin/, and three blobs; not the first commit.
    // git itself reads it as a pack.
    let check = env.path("check");
    git_in(&check, &["init", "-q", "--bare"], None);
    let listed = git_in(&check, &["index-pack", "--stdin"], Some(pack));
    assert!(!listed.is_empty());
    let want = rev_list(&f.work, "HEAD");
    assert_eq!(count_objects(pack), want.len(), "{want:?}");
}

/// The pack section of a bundle's bytes.
fn pack_of(bytes: &[u8]) -> &[u8] {
    let at = bytes.windows(5).position(|w| w == b"pack ").unwrap();
    let nl = at + bytes[at..].iter().position(|b| *b == b'\n').unwrap();
    &bytes[nl + 1..]
}

fn count_objects(pack: &[u8]) -> usize {
    u32::from_be_bytes(pack[8..12].try_into().unwrap()) as usize
}

/// The objects of one commit: itself, its trees and blobs.
fn rev_list(work: &Path, rev: &str) -> Vec<String> {
    let out = git_in(
        work,
        &["rev-list", "--objects", "--no-object-names", "-n", "1", rev],
        None,
    );
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn git_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Vec<u8> {
    std::fs::create_dir_all(dir).unwrap();
    let mut cmd = Command::new("git");
    cmd.args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        input.write_all(stdin.unwrap_or_default()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "git {args:?}");
    out.stdout
}

/// A bundle with the set of `bytes` and a pack git makes of `ids`.
fn rebundled(bytes: &[u8], work: &Path, ids: &[String]) -> Vec<u8> {
    let at = bytes.windows(5).position(|w| w == b"pack ").unwrap();
    let list = ids.join("\n") + "\n";
    let pack = git_in(
        work,
        &["pack-objects", "--stdout", "-q"],
        Some(list.as_bytes()),
    );
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(format!("pack {}\n", pack.len()).as_bytes());
    out.extend_from_slice(&pack);
    out
}

#[test]
fn a_tampered_bundle_is_refused_and_nothing_is_installed() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    install(&env, "owner/roost-note");
    let bytes = std::fs::read(bundled(&env)).unwrap();
    let ids = rev_list(&f.work, "HEAD");
    // A blob whose bytes differ by one from the pinned one (its own id).
    let readme = String::from_utf8(git_in(&f.work, &["rev-parse", "HEAD:roost-ext.json"], None))
        .unwrap()
        .trim()
        .to_string();
    let original = git_in(&f.work, &["cat-file", "blob", &readme], None);
    let mut flipped = original.clone();
    flipped[0] ^= 0x01;
    std::fs::write(f.work.join("flipped"), &flipped).unwrap();
    let forged = String::from_utf8(git_in(&f.work, &["hash-object", "-w", "flipped"], None))
        .unwrap()
        .trim()
        .to_string();
    // An object no pinned commit uses.
    std::fs::write(f.work.join("extra"), "extra\n").unwrap();
    let extra = String::from_utf8(git_in(&f.work, &["hash-object", "-w", "extra"], None))
        .unwrap()
        .trim()
        .to_string();
    let without = |id: &str| ids.iter().filter(|i| *i != id).cloned().collect::<Vec<_>>();
    let mut flipped_ids = without(&readme);
    flipped_ids.push(forged.clone());
    let mut extra_ids = ids.clone();
    extra_ids.push(extra);
    // A byte of the pack's checksum flipped: it no longer holds.
    let mut raw = bytes.clone();
    let last = raw.len() - 5;
    raw[last] ^= 0x40;
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "a flipped byte in a blob",
            rebundled(&bytes, &f.work, &flipped_ids),
            "the bundle lacks what it must hold".into(),
        ),
        (
            "a missing object",
            rebundled(&bytes, &f.work, &without(&readme)),
            format!("object {readme}, which commit"),
        ),
        (
            "an extra object",
            rebundled(&bytes, &f.work, &extra_ids),
            "the bundle holds 1 object that no commit it lists uses; refusing it whole".into(),
        ),
        (
            "a flipped byte in the pack",
            raw,
            "the bundle's pack cannot be read".into(),
        ),
    ];
    // The untampered bundle, rebuilt the same way, installs: the cases
    // fail for what was done to them.
    let two = TestEnv::new();
    let good = two.path("good.bundle");
    std::fs::write(&good, rebundled(&bytes, &f.work, &ids)).unwrap();
    for (what, tampered, said) in cases {
        let file = two.path("tampered.bundle");
        std::fs::write(&file, &tampered).unwrap();
        let out = offline(&two, &file, &["--yes"]);
        let err = refused(&out);
        assert!(err.starts_with("roost ext sync: "), "{what}: {err}");
        assert!(err.contains(&said), "{what}: {err}");
        assert!(!lock_file(&two).exists(), "{what}");
        assert!(!two.path("data/roost/ext/note").exists(), "{what}");
    }
    succeeded(&offline(&two, &good, &["--yes"]));
    assert_eq!(lock(&two)["note"]["commit"], lock(&env)["note"]["commit"]);
}

#[test]
fn a_changed_pin_moves_to_the_bundled_commit_with_the_source_gone() {
    let env = TestEnv::new();
    let (_f, v1, v2) = crate::common::versions::two_versions(&env);
    let file = bundled(&env);
    env.ok(["ext", "update", "note", "--yes"]);
    std::fs::rename(env.path("remote"), env.path("remote-gone")).unwrap();
    let out = offline(&env, &file, &["--yes"]);
    let text = succeeded(&out);
    assert!(text.contains(&format!("note: {v2} -> {v1}\n")), "{text}");
    // The diff and the checks come before the one question, and nothing
    // else is asked.
    let diff = text.find(&format!("note: {v2} -> {v1}\n")).unwrap();
    let asked = text.find("Sync? [y/N] yes (--yes)\n").unwrap();
    assert!(
        diff < text.find("NAME  CHANGE").unwrap() && diff < asked,
        "{text}"
    );
    assert!(!text.contains("Update?"), "{text}");
    assert_eq!(lock(&env)["note"]["commit"], v1.as_str());
    assert_eq!(lock(&env)["note"]["previous"]["commit"], v2.as_str());
    assert_eq!(env.ok(["note"]), "note v1\n");
}

#[test]
fn a_file_that_is_not_a_whole_bundle_is_refused() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    install(&env, "owner/roost-note");
    let bytes = std::fs::read(bundled(&env)).unwrap();
    let set = env.ok(["ext", "export"]);
    let mut trailing = bytes.clone();
    trailing.extend_from_slice(b"more");
    let two = TestEnv::new();
    for (what, content, said) in [
        (
            "a set file",
            set.into_bytes(),
            "it is not a roost extension bundle (its first line is not the bundle header)",
        ),
        (
            "bytes after the pack",
            trailing,
            "it is not a roost extension bundle (bytes follow its pack)",
        ),
        (
            "a cut pack",
            bytes[..bytes.len() - 40].to_vec(),
            "the bundle's pack cannot be read",
        ),
    ] {
        let file = two.path("x.bundle");
        std::fs::write(&file, content).unwrap();
        let err = refused(&offline(&two, &file, &["--yes"]));
        assert!(err.contains(said), "{what}: {err}");
        assert!(!lock_file(&two).exists(), "{what}");
    }
}
