//! `roost ext rollback` back to the pin before the last update, and what
//! it refuses.

use crate::common::ext::{clone_dir, index, install, lock};
use crate::common::versions::{aged, assert_never_installed, seen, two_versions, updated};
use crate::common::*;

use serde_json::{json, Value};

fn edit_lock(env: &TestEnv, edit: impl FnOnce(&mut Value)) {
    let mut v = lock(env);
    edit(&mut v);
    std::fs::write(
        lock_file(env),
        serde_json::to_string_pretty(&v).unwrap() + "\n",
    )
    .unwrap();
}

/// An extension installed from a URL records its repository as HOST/PATH;
/// rollback takes it from there as update does.
#[test]
fn rollback_works_for_an_extension_installed_from_a_url() {
    let env = TestEnv::new();
    let (_f, v1, v2) = updated(&env);
    edit_lock(&env, |v| {
        v["note"]["repo"] = "git.example.com/owner/roost-note".into();
        v["note"]["previous"]["repo"] = "git.example.com/owner/roost-note".into();
    });
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    let text = succeeded(&out);
    assert!(
        text.ends_with(&format!("rolled back note: {v2} -> {v1}\n")),
        "{text}"
    );
    assert_eq!(
        lock(&env)["note"]["previous"]["repo"],
        "git.example.com/owner/roost-note"
    );
}

/// A commit in ext.lock is printed and compared: one that is not a commit
/// id is refused, naming the entry, before anything is fetched or printed.
#[test]
fn update_and_rollback_refuse_a_recorded_commit_that_is_not_an_id() {
    let env = TestEnv::new();
    updated(&env);
    edit_lock(&env, |v| {
        v["note"]["commit"] = "\u{1b}[2J\u{1b}[31mFAKE".into()
    });
    let before = aged(&env);
    for verb in ["update", "rollback"] {
        let out = env.run(["ext", verb, "note", "--yes"]);
        assert_eq!(
            exits(&out, Exit::Failed),
            format!(
                "roost ext {verb}: note: ext.lock's commit '\\x1b[2J\\x1b[31mFAKE' is not 40 lowercase hex digits\n\
                 roost ext remove note, then install it again\n"
            )
        );
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
        assert_eq!(seen(&env), before);
    }
}

#[test]
fn rollback_returns_to_the_pin_before_the_update_and_a_second_one_comes_back() {
    let env = TestEnv::new();
    let (f, v1, v2) = updated(&env);
    assert_eq!(env.ok(["note"]), "note v2\n");
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "note: {v2} -> {v1}\n\nchanged files:\n  D NEWS\n  M bin/roost-note\n\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("  commit    {v1} (pinned)\n")),
        "{text}"
    );
    assert!(
        text.contains(
            "\nNothing runs during the rollback. Code runs when you type those commands.\n"
        ),
        "{text}"
    );
    assert!(text.contains("\nRoll back? [y/N] yes (--yes)\n"), "{text}");
    assert!(
        text.ends_with(&format!("rolled back note: {v2} -> {v1}\n")),
        "{text}"
    );
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], v1);
    assert_eq!(l["note"]["tree"], f.tree(&v1));
    assert_eq!(l["note"]["ref"], "HEAD");
    assert_eq!(l["note"]["previous"]["commit"], v2);
    assert_eq!(l["note"]["previous"]["tree"], f.tree(&v2));
    assert_eq!(env.ok(["note"]), "note v1\n");
    assert_eq!(env.ok(["ext", "verify", "note"]), "note: ok\n");
    assert!(!clone_dir(&env, "note").join("NEWS").exists());
    // Nothing is left behind: no temporary or set-aside clone.
    let left: Vec<_> = std::fs::read_dir(env.path("data/roost/ext"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("note")]);
    // Rolling back again returns to where the first rollback started.
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    assert!(stdout(&out).ends_with(&format!("rolled back note: {v1} -> {v2}\n")));
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], v2);
    assert_eq!(l["note"]["tree"], f.tree(&v2));
    assert_eq!(l["note"]["previous"]["commit"], v1);
    assert_eq!(env.ok(["note"]), "note v2\n");
    assert_eq!(env.ok(["ext", "verify"]), "note: ok\n");
}

