//! `roost ext sync FILE`: a set exported on one HOME installed on another,
//! a changed pin moved through the update path, one consent for the whole
//! set, and `--frozen` refusing every kind of drift with nothing changed.

use crate::common::ext::{install, lock};
use crate::common::versions::{aged, seen, two_versions};
use crate::common::*;

use std::path::{Path, PathBuf};

mod bundle;
mod settings;

/// Exports `env`'s set to a file in a directory of its own; the file's path.
fn exported(env: &TestEnv) -> PathBuf {
    let file = env.path("sets/roost.set");
    env.ok([
        "ext".as_ref(),
        "export".as_ref(),
        "-o".as_ref(),
        file.as_os_str(),
    ]);
    file
}

pub(crate) fn sync(env: &TestEnv, file: &Path, more: &[&str]) -> std::process::Output {
    let mut args: Vec<&std::ffi::OsStr> = vec!["ext".as_ref(), "sync".as_ref(), file.as_os_str()];
    args.extend(more.iter().map(std::ffi::OsStr::new));
    env.run(args)
}

/// Two extensions (one asking for fleet) installed on a first HOME.
pub(crate) fn first_home() -> TestEnv {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-zed", "zed", &["zed"], &["fleet"]);
    install(&env, "owner/roost-zed");
    env.simple_ext("owner/roost-abc", "abc", &["abc"], &[]);
    install(&env, "owner/roost-abc");
    env
}

#[test]
fn export_then_sync_on_a_second_home_gives_the_same_commits_and_trees() {
    let one = first_home();
    let file = exported(&one);
    let two = TestEnv::new();
    let out = sync(&two, &file, &["--yes", "--grant", "fleet"]);
    let text = succeeded(&out);
    assert!(text.contains("NAME  CHANGE"), "{text}");
    assert!(text.contains("Sync? [y/N] yes (--yes)\n"), "{text}");
    for name in ["abc", "zed"] {
        for field in ["commit", "tree", "ref", "url", "needs"] {
            assert_eq!(
                lock(&two)[name][field],
                lock(&one)[name][field],
                "{name} {field}"
            );
        }
        assert!(text.contains(&format!(
            "{name}: installed at {}\n",
            lock(&one)[name]["commit"].as_str().unwrap()
        )));
    }
    // The second HOME's set is the first's, byte for byte, and a second
    // sync has nothing to do.
    assert_eq!(two.ok(["ext", "export"]), one.ok(["ext", "export"]));
    let again = sync(&two, &file, &[]);
    assert_eq!(
        succeeded(&again),
        format!(
            "the installed set matches {}; nothing to do\n",
            file.display()
        )
    );
    assert_eq!(
        succeeded(&sync(&two, &file, &["--frozen"])),
        format!("the installed set matches {}\n", file.display())
    );
    two.ok(["zed"]);
}

#[test]
fn one_question_for_the_whole_set_and_yes_still_needs_grant_and_accept_signer() {
    let one = first_home();
    let file = exported(&one);
    let two = TestEnv::new();
    // No terminal, no --yes: the table, then the refusal.
    let out = sync(&two, &file, &[]);
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext sync: not synced: stdin is not a terminal; nothing was changed\n\
         read the table above, then pass --yes to sync from a script\n"
    );
    let table = stdout(&out);
    assert!(table.contains("abc   new at "), "{table}");
    assert!(table.contains(" fleet "), "{table}");
    assert!(!two.path("data/roost/ext/abc").exists());
    // --yes without --grant: refused, naming what to add.
    let err = refused(&sync(&two, &file, &["--yes"]));
    assert_eq!(
        err,
        "roost ext sync: not synced: the set asks for fleet, and --yes does not grant authority\n\
         read the table above; to accept it from a script, add --grant fleet\n"
    );
    assert!(!two.path("data/roost/ext").join("abc").exists());
}

/// A set whose extension is SSH-signed: with --yes, its signer must be
/// named back; once accepted it is recorded, and --frozen agrees.
#[test]
fn a_signed_set_needs_its_signer_named_and_records_it() {
    use crate::ext::update::signer::{ssh_commit, ssh_key, touch};
    let one = TestEnv::new();
    let (key, fpr) = ssh_key(&one, "alice");
    let f = one.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    touch(&f, "one");
    ssh_commit(&f, &key, "signed");
    install(&one, "owner/roost-note");
    let file = exported(&one);
    let signer = format!("ssh:{fpr}");
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains(&format!(" no {signer} file://")),
        "{}",
        file.display()
    );
    let two = TestEnv::new();
    let err = refused(&sync(&two, &file, &["--yes"]));
    assert_eq!(
        err,
        format!(
            "roost ext sync: not synced: the set names signer {signer}, and --yes does not accept a signer\n\
             read the table above; to accept it from a script, add --accept-signer {signer}\n"
        )
    );
    assert!(!lock_file(&two).exists());
    succeeded(&sync(&two, &file, &["--yes", "--accept-signer", &signer]));
    assert_eq!(lock(&two)["note"]["signer"], signer.as_str());
    assert_eq!(
        lock(&two)["note"]["signers"],
        serde_json::json!([signer.as_str()])
    );
    succeeded(&sync(&two, &file, &["--frozen"]));
}

