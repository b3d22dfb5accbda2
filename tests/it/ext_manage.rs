//! `roost ext list`, `info`, `verify`, `update` and `remove` against real
//! bare repositories reached by file://.

use crate::common::*;

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, SystemTime};

// ---------------------------------------------------------------- helpers

/// An extension NAME claiming COMMANDS, committed, pushed and installed.
fn installed(env: &TestEnv, repo: &str, name: &str, commands: &[&str], needs: &[&str]) -> Fixture {
    let f = env.simple_ext(repo, name, commands, needs);
    install(env, repo);
    f
}

fn install(env: &TestEnv, repo: &str) {
    let out = env.run(["ext", "install", repo, "--yes"]);
    assert!(out.status.success(), "install {repo}: {}", describe(&out));
}

fn clone_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("data/roost/ext").join(name)
}

fn state_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("state/roost/ext").join(name)
}

fn lock(env: &TestEnv) -> Value {
    serde_json::from_slice(&std::fs::read(lock_file(env)).unwrap()).unwrap()
}

fn index(env: &TestEnv) -> String {
    std::fs::read_to_string(index_file(env)).unwrap()
}

fn short(commit: &str) -> &str {
    &commit[..7]
}

/// Sets a file's mtime far in the past, so that any rewrite shows.
fn age(path: &Path) {
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(old)
        .unwrap();
}

/// A file's path, and its bytes and mtime when it exists.
type Seen = (PathBuf, Option<(Vec<u8>, SystemTime)>);

/// ext.lock and ext.index (bytes and mtimes) and every file of NAME's clone.
#[derive(Debug, PartialEq)]
struct Snapshot {
    files: Vec<Seen>,
    clone: Vec<(PathBuf, u32, Vec<u8>)>,
}

fn snapshot(env: &TestEnv, name: &str) -> Snapshot {
    let files = [lock_file(env), index_file(env)]
        .into_iter()
        .map(|p| {
            let seen = std::fs::read(&p)
                .ok()
                .map(|b| (b, std::fs::metadata(&p).unwrap().modified().unwrap()));
            (p, seen)
        })
        .collect();
    Snapshot {
        files,
        clone: listing(&clone_dir(env, name)),
    }
}

/// Ages ext.lock and ext.index, then snapshots.
fn aged_snapshot(env: &TestEnv, name: &str) -> Snapshot {
    age(&lock_file(env));
    age(&index_file(env));
    snapshot(env, name)
}

/// Rewrites ext.lock as JSON after `edit`.
fn edit_lock(env: &TestEnv, edit: impl FnOnce(&mut Value)) {
    let mut v = lock(env);
    edit(&mut v);
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    std::fs::write(lock_file(env), text).unwrap();
}

/// The lines of `text` as a vector (for exact comparisons with context).
fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

/// The line just above the one that starts with `prompt`.
fn line_above<'a>(text: &'a str, prompt: &str) -> &'a str {
    let all = lines(text);
    let at = all
        .iter()
        .position(|l| l.starts_with(prompt))
        .unwrap_or_else(|| panic!("no prompt in {text}"));
    assert!(at > 0, "nothing above the prompt in {text}");
    all[at - 1]
}

// ------------------------------------------------------------------- list

#[test]
fn list_prints_a_header_then_name_short_commit_and_commands_aligned() {
    let env = TestEnv::new();
    let note = installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    let mark = installed(
        &env,
        "other/roost-bookmark",
        "bookmark",
        &["mark"],
        &["fleet"],
    );
    let out = env.run(["ext", "list"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(
        stdout(&out),
        format!(
            "NAME      PINNED   COMMANDS\nbookmark  {}  mark\nnote      {}  note, notes\n",
            short(&mark.head()),
            short(&note.head())
        )
    );
}

#[test]
fn list_marks_an_extension_whose_clone_is_gone() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    std::fs::remove_dir_all(clone_dir(&env, "note")).unwrap();
    let out = env.run(["ext", "list"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(
        stdout(&out),
        format!(
            "NAME  PINNED   COMMANDS\nnote  {}  note  (missing)\n",
            short(&f.head())
        )
    );
}

#[test]
fn list_json_has_every_field_of_the_record() {
    let env = TestEnv::new();
    let f = installed(
        &env,
        "owner/roost-note",
        "note",
        &["note", "notes"],
        &["fleet"],
    );
    let out = env.run(["ext", "list", "--json"]);
    assert_eq!(exits(&out, 0), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 1);
    let e = &items[0];
    assert_eq!(e["name"], "note");
    assert_eq!(e["repo"], "owner/roost-note");
    assert_eq!(e["ref"], "HEAD");
    assert_eq!(e["commit"], f.head());
    assert_eq!(e["commands"], serde_json::json!(["note", "notes"]));
    assert_eq!(e["needs"], serde_json::json!(["fleet"]));
    assert_eq!(e["missing"], false);
}

#[test]
fn list_json_neutralises_control_characters_from_the_record() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let odd = "o\u{202e}r\u{9b}2J\u{7f}\u{1b}[2J";
    edit_lock(&env, |v| v["note"]["repo"] = odd.into());
    let out = env.run(["ext", "list", "--json"]);
    assert_eq!(exits(&out, 0), "");
    let text = stdout(&out);
    for bad in ['\u{1b}', '\u{202e}', '\u{9b}', '\u{7f}'] {
        assert!(!text.contains(bad), "printed {bad:?}: {text}");
    }
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v[0]["repo"], odd);
}

#[test]
fn list_with_nothing_installed_says_so() {
    let env = TestEnv::new();
    let out = env.run(["ext", "list"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(stdout(&out), "no extensions installed\n");
    let out = env.run(["ext", "list", "--json"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        serde_json::json!([])
    );
}

#[test]
fn list_gives_no_warning_when_lock_and_index_agree() {
    let env = TestEnv::new();
    installed(
        &env,
        "owner/roost-note",
        "note",
        &["note", "notes"],
        &["fleet"],
    );
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let out = env.run(["ext", "list"]);
    assert_eq!(exits(&out, 0), "");
}

/// Runs `roost ext list` and checks the warning's frame around `problem`.
fn assert_disagreement(env: &TestEnv, problem: &str) {
    let out = env.run(["ext", "list"]);
    let err = exits(&out, 0);
    assert_eq!(
        lines(&err),
        vec![
            "roost ext list: warning: ext.lock and ext.index disagree:",
            &format!("  {problem}"),
            "ext.index is the file being obeyed. `roost ext verify` checks the installed files;",
            "`roost ext repair` writes ext.index again from ext.lock.",
        ],
        "{}",
        describe(&out)
    );
}

#[test]
fn list_warns_when_an_extension_is_only_in_the_lock() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let kept: String = index(&env)
        .lines()
        .filter(|l| l.split('\t').nth(1) != Some("note"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(index_file(&env), kept).unwrap();
    assert_disagreement(&env, "note: only in ext.lock (its commands do not run)");
}

#[test]
fn list_warns_when_an_extension_is_only_in_the_index() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let mut text = index(&env);
    text.push_str("ghost\tghost\t/nowhere/bin/roost-ghost\tfleet\n");
    std::fs::write(index_file(&env), text).unwrap();
    assert_disagreement(
        &env,
        "ghost: only in ext.index (it runs with no record in ext.lock)",
    );
}

#[test]
fn list_warns_when_the_authority_differs() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| v["note"]["needs"] = serde_json::json!(["fleet"]));
    assert_disagreement(
        &env,
        "note: authority differs (ext.lock: fleet; ext.index: none)",
    );
    // The index is still what is obeyed: the command runs without the socket.
    assert_eq!(env.ok(["note", "x"]), "note [x]\n");
}

#[test]
fn list_warns_when_the_commands_differ() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    edit_lock(&env, |v| {
        v["note"]["commands"] = serde_json::json!(["note"])
    });
    assert_disagreement(
        &env,
        "note: commands differ (ext.lock: note; ext.index: note notes)",
    );
}

#[test]
fn list_warns_when_the_index_grants_one_command_more_authority() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    // Only the first of note's two lines gains fleet: that one is obeyed.
    let text = index(&env).replacen("/bin/roost-note\t\n", "/bin/roost-note\tfleet\n", 1);
    std::fs::write(index_file(&env), text).unwrap();
    assert_disagreement(
        &env,
        "note: authority differs (ext.lock: none; ext.index: note: fleet, notes: none)",
    );
}

