//! `roost ext exec` of an extension's command.

use crate::common::*;

#[test]
fn ext_exec_of_a_disabled_extension_says_so_and_names_enable() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    env.ok(["ext", "disable", "note"]);
    let out = env.run(["ext", "exec", "note", "x"]);
    assert_refusal(
        &out,
        Exit::Failed,
        "roost ext exec: cannot run 'note': extension note is disabled\nroost ext enable note turns it back on\n",
    );
    env.ok(["ext", "enable", "note"]);
    assert_eq!(env.ok(["ext", "exec", "note", "x"]), "note [x]\n");
}
