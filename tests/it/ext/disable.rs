//! `roost ext disable`: the commands gone, and how
//! list, info, verify, update, rollback and completion show a disabled
//! extension.

use crate::common::ext::{clone_dir, index, install, lock};

use crate::common::versions::{aged, assert_never_installed, seen};

use crate::common::*;

use serde_json::Value;

/// `note` (commands note and notes) installed.
pub(crate) fn note(env: &TestEnv) -> Fixture {
    let f = env.simple_ext("owner/roost-note", "note", &["note", "notes"], &[]);
    install(env, "owner/roost-note");
    f
}

#[test]
fn disable_makes_its_commands_the_usage_error_of_a_word_never_installed() {
    let env = TestEnv::new();
    let f = note(&env);
    std::fs::write(env.path("state/roost/ext/note/kept"), "data").unwrap();
    assert_eq!(env.ok(["note"]), "note\n");
    let out = env.run(["ext", "disable", "note"]);
    assert_eq!(
        clean(&out),
        "disabled note: roost note, roost notes no longer run\n\
         its pin, clone and data are kept; `roost ext enable note` turns it back on\n"
    );
    assert_never_installed("note", &env.run(["note"]));
    assert_never_installed("notes", &env.run(["notes", "a"]));
    assert_eq!(index(&env), "");
    let l = lock(&env);
    assert_eq!(l["note"]["disabled"], true);
    assert_eq!(l["note"]["commit"], f.head());
    assert!(clone_dir(&env, "note").join("bin/roost-note").is_file());
    assert_eq!(env.read("state/roost/ext/note/kept"), "data");
    // exec cannot reach it either.
    assert_eq!(exit_of(&env.run(["ext", "exec", "note"])), Exit::Failed);
    // Disabling again says so and writes nothing.
    let before = aged(&env);
    assert_eq!(
        clean(&env.run(["ext", "disable", "note"])),
        "note is already disabled\n"
    );
    assert_eq!(seen(&env), before);
}

#[test]
fn list_info_and_verify_show_a_disabled_extension() {
    let env = TestEnv::new();
    let f = note(&env);
    env.ok(["ext", "disable", "note"]);
    // No warning: a disabled extension is meant to have no ext.index line.
    assert_eq!(
        clean(&env.run(["ext", "list"])),
        format!(
            "NAME  PINNED   COMMANDS\nnote  {}  note, notes  (disabled)\n",
            &f.head()[..7]
        )
    );
    let v: Value = serde_json::from_str(&clean(&env.run(["ext", "list", "--json"]))).unwrap();
    assert_eq!(v[0]["disabled"], true);
    assert_eq!(v[0]["previous"], Value::Null);
    let info = clean(&env.run(["ext", "info", "note"]));
    assert!(
        info.contains(
            "\ndisabled   yes: its commands do not run (roost ext enable note turns it on)\n"
        ),
        "{info}"
    );
    let v: Value =
        serde_json::from_str(&clean(&env.run(["ext", "info", "note", "--json"]))).unwrap();
    assert_eq!(v["lock"]["disabled"], true);
    // Its files are still checked.
    assert_eq!(env.ok(["ext", "verify", "note"]), "note: ok\n");
    std::fs::write(clone_dir(&env, "note").join("bin/roost-note"), "changed").unwrap();
    assert_eq!(exit_of(&env.run(["ext", "verify", "note"])), Exit::Failed);
}

#[test]
fn list_warns_when_the_index_still_runs_a_disabled_extension() {
    let env = TestEnv::new();
    note(&env);
    let lines = index(&env);
    env.ok(["ext", "disable", "note"]);
    std::fs::write(index_file(&env), lines).unwrap();
    let out = env.run(["ext", "list"]);
    assert!(
        exits(&out, Exit::Ok)
            .contains("  note: disabled in ext.lock, but ext.index still runs its commands\n"),
        "{}",
        describe(&out)
    );
}

#[test]
fn completion_offers_a_disabled_extension_by_name_but_not_its_commands() {
    let env = TestEnv::new();
    note(&env);
    let complete = |words: &[&str]| {
        let cword = (words.len() - 1).to_string();
        let out = env
            .roost(["__complete", "zsh", cword.as_str()].iter().chain(words))
            .output()
            .unwrap();
        clean(&out)
    };
    assert_eq!(
        complete(&["roost", "note"]),
        "note\textension note\nnotes\textension note\n"
    );
    env.ok(["ext", "disable", "note"]);
    assert_eq!(complete(&["roost", "note"]), "");
    assert_eq!(
        complete(&["roost", "ext", "info", ""]),
        "note\textension (disabled)\n"
    );
    assert_eq!(
        complete(&["roost", "ext", "enable", ""]),
        "note\textension (disabled)\n"
    );
    assert_eq!(complete(&["roost", "ext", "disable", ""]), "");
}
