//! `roost ext check` runs the install gates on a directory, refusing what
//! install refuses, alike.

use crate::common::ext::{check, roost_files, scaffold, VERSION};
use crate::common::*;

use serde_json::{json, Value};
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::Command;

/// Builds a `note` extension with `build`, publishes it, and insists that
/// `ext check` on the directory and `ext install` of the repository refuse
/// with the same gate message, which contains `needle`.
fn same_refusal(build: impl FnOnce(&Fixture), needle: &str) {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    build(&f);
    f.commit("bad");

    let out = check(&env, &f.work, false);
    let err = exits(&out, Exit::Failed);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    let prefix = format!(
        "roost ext check: install would refuse {}: ",
        f.work.display()
    );
    let from_check = err
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("want {prefix:?} in {err:?}"))
        .to_string();

    let out = check(&env, &f.work, true);
    exits(&out, Exit::Failed);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["refusal"].as_str().unwrap(), from_check.trim_end());

    let before = roost_files(&env);
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    let prefix = format!(
        "roost ext install: refusing file://{}/owner/roost-note at {}: ",
        env.path("remote").display(),
        &f.head()[..7]
    );
    let from_install = err
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("want {prefix:?} in {err:?}"));
    assert_eq!(from_check, from_install);
    assert!(
        from_check.contains(needle),
        "want {needle:?} in {from_check}"
    );
    assert_eq!(from_check.lines().count(), 1, "{from_check}");
    assert_eq!(roost_files(&env), before);
}

fn note_manifest(f: &Fixture, manifest: Value) {
    f.write(
        "roost-ext.json",
        &serde_json::to_string_pretty(&manifest).unwrap(),
    );
}

fn good_note(f: &Fixture) {
    f.manifest("note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
}

/// What `ext check` prints for the scaffold `note` it would accept, down to
/// its needs line.
fn accepted(dir: &Path, needs: &str) -> String {
    format!(
        "{}: install would accept it\n\
         \x20 name      note\n\
         \x20 contract  1 (roost speaks 1)\n\
         \x20 claims    roost note\n\
         \x20 needs     {needs}\n",
        dir.display()
    )
}

#[test]
fn check_of_the_scaffold_says_what_it_would_claim_and_ask_for() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let before = roost_files(&env);
    let out = check(&env, &dir, false);
    assert_eq!(
        clean(&out),
        accepted(
            &dir,
            "nothing: it does not ask for access to the user's agents"
        )
    );
    // Nothing is installed by checking.
    assert_eq!(roost_files(&env), before);
    assert!(!lock_file(&env).exists() && !index_file(&env).exists());
}

#[test]
fn check_says_when_an_extension_asks_for_the_fleet() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    std::fs::write(
        dir.join("roost-ext.json"),
        r#"{"name": "note", "contract": 1, "commands": ["note"], "needs": ["fleet"]}"#,
    )
    .unwrap();
    let out = check(&env, &dir, false);
    assert_eq!(
        clean(&out),
        accepted(&dir, "fleet: it asks to drive the user's agents")
            + "note: install takes the last commit, and these files differ from it: \
               roost-ext.json (changed)\n"
    );
}

