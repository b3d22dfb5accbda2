//! `roost ext update --all` (each in turn, past failures, then a summary),
//! and git bases that install as file URLs that update.

use crate::common::ext::{lock, short};
use crate::common::sources::{break_source, bump, installed, linked, lock_and_index_agree};
use crate::common::*;

use serde_json::Value;

/// Each extension in turn: a broken source fails its own update only, the
/// others move, a summary names each with the reason, and the exit is 1.
/// ext.lock and ext.index agree afterwards.
#[test]
fn update_all_goes_past_a_broken_source_and_ends_with_a_summary() {
    let env = TestEnv::new();
    let gone = installed(&env, "gone", &[]);
    let note = installed(&env, "note", &[]);
    let zed = installed(&env, "zed", &[]);
    let dir = linked(&env);
    let (note_old, zed_old, gone_old) = (note.head(), zed.head(), gone.head());
    let note_new = bump(&note, "note", "note-two");
    bump(&gone, "gone", "gone-two");
    break_source(&gone);

    let out = env.run(["ext", "update", "--all", "--yes"]);
    let err = exits(&out, Exit::Failed);
    let bare = gone.bare.display();
    let why = format!(
        "cannot resolve HEAD at file://{bare}: no repository there ({bare} does not exist)"
    );
    assert_eq!(
        err,
        format!(
            "roost ext update: gone: {why}\n\
             check the path\n\
             roost ext update: not every extension was updated (gone was not)\n"
        )
    );
    let text = stdout(&out);
    assert!(
        text.ends_with(&format!(
            "\nsummary:\n\
             \x20 dev: linked: not pinned; edit it in {}\n\
             \x20 gone: failed: {why}\n\
             \x20 note: updated: {} -> {}\n\
             \x20 zed: unchanged: HEAD is still {}\n",
            dir.display(),
            short(&note_old),
            short(&note_new),
            short(&zed_old),
        )),
        "{text}"
    );
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], note_new.as_str());
    assert_eq!(l["gone"]["commit"], gone_old.as_str());
    assert_eq!(l["zed"]["commit"], zed_old.as_str());
    assert_eq!(env.ok(["note"]), "note-two\n");
    assert_eq!(env.ok(["gone"]), "gone\n");
    lock_and_index_agree(&env);
}

/// `--json`: stdout is the summary alone (the diff and the consent block go
/// to stderr); a grown authority under --yes is refused, named in the
/// summary, and granted with --grant.
#[test]
fn update_all_json_is_the_summary_alone_and_refuses_grown_authority() {
    let env = TestEnv::new();
    let note = installed(&env, "note", &[]);
    let zed = installed(&env, "zed", &[]);
    let old = note.head();
    note.manifest("note", &["note"], &["fleet"]);
    let new = note.commit("wants the fleet");

    let out = env.run(["ext", "update", "--all", "--yes", "--json"]);
    let err = exits(&out, Exit::Failed);
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON alone");
    assert_eq!(v[0]["name"], "note");
    assert_eq!(v[0]["status"], "refused");
    assert_eq!(
        v[0]["reason"],
        "not updated: it asks for fleet now, and --yes does not grant new authority"
    );
    // Refused, but both ends were known: the pin, and the commit offered.
    assert_eq!(v[0]["from"], old.as_str());
    assert_eq!(v[0]["to"], new.as_str());
    assert_eq!(v[1]["name"], "zed");
    assert_eq!(v[1]["status"], "unchanged");
    assert_eq!(v[1]["from"], zed.head().as_str());
    assert!(err.contains("If you update it, the code"), "{err}");
    assert!(
        err.contains("NOTE: it now asks for more than before: fleet"),
        "{err}"
    );
    assert!(
        err.ends_with("roost ext update: not every extension was updated (note was not)\n"),
        "{err}"
    );
    assert_eq!(lock(&env)["note"]["commit"], old.as_str());

    let out = env.run([
        "ext", "update", "--all", "--yes", "--grant", "fleet", "--json",
    ]);
    exits(&out, Exit::Ok);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["status"], "updated");
    assert_eq!(v[0]["from"], old.as_str());
    assert_eq!(v[0]["to"], new.as_str());
    assert_eq!(lock(&env)["note"]["needs"], serde_json::json!(["fleet"]));
    lock_and_index_agree(&env);
}