#[test]
fn list_warns_when_the_index_runs_a_command_from_elsewhere() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note", "notes"], &[]);
    let clone = clone_dir(&env, "note");
    let text = index(&env).replacen(
        &format!("{}/bin/roost-notes", clone.display()),
        "/tmp/elsewhere/roost-notes",
        1,
    );
    std::fs::write(index_file(&env), text).unwrap();
    assert_disagreement(&env, "note: the executables' paths differ");
}

#[test]
fn list_warns_when_a_first_duplicate_index_line_is_obeyed() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // The dispatcher obeys the first line for a command.
    let text = index(&env);
    let first = text.replace("/bin/roost-note\t\n", "/bin/roost-note\tfleet\n");
    std::fs::write(index_file(&env), first + &text).unwrap();
    assert_disagreement(
        &env,
        "note: authority differs (ext.lock: none; ext.index: fleet)",
    );
}

// ------------------------------------------------------------------- info

#[test]
fn info_shows_the_lock_entry_the_manifest_and_both_directories() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &["fleet"]);
    edit_lock(&env, |v| {
        v["note"]["later-field"] = serde_json::json!({"b": 1})
    });
    let out = env.run(["ext", "info", "note"]);
    assert_eq!(exits(&out, 0), "");
    let text = stdout(&out);
    let clone = clone_dir(&env, "note");
    let state = state_dir(&env, "note");
    let installed = lock(&env)["note"]["installed"]
        .as_str()
        .unwrap()
        .to_string();
    let url = format!("file://{}/owner/roost-note", env.path("remote").display());
    let want = [
        "name         note".to_string(),
        "repo         owner/roost-note".into(),
        format!("url          {url}"),
        "ref          HEAD".into(),
        format!("commit       {}", f.head()),
        format!("tree         {}", f.tree("HEAD")),
        "commands     note".into(),
        "needs        fleet".into(),
        "contract     1".into(),
        format!("installed    {installed}"),
        "later-field  {\"b\":1}".into(),
        "manifest (roost-ext.json as found in the clone):".into(),
        "  {".into(),
    ];
    assert_eq!(&lines(&text)[..want.len()], want, "{text}");
    assert!(text.contains("    \"contract\": 1"), "{text}");
    assert!(text.ends_with(&format!(
        "clone        {}\nstate        {}\n",
        clone.display(),
        state.display()
    )));
}

#[test]
fn info_shows_the_manifest_as_found_in_the_clone() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    std::fs::write(
        clone_dir(&env, "note").join("roost-ext.json"),
        "{\"name\": \"edited\", \"contract\": 1, \"commands\": [\"note\"]}",
    )
    .unwrap();
    let text = env.ok(["ext", "info", "note"]);
    assert!(text.contains("\"name\": \"edited\""), "{text}");
}

#[test]
fn info_json_has_the_lock_entry_the_manifest_and_both_directories() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let out = env.run(["ext", "info", "note", "--json"]);
    assert_eq!(exits(&out, 0), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["name"], "note");
    assert_eq!(v["lock"], lock(&env)["note"]);
    assert_eq!(v["lock"]["commit"], f.head());
    assert_eq!(v["manifest"]["name"], "note");
    assert_eq!(v["manifest"]["commands"], serde_json::json!(["note"]));
    assert_eq!(v["clone"], clone_dir(&env, "note").to_str().unwrap());
    assert_eq!(v["state"], state_dir(&env, "note").to_str().unwrap());
}

#[test]
fn info_neutralises_control_characters_from_the_record() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| {
        v["note"]["extra"] = "a\u{1b}[2Jb\u{202e}c\u{9b}d\u{7f}".into();
    });
    for args in [
        &["ext", "info", "note"][..],
        &["ext", "info", "note", "--json"],
    ] {
        let out = env.run(args);
        assert_eq!(exits(&out, 0), "");
        let text = stdout(&out);
        for bad in ['\u{1b}', '\u{202e}', '\u{9b}', '\u{7f}'] {
            assert!(!text.contains(bad), "{args:?} printed {bad:?}: {text}");
        }
        if args.len() == 4 {
            // Still the same value for a JSON reader.
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["lock"]["extra"], "a\u{1b}[2Jb\u{202e}c\u{9b}d\u{7f}");
        }
    }
}

#[test]
fn info_refuses_an_unknown_name_or_one_that_is_not_a_name() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // A hand-made entry named ../x and a manifest where ../x would lead.
    edit_lock(&env, |v| v["../x"] = v["note"].clone());
    env.write("data/roost/x/roost-ext.json", "{\"name\": \"x\"}");
    for name in ["../x", "nope", "x"] {
        for json in [false, true] {
            let mut args = vec!["ext", "info", name];
            if json {
                args.push("--json");
            }
            let out = env.run(&args);
            let err = exits(&out, 1);
            assert_eq!(
                err,
                format!(
                    "roost ext info: no such extension: {name}\nroost ext list shows what is installed\n"
                )
            );
            assert_eq!(stdout(&out), "");
        }
    }
}

#[test]
fn info_of_an_extension_whose_clone_is_gone_still_shows_the_record() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let clone = clone_dir(&env, "note");
    std::fs::remove_dir_all(&clone).unwrap();
    let text = env.ok(["ext", "info", "note"]);
    assert!(
        text.contains(
            "manifest (roost-ext.json as found in the clone):\n  (missing or unreadable)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("clone      {}  (missing)\n", clone.display())),
        "{text}"
    );
    let v: Value = serde_json::from_str(&env.ok(["ext", "info", "note", "--json"])).unwrap();
    assert_eq!(v["manifest"], Value::Null);
    assert_eq!(v["lock"]["repo"], "owner/roost-note");
}

#[test]
fn info_does_not_follow_a_manifest_that_is_no_longer_a_file() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let manifest = clone_dir(&env, "note").join("roost-ext.json");
    std::fs::remove_file(&manifest).unwrap();
    let fifo = env.path("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink(&fifo, &manifest).unwrap();
    let mut child = env
        .roost(["ext", "info", "note"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let done = wait_until(Duration::from_secs(10), || {
        child.try_wait().unwrap().is_some()
    });
    if !done {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(done, "roost ext info hung reading a FIFO");
    assert_eq!(exits(&out, 0), "");
    assert!(stdout(&out).contains("  (missing or unreadable)\n"));
}

#[test]
fn info_json_survives_a_data_directory_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let odd = env
        .dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"data\xff"));
    std::fs::rename(env.path("data"), &odd).unwrap();
    let out = env
        .roost(["ext", "info", "note", "--json"])
        .env("XDG_DATA_HOME", &odd)
        .output()
        .unwrap();
    assert_eq!(exits(&out, 0), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["manifest"]["name"], "note");
    assert!(v["clone"].as_str().unwrap().ends_with("/roost/ext/note"));
}

