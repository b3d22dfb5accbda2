//! `roost whoami` inside and outside a pane.

use crate::common::*;
use crate::core::wait_for_file;

// ---- whoami, state -----------------------------------------------------------

#[test]
fn whoami_outside_roost_fails_with_exit_1() {
    let env = TestEnv::new();
    let out = env.run(["whoami"]);
    assert_refusal(
        &out,
        Exit::Failed,
        "roost whoami: not inside a roost pane\n",
    );
}

#[test]
fn whoami_inside_a_pane_prints_its_pane_id() {
    let env = TestEnv::new();
    let file = env.path("who");
    let pane = env.spawn(
        "alice",
        &format!("roost whoami > '{}'; sleep 100", file.display()),
    );
    assert_eq!(wait_for_file(&file), format!("{pane}\n"));
}
