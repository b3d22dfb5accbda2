//! `roost ext install --link` runs an extension from the author's checkout,
//! and list, verify, update, info and remove treat it as the author's.

use crate::common::ext::{check, git, roost_files, scaffold, VERSION};
use crate::common::*;
use crate::ext::install::NOT_ASKED;

use serde_json::{json, Value};
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;

fn link(env: &TestEnv, dir: &Path) -> Output {
    env.run([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        dir.as_os_str(),
        "--yes".as_ref(),
    ])
}

fn state_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("state/roost/ext").join(name)
}

/// What `word` gets where nothing was ever installed: (stdout, stderr,
/// exit code).
fn typo(word: &str) -> (Vec<u8>, Vec<u8>, Option<i32>) {
    let out = TestEnv::new().run([word]);
    (out.stdout, out.stderr, out.status.code())
}

/// The `roost` row of the consent block for the scaffold's range.
fn range_row(dir: &Path) -> (String, usize) {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("roost-ext.json")).unwrap()).unwrap();
    let range = format!(
        "{} (you have {VERSION})",
        manifest["roost"].as_str().unwrap()
    );
    let width = range.len().max("1 (roost speaks 1)".len());
    (range, width)
}

/// What `install --link --yes` prints for the scaffold `note` in `dir`.
fn link_block(env: &TestEnv, dir: &Path) -> String {
    let (range, w) = range_row(dir);
    format!(
        "  dir       {dir}\n\
         \x20 commit    none: linked to that directory, NOT pinned\n\
         \x20 contract  {contract:<w$}  ok\n\
         \x20 roost     {range:<w$}  ok\n\
         \x20 claims    roost note\n\
         \x20 about     The note command\n\
         \n\
         This extension does not ask for access to your agents.\n\
         {NOT_ASKED}\
         \n\
         Roost has NOT pinned this: it runs whatever that directory holds when\n\
         you type its commands. It has NOT checked whether the code is honest.\n\
         It cannot.\n\
         \n\
         Nothing runs during install. Code runs when you type those commands.\n\
         \n\
         Install? [y/N] yes (--yes)\n\
         linked note to {dir}: roost note\n\
         edits there take effect at once; its data directory: {state}\n",
        dir = dir.display(),
        contract = "1 (roost speaks 1)",
        state = state_dir(env, "note").display(),
    )
}

/// `install --link DIR --yes` is refused with exactly `want`; nothing of
/// roost's changes.
fn assert_link_refused(env: &TestEnv, dir: &Path, want: &str) {
    let before = roost_files(env);
    let out = link(env, dir);
    assert_eq!(exits(&out, Exit::Failed), want);
    assert_eq!(roost_files(env), before);
}