// ----------------------------------------------------------------- verify

/// `note`, with a README and an in-tree symlink, installed.
fn verifiable(env: &TestEnv) -> Fixture {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.write("README", "read me\n");
    f.write("docs/guide.txt", "a guide\n");
    std::os::unix::fs::symlink("README", f.work.join("link")).unwrap();
    f.commit("docs and a link");
    install(env, "owner/roost-note");
    f
}

fn verify_note(env: &TestEnv) -> Output {
    env.run(["ext", "verify", "note"])
}

fn assert_ok(env: &TestEnv) {
    let out = verify_note(env);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(stdout(&out), "note: ok\n");
}

fn assert_differs(env: &TestEnv, details: &[&str]) {
    let out = verify_note(env);
    exits(&out, 1);
    let mut want = format!(
        "note: differs from the tree recorded at install ({} {})\n",
        details.len(),
        if details.len() == 1 { "file" } else { "files" }
    );
    for d in details {
        want.push_str(&format!("  {d}\n"));
    }
    assert_eq!(stdout(&out), want);
}

#[test]
fn verify_is_ok_after_install_and_the_lock_holds_gits_tree() {
    let env = TestEnv::new();
    let f = verifiable(&env);
    assert_eq!(lock(&env)["note"]["tree"], f.tree("HEAD"));
    assert_eq!(lock(&env)["note"]["commit"], f.ls_remote("HEAD"));
    assert_ok(&env);
}

