//! `roost ext install` against real bare repositories reached by file://.

mod common;
use common::*;

#[test]
fn install_then_the_command_runs_with_its_arguments() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note", "notes"], &[]);
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(env.ok(["note", "a", "b c"]), "note [a] [b c]\n");
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("state/roost/ext.lock")).unwrap()).unwrap();
    assert_eq!(lock["note"]["commit"], f.ls_remote("HEAD"));
    assert_eq!(lock["note"]["tree"], f.tree("HEAD"));
}
