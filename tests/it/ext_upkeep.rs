//! Living with many extensions: `roost ext outdated` (the ref listing
//! alone, one connection per source, nothing fetched) and `roost ext update
//! --all` (each in turn, past failures, then a summary), against real bare
//! repositories reached by file://.

use crate::common::*;

use serde_json::Value;
use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

// ---------------------------------------------------------------- helpers

/// An extension NAME claiming the command NAME, committed, pushed and
/// installed from owner/roost-NAME.
fn installed(env: &TestEnv, name: &str, needs: &[&str]) -> Fixture {
    let repo = format!("owner/roost-{name}");
    let f = env.simple_ext(&repo, name, &[name], needs);
    succeeded(&env.run(["ext", "install", &repo, "--yes"]));
    f
}

/// A new commit of NAME's repository whose command prints `text`.
fn bump(f: &Fixture, name: &str, text: &str) -> String {
    f.exec(
        &format!("bin/roost-{name}"),
        &format!("#!/bin/sh\necho {text}\n"),
    );
    f.commit(text)
}

fn lock(env: &TestEnv) -> Value {
    serde_json::from_slice(&std::fs::read(lock_file(env)).unwrap()).unwrap()
}

fn short(commit: &str) -> &str {
    &commit[..7]
}

/// Makes a source unreachable: its bare repository is moved away.
fn break_source(f: &Fixture) {
    let gone = f.bare.with_extension("gone");
    std::fs::rename(&f.bare, gone).unwrap();
}

/// A checkout linked with `install --link`: extension `dev`.
fn linked(env: &TestEnv) -> std::path::PathBuf {
    let f = env.simple_ext("owner/roost-dev", "dev", &["dev"], &[]);
    succeeded(&env.run([
        OsStr::new("ext"),
        OsStr::new("install"),
        OsStr::new("--link"),
        f.work.as_os_str(),
        OsStr::new("--yes"),
    ]));
    f.work.clone()
}

/// ext.lock and ext.index agree (list warns on stderr when they do not).
fn lock_and_index_agree(env: &TestEnv) {
    clean(&env.run(["ext", "list"]));
}

/// What a `upload_pack_wrapper` logged after each ref listing: the first
/// four bytes the client sent next. A fetch starts with the length of
/// `command=fetch` ("0012"); the end of a conversation is a flush ("0000")
/// or nothing.
fn after_listing(calls: &Path) -> Vec<String> {
    std::fs::read_to_string(calls)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("after:"))
        .map(String::from)
        .collect()
}

/// The wrapper's log once every run begun has said what followed its
/// listing and ended: a wrapper shell may outlive the roost that hung up on
/// it by a moment, so its last lines are waited for (ten seconds at most).
fn settled(calls: &Path) -> ((usize, usize), Vec<String>) {
    wait_until(Duration::from_secs(10), || {
        let (start, end) = upload_pack_runs(calls);
        start == end && after_listing(calls).len() == start
    });
    (upload_pack_runs(calls), after_listing(calls))
}

// --------------------------------------------------------------- outdated

