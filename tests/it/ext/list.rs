//! `roost ext list`: the table, JSON, and the warnings when ext.lock and
//! ext.index disagree or an entry is outside what install writes.

use crate::common::ext::{clone_dir, edit_lock, index, installed, lines, lock, short};
use crate::common::*;

use serde_json::Value;

/// Runs `roost ext list` and checks the warning's frame around `problem`.
fn assert_disagreement(env: &TestEnv, problem: &str) {
    let out = env.run(["ext", "list"]);
    let err = exits(&out, Exit::Ok);
    assert_eq!(
        lines(&err),
        vec![
            "roost ext list: warning: ext.lock and ext.index disagree:",
            &format!("  {problem}"),
            "ext.index is the file being obeyed. `roost ext verify` checks the installed files;",
            "`roost ext repair` writes ext.index again from ext.lock.",
        ],
        "{}",
        describe(&out)
    );
}

#[test]
fn list_prints_a_header_then_name_short_commit_and_commands_aligned() {
    let env = TestEnv::new();
    let note = installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    let mark = installed(
        &env,
        "other/roost-bookmark",
        "bookmark",
        &["mark"],
        &["fleet"],
    );
    let out = env.run(["ext", "list"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(
        stdout(&out),
        format!(
            "NAME      PINNED   COMMANDS\nbookmark  {}  mark\nnote      {}  note, notes\n",
            short(&mark.head()),
            short(&note.head())
        )
    );
}

#[test]
fn list_marks_an_extension_whose_clone_is_gone() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    std::fs::remove_dir_all(clone_dir(&env, "note")).unwrap();
    let out = env.run(["ext", "list"]);
    // And says what puts it back.
    assert_eq!(
        exits(&out, Exit::Ok),
        "roost ext list: note: note's files are gone; \
         roost ext repair note puts back the files pinned in ext.lock\n"
    );
    assert_eq!(
        stdout(&out),
        format!(
            "NAME  PINNED   COMMANDS\nnote  {}  note  (missing)\n",
            short(&f.head())
        )
    );
}

#[test]
fn list_json_has_every_field_of_the_record() {
    let env = TestEnv::new();
    let f = installed(
        &env,
        "owner/roost-note",
        "note",
        &["note", "notes"],
        &["fleet"],
    );
    let out = env.run(["ext", "list", "--json"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 1);
    let e = &items[0];
    assert_eq!(e["name"], "note");
    assert_eq!(e["repo"], "owner/roost-note");
    assert_eq!(e["ref"], "HEAD");
    assert_eq!(e["commit"], f.head());
    assert_eq!(e["commands"], serde_json::json!(["note", "notes"]));
    assert_eq!(e["needs"], serde_json::json!(["fleet"]));
    assert_eq!(e["missing"], false);
}

#[test]
fn list_json_neutralises_control_characters_from_the_record() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let odd = "o\u{202e}r\u{9b}2J\u{7f}\u{1b}[2J";
    edit_lock(&env, |v| v["note"]["repo"] = odd.into());
    let out = env.run(["ext", "list", "--json"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let text = stdout(&out);
    for bad in ['\u{1b}', '\u{202e}', '\u{9b}', '\u{7f}'] {
        assert!(!text.contains(bad), "printed {bad:?}: {text}");
    }
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v[0]["repo"], odd);
}

#[test]
fn list_with_nothing_installed_says_so() {
    let env = TestEnv::new();
    let out = env.run(["ext", "list"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(stdout(&out), "no extensions installed\n");
    let out = env.run(["ext", "list", "--json"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        serde_json::json!([])
    );
}

/// A verb asked for JSON that cannot answer says so on stdout too, as
/// JSON: refused when the state says no (an ext.lock that is not JSON),
/// failed when something broke (an ext.lock that cannot be read at all);
/// the message is on stderr as ever.
#[test]
fn a_json_verb_that_cannot_answer_says_refused_or_failed_on_stdout() {
    let env = TestEnv::new();
    let lock_file = env.path("state/roost/ext.lock");
    std::fs::create_dir_all(lock_file.parent().unwrap()).unwrap();
    std::fs::write(&lock_file, "{not json").unwrap();
    for args in [
        &["ext", "list", "--json"][..],
        &["ext", "verify", "--json"],
        &["ext", "outdated", "--json"],
        &["ext", "update", "--all", "--json"],
        &["ext", "info", "note", "--json"],
    ] {
        let out = env.run(args);
        let err = exits(&out, Exit::Failed);
        let said: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(said["status"], "refused", "{args:?}: {said}");
        let message = said["error"].as_str().unwrap();
        assert!(
            message.contains("ext.lock is not valid JSON"),
            "{args:?}: {said}"
        );
        assert!(err.contains(message), "{args:?}: {err}");
    }
    std::fs::remove_file(&lock_file).unwrap();
    std::fs::create_dir(&lock_file).unwrap();
    let out = env.run(["ext", "list", "--json"]);
    let err = exits(&out, Exit::Failed);
    let said: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["status"], "failed", "{said}");
    assert!(err.starts_with("roost ext list: cannot read "), "{err}");
    // Without --json, stdout stays empty.
    assert_eq!(stdout(&env.run(["ext", "list"])), "");
}

#[test]
fn list_gives_no_warning_when_lock_and_index_agree() {
    let env = TestEnv::new();
    installed(
        &env,
        "owner/roost-note",
        "note",
        &["note", "notes"],
        &["fleet"],
    );
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let out = env.run(["ext", "list"]);
    assert_eq!(exits(&out, Exit::Ok), "");
}

#[test]
fn list_warns_when_an_extension_is_only_in_the_lock() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let kept: String = index(&env)
        .lines()
        .filter(|l| l.split('\t').nth(1) != Some("note"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(index_file(&env), kept).unwrap();
    assert_disagreement(&env, "note: only in ext.lock (its commands do not run)");
}

#[test]
fn list_warns_when_an_extension_is_only_in_the_index() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let mut text = index(&env);
    text.push_str("ghost\tghost\t/nowhere/bin/roost-ghost\tfleet\n");
    std::fs::write(index_file(&env), text).unwrap();
    assert_disagreement(
        &env,
        "ghost: only in ext.index (it runs with no record in ext.lock)",
    );
}

#[test]
fn list_warns_when_the_authority_differs() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| v["note"]["needs"] = serde_json::json!(["fleet"]));
    assert_disagreement(
        &env,
        "note: authority differs (ext.lock: fleet; ext.index: none)",
    );
    // The index is still what is obeyed: the command runs without the socket.
    assert_eq!(env.ok(["note", "x"]), "note [x]\n");
}

#[test]
fn list_warns_when_the_commands_differ() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    edit_lock(&env, |v| {
        v["note"]["commands"] = serde_json::json!(["note"])
    });
    assert_disagreement(
        &env,
        "note: commands differ (ext.lock: note; ext.index: note notes)",
    );
}

#[test]
fn list_warns_when_the_index_grants_one_command_more_authority() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    // Only the first of note's two lines gains fleet: that one is obeyed.
    let text = index(&env).replacen("/bin/roost-note\t\n", "/bin/roost-note\tfleet\n", 1);
    std::fs::write(index_file(&env), text).unwrap();
    assert_disagreement(
        &env,
        "note: authority differs (ext.lock: none; ext.index: note: fleet, notes: none)",
    );
}