#[test]
fn the_authors_loop_from_new_to_remove_keeps_the_checkout() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    clean(&check(&env, &dir, false));

    // Linked: the consent block names the directory and says it is not pinned.
    let out = link(&env, &dir);
    assert_eq!(clean(&out), link_block(&env, &dir));
    let lock: Value = serde_json::from_slice(&std::fs::read(lock_file(&env)).unwrap()).unwrap();
    let entry = &lock["note"];
    assert_eq!(entry["linked"], dir.to_str().unwrap());
    assert_eq!(entry["commands"], json!(["note"]));
    assert_eq!(entry["needs"], json!([]));
    for pinned in ["commit", "tree", "repo", "ref"] {
        assert!(entry.get(pinned).is_none(), "{pinned} in {entry}");
    }
    assert_eq!(
        std::fs::read_to_string(index_file(&env)).unwrap(),
        format!("note\tnote\t{}/bin/roost-note\t\n", dir.display())
    );
    // No copy is made.
    assert!(!env.path("data/roost/ext/note").exists());
    assert!(state_dir(&env, "note").is_dir());

    // It runs from the checkout.
    let out = env.run(["note", "x", "two words"]);
    assert_eq!(
        clean(&out),
        format!(
            "hello from roost note; arguments: x two words\nmy data directory: {}\n",
            state_dir(&env, "note").display()
        )
    );

    // An edit shows at once.
    let exe = dir.join("bin/roost-note");
    std::fs::write(
        &exe,
        "#!/bin/sh\necho \"edited: $*\"\necho \"dir: $ROOST_EXT_DIR\"\n",
    )
    .unwrap();
    let out = env.run(["note", "again"]);
    assert_eq!(
        clean(&out),
        format!("edited: again\ndir: {}\n", dir.display())
    );

    // list marks it linked.
    let out = env.run(["ext", "list"]);
    assert_eq!(
        clean(&out),
        format!(
            "NAME  PINNED   COMMANDS\nnote  linked   note  (linked to {}, not pinned)\n",
            dir.display()
        )
    );
    let out = env.run(["ext", "list", "--json"]);
    let v: Value = serde_json::from_str(&clean(&out)).unwrap();
    assert_eq!(v[0]["linked"], dir.to_str().unwrap());
    assert_eq!(v[0]["missing"], false);
    // Nothing is pinned: each value of a pin is null, as url is.
    for key in ["repo", "ref", "commit", "url", "previous"] {
        assert_eq!(v[0][key], Value::Null, "{key}");
    }

    // verify: linked, not ok, and not a failure.
    let want = format!(
        "note: linked to {} (not pinned, not hashed)\n",
        dir.display()
    );
    assert_eq!(clean(&env.run(["ext", "verify", "note"])), want);
    assert_eq!(clean(&env.run(["ext", "verify"])), want);

    // update: edit it there; nothing is written.
    let lock_before = std::fs::read(lock_file(&env)).unwrap();
    let want = format!(
        "note: linked to {}; a linked extension is updated by editing it there\n",
        dir.display()
    );
    assert_eq!(clean(&env.run(["ext", "update", "note"])), want);
    assert_eq!(
        clean(&env.run(["ext", "update", "--yes"])),
        format!(
            "{want}\nsummary:\n  note: linked: not pinned; edit it in {}\n",
            dir.display()
        )
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), lock_before);

    // info shows the checkout.
    let out = env.run(["ext", "info", "note"]);
    let text = clean(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "name       note");
    assert_eq!(lines[1], format!("linked     {}", dir.display()));
    assert_eq!(lines[2], "commands   note");
    assert!(
        lines.contains(&"manifest (roost-ext.json as found in the checkout):"),
        "{text}"
    );
    assert!(lines.contains(&"    \"description\": \"The note command\","));
    assert_eq!(
        &lines[lines.len() - 2..],
        [
            format!("checkout   {}", dir.display()),
            format!("state      {}", state_dir(&env, "note").display()),
        ]
    );
    let v: Value =
        serde_json::from_str(&clean(&env.run(["ext", "info", "note", "--json"]))).unwrap();
    assert_eq!(v["clone"], dir.to_str().unwrap());
    assert_eq!(v["manifest"]["name"], "note");

    // check now notes that it is installed here, and that the edit is not
    // committed (a pinned install would not have it), and still accepts it.
    let out = check(&env, &dir, false);
    assert!(
        clean(&out).ends_with(
            "note: note is already installed here\n\
             note: install takes the last commit, and these files differ from it: \
             bin/roost-note (changed)\n"
        ),
        "{}",
        describe(&out)
    );

    // remove: the record goes, the checkout stays exactly as it was.
    let checkout = listing(&dir);
    assert!(checkout.iter().any(|(p, _, _)| p == Path::new(".git/HEAD")));
    let out = env.run(["ext", "remove", "note"]);
    assert_eq!(
        clean(&out),
        format!(
            "removed note\n\
             (its checkout {} is yours and stays as it is)\n\
             kept its data: {}\n\
             (roost ext remove note --purge deletes it)\n",
            dir.display(),
            state_dir(&env, "note").display()
        )
    );
    assert_eq!(listing(&dir), checkout);
    assert!(!lock_file(&env).exists() && !index_file(&env).exists());
    let out = env.run(["note", "x"]);
    assert_eq!(
        (out.stdout, out.stderr, out.status.code()),
        typo("note"),
        "`roost note` after remove is not the usage error"
    );
    assert_eq!(typo("note").2, exited(Exit::Usage));
    // The edit is still there, uncommitted: roost never ran git in it.
    assert_eq!(
        git(&env, &dir, &["status", "--porcelain"]),
        " M bin/roost-note\n"
    );
}

#[test]
fn remove_purge_of_a_linked_extension_deletes_its_data_and_never_the_checkout() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    clean(&link(&env, &dir));
    env.write("state/roost/ext/note/data.txt", "mine\n");
    let checkout = listing(&dir);
    let out = env.run(["ext", "remove", "note", "--purge"]);
    assert_eq!(
        clean(&out),
        format!(
            "removed note\n\
             (its checkout {} is yours and stays as it is)\n\
             deleted its data: {}\n",
            dir.display(),
            state_dir(&env, "note").display()
        )
    );
    assert_eq!(listing(&dir), checkout);
    assert!(!state_dir(&env, "note").exists());
}

#[test]
fn update_of_a_linked_extension_says_when_its_declaration_changed_since_the_link() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    clean(&link(&env, &dir));
    // A new command and the fleet: neither is granted by editing.
    std::fs::write(
        dir.join("roost-ext.json"),
        r#"{"name": "note", "contract": 1, "commands": ["note", "notes"], "needs": ["fleet"]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("bin/roost-note"),
        "#!/bin/sh\necho \"socket: ${ROOST_SOCKET-unset}\"\n",
    )
    .unwrap();
    std::fs::copy(dir.join("bin/roost-note"), dir.join("bin/roost-notes")).unwrap();
    let lock_before = std::fs::read(lock_file(&env)).unwrap();
    let index_before = std::fs::read(index_file(&env)).unwrap();
    let out = env.run(["ext", "update", "note"]);
    assert_eq!(
        clean(&out),
        format!(
            "note: linked to {d}; a linked extension is updated by editing it there\n\
             \x20 its roost-ext.json now declares other commands or needs than were linked;\n\
             \x20 they take effect when it is linked again: roost ext remove note, then \
             roost ext install --link {d}\n",
            d = dir.display()
        )
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), lock_before);
    assert_eq!(std::fs::read(index_file(&env)).unwrap(), index_before);
    assert_eq!(exit_of(&env.run(["notes"])), Exit::Usage);
    // Still run without the fleet it did not declare when linked.
    assert_eq!(clean(&env.run(["note"])), "socket: unset\n");
}

