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

/// An installed command whose clone is gone cannot run: said so, with the
/// verb that puts the files back.
#[test]
fn ext_exec_of_an_extension_whose_files_are_gone_names_repair() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    std::fs::remove_dir_all(env.path("data/roost/ext/note")).unwrap();
    let out = env.run(["ext", "exec", "note", "x"]);
    assert_refusal(
        &out,
        Exit::Failed,
        &format!(
            "roost ext exec: cannot run 'note': the files of extension note are gone ({} does not exist)\n\
             roost ext repair note puts back the files pinned in ext.lock\n",
            env.path("data/roost/ext/note").display()
        ),
    );
    env.ok(["ext", "repair", "note"]);
    assert_eq!(env.ok(["ext", "exec", "note", "x"]), "note [x]\n");
}

/// ROOST_NO_EXT turns the seam off in this shell: exec says so and how to
/// turn it back on, and list and info note it where one would wonder why
/// an installed command does not run.
#[test]
fn with_roost_no_ext_set_exec_list_and_info_say_to_unset_it() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    let off = |args: &[&str]| {
        let mut cmd = env.roost(args);
        cmd.env("ROOST_NO_EXT", "1");
        cmd.output().unwrap()
    };
    assert_refusal(
        &off(&["ext", "exec", "note"]),
        Exit::Failed,
        "roost ext exec: cannot run 'note': extensions are turned off (ROOST_NO_EXT is set)\n\
         ROOST_NO_EXT turns extension commands off in this shell: unset ROOST_NO_EXT to run them\n",
    );
    let note =
        "roost ext list: note: ROOST_NO_EXT is set, so no extension command runs in this shell; \
                unset ROOST_NO_EXT to run them\n";
    let out = off(&["ext", "list"]);
    assert_eq!(exits(&out, Exit::Ok), note);
    assert!(stdout(&out).contains("note"), "{}", describe(&out));
    let out = off(&["ext", "info", "note"]);
    assert_eq!(exits(&out, Exit::Ok), note.replace("ext list", "ext info"));
    // Not set: nothing said.
    assert_eq!(exits(&env.run(["ext", "list"]), Exit::Ok), "");
}

/// For authors: `--event` runs the handler once through the runner and its
/// log, with a made-up moment; an unknown event is refused naming it.
#[test]
fn ext_exec_event_runs_the_handler_once_and_logs_it() {
    use crate::common::events::*;
    let env = TestEnv::new();
    let pane = env.spawn("keep", "sleep 1000");
    subscribed(
        &env,
        "note",
        &["agent.done"],
        &recording_handler("echo \"handled $ROOST_EVENT for $ROOST_EVENT_WINDOW\""),
        &[],
        10,
    );
    let out = env.ok([
        "ext",
        "exec",
        "--event",
        "agent.blocked",
        "note",
        "--pane",
        &pane,
    ]);
    assert_eq!(out, "exit 0\nhandled agent.blocked for keep\n");
    assert_eq!(log(&env, "note").len(), 1);
    let out = env.run(["ext", "exec", "--event", "agent.finished", "note"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown event 'agent.finished'"));
    let out = env.run(["ext", "exec", "--event", "agent.done", "other"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("extension other handles no events"));
}
