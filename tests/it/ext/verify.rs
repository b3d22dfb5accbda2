//! `roost ext verify`: ok after install, and each difference of content,
//! mode, added, removed and retargeted files named.

use crate::common::ext::{clone_dir, edit_lock, install, installed, lock};
use crate::common::*;

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::process::Output;

/// `note`, with a README and an in-tree symlink, installed.
fn verifiable(env: &TestEnv) -> Fixture {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.write("README", "read me\n");
    f.write("docs/guide.txt", "a guide\n");
    std::os::unix::fs::symlink("README", f.work.join("link")).unwrap();
    f.commit("docs and a link");
    install(env, "owner/roost-note");
    f
}

fn verify_note(env: &TestEnv) -> Output {
    env.run(["ext", "verify", "note"])
}

fn assert_ok(env: &TestEnv) {
    let out = verify_note(env);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(stdout(&out), "note: ok\n");
}

fn assert_differs(env: &TestEnv, details: &[&str]) {
    let out = verify_note(env);
    exits(&out, Exit::Failed);
    let mut want = format!(
        "note: differs from the tree recorded at install ({} {})\n",
        details.len(),
        if details.len() == 1 { "file" } else { "files" }
    );
    for d in details {
        want.push_str(&format!("  {d}\n"));
    }
    assert_eq!(stdout(&out), want);
}

#[test]
fn verify_is_ok_after_install_and_the_lock_holds_gits_tree() {
    let env = TestEnv::new();
    let f = verifiable(&env);
    assert_eq!(lock(&env)["note"]["tree"], f.tree("HEAD"));
    assert_eq!(lock(&env)["note"]["commit"], f.ls_remote("HEAD"));
    assert_ok(&env);
}

#[test]
fn verify_names_a_file_whose_content_changed_by_one_byte() {
    let env = TestEnv::new();
    verifiable(&env);
    let readme = clone_dir(&env, "note").join("README");
    std::fs::write(&readme, "read mE\n").unwrap();
    assert_differs(&env, &["modified  README (content)"]);
    std::fs::write(&readme, "read me\n").unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_a_file_whose_mode_changed() {
    let env = TestEnv::new();
    verifiable(&env);
    let bin = clone_dir(&env, "note").join("bin/roost-note");
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_differs(&env, &["modified  bin/roost-note (mode 100755 -> 100644)"]);
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_an_added_file() {
    let env = TestEnv::new();
    verifiable(&env);
    let added = clone_dir(&env, "note").join("docs/extra");
    std::fs::write(&added, "x").unwrap();
    assert_differs(&env, &["added     docs/extra"]);
    std::fs::remove_file(&added).unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_a_removed_file() {
    let env = TestEnv::new();
    verifiable(&env);
    let guide = clone_dir(&env, "note").join("docs/guide.txt");
    std::fs::remove_file(&guide).unwrap();
    assert_differs(&env, &["removed   docs/guide.txt"]);
    std::fs::write(&guide, "a guide\n").unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_a_retargeted_symlink() {
    let env = TestEnv::new();
    verifiable(&env);
    let link = clone_dir(&env, "note").join("link");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("docs/guide.txt", &link).unwrap();
    assert_differs(&env, &["modified  link (symlink target)"]);
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("README", &link).unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_every_difference_at_once_in_path_order() {
    let env = TestEnv::new();
    verifiable(&env);
    let clone = clone_dir(&env, "note");
    std::fs::write(clone.join("README"), "changed\n").unwrap();
    std::fs::remove_file(clone.join("docs/guide.txt")).unwrap();
    std::fs::write(clone.join("added"), "").unwrap();
    assert_differs(
        &env,
        &[
            "modified  README (content)",
            "added     added",
            "removed   docs/guide.txt",
        ],
    );
}

#[test]
fn verify_ignores_the_clones_git_directory() {
    let env = TestEnv::new();
    verifiable(&env);
    std::fs::write(clone_dir(&env, "note").join(".git/scratch"), "x").unwrap();
    assert_ok(&env);
}

#[test]
fn verify_reports_a_missing_clone() {
    let env = TestEnv::new();
    verifiable(&env);
    let clone = clone_dir(&env, "note");
    std::fs::remove_dir_all(&clone).unwrap();
    let out = verify_note(&env);
    exits(&out, Exit::Failed);
    assert_eq!(
        stdout(&out),
        format!("note: missing ({} does not exist)\n", clone.display())
    );
}

/// `verify --json`: each entry, whether it is ok, its verdict and the
/// files that differ; the exit status and the repair hint as in text.
#[test]
fn verify_json_lists_each_entry_with_its_verdict_and_files() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    std::fs::write(clone_dir(&env, "mark").join("new"), "").unwrap();
    std::fs::write(
        clone_dir(&env, "mark").join("bin/roost-mark"),
        "#!/bin/sh\n",
    )
    .unwrap();
    let out = env.run(["ext", "verify", "--json"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext repair mark puts back the files pinned in ext.lock\n"
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        serde_json::json!([
            {
                "name": "mark",
                "ok": false,
                "verdict": "differs from the tree recorded at install (2 files)",
                "files": [
                    {"change": "modified", "path": "bin/roost-mark", "what": "content"},
                    {"change": "added", "path": "new", "what": null},
                ],
            },
            {"name": "note", "ok": true, "verdict": "ok", "files": []},
        ])
    );
    let out = env.run(["ext", "verify", "note", "--json"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        serde_json::json!([{"name": "note", "ok": true, "verdict": "ok", "files": []}])
    );
}

#[test]
fn verify_without_a_name_checks_every_extension() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let out = env.run(["ext", "verify"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(stdout(&out), "mark: ok\nnote: ok\n");
    std::fs::write(clone_dir(&env, "mark").join("new"), "").unwrap();
    let out = env.run(["ext", "verify"]);
    exits(&out, Exit::Failed);
    assert_eq!(
        stdout(&out),
        "mark: differs from the tree recorded at install (1 file)\n  added     new\nnote: ok\n"
    );
}

#[test]
fn verify_refuses_an_unknown_name() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    for name in ["nope", "../x", "-x"] {
        let out = env.run(["ext", "verify", name]);
        let err = exits(
            &out,
            if name == "-x" {
                Exit::Usage
            } else {
                Exit::Failed
            },
        );
        if name != "-x" {
            assert!(
                err.starts_with(&format!("roost ext verify: no such extension: {name}\n")),
                "{err}"
            );
        }
        assert_eq!(stdout(&out), "");
    }
}

#[test]
fn verify_refuses_a_tree_in_the_lock_that_is_not_a_hash() {
    let env = TestEnv::new();
    verifiable(&env);
    for tree in ["--help", "", "0123456", "../../x"] {
        edit_lock(&env, |v| v["note"]["tree"] = tree.into());
        let out = verify_note(&env);
        exits(&out, Exit::Failed);
        assert_eq!(
            stdout(&out),
            "note: ext.lock records no valid tree hash for it\n"
        );
    }
}

#[test]
fn verify_with_nothing_installed_says_so() {
    let env = TestEnv::new();
    let out = env.run(["ext", "verify"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(stdout(&out), "no extensions installed\n");
}
