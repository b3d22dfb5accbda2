//! The words themselves: `version` and `--version`, unknown and disabled words, `help`
//! and a command's usage line, and bad input that must never panic.

use crate::common::*;
use std::ffi::OsStr;

use std::os::unix::ffi::OsStrExt;

#[test]
fn unknown_words_name_the_word_suggest_a_close_built_in_and_exit_2() {
    let env = TestEnv::new();
    let usage = roost::cli::usage_line();
    for (word, first) in [
        ("nope", "roost: unknown command 'nope'"),
        (
            "sapwn",
            "roost: unknown command 'sapwn'; did you mean 'spawn'?",
        ),
        (
            "Status",
            "roost: unknown command 'Status'; did you mean 'status'?",
        ),
        (
            "doctr",
            "roost: unknown command 'doctr'; did you mean 'doctor'?",
        ),
        ("-x", "roost: unknown option '-x'"),
        ("--bogus", "roost: unknown option '--bogus'"),
        ("a\u{1b}[2Jb", "roost: unknown command 'a\\x1b[2Jb'"),
    ] {
        let out = env.run([word]);
        assert_eq!(exit_of(&out), Exit::Usage, "{word}: {}", describe(&out));
        assert!(out.stdout.is_empty(), "{word}: {}", describe(&out));
        assert_eq!(stderr(&out), format!("{first}\n{usage}\n"), "{word}");
    }
    assert!(
        !env.socket_file().exists(),
        "a usage error started a server"
    );
}

/// The user guide's promise: a disabled, removed or broken extension's
/// command gets exactly what a word that was never installed gets.
#[test]
fn a_disabled_extension_command_gets_what_a_never_installed_word_gets() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    assert!(env.run(["note"]).status.success());
    let never = TestEnv::new().run(["note"]);
    let off = env
        .roost(["note"])
        .env("ROOST_NO_EXT", "1")
        .output()
        .unwrap();
    assert_eq!(
        (off.status.code(), off.stdout, off.stderr),
        (never.status.code(), never.stdout, never.stderr.clone())
    );
    env.ok(["ext", "remove", "note"]);
    let removed = env.run(["note"]);
    assert_eq!(removed.stderr, never.stderr);
    assert_eq!(exit_of(&removed), Exit::Usage);
}

// ---- bad input ---------------------------------------------------------------

#[test]
fn bad_input_gets_a_short_message_and_never_a_panic() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    let bad: &[(&[&str], Exit, &str)] = &[
        (&["read"], Exit::Usage, "roost read: missing TARGET"),
        (
            &["read", "alice", "x"],
            Exit::Usage,
            "roost read: N must be",
        ),
        (
            &["read", "alice", "99999999999999999999999"],
            Exit::Usage,
            "roost read: N must be",
        ),
        (
            &["read", "alice", "1", "2"],
            Exit::Usage,
            "roost read: unexpected argument",
        ),
        (
            &["read", "-x", "alice"],
            Exit::Usage,
            "roost read: unknown option '-x'",
        ),
        (&["screen"], Exit::Usage, "roost screen: missing TARGET"),
        (
            &["wait-done"],
            Exit::Usage,
            "roost wait-done: missing TARGET",
        ),
        (
            &["wait-done", "alice", "0"],
            Exit::Usage,
            "roost wait-done: SECONDS must be",
        ),
        (
            &["wait-done", "alice", "-1"],
            Exit::Usage,
            "roost wait-done: SECONDS must be",
        ),
        (&["state"], Exit::Failed, "roost state: missing STATE"),
        (
            &["state", "a", "b"],
            Exit::Failed,
            "roost state: unexpected argument",
        ),
        (
            &["whoami", "x"],
            Exit::Usage,
            "roost whoami: unexpected argument",
        ),
        (
            &["status", "--bogus"],
            Exit::Usage,
            "roost status: unknown option '--bogus'",
        ),
        (
            &["status", "x"],
            Exit::Usage,
            "roost status: unexpected argument",
        ),
        (
            &["spawn", "--bogus", "x"],
            Exit::Usage,
            "roost spawn: unknown option '--bogus'",
        ),
        (
            &["spawn", "-x"],
            Exit::Usage,
            "roost spawn: unknown option '-x'",
        ),
        (
            &["spawn", "%1"],
            Exit::Failed,
            "roost spawn: invalid window name",
        ),
        (
            &["spawn", ""],
            Exit::Failed,
            "roost spawn: invalid window name",
        ),
        (
            &["session", "-x"],
            Exit::Usage,
            "roost session: unknown option '-x'",
        ),
        (
            &["kill", "--al"],
            Exit::Usage,
            "roost kill: unknown option '--al'",
        ),
        (
            &["version", "x"],
            Exit::Usage,
            "roost version: unexpected argument",
        ),
        (
            &["send", "'", "x"],
            Exit::NoTarget,
            "roost send: no such target",
        ),
        (
            &["send", "=main:alice", "x"],
            Exit::NoTarget,
            "roost send: no such target",
        ),
    ];
    for (args, code, prefix) in bad {
        let out = env.run(*args);
        assert_refusal(&out, *code, prefix);
    }
    // Words that are not UTF-8 where text is required.
    let junk = OsStr::from_bytes(b"a\xffb");
    let out = env.run([OsStr::new("spawn"), junk]);
    assert_refusal(
        &out,
        Exit::Usage,
        "roost spawn: 'a\u{FFFD}b' is not valid UTF-8",
    );
    let out = env.run([OsStr::new("read"), junk]);
    assert_refusal(
        &out,
        Exit::Usage,
        "roost read: 'a\u{FFFD}b' is not valid UTF-8",
    );
}