#[test]
fn verify_names_a_file_whose_content_changed_by_one_byte() {
    let env = TestEnv::new();
    verifiable(&env);
    let readme = clone_dir(&env, "note").join("README");
    std::fs::write(&readme, "read mE\n").unwrap();
    assert_differs(&env, &["modified  README (content)"]);
    std::fs::write(&readme, "read me\n").unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_a_file_whose_mode_changed() {
    let env = TestEnv::new();
    verifiable(&env);
    let bin = clone_dir(&env, "note").join("bin/roost-note");
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_differs(&env, &["modified  bin/roost-note (mode 100755 -> 100644)"]);
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_an_added_file() {
    let env = TestEnv::new();
    verifiable(&env);
    let added = clone_dir(&env, "note").join("docs/extra");
    std::fs::write(&added, "x").unwrap();
    assert_differs(&env, &["added     docs/extra"]);
    std::fs::remove_file(&added).unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_a_removed_file() {
    let env = TestEnv::new();
    verifiable(&env);
    let guide = clone_dir(&env, "note").join("docs/guide.txt");
    std::fs::remove_file(&guide).unwrap();
    assert_differs(&env, &["removed   docs/guide.txt"]);
    std::fs::write(&guide, "a guide\n").unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_a_retargeted_symlink() {
    let env = TestEnv::new();
    verifiable(&env);
    let link = clone_dir(&env, "note").join("link");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("docs/guide.txt", &link).unwrap();
    assert_differs(&env, &["modified  link (symlink target)"]);
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("README", &link).unwrap();
    assert_ok(&env);
}

#[test]
fn verify_names_every_difference_at_once_in_path_order() {
    let env = TestEnv::new();
    verifiable(&env);
    let clone = clone_dir(&env, "note");
    std::fs::write(clone.join("README"), "changed\n").unwrap();
    std::fs::remove_file(clone.join("docs/guide.txt")).unwrap();
    std::fs::write(clone.join("added"), "").unwrap();
    assert_differs(
        &env,
        &[
            "modified  README (content)",
            "added     added",
            "removed   docs/guide.txt",
        ],
    );
}

#[test]
fn verify_ignores_the_clones_git_directory() {
    let env = TestEnv::new();
    verifiable(&env);
    std::fs::write(clone_dir(&env, "note").join(".git/scratch"), "x").unwrap();
    assert_ok(&env);
}

#[test]
fn verify_reports_a_missing_clone() {
    let env = TestEnv::new();
    verifiable(&env);
    let clone = clone_dir(&env, "note");
    std::fs::remove_dir_all(&clone).unwrap();
    let out = verify_note(&env);
    exits(&out, 1);
    assert_eq!(
        stdout(&out),
        format!("note: missing ({} does not exist)\n", clone.display())
    );
}

/// `verify --json`: each entry, whether it is ok, its verdict and the
/// files that differ; the exit status and the repair hint as in text.
#[test]
fn verify_json_lists_each_entry_with_its_verdict_and_files() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    std::fs::write(clone_dir(&env, "mark").join("new"), "").unwrap();
    std::fs::write(
        clone_dir(&env, "mark").join("bin/roost-mark"),
        "#!/bin/sh\n",
    )
    .unwrap();
    let out = env.run(["ext", "verify", "--json"]);
    assert_eq!(
        exits(&out, 1),
        "roost ext repair mark puts back the files pinned in ext.lock\n"
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        serde_json::json!([
            {
                "name": "mark",
                "ok": false,
                "verdict": "differs from the tree recorded at install (2 files)",
                "files": [
                    {"change": "modified", "path": "bin/roost-mark", "what": "content"},
                    {"change": "added", "path": "new", "what": null},
                ],
            },
            {"name": "note", "ok": true, "verdict": "ok", "files": []},
        ])
    );
    let out = env.run(["ext", "verify", "note", "--json"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap(),
        serde_json::json!([{"name": "note", "ok": true, "verdict": "ok", "files": []}])
    );
}

#[test]
fn verify_without_a_name_checks_every_extension() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let out = env.run(["ext", "verify"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(stdout(&out), "mark: ok\nnote: ok\n");
    std::fs::write(clone_dir(&env, "mark").join("new"), "").unwrap();
    let out = env.run(["ext", "verify"]);
    exits(&out, 1);
    assert_eq!(
        stdout(&out),
        "mark: differs from the tree recorded at install (1 file)\n  added     new\nnote: ok\n"
    );
}

#[test]
fn verify_refuses_an_unknown_name() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    for name in ["nope", "../x", "-x"] {
        let out = env.run(["ext", "verify", name]);
        let err = exits(&out, if name == "-x" { 2 } else { 1 });
        if name != "-x" {
            assert!(
                err.starts_with(&format!("roost ext verify: no such extension: {name}\n")),
                "{err}"
            );
        }
        assert_eq!(stdout(&out), "");
    }
}

#[test]
fn verify_refuses_a_tree_in_the_lock_that_is_not_a_hash() {
    let env = TestEnv::new();
    verifiable(&env);
    for tree in ["--help", "", "0123456", "../../x"] {
        edit_lock(&env, |v| v["note"]["tree"] = tree.into());
        let out = verify_note(&env);
        exits(&out, 1);
        assert_eq!(
            stdout(&out),
            "note: ext.lock records no valid tree hash for it\n"
        );
    }
}

#[test]
fn verify_with_nothing_installed_says_so() {
    let env = TestEnv::new();
    let out = env.run(["ext", "verify"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(stdout(&out), "no extensions installed\n");
}

// ----------------------------------------------------------------- update

#[test]
fn update_with_an_unchanged_ref_says_so_and_writes_nothing() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(
        stdout(&out),
        format!("note: up to date (HEAD is still {})\n", f.head())
    );
    assert_eq!(snapshot(&env, "note"), before);
    // Without a name: every extension.
    let out = env.run(["ext", "update"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(snapshot(&env, "note"), before);
}

/// `note` installed with a README, then a second commit that rewrites its
/// command, removes README and adds NEWS. Returns (fixture, old, new).
fn changed(env: &TestEnv) -> (Fixture, String, String) {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.write("README", "read me\n");
    let old = f.commit("readme");
    install(env, "owner/roost-note");
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v2'\n");
    std::fs::remove_file(f.work.join("README")).unwrap();
    f.write("NEWS", "v2\n");
    let new = f.commit("v2");
    (f, old, new)
}

/// Code that ran from the pinned clone may have rewritten it to look like
/// the next commit; the diff then cannot start from it, or a change would
/// be hidden: it says so, and every file shows as added.
#[test]
fn update_never_diffs_against_a_clone_changed_since_install() {
    let env = TestEnv::new();
    let (_f, old, new) = changed(&env);
    // The installed clone now holds v2's command, byte for byte.
    let clone = env.path("data/roost/ext/note");
    std::fs::write(clone.join("bin/roost-note"), "#!/bin/sh\necho 'note v2'\n").unwrap();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    let text = stdout(&out);
    let head = format!(
        "note: {old} -> {new}\n\
         ({} no longer holds the files pinned at install (roost ext verify note names them), \
         so nothing is compared with it: every file shows as added)\n\
         \nchanged files:\n  A NEWS\n  A bin/roost-note\n  A roost-ext.json\n\n",
        clone.display()
    );
    assert!(text.starts_with(&head), "{text}");
    assert!(text.contains("+echo 'note v2'\n"), "{text}");
    assert_eq!(lock(&env)["note"]["commit"], new.as_str());
}

#[test]
fn update_shows_the_change_and_moves_the_pin() {
    let env = TestEnv::new();
    let (f, old, new) = changed(&env);
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    let text = stdout(&out);
    let head = format!(
        "note: {} -> {}\n\nchanged files:\n  A NEWS\n  D README\n  M bin/roost-note\n\n",
        old, new
    );
    assert!(text.starts_with(&head), "{text}");
    // The diff of each file is git's (from the hunk header on).
    let git = f.git(&[
        "diff",
        "--no-color",
        "--histogram",
        &old,
        &new,
        "--",
        "bin/roost-note",
    ]);
    let hunks = &git[git.find("@@").unwrap()..];
    assert!(
        text.contains(&format!(
            "diff --git a/bin/roost-note b/bin/roost-note\n--- a/bin/roost-note\n+++ b/bin/roost-note\n{hunks}"
        )),
        "{text}\n--- git says\n{git}"
    );
    assert!(
        text.contains(
            "diff --git a/NEWS b/NEWS\nnew file mode 100644\n--- /dev/null\n+++ b/NEWS\n@@ -0,0 +1 @@\n+v2\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "diff --git a/README b/README\ndeleted file mode 100644\n--- a/README\n+++ /dev/null\n@@ -1 +0,0 @@\n-read me\n"
        ),
        "{text}"
    );
    assert!(text.contains("\nUpdate? [y/N] yes (--yes)\n"), "{text}");
    assert!(
        text.ends_with(&format!("updated note: {} -> {}\n", old, new)),
        "{text}"
    );
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], new);
    assert_eq!(l["note"]["tree"], f.tree("HEAD"));
    assert_eq!(l["note"]["ref"], "HEAD");
    assert_eq!(env.ok(["note"]), "note v2\n");
    assert_eq!(env.ok(["ext", "verify", "note"]), "note: ok\n");
    // No temporary directory or set-aside clone is left behind.
    let left: Vec<_> = std::fs::read_dir(env.path("data/roost/ext"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("note")]);
}

#[test]
fn update_shows_mode_and_symlink_changes_as_git_does() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    std::os::unix::fs::symlink("bin", f.work.join("link")).unwrap();
    f.write("tool", "a\n");
    let old = f.commit("link and tool");
    install(&env, "owner/roost-note");
    std::fs::remove_file(f.work.join("link")).unwrap();
    std::os::unix::fs::symlink("roost-ext.json", f.work.join("link")).unwrap();
    f.exec("tool", "a\n");
    let new = f.commit("retarget and chmod");
    let text = env.ok(["ext", "update", "note", "--yes"]);
    let git = f.git(&["diff", "--no-color", &old, &new]);
    // git's diff, less its `index` lines (roost does not print blob ids).
    let git: String = git
        .lines()
        .filter(|l| !l.starts_with("index "))
        .map(|l| format!("{l}\n"))
        .collect();
    let want = format!(
        "note: {} -> {}\n\nchanged files:\n  M link\n  T tool\n\n{git}\n",
        old, new
    );
    assert!(text.starts_with(&want), "{text}\n--- wanted\n{want}");
    assert_eq!(lock(&env)["note"]["tree"], f.tree("HEAD"));
    assert_eq!(env.ok(["ext", "verify"]), "note: ok\n");
}

#[test]
fn update_follows_the_recorded_ref() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.git(&["tag", "v1"]);
    f.push();
    let out = env.run(["ext", "install", "owner/roost-note", "--ref", "v1", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    f.exec("bin/roost-note", "#!/bin/sh\necho 'on main'\n");
    f.commit("main moves on");
    // main moved, v1 did not.
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    assert!(stdout(&out).starts_with("note: up to date (v1 is still "));
    f.git(&["tag", "-f", "v1"]);
    f.push();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(lock(&env)["note"]["commit"], f.head());
    assert_eq!(lock(&env)["note"]["ref"], "v1");
    assert_eq!(env.ok(["note"]), "on main\n");
}

#[test]
fn update_without_yes_and_without_a_terminal_refuses_and_changes_nothing() {
    let env = TestEnv::new();
    let (_f, old, new) = changed(&env);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note"]);
    let err = exits(&out, 1);
    assert_eq!(
        err,
        "roost ext update: note: not updated: stdin is not a terminal\nread the change above, then pass --yes to update from a script\n"
    );
    // The change was shown before refusing.
    assert!(stdout(&out).starts_with(&format!("note: {} -> {}\n", old, new)));
    assert!(!stdout(&out).contains("Update?"));
    assert_eq!(snapshot(&env, "note"), before);
    assert_eq!(lock(&env)["note"]["commit"], old);
    assert_eq!(env.ok(["note", "a"]), "note [a]\n");
}

const GROWN: &str = "NOTE: it now asks for more than before: fleet (it had: none); with fleet its code could read any pane's screen and send prompts to any agent";

#[test]
fn update_with_yes_refuses_grown_authority_unless_granted_by_name() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let old = f.head();
    f.manifest("note", &["note"], &["fleet"]);
    f.commit("now wants the fleet");
    let lock_before = std::fs::read(lock_file(&env)).unwrap();
    let index_before = std::fs::read(index_file(&env)).unwrap();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(
        exits(&out, 1),
        "roost ext update: note: not updated: it asks for fleet now, and --yes does not grant new authority\n\
         read the change above; to accept it from a script, add --grant fleet\n"
    );
    assert!(
        stdout(&out).ends_with(&format!("{GROWN}\n")),
        "{}",
        describe(&out)
    );
    assert!(
        stdout(&out).contains("If you update it, the code"),
        "{}",
        describe(&out)
    );
    assert!(
        stdout(&out).contains("Nothing runs during update."),
        "{}",
        describe(&out)
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), lock_before);
    assert_eq!(std::fs::read(index_file(&env)).unwrap(), index_before);
    assert_eq!(lock(&env)["note"]["commit"], old);
    // Named on the command line, it is granted.
    let out = env.run(["ext", "update", "note", "--yes", "--grant", "fleet"]);
    assert_eq!(exits(&out, 0), "");
    let text = stdout(&out);
    assert_eq!(line_above(&text, "Update? [y/N]"), GROWN, "{text}");
    assert_eq!(lock(&env)["note"]["needs"], serde_json::json!(["fleet"]));
    assert!(
        index(&env).ends_with("/bin/roost-note\tfleet\n"),
        "{}",
        index(&env)
    );
    // An authority this roost does not know cannot be granted.
    let out = env.run(["ext", "update", "note", "--yes", "--grant", "network"]);
    assert!(exits(&out, 2).starts_with(
        "roost ext update: --grant network: not an authority this roost knows (fleet)\n"
    ));
}

#[test]
fn update_prompt_on_a_terminal_follows_the_grown_authority_line_and_no_keeps_the_pin() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let old = f.head();
    f.manifest("note", &["note"], &["fleet"]);
    f.commit("now wants the fleet");
    let before = aged_snapshot(&env, "note");
    let Some(out) = env.on_a_terminal("ext update note", b"n\n") else {
        return;
    };
    exits(&out, 1);
    let text = stdout(&out).replace('\r', "");
    // On a terminal its marker is coloured.
    let grown = GROWN.replace("NOTE:", "\x1b[33mNOTE:\x1b[m");
    assert_eq!(line_above(&text, "Update? [y/N] "), grown, "{text}");
    assert!(
        text.contains("roost ext update: note: not updated\n"),
        "{text}"
    );
    assert_eq!(snapshot(&env, "note"), before);
    assert_eq!(lock(&env)["note"]["commit"], old);
}

/// By the time `update` shows the change and asks, it has hung up on the
/// remote: no server process waits on the user's answer.
#[test]
fn update_has_closed_the_connection_when_it_asks() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho two\n");
    f.commit("two");
    let calls = env.path("upload-pack-calls");
    let path = env.upload_pack_wrapper(&calls, ":");
    // script(1) gives roost a terminal; the answer waits until the prompt.
    let mut child = Command::new("script")
        .args(["-qec", &format!("{ROOST} ext update note"), "/dev/null"])
        .env_clear()
        .envs(env.vars())
        .env("PATH", path)
        .current_dir(env.path("work"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let shown = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let reader = {
        let shown = shown.clone();
        let mut stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            use std::io::Read;
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                shown.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        })
    };
    let asked = wait_until(Duration::from_secs(20), || {
        String::from_utf8_lossy(&shown.lock().unwrap()).contains("Update? [y/N]")
    });
    // The wrapper notes `end` a moment after roost closes its side.
    let closed = asked
        && wait_until(Duration::from_secs(5), || {
            upload_pack_runs(&calls) == (1, 1)
        });
    let runs = upload_pack_runs(&calls);
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"n\n").unwrap();
    child.wait().unwrap();
    reader.join().unwrap();
    let text = String::from_utf8_lossy(&shown.lock().unwrap()).replace('\r', "");
    assert!(asked, "no prompt: {text}");
    assert!(closed, "still connected while asking: {runs:?}\n{text}");
    assert!(
        text.contains("roost ext update: note: not updated\n"),
        "{text}"
    );
}

