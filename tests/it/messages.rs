//! What roost says when it refuses or notes something, across commands:
//! under the command's own name, an unknown option quoted wherever it is
//! met, a bound named where a number is too large, a hint naming the very
//! target the user typed (quoted for a shell), and a question's line ended
//! before the next one starts however it was answered.

use crate::common::*;

use std::time::Duration;

#[test]
fn session_and_kill_speak_under_their_own_names() {
    let env = TestEnv::new();
    let out = env.run(["session", "work"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost session: session work is running (socket={}); not attaching without a terminal\n",
            env.socket
        )
    );
    env.ok(["kill", "--all"]);
    let out = env.run(["kill", "--all"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stderr(&out), "roost kill: not running\n");
}

/// `--bogus` is quoted as a command word is, before a command and after
/// one, at any depth.
#[test]
fn an_unknown_option_is_quoted_wherever_it_is_met() {
    let env = TestEnv::new();
    for (args, first) in [
        (&["--bogus"][..], "roost: unknown option '--bogus'"),
        (
            &["status", "--bogus"],
            "roost status: unknown option '--bogus'",
        ),
        (
            &["ext", "list", "--bogus"],
            "roost ext list: unknown option '--bogus'",
        ),
        (
            &["ext", "exec", "--bogus"],
            "roost ext exec: unknown option '--bogus'",
        ),
        (
            &["kill", "--al"],
            "roost kill: unknown option '--al'; did you mean '--all'?",
        ),
    ] {
        let out = env.run(args);
        assert_eq!(exit_of(&out), Exit::Usage, "{args:?}: {}", describe(&out));
        assert_eq!(stderr(&out).lines().next(), Some(first), "{args:?}");
    }
}

/// A wait longer than a year is refused with the bound, whatever its
/// size (a number past what a u64 holds included); so is a count of lines
/// past what one holds.
#[test]
fn a_wait_of_more_than_a_year_is_refused_naming_the_bound() {
    let env = TestEnv::new();
    let huge = "99999999999999999999";
    for (args, first) in [
        (
            &["send", "--wait", huge, "alice", "hi"][..],
            format!("roost send: --wait must be at most 31536000 (a year), not '{huge}'"),
        ),
        (
            &["send", "--wait", "31536001", "alice", "hi"][..],
            "roost send: --wait must be at most 31536000 (a year), not '31536001'".to_string(),
        ),
        (
            &["wait-done", "alice", huge][..],
            format!("roost wait-done: SECONDS must be at most 31536000 (a year), not '{huge}'"),
        ),
    ] {
        let out = env.run(args);
        assert_eq!(exit_of(&out), Exit::Usage, "{args:?}: {}", describe(&out));
        assert_eq!(
            stderr(&out).lines().next(),
            Some(first.as_str()),
            "{args:?}"
        );
    }
    let out = env.run(["screen", "alice", huge]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
    assert_eq!(
        stderr(&out).lines().next(),
        Some(
            format!("roost screen: N must be at most 18446744073709551615, not '{huge}'").as_str()
        )
    );
}

/// A hint that names a command to run next names the target the user
/// typed, quoted so that it can be pasted into a shell.
#[test]
fn a_hint_names_the_target_as_typed_quoted_for_a_shell() {
    let env = TestEnv::new();
    let pane = env.spawn("my agent", "cat");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "blocked"]);
    let out = env.run(["send", "my agent", "hello"]);
    assert_eq!(exit_of(&out), Exit::Blocked, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost send: 'my agent' ({pane}) is blocked: it is waiting for a person\n\
             look at it first (roost screen 'my agent'); --when-idle waits until it is answered, --force sends anyway\n"
        )
    );
}

/// Ctrl-D at `Install? [y/N]` (the question install, update, rollback
/// and kill share) is a no, and the refusal starts on a line of its own,
/// not after the question.
#[test]
fn ctrl_d_at_a_question_ends_its_line_before_the_refusal() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let done = env.path("done");
    let pane = env.spawn(
        "installer",
        &format!(
            "'{ROOST}' ext install owner/roost-note; echo \"exit $?\" >'{}'; sleep 100",
            done.display()
        ),
    );
    env.wait_for_screen(&pane, "Install? [y/N]");
    env.tmux_ok(&["send-keys", "-t", &pane, "C-d"]);
    assert!(
        wait_until(Duration::from_secs(20), || done.exists()),
        "the install never finished"
    );
    assert_eq!(std::fs::read_to_string(&done).unwrap(), "exit 1\n");
    let screen = env.screen(&pane);
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Install? [y/N]"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert_eq!(lines[at], "Install? [y/N]", "{screen}");
    assert!(lines[at + 1].starts_with("roost ext install: "), "{screen}");
    assert!(!env.path("state/roost/ext.lock").exists());
}
