//! `roost ext remove` (and `--purge`): the record, the clone, the kept data
//! and what a later install under the name inherits.

use crate::common::ext::{
    aged_snapshot, clone_dir, edit_lock, index, installed, lock, snapshot, state_dir,
};
use crate::common::*;

#[test]
fn remove_drops_the_record_and_the_clone_and_keeps_the_data() {
    let env = TestEnv::new();
    let typo = env.run(["note"]);
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let state = state_dir(&env, "note");
    std::fs::write(state.join("year-of-notes"), "precious").unwrap();
    let out = env.run(["ext", "remove", "note"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(
        stdout(&out),
        format!(
            "removed note\nkept its data: {}\n(roost ext remove note --purge deletes it)\n",
            state.display()
        )
    );
    assert!(!clone_dir(&env, "note").exists());
    assert!(
        !lock_file(&env).exists(),
        "the last removal deletes ext.lock"
    );
    assert!(
        !index_file(&env).exists(),
        "the last removal deletes ext.index"
    );
    assert_eq!(
        std::fs::read_to_string(state.join("year-of-notes")).unwrap(),
        "precious"
    );
    // The command is now exactly a typo.
    let after = env.run(["note"]);
    assert_eq!(exit_of(&after), Exit::Usage);
    assert_eq!(after.stdout, b"");
    assert_eq!(after.stderr, typo.stderr);
    assert_eq!(exit_of(&typo), Exit::Usage);
    assert_eq!(env.ok(["ext", "list"]), "no extensions installed\n");
}

#[test]
fn remove_purge_after_a_plain_remove_deletes_the_kept_data() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let state = state_dir(&env, "note");
    std::fs::write(state.join("data"), "x").unwrap();
    env.ok(["ext", "remove", "note"]);
    let out = env.run(["ext", "remove", "note", "--purge"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(
        stdout(&out),
        format!("deleted the kept data of note: {}\n", state.display())
    );
    assert!(!state.exists());
    // Nothing left to delete: now it is simply not installed.
    let out = env.run(["ext", "remove", "note", "--purge"]);
    assert!(exits(&out, Exit::Failed).starts_with("roost ext remove: no such extension: note\n"));
}

#[test]
fn remove_purge_deletes_clone_record_and_data() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let state = state_dir(&env, "note");
    std::fs::write(state.join("data"), "x").unwrap();
    let out = env.run(["ext", "remove", "--purge", "note"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(
        stdout(&out),
        format!("removed note\ndeleted its data: {}\n", state.display())
    );
    assert!(!state.exists());
    assert!(!clone_dir(&env, "note").exists());
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert_eq!(exit_of(&env.run(["note"])), Exit::Usage);
}

#[test]
fn remove_keeps_every_other_extension() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    installed(
        &env,
        "owner/roost-mark",
        "mark",
        &["mark", "marks"],
        &["fleet"],
    );
    edit_lock(&env, |v| v["mark"]["unknown-field"] = "kept".into());
    let mark_entry = lock(&env)["mark"].clone();
    env.ok(["ext", "remove", "note"]);
    let l = lock(&env);
    assert_eq!(l.as_object().unwrap().len(), 1);
    assert_eq!(l["mark"], mark_entry);
    let clone = clone_dir(&env, "mark");
    assert_eq!(
        index(&env),
        format!(
            "mark\tmark\t{0}/bin/roost-mark\tfleet\nmarks\tmark\t{0}/bin/roost-marks\tfleet\n",
            clone.display()
        )
    );
    assert!(clone.is_dir());
    assert_eq!(env.run(["ext", "list"]).stderr, b"");
}

#[test]
fn remove_refuses_a_name_that_is_not_installed_or_not_a_name() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // A hand-made entry named ../x, and things where ../x would lead.
    edit_lock(&env, |v| v["../x"] = v["note"].clone());
    env.write("data/roost/x/keep", "x");
    env.write("state/roost/x/keep", "x");
    env.write("data/roost/ext/x/keep", "x");
    let before = aged_snapshot(&env, "note");
    for args in [
        &["ext", "remove", "../x"][..],
        &["ext", "remove", "../x", "--purge"],
        &["ext", "remove", "nope"],
        &["ext", "remove", "nope", "--purge"],
        &["ext", "remove", "x", "--purge"],
    ] {
        let out = env.run(args);
        let err = exits(&out, Exit::Failed);
        assert_eq!(
            err,
            format!(
                "roost ext remove: no such extension: {}\nroost ext list shows what is installed\n",
                args[2]
            )
        );
        assert_eq!(stdout(&out), "");
    }
    for kept in [
        "data/roost/x/keep",
        "state/roost/x/keep",
        "data/roost/ext/x/keep",
    ] {
        assert!(env.path(kept).exists(), "{kept} was deleted");
    }
    assert_eq!(snapshot(&env, "note"), before);
}

#[test]
fn remove_drops_the_record_before_the_clone() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // A clone that cannot be deleted as a directory.
    let clone = clone_dir(&env, "note");
    std::fs::remove_dir_all(&clone).unwrap();
    std::fs::write(&clone, "not a directory").unwrap();
    let out = env.run(["ext", "remove", "note"]);
    let err = exits(&out, Exit::Ok);
    assert!(
        err.starts_with(&format!(
            "roost ext remove: note is no longer installed, but {} could not be deleted: ",
            clone.display()
        )),
        "{err}"
    );
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert_eq!(exit_of(&env.run(["note"])), Exit::Usage);
}

#[test]
fn remove_purge_deletes_symlinks_and_never_what_they_point_to() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let outside = env.write("outside/precious", "x");
    let (clone, state) = (clone_dir(&env, "note"), state_dir(&env, "note"));
    std::fs::remove_dir_all(&clone).unwrap();
    std::fs::remove_dir_all(&state).unwrap();
    std::os::unix::fs::symlink(env.path("outside"), &clone).unwrap();
    std::os::unix::fs::symlink(env.path("outside"), &state).unwrap();
    let out = env.run(["ext", "remove", "note", "--purge"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert!(outside.exists());
    assert!(!clone.is_symlink() && !state.is_symlink());
    assert!(!lock_file(&env).exists());
}

#[test]
fn remove_without_a_name_is_a_usage_error() {
    let env = TestEnv::new();
    let out = env.run(["ext", "remove"]);
    let err = exits(&out, Exit::Usage);
    assert!(err.starts_with("roost ext remove: missing NAME\n"), "{err}");
}

/// Another repository whose manifest reuses a removed extension's name
/// would read the data that extension kept: the consent block says so,
/// naming the directory and who left it, before the question.
#[test]
fn install_under_a_name_whose_data_was_kept_says_whose_data_it_inherits() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-weather", "weather", &["weather"], &[]);
    env.write("state/roost/ext/weather/token", "s3cret-token\n");
    assert_eq!(exits(&env.run(["ext", "remove", "weather"]), Exit::Ok), "");
    env.simple_ext("mallory/roost-weather", "weather", &["weather"], &[]);
    let out = env.run(["ext", "install", "mallory/roost-weather"]);
    exits(&out, Exit::Failed);
    let note = format!(
        "\nNote: weather's data directory already exists, left by owner/roost-weather:\n\
         \x20 {}\n\
         This extension will be able to read what is in it. To start clean,\n\
         answer no and run `roost ext remove weather --purge` first.\n\n",
        env.path("state/roost/ext/weather").display()
    );
    assert!(stdout(&out).ends_with(&note), "{}", describe(&out));
    // After a purge there is nothing to inherit, and nothing to say.
    let purged = env.run(["ext", "remove", "weather", "--purge"]);
    assert_eq!(exits(&purged, Exit::Ok), "");
    let out = env.run(["ext", "install", "mallory/roost-weather"]);
    exits(&out, Exit::Failed);
    assert!(
        !stdout(&out).contains("Note: weather's data"),
        "{}",
        describe(&out)
    );
    assert!(!env.path("state/roost/ext/weather.left-by").exists());
}

/// A name that is not installed is "no such extension", whatever state the
/// state directory is in: with it unwritable, the lock file that cannot be
/// taken is not the news.
#[test]
fn remove_of_a_name_not_installed_is_no_such_extension_with_an_unwritable_state_dir() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let state = env.path("state/roost");
    std::fs::remove_file(state.join("ext.lock.flock")).ok();
    let Some(_guard) = Unwritable::new(&state) else {
        skip_without("a directory that cannot be written (chattr for root)");
        return;
    };
    let out = env.run(["ext", "remove", "foo"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext remove: no such extension: foo\nroost ext list shows what is installed\n"
    );
}