#[test]
fn list_warns_when_the_index_runs_a_command_from_elsewhere() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    let clone = clone_dir(&env, "note");
    let text = index(&env).replacen(
        &format!("{}/bin/roost-notes", clone.display()),
        "/tmp/elsewhere/roost-notes",
        1,
    );
    std::fs::write(index_file(&env), text).unwrap();
    assert_disagreement(&env, "note: the executables' paths differ");
}

#[test]
fn list_warns_when_a_first_duplicate_index_line_is_obeyed() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // The dispatcher obeys the first line for a command.
    let text = index(&env);
    let first = text.replace("/bin/roost-note\t\n", "/bin/roost-note\tfleet\n");
    std::fs::write(index_file(&env), first + &text).unwrap();
    assert_disagreement(
        &env,
        "note: authority differs (ext.lock: none; ext.index: fleet)",
    );
}

/// An ext.lock entry whose name install could never have written (a hand
/// edit) is never run, and never hidden: verify and doctor fail naming it,
/// list marks it.
#[test]
fn an_entry_named_outside_the_grammar_is_reported_not_hidden() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| {
        v["../x"] = v["note"].clone();
    });
    let want =
        "../x: not a name install could have written (a hand edit of ext.lock?); never run\n";
    let out = env.run(["ext", "verify"]);
    exits(&out, Exit::Failed);
    assert!(stdout(&out).starts_with(want), "{}", describe(&out));
    assert!(stdout(&out).contains("note: ok\n"), "{}", describe(&out));
    let out = env.run(["ext", "list"]);
    exits(&out, Exit::Ok);
    assert!(
        stdout(&out).ends_with(
            "../x  (not a name install could have written (a hand edit of ext.lock?); never run)\n"
        ),
        "{}",
        describe(&out)
    );
    let out = env.run(["doctor"]);
    exits(&out, Exit::Failed);
    assert!(
        stdout(&out).contains("FAIL  extension ../x: not a name install could have written (a hand edit of ext.lock?); never run\n"),
        "{}",
        describe(&out)
    );
}