#[test]
fn link_takes_a_relative_directory_and_records_it_absolute() {
    let env = TestEnv::new();
    clean(&env.run(["ext", "new", "note"]));
    let dir = std::fs::canonicalize(env.path("work/roost-note")).unwrap();
    let out = env.run(["ext", "install", "--link", "roost-note", "--yes"]);
    assert_eq!(clean(&out), link_block(&env, &dir));
    let out = env.run(["note"]);
    assert!(clean(&out).starts_with("hello from roost note"));
}

#[test]
fn verify_reports_a_linked_checkout_that_is_gone() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    clean(&link(&env, &dir));
    std::fs::remove_dir_all(&dir).unwrap();
    let out = env.run(["ext", "verify", "note"]);
    exits(&out, Exit::Failed);
    assert_eq!(
        stdout(&out),
        format!(
            "note: missing (linked to {}, which does not exist)\n",
            dir.display()
        )
    );
    let out = env.run(["ext", "list"]);
    assert_eq!(
        clean(&out),
        format!(
            "NAME  PINNED   COMMANDS\nnote  linked   note  (linked to {}, not pinned)  (missing)\n",
            dir.display()
        )
    );
}

#[test]
fn link_refuses_a_directory_that_fails_a_gate_and_writes_nothing() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let exe = dir.join("bin/roost-note");
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_link_refused(
        &env,
        &dir,
        &format!(
            "roost ext install: refusing {}: command note: bin/roost-note is not executable (git mode 100755)\n",
            dir.display()
        ),
    );
    assert!(!env.path("state/roost/ext").exists());
    // The same for a symlink out of the tree.
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    symlink("/etc/passwd", dir.join("passwd")).unwrap();
    assert_link_refused(
        &env,
        &dir,
        &format!(
            "roost ext install: refusing {}: the symlink passwd points to the absolute path /etc/passwd\n",
            dir.display()
        ),
    );
    assert!(!lock_file(&env).exists());
}

#[test]
fn link_without_yes_and_without_a_terminal_shows_the_block_and_writes_nothing() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let before = roost_files(&env);
    let out = env.run([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        dir.as_os_str(),
    ]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext install: not installed: stdin is not a terminal\n\
         read the block above, then pass --yes to install from a script\n"
    );
    let block = link_block(&env, &dir);
    let shown = block.split("Install? [y/N]").next().unwrap();
    assert_eq!(stdout(&out), shown);
    assert_eq!(roost_files(&env), before);
    assert!(!state_dir(&env, "note").exists());
}

#[test]
fn linking_twice_is_refused_as_already_installed() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    clean(&link(&env, &dir));
    assert_link_refused(
        &env,
        &dir,
        "roost ext install: note is already installed (at linked)\n\
         update it with `roost ext update note`, or remove it first with `roost ext remove note`\n",
    );
    // A pinned install of the same name is refused the same way.
    env.simple_ext("owner/roost-note", "note", &["jot"], &[]);
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    assert!(exits(&out, Exit::Failed)
        .starts_with("roost ext install: note is already installed (at linked)\n"));
}

#[test]
fn link_refuses_a_command_another_installed_extension_claims() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-other", "other", &["other", "note"], &[]);
    clean(&env.run(["ext", "install", "owner/roost-other", "--yes"]));
    let dir = scaffold(&env, "note");
    assert_link_refused(
        &env,
        &dir,
        "roost ext install: command note is already claimed by the installed extension other\n\
         remove other first (roost ext remove other) to install this one\n",
    );
    // check says so too, without refusing the directory itself.
    let out = check(&env, &dir, true);
    let v: Value = serde_json::from_str(&clean(&out)).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(
        v["notes"],
        json!(["command note is claimed here by the installed extension other"])
    );
}

#[test]
fn link_and_ref_together_are_a_usage_error() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let out = env.run([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        dir.as_os_str(),
        "--ref".as_ref(),
        "v1".as_ref(),
    ]);
    let err = exits(&out, Exit::Usage);
    assert!(
        err.starts_with("roost ext install: --link cannot be used with --ref\n"),
        "{err}"
    );
    assert!(!lock_file(&env).exists());
}

/// A directory that is not there is named as such, with what to give
/// instead; no raw OS error.
#[test]
fn link_of_a_directory_that_is_not_there_says_so_and_what_to_give() {
    let env = TestEnv::new();
    let out = env.run(["ext", "install", "--link", "gone", "--yes"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext install: cannot link gone: there is no such directory\n\
         give the directory of an extension's checkout (roost ext new NAME makes one)\n"
    );
    assert!(!env.path("state/roost").exists());
}