#[test]
fn check_notes_the_files_that_differ_from_the_last_commit_which_install_takes() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", describe(&out));
    };
    let commit = || {
        git(&[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "commit",
            "-qm",
            "change",
        ])
    };
    // Committed without its exec bit, executable on disk: check alone would
    // pass it, install would refuse it.
    git(&["update-index", "--chmod=-x", "bin/roost-note"]);
    commit();
    std::fs::write(dir.join("README.md"), "edited\n").unwrap();
    std::fs::write(dir.join("scratch.txt"), "never committed\n").unwrap();
    std::fs::remove_file(dir.join("roost-ext.json")).unwrap();
    std::fs::write(
        dir.join("roost-ext.json"),
        r#"{"name": "note", "contract": 1, "commands": ["note", "more"]}"#,
    )
    .unwrap();
    std::fs::write(dir.join("bin/roost-more"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(
        dir.join("bin/roost-more"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let note = "install takes the last commit, and these files differ from it: \
                README.md (changed), bin/roost-more (not committed), \
                bin/roost-note (mode changed), roost-ext.json (changed)";
    let out = check(&env, &dir, false);
    assert!(
        clean(&out).ends_with(&format!("note: {note}\n")),
        "{}",
        clean(&out)
    );
    let v: Value = serde_json::from_str(&clean(&check(&env, &dir, true))).unwrap();
    assert_eq!(v["notes"], json!([note]));
    // Committed, nothing is noted.
    git(&["add", "-A"]);
    commit();
    let v: Value = serde_json::from_str(&clean(&check(&env, &dir, true))).unwrap();
    assert_eq!(v["notes"], json!([]));
}

#[test]
fn check_json_of_the_scaffold_is_ok() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let out = check(&env, &dir, true);
    let v: Value = serde_json::from_str(&clean(&out)).unwrap();
    assert_eq!(
        v,
        json!({
            "dir": dir.to_str().unwrap(),
            "ok": true,
            "refusal": null,
            "name": "note",
            "contract": 1,
            "commands": ["note"],
            "needs": [],
            "agents": [],
            "screens": [],
            "notes": [],
        })
    );
}

#[test]
fn check_of_something_that_is_not_a_directory_is_refused() {
    let env = TestEnv::new();
    let out = check(&env, &env.path("nothing-here"), false);
    assert_eq!(
        exits(&out, Exit::Failed),
        format!(
            "roost ext check: {} is not a directory\ngive the directory of an extension's checkout\n",
            env.path("nothing-here").display()
        )
    );
    assert!(out.stdout.is_empty());
    let out = env.run(["ext", "check"]);
    let err = exits(&out, Exit::Usage);
    assert!(err.starts_with("roost ext check: missing DIR\n"), "{err}");
}

#[test]
fn check_and_install_refuse_a_symlink_to_an_absolute_path_alike() {
    same_refusal(
        |f| {
            good_note(f);
            symlink("/etc/passwd", f.work.join("passwd")).unwrap();
        },
        "the symlink passwd points to the absolute path /etc/passwd",
    );
}

#[test]
fn check_and_install_refuse_a_symlink_that_climbs_out_alike() {
    same_refusal(
        |f| {
            good_note(f);
            f.write("sub/file", "x\n");
            symlink("../../outside", f.work.join("sub/up")).unwrap();
        },
        "the symlink sub/up points to ../../outside, outside the extension",
    );
}

#[test]
fn check_and_install_refuse_another_contract_alike() {
    same_refusal(
        |f| {
            note_manifest(
                f,
                json!({"name": "note", "contract": 2, "commands": ["note"]}),
            );
            f.exec("bin/roost-note", "#!/bin/sh\n");
        },
        "contract 2: this roost speaks contract 1",
    );
}

#[test]
fn check_and_install_refuse_an_unknown_authority_alike() {
    same_refusal(
        |f| {
            note_manifest(
                f,
                json!({"name": "note", "contract": 1, "commands": ["note"], "needs": ["network"]}),
            );
            f.exec("bin/roost-note", "#!/bin/sh\n");
        },
        "unknown authority \"network\"",
    );
}

#[test]
fn check_and_install_refuse_a_claim_on_a_core_command_alike() {
    same_refusal(
        |f| {
            note_manifest(
                f,
                json!({"name": "note", "contract": 1, "commands": ["note", "send"]}),
            );
            f.exec("bin/roost-note", "#!/bin/sh\n");
            f.exec("bin/roost-send", "#!/bin/sh\n");
        },
        "command \"send\" is a roost core command",
    );
}

#[test]
fn check_and_install_refuse_a_missing_command_executable_alike() {
    same_refusal(
        |f| {
            f.manifest("note", &["note", "notes"], &[]);
            f.exec("bin/roost-note", "#!/bin/sh\n");
        },
        "command notes: bin/roost-notes is missing",
    );
}

#[test]
fn check_and_install_refuse_a_command_that_is_not_executable_alike() {
    same_refusal(
        |f| {
            f.manifest("note", &["note"], &[]);
            f.write("bin/roost-note", "#!/bin/sh\n");
        },
        "command note: bin/roost-note is not executable (git mode 100755)",
    );
}

/// check warns of a roost range this roost is outside of, or cannot read,
/// in install's words, and still accepts it (install goes ahead too).
#[test]
fn check_gives_the_roost_range_warning_install_gives() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let manifest = dir.join("roost-ext.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["roost"] = ">=99.0.0 <100.0.0".into();
    std::fs::write(&manifest, serde_json::to_vec(&m).unwrap()).unwrap();
    let text = clean(&check(&env, &dir, false));
    let warning = format!(
        "note: it says it is for roost >=99.0.0 <100.0.0; this is roost {VERSION}. The range is advisory: installing anyway.\n"
    );
    assert!(text.contains(&warning), "{text}");
    let v: Value = serde_json::from_str(&clean(&check(&env, &dir, true))).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["notes"][0], warning["note: ".len()..warning.len() - 1]);
    m["roost"] = "99".into();
    std::fs::write(&manifest, serde_json::to_vec(&m).unwrap()).unwrap();
    let text = clean(&check(&env, &dir, false));
    assert!(
        text.contains("note: roost cannot read its roost range (only \">=A.B.C <D.E.F\" and \"*\" are understood); the check is skipped.\n"),
        "{text}"
    );
}

/// A `qwen` extension teaching the agent `qwen` with two screen rules
/// (blocked "Allow execution", idle "Type your message" over the last 3
/// lines), and the captured screens `screens` (path, text).
fn qwen_with_screens(env: &TestEnv, screens: &[(&str, &str)]) -> Fixture {
    let f = env.ext_repo("owner/roost-qwen");
    note_manifest(
        &f,
        json!({"name": "qwen", "contract": 1, "commands": ["qwen-hooks"], "agents": [{
            "name": "qwen", "program": "qwen",
            "first_message": {"by": "argument"},
            "resume": ["--resume", "{id}"],
            "state": {"screen_lines": 3, "rules": [
                {"state": "blocked", "text": "Allow execution"},
                {"state": "idle", "text": "Type your message"}
            ]},
            "send": {"bracketed_paste": true, "settle_ms": 100}
        }]}),
    );
    f.exec("bin/roost-qwen-hooks", "#!/bin/sh\n");
    for (path, text) in screens {
        f.write(path, text);
    }
    f.commit("screens");
    f
}

#[test]
fn check_runs_the_screen_rules_over_the_captured_screens_naming_each_match() {
    let env = TestEnv::new();
    let f = qwen_with_screens(
        &env,
        &[
            (
                "screens/qwen/idle/prompt.txt",
                "Qwen Code\n\n\n\n> Type your message\n",
            ),
            // Both rules match: blocked wins over idle.
            (
                "screens/qwen/blocked/shell.txt",
                "Allow execution of `ls`?\n1. Yes\n> Type your message\n",
            ),
            // The idle text is above the last 3 lines: not read.
            (
                "screens/qwen/none/scrolled.txt",
                "Type your message\n1\n2\n3\n",
            ),
        ],
    );
    let out = check(&env, &f.work, false);
    let text = clean(&out);
    assert!(
        text.ends_with(
            "  teaches   roost the agent `qwen`: started as `qwen`, resumed as `qwen --resume ID`, state by 2 screen rules\n\
             \x20 screen    screens/qwen/blocked/shell.txt: blocked, by rule 1 \"Allow execution\"\n\
             \x20 screen    screens/qwen/idle/prompt.txt: idle, by rule 2 \"Type your message\"\n\
             \x20 screen    screens/qwen/none/scrolled.txt: no rule matched\n"
        ),
        "{text}"
    );
}

/// `--json` says the same: the presets as ext.lock would record them,
/// each screen with what it read as, an agent another installed extension
/// teaches as a note; a screen read as another state fails it.
#[test]
fn check_json_gives_the_presets_and_the_screens_and_fails_on_a_wrong_screen() {
    let env = TestEnv::new();
    let f = qwen_with_screens(
        &env,
        &[(
            "screens/qwen/idle/prompt.txt",
            "Qwen Code\n\n> Type your message\n",
        )],
    );
    let other = env.ext_repo("owner/roost-other");
    note_manifest(
        &other,
        json!({"name": "other", "contract": 1, "commands": ["other"],
        "agents": [{"name": "qwen", "program": "qwen", "first_message": {"by": "argument"},
            "resume": ["--resume", "{id}"], "state": {"hooks": true},
            "send": {"bracketed_paste": true, "settle_ms": 0}}]}),
    );
    other.exec("bin/roost-other", "#!/bin/sh\n");
    other.commit("teaches qwen");
    env.ok(["ext", "install", "owner/roost-other", "--yes"]);
    let out = check(&env, &f.work, true);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let v: Value = serde_json::from_str(&clean(&out)).unwrap();
    assert_eq!(v["agents"][0]["name"], "qwen", "{v}");
    assert_eq!(v["agents"][0]["resume"], json!(["--resume", "{id}"]), "{v}");
    assert_eq!(
        v["screens"],
        json!([{"path": "screens/qwen/idle/prompt.txt", "expected": "idle", "matched": "idle",
                "rule": 2, "agrees": true, "problem": null}])
    );
    assert_eq!(
        v["notes"],
        json!(["agent qwen is taught here by the installed extension other"])
    );
    f.write("screens/qwen/working/busy.txt", "> Type your message\n");
    let out = check(&env, &f.work, true);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["screens"][1]["agrees"], false, "{v}");
    assert_eq!(v["screens"][1]["matched"], "idle", "{v}");
}