/// An ext.lock entry install could not have written (here `commands` is a
/// string): reported by list, verify, info and doctor with what ext.index
/// still runs of it; update refuses it, another install refuses to drop
/// its command from the index, and remove takes it off.
#[test]
fn an_entry_that_cannot_be_read_is_reported_with_what_the_index_runs() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| v["note"]["commands"] = "note".into());
    let broken = lock(&env)["note"].clone();
    let base = "not an entry install could have written (invalid type: string \"note\", \
               expected a sequence; a hand edit of ext.lock?)";
    let why = format!("{base}; yet ext.index, which is obeyed, still runs note (no authority)");

    let out = env.run(["ext", "list"]);
    assert_eq!(
        stdout(&out),
        format!("note  ({why})\n"),
        "{}",
        describe(&out)
    );
    assert!(
        stderr(&out).contains(
            "  note: its ext.lock entry cannot be read, yet ext.index still runs note (authority: none)\n"
        ),
        "{}",
        describe(&out)
    );
    let listed: Value = serde_json::from_str(&env.ok(["ext", "list", "--json"])).unwrap();
    assert_eq!(listed[0]["name"], "note");
    assert_eq!(listed[0]["commands"], serde_json::json!([]));
    for key in ["repo", "ref", "commit", "installed", "url", "contract"] {
        assert_eq!(listed[0][key], Value::Null, "{key}");
    }

    let out = env.run(["ext", "verify"]);
    exits(&out, Exit::Failed);
    assert_eq!(stdout(&out), format!("note: {why}\n"));
    let out = env.run(["doctor"]);
    exits(&out, Exit::Failed);
    assert!(
        stdout(&out).contains(&format!("FAIL  extension note: {base}\n")),
        "{}",
        describe(&out)
    );
    let text = env.ok(["ext", "info", "note"]);
    assert!(
        text.starts_with(&format!("name      note\next.lock  {why}\n  {{\n")),
        "{text}"
    );
    let v: Value = serde_json::from_str(&env.ok(["ext", "info", "note", "--json"])).unwrap();
    assert_eq!(v["lock"], broken);

    let out = env.run(["ext", "update", "note", "--yes"]);
    assert!(
        exits(&out, Exit::Failed)
            .starts_with("roost ext update: note: its ext.lock entry cannot be read: "),
        "{}",
        describe(&out)
    );

    // A rewrite would derive no index line from it: refused, nothing changed.
    let mark = env.simple_ext("owner/roost-mark", "mark", &["mark"], &[]);
    let out = env.run(["ext", "install", &mark.repo, "--yes"]);
    assert!(
        exits(&out, Exit::Failed)
            .starts_with("roost ext install: ext.lock's entry note cannot be read"),
        "{}",
        describe(&out)
    );
    assert_eq!(lock(&env)["note"], broken);
    assert!(index(&env).contains("roost-note"), "{}", index(&env));
    assert_eq!(env.ok(["note"]), "note\n");

    env.ok(["ext", "remove", "note"]);
    assert!(!clone_dir(&env, "note").exists());
    succeeded(&env.run(["ext", "install", &mark.repo, "--yes"]));
    assert!(lock(&env).get("note").is_none());
    assert_eq!(env.ok(["mark"]), "mark\n");
}
