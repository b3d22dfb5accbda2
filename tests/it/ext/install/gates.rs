//! `roost ext install`'s gates: symlinks that leave the tree, and manifests
//! that claim what they may not or name what is missing.

use crate::common::*;
use crate::ext::install::{ext_with, install, note_repo, url_of};

use serde_json::{json, Value};
use std::os::unix::fs::symlink;
use std::path::Path;

/// Refused with `needle` in the one-line reason, nothing shown, nothing written.
fn assert_gate(env: &TestEnv, needle: &str) {
    let before = snapshot(env);
    let out = install(env, &["owner/roost-note", "--yes"]);
    let err = refused(&out);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "roost ext install: refusing {} at ",
            url_of(env, "owner/roost-note")
        )),
        "{err}"
    );
    assert!(err.contains(needle), "want {needle:?} in {err}");
    assert_eq!(snapshot(env), before);
    assert!(!env.path("data/roost").exists(), "{:?}", snapshot(env));
}

/// Install refuses the note repository with the symlinks `links`, with a
/// one-line refusal holding `needle` (see `assert_gate`).
fn refuses_links(links: &[(&str, &str)], needle: &str) {
    let env = TestEnv::new();
    with_links(&env, links);
    assert_gate(&env, needle);
}

/// The note repository plus the symlinks `links` (path, target).
fn with_links(env: &TestEnv, links: &[(&str, &str)]) {
    let f = note_repo(env);
    f.write("sub/file", "x\n");
    for (path, target) in links {
        let at = f.work.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(target, at).unwrap();
    }
    f.commit("links");
}

/// The note repository with `manifest` (and executables for `execs`).
fn gate_manifest(manifest: Value, execs: &[&str], needle: &str) {
    let env = TestEnv::new();
    ext_with(&env, "owner/roost-note", manifest, execs);
    assert_gate(&env, needle);
}

#[test]
fn install_refuses_a_symlink_to_an_absolute_path() {
    refuses_links(
        &[("passwd", "/etc/passwd")],
        "the symlink passwd points to the absolute path /etc/passwd",
    );
}

#[test]
fn install_refuses_a_symlink_that_climbs_out_of_the_tree() {
    refuses_links(
        &[("sub/up", "../../outside")],
        "the symlink sub/up points to ../../outside, outside the extension",
    );
}

#[test]
fn install_refuses_a_symlink_that_leaves_through_a_chain_of_links() {
    // `here` stays inside; `x` looks inside but goes through `here` to the parent.
    refuses_links(
        &[("here", "."), ("x", "here/../secret")],
        "the symlink x points to",
    );
}

#[test]
fn install_refuses_a_directory_symlink_out() {
    refuses_links(
        &[("sub/top", ".."), ("etc", "sub/top/..")],
        "the symlink etc ",
    );
}

#[test]
fn symlinks_that_stay_inside_are_installed() {
    let env = TestEnv::new();
    with_links(
        &env,
        &[
            ("a", "sub/file"),
            ("sub/b", "../sub/file"),
            ("dirlink", "sub"),
        ],
    );
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    assert_eq!(
        std::fs::read_link(env.path("data/roost/ext/note/a")).unwrap(),
        Path::new("sub/file")
    );
    assert_eq!(env.ok(["ext", "verify"]), "note: ok\n");
}

#[test]
fn install_refuses_another_contract_naming_both_numbers() {
    gate_manifest(
        json!({"name": "note", "contract": 2, "commands": ["note"]}),
        &["note"],
        "roost-ext.json: contract 2: this roost speaks contract 1",
    );
}

#[test]
fn install_refuses_an_unknown_authority_naming_it() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note"], "needs": ["fleet", "network"]}),
        &["note"],
        "field \"needs\": unknown authority \"network\"",
    );
}

#[test]
fn install_refuses_a_claim_on_a_core_command() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note", "send"]}),
        &["note", "send"],
        "command \"send\" is a roost core command",
    );
}

#[test]
fn install_refuses_a_claim_on_an_ext_verb() {
    for verb in [
        "remove", "verify", "install", "list", "update", "info", "check", "new",
    ] {
        gate_manifest(
            json!({"name": "squat", "contract": 1, "commands": ["squat", verb]}),
            &["squat", verb],
            &format!(
                "command \"{verb}\" is a verb of roost ext (roost ext {verb}); an extension cannot claim it"
            ),
        );
    }
}

#[test]
fn install_refuses_a_command_claimed_twice() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note", "note"]}),
        &["note"],
        "command \"note\" appears twice",
    );
}

#[test]
fn install_refuses_a_bad_name() {
    gate_manifest(
        json!({"name": "Note", "contract": 1, "commands": ["note"]}),
        &["note"],
        "field \"name\": \"Note\" is not a valid name",
    );
}

#[test]
fn install_refuses_a_bad_command_name() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["../note"]}),
        &["note"],
        "command \"../note\" is not a valid name",
    );
}

#[test]
fn install_refuses_a_control_character_naming_the_field() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.write(
        "roost-ext.json",
        r#"{"name": "note", "contract": 1, "commands": ["note"], "description": "hi \u001b[2J there"}"#,
    );
    f.commit("escape");
    assert_gate(&env, "field \"description\" contains a control character");
}

#[test]
fn install_refuses_a_missing_manifest() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    f.exec("bin/roost-note", "#!/bin/sh\n");
    f.commit("no manifest");
    assert_gate(&env, "there is no roost-ext.json");
}

#[test]
fn install_refuses_a_missing_command_executable() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note", "notes"]}),
        &["note"],
        "command notes: bin/roost-notes is missing",
    );
}

#[test]
fn install_refuses_a_command_that_is_not_executable() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.write("bin/roost-note", "#!/bin/sh\n");
    f.commit("not executable");
    assert!(f
        .git(&["ls-files", "-s", "bin/roost-note"])
        .starts_with("100644 "));
    assert_gate(&env, "command note: bin/roost-note is not executable");
}

#[test]
fn install_refuses_completion_data_of_an_unknown_kind_naming_it() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note"],
               "completion": {"note": {"options": {"--in": "fiel"}}}}),
        &["note"],
        "field \"completion.note.options.--in\" names the unknown kind \"fiel\"",
    );
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note"],
               "completion": {"nope": {}}}),
        &["note"],
        "field \"completion.nope\" is not one of the manifest's commands",
    );
}