#[test]
fn rollback_with_nothing_to_roll_back_refuses_and_writes_nothing() {
    let env = TestEnv::new();
    two_versions(&env);
    let before = aged(&env);
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_refusal(&out, Exit::Failed, "roost ext rollback: ");
    assert_eq!(
        stderr(&out),
        "roost ext rollback: note: nothing to roll back to: ext.lock records no pin before its last update\n\
         only `roost ext update note` records the pin it replaces; `roost ext info note` shows the current one\n"
    );
    assert_eq!(seen(&env), before);
    assert!(lock(&env)["note"].get("previous").is_none());
}

#[test]
fn rollback_refuses_an_unknown_name_a_linked_extension_and_a_bad_command_line() {
    let env = TestEnv::new();
    let out = env.run(["ext", "rollback", "nope"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext rollback: no such extension: nope\nroost ext list shows what is installed\n"
    );
    let out = env.run(["ext", "rollback"]);
    assert!(
        exits(&out, Exit::Usage).contains("usage: roost ext rollback"),
        "{}",
        describe(&out)
    );
    let out = env.run(["ext", "rollback", "note", "--grant", "network", "--yes"]);
    assert!(exits(&out, Exit::Usage).starts_with(
        "roost ext rollback: --grant network: not an authority this roost knows (fleet)\n"
    ));
    // A linked extension has no pin to go back to.
    let dir = env.path("authors/roost-jot");
    env.ok([
        "ext".as_ref(),
        "new".as_ref(),
        "jot".as_ref(),
        dir.as_os_str(),
    ]);
    env.ok([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        dir.as_os_str(),
        "--yes".as_ref(),
    ]);
    let before = aged(&env);
    let out = env.run(["ext", "rollback", "jot", "--yes"]);
    assert_refusal(&out, Exit::Failed, "roost ext rollback: jot is linked to ");
    assert!(
        stderr(&out).contains(
            ": nothing is pinned, so there is no earlier pin to go back to\n\
             a linked extension runs what its checkout holds: change it there\n"
        ),
        "{}",
        describe(&out)
    );
    assert_eq!(seen(&env), before);
}

#[test]
fn rollback_with_yes_refuses_authority_that_would_grow_unless_granted() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &["fleet"]);
    let v1 = f.head();
    install(&env, "owner/roost-note");
    // v2 asks for less: updating to it grants nothing new.
    f.manifest("note", &["note"], &[]);
    let v2 = f.commit("no fleet");
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    assert_eq!(lock(&env)["note"]["needs"], json!([]));
    let before = aged(&env);
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext rollback: note: not rolled back: it asks for fleet now, and --yes does not grant new authority\n\
         read the change above; to accept it from a script, add --grant fleet\n"
    );
    assert!(
        stdout(&out).ends_with(
            "NOTE: it now asks for more than before: fleet (it had: none); with fleet its code could read any pane's screen and send prompts to any agent\n"
        ),
        "{}",
        describe(&out)
    );
    assert!(stdout(&out).contains("If you roll back to it, the code\n"));
    assert_eq!(seen(&env), before);
    // Without --yes and without a terminal there is nobody to ask.
    let out = env.run(["ext", "rollback", "note"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext rollback: note: not rolled back: stdin is not a terminal\n\
         read the change above, then pass --yes to roll back from a script\n"
    );
    assert_eq!(seen(&env), before);
    // Named on the command line, it is granted.
    let out = env.run(["ext", "rollback", "note", "--yes", "--grant", "fleet"]);
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], v1);
    assert_eq!(l["note"]["needs"], json!(["fleet"]));
    assert_eq!(l["note"]["previous"]["commit"], v2);
    assert!(
        index(&env).ends_with("/bin/roost-note\tfleet\n"),
        "{}",
        index(&env)
    );
}