#[test]
fn update_without_grown_authority_has_no_callout() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &["fleet"]);
    f.manifest("note", &["note"], &[]);
    f.commit("no longer wants the fleet");
    let text = env.ok(["ext", "update", "note", "--yes"]);
    assert!(!text.contains("NOTE:"), "{text}");
    assert_eq!(lock(&env)["note"]["needs"], serde_json::json!([]));
    assert!(index(&env).ends_with("/bin/roost-note\t\n"));
}

/// Pushes a new commit of note that claims `commands` (each executable).
fn claim(f: &Fixture, name: &str, commands: &[&str]) {
    f.manifest(name, commands, &[]);
    for c in commands {
        f.exec(&format!("bin/roost-{c}"), "#!/bin/sh\necho took it\n");
    }
    f.commit("claims more");
}

#[test]
fn update_refuses_a_commit_that_claims_a_core_command() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    claim(&f, "note", &["note", "send"]);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, 1);
    assert!(
        err.contains("command \"send\" is a roost core command; an extension cannot claim it"),
        "{err}"
    );
    assert_eq!(snapshot(&env, "note"), before);
    assert!(!stdout(&out).contains("Update?"));
}

#[test]
fn update_refuses_a_commit_that_claims_another_extensions_command() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    claim(&f, "note", &["note", "mark"]);
    let before = aged_snapshot(&env, "note");
    let mark_before = listing(&clone_dir(&env, "mark"));
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, 1);
    assert_eq!(
        err,
        "roost ext update: note: the new commit claims mark, which the installed extension mark holds; nothing was changed\n"
    );
    assert_eq!(snapshot(&env, "note"), before);
    assert_eq!(listing(&clone_dir(&env, "mark")), mark_before);
    assert_eq!(env.ok(["mark"]), "mark\n");
}

#[test]
fn update_refuses_a_renamed_extension() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    claim(&f, "jotter", &["note"]);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, 1);
    assert_eq!(
        err,
        "roost ext update: note: the new commit's manifest names it 'jotter'; refusing a renamed extension\nremove note, then install the repository under its new name\n"
    );
    assert_eq!(snapshot(&env, "note"), before);
}

#[test]
fn update_refuses_a_commit_that_fails_an_install_gate() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    std::os::unix::fs::symlink("/etc/passwd", f.work.join("escape")).unwrap();
    f.commit("escape");
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, 1);
    assert!(
        err.contains("the symlink escape points to the absolute path /etc/passwd"),
        "{err}"
    );
    assert_eq!(snapshot(&env, "note"), before);
}

