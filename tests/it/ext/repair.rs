//! `roost ext repair`: the pinned tree and ext.index put back from ext.lock,
//! or nothing changed when it cannot.

use crate::common::ext::short;
use crate::common::sources::{break_source, installed, lock_and_index_agree};
use crate::common::*;

/// What repair says of an extension whose files are in place.
fn in_place(name: &str, commit: &str) -> String {
    format!(
        "{name}: its files match the tree pinned at {}; nothing to put back\n",
        short(commit)
    )
}

/// A changed file that verify names keeps running through an update with
/// nothing new (which now says so); repair fetches the pinned commit again
/// and puts it back, ext.lock untouched.
#[test]
fn repair_puts_back_a_changed_file_that_update_left_running() {
    let env = TestEnv::new();
    let f = installed(&env, "note", &[]);
    let exe = env.path("data/roost/ext/note/bin/roost-note");
    std::fs::write(&exe, "#!/bin/sh\necho tampered\n").unwrap();
    assert_eq!(env.ok(["note"]), "tampered\n");
    let hint = "roost ext repair note puts back the files pinned in ext.lock";
    let out = env.run(["ext", "verify", "note"]);
    assert_eq!(exits(&out, Exit::Failed), format!("{hint}\n"));
    let out = env.run(["ext", "update", "note", "--yes"]);
    let said = succeeded(&out);
    assert!(said.contains("up to date") && said.contains(hint), "{said}");
    assert_eq!(env.ok(["note"]), "tampered\n");

    let lock_before = std::fs::read(lock_file(&env)).unwrap();
    let out = env.run(["ext", "repair", "note"]);
    assert_eq!(
        clean(&out),
        format!(
            "note: put back the files pinned at {} (fetched again from file://{})\n\
             ext.index agrees with ext.lock\n",
            short(&f.head()),
            f.bare.display()
        )
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), lock_before);
    assert_eq!(env.ok(["note"]), "note\n");
    assert_eq!(clean(&env.run(["ext", "verify"])), "note: ok\n");
    // In place, nothing is fetched: the source may be gone.
    break_source(&f);
    let out = env.run(["ext", "repair", "--all"]);
    assert_eq!(
        clean(&out),
        in_place("note", &f.head()) + "ext.index agrees with ext.lock\n"
    );
}

/// An emptied ext.index: list's and doctor's hint name repair, which
/// writes it again from ext.lock with nothing to fetch.
#[test]
fn repair_writes_an_emptied_index_again_from_the_lock() {
    let env = TestEnv::new();
    let note = installed(&env, "note", &[]);
    let mark = installed(&env, "mark", &[]);
    break_source(&note);
    break_source(&mark);
    std::fs::write(index_file(&env), "").unwrap();
    assert_eq!(exit_of(&env.run(["note"])), Exit::Usage);
    let err = exits(&env.run(["ext", "list"]), Exit::Ok);
    assert!(
        err.ends_with("`roost ext repair` writes ext.index again from ext.lock.\n"),
        "{err}"
    );
    let out = env.run(["ext", "repair"]);
    assert_eq!(
        clean(&out),
        in_place("mark", &mark.head())
            + &in_place("note", &note.head())
            + "ext.index written again from ext.lock\n"
    );
    assert_eq!(env.ok(["note"]), "note\n");
    assert_eq!(env.ok(["mark"]), "mark\n");
    lock_and_index_agree(&env);
}

/// A clone that is gone cannot be fetched again from a source that is gone,
/// nor from one whose commit has another tree than ext.lock records:
/// either way exit 1, and nothing on disk changes.
#[test]
fn repair_that_cannot_put_the_pinned_tree_back_changes_nothing() {
    let env = TestEnv::new();
    let f = installed(&env, "note", &[]);
    std::fs::remove_dir_all(env.path("data/roost/ext/note")).unwrap();
    let gone = f.bare.with_extension("gone");
    std::fs::rename(&f.bare, &gone).unwrap();
    let before = snapshot(&env);
    let err = exits(&env.run(["ext", "repair", "note"]), Exit::Failed);
    assert!(
        err.starts_with("roost ext repair: note: cannot fetch ")
            && err.contains("nothing was changed"),
        "{err}"
    );
    assert_eq!(snapshot(&env), before);

    std::fs::rename(&gone, &f.bare).unwrap();
    let other = "1".repeat(40);
    let text = std::fs::read_to_string(lock_file(&env)).unwrap();
    let tree = f.tree("HEAD");
    std::fs::write(lock_file(&env), text.replace(&tree, &other)).unwrap();
    let before = snapshot(&env);
    let err = exits(&env.run(["ext", "repair", "note"]), Exit::Failed);
    assert_eq!(
        err,
        format!(
            "roost ext repair: note: commit {} has tree {tree}, but ext.lock recorded tree {other} for it; \
             refusing to put other files in place than the ones agreed to\n\
             nothing was changed; {} is as it was; `roost ext info note` shows what ext.lock records\n",
            f.head(),
            env.path("data/roost/ext/note").display()
        )
    );
    assert_eq!(snapshot(&env), before);
}