/// Without a terminal and without --yes, each is refused on its own; the
/// summary says so for each, and nothing changes.
#[test]
fn update_all_without_a_terminal_refuses_each_and_changes_nothing() {
    let env = TestEnv::new();
    let note = installed(&env, "note", &[]);
    let mark = installed(&env, "mark", &[]);
    bump(&note, "note", "note-two");
    bump(&mark, "mark", "mark-two");
    let before = snapshot(&env);
    let out = env.run(["ext", "update", "--all"]);
    let err = exits(&out, Exit::Failed);
    assert!(
        err.ends_with("roost ext update: not every extension was updated (mark, note were not)\n"),
        "{err}"
    );
    assert!(
        stdout(&out).ends_with(
            "\nsummary:\n\
             \x20 mark: refused: not updated: stdin is not a terminal\n\
             \x20 note: refused: not updated: stdin is not a terminal\n"
        ),
        "{}",
        stdout(&out)
    );
    assert_eq!(snapshot(&env), before);
}

#[test]
fn update_with_a_name_and_all_is_a_usage_error() {
    let env = TestEnv::new();
    installed(&env, "note", &[]);
    let before = snapshot(&env);
    let out = env.run(["ext", "update", "note", "--all", "--yes"]);
    let err = exits(&out, Exit::Usage);
    assert!(out.stdout.is_empty());
    assert!(err.starts_with("roost ext update: "), "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    assert!(err.contains("usage: roost ext update"), "{err}");
    assert_eq!(snapshot(&env), before);
}

/// On a terminal, `--all` asks about each in turn and reads one answer per
/// question: yes moves mark, no keeps note's pin, and the summary says which.
/// Progress shows while each remote is reached, on its own line.
#[test]
fn update_all_on_a_terminal_asks_about_each_in_turn() {
    let env = TestEnv::new();
    let mark = installed(&env, "mark", &[]);
    let note = installed(&env, "note", &[]);
    let (mark_old, note_old) = (mark.head(), note.head());
    let mark_new = bump(&mark, "mark", "mark-two");
    bump(&note, "note", "note-two");
    // Both answers are typed ahead, as a quick user might.
    let Some(out) = env.on_a_terminal("ext update --all", b"y\nn\n") else {
        return;
    };
    exits(&out, Exit::Failed);
    let seen = stdout(&out).replace('\r', "");
    assert_eq!(seen.matches("Update? [y/N] ").count(), 2, "{seen}");
    assert!(
        seen.contains("\x1b[Kroost: connecting to file://"),
        "{seen}"
    );
    assert!(
        seen.ends_with(&format!(
            "\nsummary:\n\
             \x20 mark: updated: {} -> {}\n\
             \x20 note: refused: not updated\n\
             roost ext update: not every extension was updated (note was not)\n",
            short(&mark_old),
            short(&mark_new),
        )),
        "{seen}"
    );
    let l = lock(&env);
    assert_eq!(l["mark"]["commit"], mark_new.as_str());
    assert_eq!(l["note"]["commit"], note_old.as_str());
    assert_eq!(env.ok(["mark"]), "mark-two\n");
    assert_eq!(env.ok(["note"]), "note\n");
    lock_and_index_agree(&env);
}

#[test]
fn a_plain_or_relative_git_base_installs_as_an_absolute_file_url_that_updates() {
    let env = TestEnv::new();
    let f = env.simple_ext("me/roost-note", "note", &["note"], &[]);
    let remote = env.path("remote");
    for base in [format!("{}/", remote.display()), "../remote".to_string()] {
        let out = env
            .roost(["ext", "install", "me/roost-note", "--yes"])
            .env("ROOST_EXT_GIT_BASE", &base)
            .output()
            .unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{base}: {}", describe(&out));
        let lock: serde_json::Value =
            serde_json::from_str(&env.read("state/roost/ext.lock")).unwrap();
        let text = lock.to_string();
        assert!(
            text.contains(&format!("\"file://{}/me/roost-note\"", remote.display())),
            "{base}: {text}"
        );
        f.exec("bin/roost-note", "#!/bin/sh\necho changed\n");
        f.commit("second");
        // From another directory, with the base unset: the record suffices.
        let out = env
            .roost(["ext", "update", "note", "--yes"])
            .env_remove("ROOST_EXT_GIT_BASE")
            .current_dir(env.path("config"))
            .output()
            .unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{base}: {}", describe(&out));
        assert_eq!(env.ok(["note"]), "changed\n");
        env.ok(["ext", "remove", "note"]);
    }
}

#[test]
fn a_nonsense_git_base_is_refused_before_anything_is_fetched() {
    let env = TestEnv::new();
    env.simple_ext("me/roost-note", "note", &["note"], &[]);
    let out = env
        .roost(["ext", "install", "me/roost-note", "--yes"])
        .env("ROOST_EXT_GIT_BASE", "nonsense-base")
        .output()
        .unwrap();
    assert_refusal(
        &out,
        Exit::Failed,
        "roost ext install: ROOST_EXT_GIT_BASE=nonsense-base is not a base roost can fetch from (neither a URL nor an existing directory)\n\
         set it to an https:// or ssh:// URL, file:///DIR/ or an existing directory, or unset it\n",
    );
    assert!(!env.path("state/roost/ext.lock").exists());
}