/// Poisons the installed clone's .git: an fsmonitor, hooks, an include, a
/// pager, filters; each would touch `marker` if git or gix ran it.
fn poison(env: &TestEnv, name: &str) -> PathBuf {
    let marker = env.path("marker");
    let script = env.path("poison.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let git = clone_dir(env, name).join(".git");
    let hooks = env.path("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::create_dir_all(git.join("hooks")).unwrap();
    for hook in [
        "pre-commit",
        "post-checkout",
        "post-merge",
        "reference-transaction",
        "fsmonitor-watchman",
        "post-index-change",
    ] {
        std::fs::copy(&script, hooks.join(hook)).unwrap();
        std::fs::copy(&script, git.join("hooks").join(hook)).unwrap();
    }
    let s = script.display();
    let included = env.write(
        "included.config",
        &format!("[core]\n\tfsmonitor = {s}\n\tpager = {s}\n[diff]\n\texternal = {s}\n"),
    );
    let mut config = std::fs::read_to_string(git.join("config")).unwrap();
    config.push_str(&format!(
        "[core]\n\tfsmonitor = {s}\n\thooksPath = {}\n\tpager = {s}\n\tsshCommand = {s}\n\teditor = {s}\n\
         [include]\n\tpath = {}\n\
         [filter \"x\"]\n\tclean = {s}\n\tsmudge = {s}\n\tprocess = {s}\n\trequired = true\n\
         [diff]\n\texternal = {s}\n\
         [gpg]\n\tprogram = {s}\n\
         [uploadpack]\n\tpackObjectsHook = {s}\n",
        hooks.display(),
        included.display()
    ));
    std::fs::write(git.join("config"), config).unwrap();
    std::fs::write(git.join("info/attributes"), "* filter=x diff=x\n").unwrap_or_default();
    std::fs::write(
        clone_dir(env, name).join(".gitattributes"),
        "* filter=x diff=x\n",
    )
    .unwrap();
    marker
}

#[test]
fn update_fires_nothing_from_a_poisoned_clone_config() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let marker = poison(&env, "note");
    // A pager is used only on a terminal; set one anyway.
    let script = env.path("poison.sh");
    let unchanged = env
        .roost(["ext", "update", "note"])
        .env("PAGER", &script)
        .output()
        .unwrap();
    assert_eq!(exits(&unchanged, 0), "");
    assert!(!marker.exists(), "the unchanged update fired something");
    let out = env
        .roost(["ext", "verify", "note"])
        .env("PAGER", &script)
        .output()
        .unwrap();
    exits(&out, 1); // .gitattributes was added by the poisoning
    assert!(stdout(&out).contains("added     .gitattributes"));
    assert!(!marker.exists(), "verify fired something");
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v2'\n");
    f.commit("v2");
    let changed = env
        .roost(["ext", "update", "note", "--yes"])
        .env("PAGER", &script)
        .output()
        .unwrap();
    assert_eq!(exits(&changed, 0), "");
    assert!(!marker.exists(), "the changed update fired something");
    // The poisoned clone is not what was pinned: nothing is compared with it.
    let text = stdout(&changed);
    assert!(
        text.contains("no longer holds the files pinned at install"),
        "{text}"
    );
    assert!(
        text.contains("\nchanged files:\n  A bin/roost-note\n"),
        "{text}"
    );
    assert_eq!(env.ok(["note"]), "note v2\n");
    assert!(!marker.exists());
}

#[test]
fn update_neutralises_control_characters_in_the_change() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    f.write(
        "evil.txt",
        "clear\u{1b}[2J here\nrtl \u{202e}txt.exe\nc1 \u{9b}31m\n",
    );
    f.write("name\u{1b}[1m.txt", "x\n");
    f.commit("controls");
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    let bytes = &out.stdout;
    assert!(
        !bytes.contains(&0x1b),
        "raw ESC in {}",
        String::from_utf8_lossy(bytes)
    );
    let text = stdout(&out);
    for bad in ['\u{202e}', '\u{9b}'] {
        assert!(!text.contains(bad), "raw {bad:?} in {text}");
    }
    assert!(text.contains("+clear\\x1b[2J here\n"), "{text}");
    assert!(text.contains("+rtl \\u{202e}txt.exe\n"), "{text}");
    assert!(text.contains("  A name\\x1b[1m.txt\n"), "{text}");
    assert!(
        text.contains("diff --git a/name\\x1b[1m.txt b/name\\x1b[1m.txt\n"),
        "{text}"
    );
}

#[test]
fn update_caps_a_long_diff() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let big: String = (0..5000).map(|i| format!("line {i}\n")).collect();
    f.write("big.txt", &big);
    f.commit("big");
    let text = env.ok(["ext", "update", "note", "--yes"]);
    assert!(
        text.contains(
            "[diff cut at 2000 lines; not shown in full: big.txt; \
             `roost ext update note --diff` prints the whole diff]\n"
        ),
        "{}",
        &text[..2000]
    );
    assert!(!text.contains("+line 4999\n"));
}

/// What runs comes first under the cap, and the files it cut are named;
/// `--diff` prints all of it and changes nothing.
#[test]
fn update_shows_the_manifest_and_bin_before_the_cap_and_names_the_files_it_cut() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let old = f.head();
    let big: String = (0..3000).map(|i| format!("line {i}\n")).collect();
    // Both sort before bin/ by path.
    f.write("aaa.txt", &big);
    f.write("README", "read me\n");
    f.write("zzz.txt", "last\n");
    f.exec("bin/roost-note", "#!/bin/sh\necho changed\n");
    f.manifest("note", &["note"], &["fleet"]);
    f.commit("big, and a changed command");
    let out = env.run(["ext", "update", "note"]);
    exits(&out, 1);
    let text = stdout(&out);
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in {text}"))
    };
    assert!(at("+++ b/roost-ext.json") < at("+echo changed\n"), "{text}");
    assert!(at("+echo changed\n") < at("+++ b/README"), "{text}");
    assert!(at("+++ b/README") < at("+++ b/aaa.txt"), "{text}");
    assert!(
        text.contains(
            "[diff cut at 2000 lines; not shown in full: aaa.txt, zzz.txt; \
             `roost ext update note --diff` prints the whole diff]\n"
        ),
        "{text}"
    );
    let before = crate::common::snapshot(&env);
    let whole = env.ok(["ext", "update", "note", "--diff"]);
    for line in [
        "+line 2999\n",
        "+++ b/zzz.txt\n",
        "+last\n",
        "+echo changed\n",
    ] {
        assert!(whole.contains(line), "{line:?} not in the whole diff");
    }
    assert!(!whole.contains("[diff cut") && !whole.contains("Update?"));
    assert!(whole.ends_with(
        "note: nothing was changed (--diff); roost ext update note asks before it does\n"
    ));
    assert_eq!(crate::common::snapshot(&env), before);
    assert_eq!(lock(&env)["note"]["commit"], old.as_str());
}

/// A pager of `less` gets LESS=FRX when LESS is unset, as git gives it: a
/// short diff stays on the screen for the question. A LESS of one's own
/// is passed on as it is.
#[test]
fn update_pages_with_less_told_to_leave_the_diff_on_screen() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let saw = env.path("pager-saw");
    let pager = env.write(
        "pager.sh",
        &format!(
            "#!/bin/sh\necho \"LESS=[$LESS]\" >> '{}'\ncat\n",
            saw.display()
        ),
    );
    std::fs::set_permissions(&pager, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let pager = pager.to_string_lossy().into_owned();
    f.exec("bin/roost-note", "#!/bin/sh\necho two\n");
    f.commit("two");
    let Some(out) =
        env.on_a_terminal_with("ext update note --yes", b"", &[("PAGER", pager.as_str())])
    else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(stdout(&out).contains("+echo two"), "{}", describe(&out));
    assert_eq!(env.read("pager-saw"), "LESS=[FRX]\n");
    f.exec("bin/roost-note", "#!/bin/sh\necho three\n");
    f.commit("three");
    let out = env
        .on_a_terminal_with(
            "ext update note --yes",
            b"",
            &[("PAGER", pager.as_str()), ("LESS", "-S")],
        )
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(env.read("pager-saw"), "LESS=[FRX]\nLESS=[-S]\n");
}