#[test]
fn rollback_fetches_the_earlier_commit_by_id_once_no_branch_leads_to_it() {
    let env = TestEnv::new();
    let (f, v1, _v2) = updated(&env);
    // History rewritten: main no longer leads to v1 (the server still holds it).
    f.git(&["checkout", "-q", "--orphan", "fresh"]);
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v3'\n");
    f.commit("rewritten");
    f.git(&["branch", "-D", "main"]);
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    assert_eq!(lock(&env)["note"]["commit"], v1);
    assert_eq!(env.ok(["note"]), "note v1\n");
}

#[test]
fn rollback_refuses_when_the_earlier_commit_is_gone_from_the_repository() {
    let env = TestEnv::new();
    let (f, v1, v2) = updated(&env);
    // main rewritten without v1, and v1 pruned from the server.
    f.git(&["checkout", "-q", "--orphan", "fresh"]);
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v3'\n");
    f.commit("rewritten");
    f.git(&["branch", "-D", "main"]);
    let bare = f.bare.to_string_lossy().into_owned();
    f.git(&[
        "--git-dir",
        &bare,
        "reflog",
        "expire",
        "--expire=now",
        "--all",
    ]);
    f.git(&["--git-dir", &bare, "gc", "-q", "--prune=now"]);
    let before = aged(&env);
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_refusal(
        &out,
        Exit::Failed,
        &format!("roost ext rollback: note: cannot fetch {v1} from file://"),
    );
    assert!(
        stderr(&out).ends_with(&format!(
            "\nthe repository may no longer hold that commit; nothing was changed, and note stays at {}\n",
            &v2[..7]
        )),
        "{}",
        describe(&out)
    );
    assert_eq!(seen(&env), before);
    assert_eq!(env.ok(["note"]), "note v2\n");
}

#[test]
fn rollback_refuses_a_commit_whose_files_are_not_the_recorded_tree() {
    let env = TestEnv::new();
    let (f, v1, v2) = updated(&env);
    let other = f.tree(&v2);
    edit_lock(&env, |v| {
        v["note"]["previous"]["tree"] = other.clone().into()
    });
    let before = aged(&env);
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_refusal(&out, Exit::Failed, "roost ext rollback: ");
    assert_eq!(
        stderr(&out),
        format!(
            "roost ext rollback: note: commit {v1} has tree {}, but ext.lock recorded tree {other} for it; refusing to put other files in place than the ones agreed to\n\
             nothing was changed, and note stays at {}; `roost ext info note` shows what ext.lock records\n",
            f.tree(&v1),
            &f.head()[..7]
        )
    );
    assert_eq!(seen(&env), before);
    // A recorded commit that is not a full commit id never reaches the network.
    edit_lock(&env, |v| v["note"]["previous"]["commit"] = "HEAD".into());
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext rollback: note: the pin before the last update: ext.lock's commit 'HEAD' is not 40 lowercase hex digits\n"
    );
}

#[test]
fn update_and_rollback_keep_a_disabled_extension_disabled() {
    let env = TestEnv::new();
    let (_f, v1, v2) = two_versions(&env);
    env.ok(["ext", "disable", "note"]);
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    assert!(
        stdout(&out).ends_with(&format!(
            "updated note: {v1} -> {v2}\nnote stays disabled: roost ext enable note turns it on\n"
        )),
        "{}",
        describe(&out)
    );
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], v2);
    assert_eq!(l["note"]["disabled"], true);
    assert_never_installed("note", &env.run(["note"]));
    assert_eq!(env.ok(["ext", "verify", "note"]), "note: ok\n");
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    assert!(
        succeeded(&out).ends_with(&format!(
            "rolled back note: {v2} -> {v1}\nnote stays disabled: roost ext enable note turns it on\n"
        )),
        "{}",
        describe(&out)
    );
    assert_eq!(lock(&env)["note"]["disabled"], true);
    assert_eq!(index(&env), "");
    env.ok(["ext", "enable", "note"]);
    assert_eq!(env.ok(["note"]), "note v1\n");
}