/// One connection per pinned source, the ref listing alone: no fetch
/// command is ever sent, so no pack is. A ref that is a full commit id is
/// not asked about, and nothing on disk changes.
#[test]
fn outdated_asks_each_source_once_and_fetches_nothing() {
    let env = TestEnv::new();
    let mark = installed(&env, "mark", &[]);
    let note = installed(&env, "note", &["fleet"]);
    let old = note.head();
    let new = bump(&note, "note", "two");
    let pinned = env.simple_ext("owner/roost-sha", "sha", &["sha"], &[]);
    let sha = pinned.head();
    succeeded(&env.run(["ext", "install", "owner/roost-sha", "--ref", &sha, "--yes"]));
    bump(&pinned, "sha", "later");
    let before = snapshot(&env);

    let calls = env.path("upload-pack-calls");
    let path = env.upload_pack_wrapper(
        &calls,
        &format!("echo \"after:$next\" >> '{}'", calls.display()),
    );
    let out = env
        .roost(["ext", "outdated"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(
        clean(&out),
        format!(
            "NAME  PINNED   AVAILABLE  NEEDS\n\
             mark  {}  unchanged  same\n\
             note  {}  {}    unknown without a fetch\n\
             sha   {}  unchanged  same\n\
             roost ext update note fetches the new commit, shows the diff and what it needs, and asks\n",
            short(&mark.head()),
            short(&old),
            short(&new),
            short(&sha),
        )
    );
    let (runs, after) = settled(&calls);
    assert_eq!(runs, (2, 2), "one connection per source asked");
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(
        after.iter().all(|next| next.is_empty() || next == "0000"),
        "something followed the ref listing: {after:?}"
    );
    assert_eq!(snapshot(&env), before, "outdated wrote something");

    // JSON: the same, in full; needs_grow is unknown (null) where the ref moved.
    let v: Value = serde_json::from_str(&clean(&env.run(["ext", "outdated", "--json"]))).unwrap();
    assert_eq!(v[0]["name"], "mark");
    assert_eq!(v[0]["status"], "unchanged");
    assert_eq!(v[0]["needs_grow"], false);
    assert_eq!(v[1]["name"], "note");
    assert_eq!(v[1]["status"], "moved");
    assert_eq!(v[1]["pinned"], old.as_str());
    assert_eq!(v[1]["available"], new.as_str());
    assert_eq!(v[1]["needs"], serde_json::json!(["fleet"]));
    assert_eq!(v[1]["needs_grow"], Value::Null);
    assert_eq!(v[1]["ref"], "HEAD");
    assert_eq!(v[2]["ref"], sha.as_str());

    // Names choose (each once); an unknown one is refused before any source is asked.
    let out = env
        .roost(["ext", "outdated", "mark", "mark"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(clean(&out).lines().count(), 2);
    assert_eq!(upload_pack_runs(&calls).0, 3);
    let out = env
        .roost(["ext", "outdated", "mark", "nope"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_refusal(&out, 1, "roost ext outdated: no such extension: nope\n");
    assert_eq!(upload_pack_runs(&calls).0, 3);

    // The wrapper does see a fetch when there is one: update's.
    let out = env
        .roost(["ext", "update", "note", "--yes"])
        .env("PATH", &path)
        .output()
        .unwrap();
    succeeded(&out);
    let (_, after) = settled(&calls);
    assert_eq!(after.len(), 4, "{after:?}");
    assert!(
        after
            .last()
            .is_some_and(|next| !next.is_empty() && next != "0000"),
        "{after:?}"
    );
}

/// A source that cannot be reached fails its row and the exit status; the
/// rest are still checked and listed, and a linked extension is listed as
/// linked, not checked.
#[test]
fn outdated_with_one_unreachable_source_lists_the_rest_and_exits_1() {
    let env = TestEnv::new();
    let gone = installed(&env, "gone", &[]);
    let note = installed(&env, "note", &[]);
    let dir = linked(&env);
    break_source(&gone);
    let out = env.run(["ext", "outdated"]);
    let err = exits(&out, 1);
    assert_eq!(
        stdout(&out),
        format!(
            "NAME  PINNED   AVAILABLE  NEEDS\n\
             dev   linked   -          -  (linked to {}, not checked)\n\
             gone  {}  failed     -\n\
             note  {}  unchanged  same\n",
            dir.display(),
            short(&gone.head()),
            short(&note.head()),
        )
    );
    let bare = gone.bare.display();
    assert_eq!(
        err,
        format!(
            "roost ext outdated: gone: cannot resolve HEAD at file://{bare}: \
             no repository there ({bare} does not exist); check the path\n"
        )
    );
    let v: Value = serde_json::from_str(&stdout(&env.run(["ext", "outdated", "--json"]))).unwrap();
    assert_eq!(v[0]["status"], "linked");
    assert_eq!(v[0]["linked"], dir.display().to_string());
    assert_eq!(v[1]["status"], "failed");
    assert!(v[1]["error"]
        .as_str()
        .unwrap()
        .contains("no repository there"));
    assert_eq!(v[2]["status"], "unchanged");
}

#[test]
fn outdated_with_nothing_installed_says_so() {
    let env = TestEnv::new();
    assert_eq!(
        clean(&env.run(["ext", "outdated"])),
        "no extensions installed\n"
    );
    assert_eq!(clean(&env.run(["ext", "outdated", "--json"])), "[]\n");
}

// ----------------------------------------------------------- update --all

/// Each extension in turn: a broken source fails its own update only, the
/// others move, a summary names each with the reason, and the exit is 1.
/// ext.lock and ext.index agree afterwards.
#[test]
fn update_all_goes_past_a_broken_source_and_ends_with_a_summary() {
    let env = TestEnv::new();
    let gone = installed(&env, "gone", &[]);
    let note = installed(&env, "note", &[]);
    let zed = installed(&env, "zed", &[]);
    let dir = linked(&env);
    let (note_old, zed_old, gone_old) = (note.head(), zed.head(), gone.head());
    let note_new = bump(&note, "note", "note-two");
    bump(&gone, "gone", "gone-two");
    break_source(&gone);

    let out = env.run(["ext", "update", "--all", "--yes"]);
    let err = exits(&out, 1);
    let bare = gone.bare.display();
    let why = format!(
        "cannot resolve HEAD at file://{bare}: no repository there ({bare} does not exist)"
    );
    assert_eq!(
        err,
        format!(
            "roost ext update: gone: {why}\n\
             check the path\n\
             roost ext update: not every extension was updated (gone was not)\n"
        )
    );
    let text = stdout(&out);
    assert!(
        text.ends_with(&format!(
            "\nsummary:\n\
             \x20 dev: linked: not pinned; edit it in {}\n\
             \x20 gone: failed: {why}\n\
             \x20 note: updated: {} -> {}\n\
             \x20 zed: unchanged: HEAD is still {}\n",
            dir.display(),
            short(&note_old),
            short(&note_new),
            short(&zed_old),
        )),
        "{text}"
    );
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], note_new.as_str());
    assert_eq!(l["gone"]["commit"], gone_old.as_str());
    assert_eq!(l["zed"]["commit"], zed_old.as_str());
    assert_eq!(env.ok(["note"]), "note-two\n");
    assert_eq!(env.ok(["gone"]), "gone\n");
    lock_and_index_agree(&env);
}

/// `--json`: stdout is the summary alone (the diff and the consent block go
/// to stderr); a grown authority under --yes is refused, named in the
/// summary, and granted with --grant.
#[test]
fn update_all_json_is_the_summary_alone_and_refuses_grown_authority() {
    let env = TestEnv::new();
    let note = installed(&env, "note", &[]);
    let zed = installed(&env, "zed", &[]);
    let old = note.head();
    note.manifest("note", &["note"], &["fleet"]);
    let new = note.commit("wants the fleet");

    let out = env.run(["ext", "update", "--all", "--yes", "--json"]);
    let err = exits(&out, 1);
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON alone");
    assert_eq!(v[0]["name"], "note");
    assert_eq!(v[0]["status"], "refused");
    assert_eq!(
        v[0]["reason"],
        "not updated: it asks for fleet now, and --yes does not grant new authority"
    );
    assert_eq!(v[1]["name"], "zed");
    assert_eq!(v[1]["status"], "unchanged");
    assert_eq!(v[1]["from"], zed.head().as_str());
    assert!(err.contains("If you update it, the code"), "{err}");
    assert!(
        err.contains("NOTE: it now asks for more than before: fleet"),
        "{err}"
    );
    assert!(
        err.ends_with("roost ext update: not every extension was updated (note was not)\n"),
        "{err}"
    );
    assert_eq!(lock(&env)["note"]["commit"], old.as_str());

    let out = env.run([
        "ext", "update", "--all", "--yes", "--grant", "fleet", "--json",
    ]);
    exits(&out, 0);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["status"], "updated");
    assert_eq!(v[0]["from"], old.as_str());
    assert_eq!(v[0]["to"], new.as_str());
    assert_eq!(lock(&env)["note"]["needs"], serde_json::json!(["fleet"]));
    lock_and_index_agree(&env);
}

/// Without a terminal and without --yes, each is refused on its own; the
/// summary says so for each, and nothing changes.
#[test]
fn update_all_without_a_terminal_refuses_each_and_changes_nothing() {
    let env = TestEnv::new();
    let note = installed(&env, "note", &[]);
    let mark = installed(&env, "mark", &[]);
    bump(&note, "note", "note-two");
    bump(&mark, "mark", "mark-two");
    let before = snapshot(&env);
    let out = env.run(["ext", "update", "--all"]);
    let err = exits(&out, 1);
    assert!(
        err.ends_with("roost ext update: not every extension was updated (mark, note were not)\n"),
        "{err}"
    );
    assert!(
        stdout(&out).ends_with(
            "\nsummary:\n\
             \x20 mark: refused: not updated: stdin is not a terminal\n\
             \x20 note: refused: not updated: stdin is not a terminal\n"
        ),
        "{}",
        stdout(&out)
    );
    assert_eq!(snapshot(&env), before);
}

#[test]
fn update_with_a_name_and_all_is_a_usage_error() {
    let env = TestEnv::new();
    installed(&env, "note", &[]);
    let before = snapshot(&env);
    let out = env.run(["ext", "update", "note", "--all", "--yes"]);
    let err = exits(&out, 2);
    assert!(out.stdout.is_empty());
    assert!(err.starts_with("roost ext update: "), "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    assert!(err.contains("usage: roost ext update"), "{err}");
    assert_eq!(snapshot(&env), before);
}

/// On a terminal, `--all` asks about each in turn and reads one answer per
/// question: yes moves mark, no keeps note's pin, and the summary says which.
/// Progress shows while each remote is reached, on its own line.
#[test]
fn update_all_on_a_terminal_asks_about_each_in_turn() {
    let env = TestEnv::new();
    let mark = installed(&env, "mark", &[]);
    let note = installed(&env, "note", &[]);
    let (mark_old, note_old) = (mark.head(), note.head());
    let mark_new = bump(&mark, "mark", "mark-two");
    bump(&note, "note", "note-two");
    // Both answers are typed ahead, as a quick user might.
    let Some(out) = env.on_a_terminal("ext update --all", b"y\nn\n") else {
        return;
    };
    exits(&out, 1);
    let seen = stdout(&out).replace('\r', "");
    assert_eq!(seen.matches("Update? [y/N] ").count(), 2, "{seen}");
    assert!(
        seen.contains("\x1b[Kroost: connecting to file://"),
        "{seen}"
    );
    assert!(
        seen.ends_with(&format!(
            "\nsummary:\n\
             \x20 mark: updated: {} -> {}\n\
             \x20 note: refused: not updated\n\
             roost ext update: not every extension was updated (note was not)\n",
            short(&mark_old),
            short(&mark_new),
        )),
        "{seen}"
    );
    let l = lock(&env);
    assert_eq!(l["mark"]["commit"], mark_new.as_str());
    assert_eq!(l["note"]["commit"], note_old.as_str());
    assert_eq!(env.ok(["mark"]), "mark-two\n");
    assert_eq!(env.ok(["note"]), "note\n");
    lock_and_index_agree(&env);
}

/// `outdated` and `rollback` reach their remotes with the same progress line
/// as install and update on a terminal, taken away before their own output.
#[test]
fn outdated_and_rollback_show_progress_on_a_terminal() {
    let env = TestEnv::new();
    let mark = installed(&env, "mark", &[]);
    let old = mark.head();
    let new = bump(&mark, "mark", "mark-two");
    let seen = |args: &str| {
        env.on_a_terminal(args, b"")
            .map(|out| succeeded(&out).replace('\r', ""))
    };
    let url = format!("file://{}", mark.bare.display());
    let Some(text) = seen("ext outdated") else {
        return;
    };
    assert!(
        text.starts_with(&format!("\x1b[Kroost: connecting to {url}")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "\x1b[KNAME  PINNED   AVAILABLE  NEEDS\nmark  {}  {}",
            short(&old),
            short(&new)
        )),
        "{text}"
    );
    succeeded(&env.run(["ext", "update", "mark", "--yes"]));
    let text = seen("ext rollback mark --yes").unwrap();
    assert!(
        text.starts_with(&format!("\x1b[Kroost: connecting to {url}")),
        "{text}"
    );
    assert_eq!(lock(&env)["mark"]["commit"], old.as_str());
    // An update with nothing to do takes the line away before it says so.
    succeeded(&env.run(["ext", "update", "mark", "--yes"]));
    let text = seen("ext update mark").unwrap();
    assert!(
        text.contains(&format!("\x1b[Kmark: up to date (HEAD is still {new})\n")),
        "{text:?}"
    );
}

#[test]
fn a_plain_or_relative_git_base_installs_as_an_absolute_file_url_that_updates() {
    let env = TestEnv::new();
    let f = env.simple_ext("me/roost-note", "note", &["note"], &[]);
    let remote = env.path("remote");
    for base in [format!("{}/", remote.display()), "../remote".to_string()] {
        let out = env
            .roost(["ext", "install", "me/roost-note", "--yes"])
            .env("ROOST_EXT_GIT_BASE", &base)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{base}: {}", describe(&out));
        let lock: serde_json::Value =
            serde_json::from_str(&env.read("state/roost/ext.lock")).unwrap();
        let text = lock.to_string();
        assert!(
            text.contains(&format!("\"file://{}/me/roost-note\"", remote.display())),
            "{base}: {text}"
        );
        f.exec("bin/roost-note", "#!/bin/sh\necho changed\n");
        f.commit("second");
        // From another directory, with the base unset: the record suffices.
        let out = env
            .roost(["ext", "update", "note", "--yes"])
            .env_remove("ROOST_EXT_GIT_BASE")
            .current_dir(env.path("config"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{base}: {}", describe(&out));
        assert_eq!(env.ok(["note"]), "changed\n");
        env.ok(["ext", "remove", "note"]);
    }
}

#[test]
fn a_nonsense_git_base_is_refused_before_anything_is_fetched() {
    let env = TestEnv::new();
    env.simple_ext("me/roost-note", "note", &["note"], &[]);
    let out = env
        .roost(["ext", "install", "me/roost-note", "--yes"])
        .env("ROOST_EXT_GIT_BASE", "nonsense-base")
        .output()
        .unwrap();
    assert_refusal(
        &out,
        1,
        "roost ext install: ROOST_EXT_GIT_BASE=nonsense-base is not a base roost can fetch from (neither a URL nor an existing directory)\n\
         set it to an https:// or ssh:// URL, file:///DIR/ or an existing directory, or unset it\n",
    );
    assert!(!env.path("state/roost/ext.lock").exists());
}

// ----------------------------------------------------------------- repair

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
    assert_eq!(exits(&out, 1), format!("{hint}\n"));
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
    assert_eq!(env.run(["note"]).status.code(), Some(2));
    let err = exits(&env.run(["ext", "list"]), 0);
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
    let err = exits(&env.run(["ext", "repair", "note"]), 1);
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
    let err = exits(&env.run(["ext", "repair", "note"]), 1);
    assert_eq!(
        err.lines().next().unwrap(),
        format!(
            "roost ext repair: note: commit {} has tree {tree}, but ext.lock recorded tree {other}; \
             refusing to put other files in place than the ones agreed to",
            f.head()
        )
    );
    assert_eq!(snapshot(&env), before);
}
