//! `roost read` and `roost screen`: the recorded reply, the screen as the
//! fallback, the last non-blank lines.

use crate::common::*;
use crate::core::wait_for_reply;

// ---- read, screen, reply ---------------------------------------------------

#[test]
fn read_prints_the_recorded_reply_with_empty_stderr() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "roost reply 'the answer'; sleep 100");
    wait_for_reply(&env, &pane, "the answer\n");
    let out = env.run(["read", "alice"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stdout(&out), "the answer\n");
    assert_eq!(stderr(&out), "");
}

#[test]
fn read_falls_back_to_the_screen_with_a_one_line_notice() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", r"printf 'first\n\nsecond\n\nthird\n'; sleep 100");
    env.wait_for_screen(&pane, "third");
    let out = env.run(["read", "alice", "2"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stdout(&out), "second\nthird\n");
    let err = stderr(&out);
    assert!(
        err.starts_with("roost read: ") && err.lines().count() == 1,
        "{err:?}"
    );
    assert!(err.ends_with('\n'), "{err:?}");
}