#[test]
fn update_caps_a_diff_of_one_huge_line() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    f.write("min.js", &"x".repeat(2 << 20));
    f.commit("minified");
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    let text = stdout(&out);
    assert!(text.len() < 512 * 1024, "{} bytes", text.len());
    assert!(
        text.contains("+++ b/min.js\n"),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert!(
        text.contains("[diff cut at "),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert_eq!(lock(&env)["note"]["commit"], f.head());
}

#[test]
fn update_never_passes_the_locks_repo_or_ref_on_as_options() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let marker = env.path("marker");
    let upload = format!("--upload-pack=touch {}", marker.display());
    let url = lock(&env)["note"]["url"].as_str().unwrap().to_string();
    for (field, value, why) in [
        ("ref", upload.as_str(), "ext.lock's ref"),
        ("ref", "a..b", "ext.lock's ref"),
        ("repo", "../../etc", "ext.lock's repo"),
        ("repo", "-o/r", "ext.lock's repo"),
        ("repo", "https://example.invalid/o/r", "ext.lock's repo"),
        ("url", upload.as_str(), "ext.lock's url"),
        ("url", "ssh://-oProxyCommand=x/o/r", "ext.lock's url"),
        ("url", "http://example.invalid/o/r", "ext.lock's url"),
    ] {
        edit_lock(&env, |v| v["note"][field] = value.into());
        let before = aged_snapshot(&env, "note");
        let out = env.run(["ext", "update", "note", "--yes"]);
        let err = exits(&out, 1);
        assert!(
            err.starts_with(&format!("roost ext update: note: {why}: ")),
            "{field}={value}: {err}"
        );
        assert_eq!(snapshot(&env, "note"), before);
        assert!(!marker.exists());
        edit_lock(&env, |v| {
            v["note"]["ref"] = "HEAD".into();
            v["note"]["repo"] = "owner/roost-note".into();
            v["note"]["url"] = url.as_str().into();
        });
    }
}

#[test]
fn update_without_a_name_updates_each_and_reports_every_refusal() {
    let env = TestEnv::new();
    let note = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let mark = installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let zed = installed(&env, "owner/roost-zed", "zed", &["zed"], &[]);
    let mark_old = mark.head();
    let note_old = note.head();
    claim(&mark, "renamed", &["mark"]);
    note.exec("bin/roost-note", "#!/bin/sh\necho 'note v2'\n");
    note.commit("v2");
    let out = env.run(["ext", "update", "--yes"]);
    let err = exits(&out, 1);
    assert_eq!(
        err,
        "roost ext update: mark: the new commit's manifest names it 'renamed'; refusing a renamed extension\n\
         remove mark, then install the repository under its new name\n\
         roost ext update: not every extension was updated (mark was not)\n"
    );
    let text = stdout(&out);
    assert!(
        text.ends_with(&format!(
            "zed: up to date (HEAD is still {zed})\n\
             \n\
             summary:\n\
             \x20 mark: refused: the new commit's manifest names it 'renamed'; refusing a renamed extension\n\
             \x20 note: updated: {} -> {}\n\
             \x20 zed: unchanged: HEAD is still {}\n",
            short(&note_old),
            short(&note.head()),
            short(&zed.head()),
            zed = zed.head(),
        )),
        "{text}"
    );
    assert_eq!(lock(&env)["note"]["commit"], note.head());
    assert_eq!(lock(&env)["mark"]["commit"], mark_old);
    assert_eq!(env.ok(["note"]), "note v2\n");
    assert_eq!(env.ok(["mark"]), "mark\n");
}

#[test]
fn update_refuses_an_unknown_name() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    for name in ["nope", "../x"] {
        let out = env.run(["ext", "update", name, "--yes"]);
        let err = exits(&out, 1);
        assert!(
            err.starts_with(&format!("roost ext update: no such extension: {name}\n")),
            "{err}"
        );
    }
}

#[test]
fn update_restores_a_missing_clone() {
    let env = TestEnv::new();
    let (f, _old, new) = changed(&env);
    std::fs::remove_dir_all(clone_dir(&env, "note")).unwrap();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(lock(&env)["note"]["commit"], new);
    assert_eq!(lock(&env)["note"]["tree"], f.tree("HEAD"));
    assert_eq!(env.ok(["note"]), "note v2\n");
}

// ----------------------------------------------------------------- remove

#[test]
fn remove_drops_the_record_and_the_clone_and_keeps_the_data() {
    let env = TestEnv::new();
    let typo = env.run(["note"]);
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let state = state_dir(&env, "note");
    std::fs::write(state.join("year-of-notes"), "precious").unwrap();
    let out = env.run(["ext", "remove", "note"]);
    assert_eq!(exits(&out, 0), "");
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
    assert_eq!(after.status.code(), Some(2));
    assert_eq!(after.stdout, b"");
    assert_eq!(after.stderr, typo.stderr);
    assert_eq!(typo.status.code(), Some(2));
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
    assert_eq!(exits(&out, 0), "");
    assert_eq!(
        stdout(&out),
        format!("deleted the kept data of note: {}\n", state.display())
    );
    assert!(!state.exists());
    // Nothing left to delete: now it is simply not installed.
    let out = env.run(["ext", "remove", "note", "--purge"]);
    assert!(exits(&out, 1).starts_with("roost ext remove: no such extension: note\n"));
}

#[test]
fn remove_purge_deletes_clone_record_and_data() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let state = state_dir(&env, "note");
    std::fs::write(state.join("data"), "x").unwrap();
    let out = env.run(["ext", "remove", "--purge", "note"]);
    assert_eq!(exits(&out, 0), "");
    assert_eq!(
        stdout(&out),
        format!("removed note\ndeleted its data: {}\n", state.display())
    );
    assert!(!state.exists());
    assert!(!clone_dir(&env, "note").exists());
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert_eq!(env.run(["note"]).status.code(), Some(2));
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
        let err = exits(&out, 1);
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
    let err = exits(&out, 0);
    assert!(
        err.starts_with(&format!(
            "roost ext remove: note is no longer installed, but {} could not be deleted: ",
            clone.display()
        )),
        "{err}"
    );
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert_eq!(env.run(["note"]).status.code(), Some(2));
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
    assert_eq!(exits(&out, 0), "");
    assert!(outside.exists());
    assert!(!clone.is_symlink() && !state.is_symlink());
    assert!(!lock_file(&env).exists());
}

#[test]
fn remove_without_a_name_is_a_usage_error() {
    let env = TestEnv::new();
    let out = env.run(["ext", "remove"]);
    let err = exits(&out, 2);
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
    assert_eq!(exits(&env.run(["ext", "remove", "weather"]), 0), "");
    env.simple_ext("mallory/roost-weather", "weather", &["weather"], &[]);
    let out = env.run(["ext", "install", "mallory/roost-weather"]);
    exits(&out, 1);
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
    assert_eq!(exits(&purged, 0), "");
    let out = env.run(["ext", "install", "mallory/roost-weather"]);
    exits(&out, 1);
    assert!(
        !stdout(&out).contains("Note: weather's data"),
        "{}",
        describe(&out)
    );
    assert!(!env.path("state/roost/ext/weather.left-by").exists());
}

