//! `roost ext enable`: a disabled extension's commands back, twice a no-op,
//! refused when another extension claimed a command meanwhile.

use crate::common::ext::{index, install, lock};
use crate::common::versions::{aged, assert_never_installed, seen};
use crate::common::*;
use crate::ext::disable::note;

#[test]
fn enable_puts_the_commands_back_and_enabling_twice_writes_nothing() {
    let env = TestEnv::new();
    note(&env);
    let index_before = index(&env);
    env.ok(["ext", "disable", "note"]);
    let out = env.run(["ext", "enable", "note"]);
    assert_eq!(
        clean(&out),
        "enabled note: roost note, roost notes run again\n"
    );
    assert_eq!(env.ok(["notes", "x"]), "notes [x]\n");
    assert_eq!(index(&env), index_before);
    assert!(lock(&env)["note"].get("disabled").is_none());
    let before = aged(&env);
    assert_eq!(
        clean(&env.run(["ext", "enable", "note"])),
        "note is already enabled\n"
    );
    assert_eq!(seen(&env), before);
    // Unknown names are refused with the usual words.
    let out = env.run(["ext", "enable", "nope"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext enable: no such extension: nope\nroost ext list shows what is installed\n"
    );
    let out = env.run(["ext", "disable", "../x"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext disable: no such extension: ../x\nroost ext list shows what is installed\n"
    );
    assert_eq!(seen(&env), before);
}

#[test]
fn enable_is_refused_when_another_extension_claimed_a_command_meanwhile() {
    let env = TestEnv::new();
    note(&env);
    env.ok(["ext", "disable", "note"]);
    // While note is off, its command is free to claim.
    env.simple_ext("other/roost-jot", "jot", &["notes"], &[]);
    install(&env, "other/roost-jot");
    assert_eq!(env.ok(["notes"]), "notes\n");
    let before = aged(&env);
    let out = env.run(["ext", "enable", "note"]);
    assert_refusal(&out, Exit::Failed, "roost ext enable: ");
    assert_eq!(
        stderr(&out),
        "roost ext enable: cannot enable note: its command notes is now claimed by the installed extension jot\n\
         take jot off first (roost ext disable jot, or roost ext remove jot), then enable note\n"
    );
    assert_eq!(seen(&env), before);
    assert_never_installed("note", &env.run(["note"]));
    // Once jot is off, note comes back whole.
    env.ok(["ext", "disable", "jot"]);
    env.ok(["ext", "enable", "note"]);
    assert_eq!(env.ok(["notes"]), "notes\n");
    assert_eq!(env.ok(["note"]), "note\n");
    assert!(index(&env).contains("\tnote\t"));
    assert!(!index(&env).contains("\tjot\t"));
}
