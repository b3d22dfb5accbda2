//! `roost badge`: the count of agents waiting for a person and done, for a
//! status line; nothing at all when there are none.

use crate::common::*;

#[test]
fn badge_counts_the_blocked_and_the_done() {
    let env = TestEnv::new();
    let a = env.spawn("a", "sleep 100000");
    let b = env.spawn("b", "sleep 100000");
    assert_eq!(env.ok(["badge"]), "");
    env.tmux_ok(&["set-option", "-p", "-t", &b, "@agent_state", "blocked"]);
    env.tmux_ok(&["set-option", "-p", "-t", &a, "@agent_state", "done"]);
    assert_eq!(env.ok(["badge"]), "1 blocked 1 done\n");
}