#[test]
fn a_changed_pin_goes_through_the_update_path_to_the_listed_commit() {
    let env = TestEnv::new();
    let (_f, v1, v2) = two_versions(&env);
    let file = exported(&env);
    env.ok(["ext", "update", "note", "--yes"]);
    assert_eq!(lock(&env)["note"]["commit"], v2.as_str());
    let out = sync(&env, &file, &["--yes"]);
    let text = succeeded(&out);
    assert!(text.contains(&format!("note: {v2} -> {v1}\n")), "{text}");
    assert!(
        text.contains("-echo 'note v2'\n+echo 'note v1'\n"),
        "{text}"
    );
    // The diff and the checks come before the one question, and nothing
    // else is asked.
    let diff = text.find(&format!("note: {v2} -> {v1}\n")).unwrap();
    let asked = text.find("Sync? [y/N] yes (--yes)\n").unwrap();
    assert!(
        diff < text.find("NAME  CHANGE").unwrap() && diff < asked,
        "{text}"
    );
    assert!(!text.contains("Update?"), "{text}");
    assert!(text.ends_with(&format!("note: {v2} -> {v1}\n")), "{text}");
    assert_eq!(lock(&env)["note"]["commit"], v1.as_str());
    // The pin it replaced is kept, for rollback.
    assert_eq!(lock(&env)["note"]["previous"]["commit"], v2.as_str());
    assert_eq!(env.ok(["note"]), "note v1\n");
}

#[test]
fn extras_are_named_and_kept_unless_prune() {
    let env = first_home();
    let file = exported(&env);
    env.simple_ext("owner/roost-more", "more", &["more"], &[]);
    install(&env, "owner/roost-more");
    let text = succeeded(&sync(&env, &file, &[]));
    assert!(
        text.starts_with(&format!(
            "more: installed, not in {}: kept (--prune removes it)\n",
            file.display()
        )),
        "{text}"
    );
    assert!(lock(&env).get("more").is_some());
    let text = succeeded(&sync(&env, &file, &["--prune", "--yes"]));
    assert!(text.contains("more  remove (--prune)"), "{text}");
    assert!(
        text.ends_with("more: removed (its data is kept)\n"),
        "{text}"
    );
    assert!(lock(&env).get("more").is_none());
    assert!(!env.path("data/roost/ext/more").exists());
}

/// The set file, made read-only in a read-only directory.
fn read_only(env: &TestEnv, text: &str) -> (PathBuf, Option<Unwritable>) {
    let dir = env.path("frozen");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("roost.set");
    std::fs::write(&file, text).unwrap();
    std::fs::set_permissions(
        &file,
        <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o444),
    )
    .unwrap();
    let guard = Unwritable::new(&dir);
    (file, guard)
}

#[test]
fn frozen_refuses_each_kind_of_drift_and_changes_nothing() {
    let env = TestEnv::new();
    let (_f, v1, v2) = two_versions(&env);
    let text = env.ok(["ext", "export"]);
    let (file, guard) = read_only(&env, &text);
    if guard.is_none() {
        return skip_without("a directory this test can make unwritable");
    }
    let tree = lock(&env)["note"]["tree"].as_str().unwrap().to_string();
    let url = lock(&env)["note"]["url"].as_str().unwrap().to_string();
    // The same set: exit 0.
    assert_eq!(
        succeeded(&sync(&env, &file, &["--frozen"])),
        format!("the installed set matches {}\n", file.display())
    );
    let other = TestEnv::new();
    other.simple_ext("owner/roost-more", "more", &["more"], &[]);
    let more_line =
        |commit: &str| format!("more owner/roost-more HEAD {commit} {tree} - no - {url} -\n");
    let drifts: Vec<(&str, String, String)> = vec![
        (
            "another commit",
            text.replace(&v1, &v2),
            format!("  note: commit {v1} here, {v2} in the file\n"),
        ),
        (
            "another signer",
            text.replace(" no unsigned file://", " no ssh:SHA256:abc file://"),
            "  note: signer unsigned here, ssh:SHA256:abc in the file\n".into(),
        ),
        (
            "disabled",
            text.replace(" no unsigned file://", " yes unsigned file://"),
            "  note: enabled here, disabled in the file\n".into(),
        ),
        (
            "another authority",
            text.replace(&format!(" {tree} - "), &format!(" {tree} fleet ")),
            "  note: authority none here, fleet in the file\n".into(),
        ),
        (
            "an unreadable line",
            format!("{text}this is not a set line\n"),
            "  line 4: it has 6 fields separated by single spaces; a set line has 10\n".into(),
        ),
        (
            "an extra extension",
            text.lines().take(2).map(|l| format!("{l}\n")).collect(),
            "  note: installed, but not in the file\n".into(),
        ),
        (
            "a missing extension",
            format!("{text}{}", more_line(&v2)),
            format!("  more: not installed; the file lists it at {v2}\n"),
        ),
    ];
    drop(guard);
    for (what, drifted, listed) in drifts {
        let (file, _guard) = read_only(&env, &drifted);
        let before = aged(&env);
        let out = sync(&env, &file, &["--frozen"]);
        let err = refused(&out);
        assert_eq!(stdout(&out), listed, "{what}");
        assert!(
            err.starts_with(&format!(
                "roost ext sync: the installed set differs from {} in 1 way; nothing was changed (--frozen)\n",
                file.display()
            )),
            "{what}: {err}"
        );
        assert_eq!(seen(&env), before, "{what}: something changed");
        drop(_guard);
        let _ = std::fs::remove_dir_all(env.path("frozen"));
    }
}

