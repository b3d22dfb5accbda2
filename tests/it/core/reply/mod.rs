//! `roost reply` from inside a pane: any text, stdin, a reply too long for
//! one tmux command, and a silent no-op outside roost.

mod bound;

use crate::common::*;
use crate::core::{wait_for_file, wait_for_reply};

/// Hooks pass whatever the agent wrote: text that starts with '-' is
/// recorded as it is, and a malformed `state` or `reply` exits 1, never 2
/// (which Claude Code reads as "block").
#[test]
fn reply_and_state_in_hooks_take_any_text_and_never_exit_2() {
    let env = TestEnv::new();
    let codes = env.path("codes");
    let pane = env.spawn(
        "alice",
        &format!(
            "roost state; a=$?; roost state done now; b=$?; roost reply; c=$?; \
             echo $a $b $c > '{}'; roost reply '- added --json, tests pass'; sleep 100",
            codes.display()
        ),
    );
    wait_for_reply(&env, &pane, "- added --json, tests pass\n");
    assert_eq!(wait_for_file(&codes), "1 1 1\n");
}

#[test]
fn reply_dash_records_stdin() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", r"printf 'one\ntwo\n' | roost reply -; sleep 100");
    wait_for_reply(&env, &pane, "one\ntwo\n");
    let out = env.run(["read", &pane]);
    assert_eq!(stdout(&out), "one\ntwo\n", "{}", describe(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn reply_records_a_reply_too_long_for_one_tmux_command() {
    let env = TestEnv::new();
    // Quotes, format and shell syntax, tabs and multi-byte characters, far
    // past the 16 KiB a single tmux command may carry.
    let mut text = String::new();
    for i in 0..1500 {
        text.push_str(&format!("{i}: 'q' \"d\" #{{x}} $HOME\t\u{e9}\u{1f426}\n"));
    }
    assert!(text.len() > 40_000);
    let pane = env.spawn_replying("alice", &text);
    let out = env.run(["read", "alice"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    assert!(
        stdout(&out) == text,
        "the reply came back changed ({} bytes)",
        out.stdout.len()
    );
    let options = env.tmux_ok(&["show-options", "-p", "-t", &pane]);
    assert!(
        !options.contains("staging"),
        "a staging option was left: {options:.200}"
    );
}

#[test]
fn reply_outside_roost_is_a_silent_no_op() {
    let env = TestEnv::new();
    let out = env.run(["reply", "hello"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert!(!env.socket_file().exists());
    // Hooks run it: a malformed line exits 1, never 2.
    assert_refusal(
        &env.run(["reply"]),
        Exit::Failed,
        "roost reply: missing TEXT",
    );
}