/// An update that changes a file larger than roost diffs (a 6 MiB text
/// file) names it instead of diffing it, and many changed files past the
/// cap are counted, not diffed: the update stays fast and small.
#[test]
fn update_names_a_file_too_large_to_diff_and_stops_diffing_past_the_cap() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let big: String = (0..700_000).map(|i| format!("l{i}\n")).collect();
    assert!(big.len() > 4 << 20);
    f.write("big.txt", &big);
    for i in 0..300 {
        f.write(
            &format!("many/{i:03}.txt"),
            &(0..20).map(|j| format!("{i} {j}\n")).collect::<String>(),
        );
    }
    f.commit("big and many");
    let run = bounded(
        env.roost(["ext", "update", "note", "--yes"]),
        std::time::Duration::from_secs(60),
    );
    assert_eq!(exits(&run.out, 0), "");
    let text = stdout(&run.out);
    assert!(
        text.contains(&format!(
            "diff --git a/big.txt b/big.txt\nnew file mode 100644\n(a file of {:.1} MiB: larger than the 4.0 MiB roost diffs; compare it yourself)\n",
            big.len() as f64 / (1 << 20) as f64
        )),
        "{}",
        &text[..text.len().min(3000)]
    );
    assert!(
        text.contains(", and 211 more; `roost ext update note --diff` prints the whole diff]\n"),
        "{}",
        &text[text.len().saturating_sub(3000)..]
    );
    assert!(run.peak_kib < 128 * 1024, "peak {} KiB", run.peak_kib);
    assert_eq!(lock(&env)["note"]["commit"], f.head());
}

/// An ext.lock entry whose name install could never have written (a hand
/// edit) is never run, and never hidden: verify and doctor fail naming it,
/// list marks it.
#[test]
fn an_entry_named_outside_the_grammar_is_reported_not_hidden() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| {
        v["../x"] = v["note"].clone();
    });
    let want =
        "../x: not a name install could have written (a hand edit of ext.lock?); never run\n";
    let out = env.run(["ext", "verify"]);
    exits(&out, 1);
    assert!(stdout(&out).starts_with(want), "{}", describe(&out));
    assert!(stdout(&out).contains("note: ok\n"), "{}", describe(&out));
    let out = env.run(["ext", "list"]);
    exits(&out, 0);
    assert!(
        stdout(&out).ends_with(
            "../x  (not a name install could have written (a hand edit of ext.lock?); never run)\n"
        ),
        "{}",
        describe(&out)
    );
    let out = env.run(["doctor"]);
    exits(&out, 1);
    assert!(
        stdout(&out).contains("FAIL  extension ../x: not a name install could have written (a hand edit of ext.lock?); never run\n"),
        "{}",
        describe(&out)
    );
}

/// The source an extension was installed from is recorded in its entry,
/// and update fetches from there: ROOST_EXT_GIT_BASE only shapes new
/// installs. `list --json` shows it.
#[test]
fn update_fetches_from_the_recorded_source_not_todays_git_base() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let url = format!("file://{}/owner/roost-note", env.path("remote").display());
    assert_eq!(lock(&env)["note"]["url"], url.as_str());
    f.exec("bin/roost-note", "#!/bin/sh\necho two\n");
    f.commit("two");
    let out = env
        .roost(["ext", "update", "note", "--yes"])
        .env("ROOST_EXT_GIT_BASE", "file:///nowhere/at/all/")
        .output()
        .unwrap();
    assert_eq!(exits(&out, 0), "");
    assert_eq!(lock(&env)["note"]["commit"], f.head());
    assert_eq!(lock(&env)["note"]["url"], url.as_str());
    assert_eq!(env.ok(["note"]), "two\n");
    let listed: serde_json::Value =
        serde_json::from_str(&env.ok(["ext", "list", "--json"])).unwrap();
    assert_eq!(listed[0]["url"], url.as_str());
}

/// An ext.lock entry install could not have written (here `commands` is a
/// string): reported by list, verify, info and doctor with what ext.index
/// still runs of it; update refuses it, another install refuses to drop
/// its command from the index, and remove takes it off.
#[test]
fn an_entry_that_cannot_be_read_is_reported_with_what_the_index_runs() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| v["note"]["commands"] = "note".into());
    let broken = lock(&env)["note"].clone();
    let base = "not an entry install could have written (invalid type: string \"note\", \
               expected a sequence; a hand edit of ext.lock?)";
    let why = format!("{base}; yet ext.index, which is obeyed, still runs note (no authority)");

    let out = env.run(["ext", "list"]);
    assert_eq!(
        stdout(&out),
        format!("note  ({why})\n"),
        "{}",
        describe(&out)
    );
    assert!(
        stderr(&out).contains(
            "  note: its ext.lock entry cannot be read, yet ext.index still runs note (authority: none)\n"
        ),
        "{}",
        describe(&out)
    );
    let listed: Value = serde_json::from_str(&env.ok(["ext", "list", "--json"])).unwrap();
    assert_eq!(listed[0]["name"], "note");
    assert_eq!(listed[0]["commands"], serde_json::json!([]));
    for key in ["repo", "ref", "commit", "installed", "url", "contract"] {
        assert_eq!(listed[0][key], Value::Null, "{key}");
    }

    let out = env.run(["ext", "verify"]);
    exits(&out, 1);
    assert_eq!(stdout(&out), format!("note: {why}\n"));
    let out = env.run(["doctor"]);
    exits(&out, 1);
    assert!(
        stdout(&out).contains(&format!("FAIL  extension note: {base}\n")),
        "{}",
        describe(&out)
    );
    let text = env.ok(["ext", "info", "note"]);
    assert!(
        text.starts_with(&format!("name      note\next.lock  {why}\n  {{\n")),
        "{text}"
    );
    let v: Value = serde_json::from_str(&env.ok(["ext", "info", "note", "--json"])).unwrap();
    assert_eq!(v["lock"], broken);

    let out = env.run(["ext", "update", "note", "--yes"]);
    assert!(
        exits(&out, 1).starts_with("roost ext update: note: its ext.lock entry cannot be read: "),
        "{}",
        describe(&out)
    );

    // A rewrite would derive no index line from it: refused, nothing changed.
    let mark = env.simple_ext("owner/roost-mark", "mark", &["mark"], &[]);
    let out = env.run(["ext", "install", &mark.repo, "--yes"]);
    assert!(
        exits(&out, 1).starts_with("roost ext install: ext.lock's entry note cannot be read"),
        "{}",
        describe(&out)
    );
    assert_eq!(lock(&env)["note"], broken);
    assert!(index(&env).contains("roost-note"), "{}", index(&env));
    assert_eq!(env.ok(["note"]), "note\n");

    env.ok(["ext", "remove", "note"]);
    assert!(!clone_dir(&env, "note").exists());
    succeeded(&env.run(["ext", "install", &mark.repo, "--yes"]));
    assert!(lock(&env).get("note").is_none());
    assert_eq!(env.ok(["mark"]), "mark\n");
}

#[test]
fn ext_exec_of_a_disabled_extension_says_so_and_names_enable() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    env.ok(["ext", "disable", "note"]);
    let out = env.run(["ext", "exec", "note", "x"]);
    assert_refusal(
        &out,
        1,
        "roost ext exec: cannot run 'note': extension note is disabled\nroost ext enable note turns it back on\n",
    );
    env.ok(["ext", "enable", "note"]);
    assert_eq!(env.ok(["ext", "exec", "note", "x"]), "note [x]\n");
}
