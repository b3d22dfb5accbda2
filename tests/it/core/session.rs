//! `roost session` without a terminal ensures the session and exits 0.

use crate::common::*;

#[test]
fn session_without_a_terminal_ensures_the_session_and_exits_0() {
    let env = TestEnv::new();
    let out = env.run(["session", "work"]);
    quiet(&out, Exit::Ok);
    assert_eq!(
        env.tmux_ok(&["list-sessions", "-F", "#{session_name}"]),
        "work\n"
    );
    // Again: the session exists already, still no attach.
    assert_eq!(exit_of(&env.run(["session", "work"])), Exit::Ok);
    assert_refusal(
        &env.run(["session"]),
        Exit::Usage,
        "roost session: missing SESSION\n",
    );
    assert_refusal(
        &env.run(["session", "a:b"]),
        Exit::Failed,
        "roost session: invalid session name",
    );
}