#[test]
fn a_file_that_is_not_a_set_is_refused_whole() {
    let env = TestEnv::new();
    let file = env.write("not.set", "hello\n");
    let out = sync(&env, &file, &["--frozen"]);
    assert_refusal(
        &out,
        Exit::Failed,
        &format!(
            "roost ext sync: {}: its first line is not '# roost extension set, format 1', so it is not a set file\n",
            file.display()
        ),
    );
    let out = sync(&env, &env.path("nowhere.set"), &[]);
    assert_refusal(
        &out,
        Exit::Failed,
        &format!(
            "roost ext sync: {}: there is no such file\n",
            env.path("nowhere.set").display()
        ),
    );
}

#[test]
fn a_commit_asking_for_other_authority_than_listed_is_refused_and_the_rest_go_on() {
    let one = first_home();
    let text = one.ok(["ext", "export"]);
    let two = TestEnv::new();
    let tree = lock(&one)["zed"]["tree"].as_str().unwrap().to_string();
    let file = two.write(
        "lies.set",
        &text.replace(&format!(" {tree} fleet "), &format!(" {tree} - ")),
    );
    let out = sync(&two, &file, &["--yes"]);
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext sync: zed: its commit asks for fleet, but the file lists none; nothing was changed\n\
         export the set again where it was made, and read what changed\n\
         roost ext sync: 1 extension was not synced: zed\n"
    );
    let text = stdout(&out);
    assert!(text.contains("abc: installed at "), "{text}");
    assert!(lock(&two).get("zed").is_none());
    assert!(!two.path("data/roost/ext/zed").exists());
    assert_eq!(lock(&two)["abc"]["commit"], lock(&one)["abc"]["commit"]);
}

#[test]
fn on_a_terminal_the_one_answer_decides_for_the_whole_set() {
    let one = first_home();
    let file = exported(&one);
    let two = TestEnv::new();
    let args = format!("ext sync '{}'", file.display());
    let Some(out) = two.on_a_terminal(&args, b"n\n") else {
        return;
    };
    let seen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert_eq!(out.status.code(), Some(1), "{seen}");
    assert_eq!(seen.matches("Sync? [y/N]").count(), 1, "{seen}");
    assert!(seen.contains("not synced; nothing was changed"), "{seen}");
    assert!(!lock_file(&two).exists());
    let Some(out) = two.on_a_terminal(&args, b"y\n") else {
        return;
    };
    let seen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert_eq!(out.status.code(), Some(0), "{seen}");
    assert_eq!(seen.matches("Sync? [y/N]").count(), 1, "{seen}");
    // On a terminal, the question is the consent: no --grant needed.
    assert_eq!(lock(&two)["zed"]["needs"], lock(&one)["zed"]["needs"]);
    assert_eq!(lock(&two)["abc"]["commit"], lock(&one)["abc"]["commit"]);
}

/// A signer holding a space (a certificate's name) is one field, written
/// %20, read back as itself, and held against the commit's own signature:
/// a file that names a signer the commit does not carry installs nothing.
#[test]
fn a_signer_with_a_space_is_one_field_and_held_to_the_commit() {
    let one = first_home();
    let text = one.ok(["ext", "export"]);
    let two = TestEnv::new();
    let file = two.write(
        "signed.set",
        &text.replace(" no unsigned file://", " no x509:Jane%20Doe file://"),
    );
    let out = sync(
        &two,
        &file,
        &[
            "--yes",
            "--grant",
            "fleet",
            "--accept-signer",
            "x509:Jane Doe",
        ],
    );
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let commit = lock(&one)["abc"]["commit"].as_str().unwrap()[..7].to_string();
    assert!(
        err.contains(&format!(
            "commit {commit} is signed by unsigned, but the file lists x509:Jane Doe; nothing was installed"
        )),
        "{err}"
    );
    assert!(!two.path("data/roost/ext/abc").exists());
}
