//! `roost screen`: the last non-blank lines of a pane's screen.

use crate::common::*;

#[test]
fn screen_prints_the_last_n_non_blank_lines() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", r"printf 'first\n\nsecond  \n\nthird\n'; sleep 100");
    env.wait_for_screen(&pane, "third");
    let out = env.run(["screen", "alice", "2"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stdout(&out), "second\nthird\n");
    assert_eq!(stderr(&out), "");
    assert_eq!(env.ok(["screen", &pane]), "first\nsecond\nthird\n");
    assert_refusal(
        &env.run(["screen", "alice", "0"]),
        Exit::Usage,
        "roost screen: N must be",
    );
    assert_refusal(
        &env.run(["screen", "nope"]),
        Exit::NoTarget,
        "roost screen: no such target 'nope'",
    );
}