#[test]
fn check_fails_on_a_screen_read_as_another_state_or_not_a_file() {
    let env = TestEnv::new();
    let f = qwen_with_screens(
        &env,
        &[("screens/qwen/working/busy.txt", "> Type your message\n")],
    );
    std::fs::create_dir_all(f.work.join("screens/qwen/idle")).unwrap();
    nix::unistd::mkfifo(
        &f.work.join("screens/qwen/idle/pipe"),
        nix::sys::stat::Mode::from_bits_truncate(0o600),
    )
    .unwrap();
    let out = check(&env, &f.work, false);
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext check: 2 screen fixtures do not read as their directories say\n\
         change the preset's rules, or move the fixture to the state it shows\n"
    );
    let text = stdout(&out);
    assert!(
        text.contains("  screen    screens/qwen/idle/pipe: not read: "),
        "{text}"
    );
    assert!(
        text.contains(
            "  screen    screens/qwen/working/busy.txt: idle, by rule 2 \"Type your message\", but its directory says working\n"
        ),
        "{text}"
    );
}

#[test]
fn the_qwen_example_reads_its_captured_screens_as_their_directories_say() {
    let env = TestEnv::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("share/examples/roost-qwen");
    let out = check(&env, &dir, false);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(
        text.contains(
            "  screen    screens/qwen/blocked/permission.txt: blocked, by rule 1 \"Waiting for user confirmation\"\n\
             \x20 screen    screens/qwen/idle/prompt.txt: idle, by rule 3 \"Type your message\"\n\
             \x20 screen    screens/qwen/working/thinking.txt: working, by rule 2 \"esc to cancel\"\n"
        ),
        "{text}"
    );
}
