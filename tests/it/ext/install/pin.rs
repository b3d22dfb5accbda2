//! `roost ext install` pins: the remote's HEAD, tags, branches and full
//! SHAs, recorded exactly, and nothing left behind when a ref is unknown.

use crate::common::*;
use crate::ext::install::{install, note_repo, read_lock, url_of};

use serde_json::json;
use std::process::Command;

/// `date -u` in the lock's format, for bracketing `installed`.
fn utc_now() -> String {
    let out = Command::new("date")
        .args(["-u", "+%Y-%m-%dT%H:%M:%SZ"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn is_utc_stamp(s: &str) -> bool {
    let shape = "dddd-dd-ddTdd:dd:ddZ";
    s.len() == shape.len()
        && s.bytes().zip(shape.bytes()).all(|(c, want)| match want {
            b'd' => c.is_ascii_digit(),
            other => c == other,
        })
}

/// Three commits on main (`one`, `two`, `three`); returns their ids. The
/// command prints which commit it came from.
fn three_commits(env: &TestEnv) -> (Fixture, [String; 3]) {
    let f = note_repo(env);
    let mut ids = Vec::new();
    for n in ["one", "two", "three"] {
        f.exec("bin/roost-note", &format!("#!/bin/sh\necho {n}\n"));
        ids.push(f.commit(n));
    }
    (f, ids.try_into().unwrap())
}

/// Installs `mark` so that a refusal has a lock and an index to leave alone.
fn something_installed(env: &TestEnv) {
    env.simple_ext("owner/roost-mark", "mark", &["mark"], &[]);
    succeeded(&install(env, &["owner/roost-mark", "--yes"]));
    assert!(lock_file(env).exists() && index_file(env).exists());
}

#[test]
fn default_ref_pins_the_remote_head_and_records_it_exactly() {
    let env = TestEnv::new();
    // The remote's HEAD names `trunk`; `main` has moved on elsewhere.
    let f = env.simple_ext("owner/roost-note", "note", &["note", "anote"], &["fleet"]);
    f.git(&["push", "-q", "origin", "HEAD:refs/heads/trunk"]);
    let pinned = f.head();
    f.write("later", "later\n");
    let later = f.commit("later");
    assert_ne!(pinned, later);
    let bare = f.bare.to_string_lossy().into_owned();
    f.git(&[
        "--git-dir",
        &bare,
        "symbolic-ref",
        "HEAD",
        "refs/heads/trunk",
    ]);
    assert_eq!(f.ls_remote("HEAD"), pinned);
    let m = env.simple_ext("owner/roost-mark", "mark", &["mark"], &[]);

    let start = utc_now();
    let grant = ["--grant", "fleet"];
    succeeded(&install(
        &env,
        &["owner/roost-note", "--yes", grant[0], grant[1]],
    ));
    succeeded(&install(&env, &["owner/roost-mark", "--yes"]));
    let end = utc_now();

    let lock = read_lock(&env);
    let note = &lock["note"];
    assert_eq!(note["commit"], pinned);
    assert_eq!(note["ref"], "HEAD");
    assert_eq!(note["tree"], f.tree(&pinned));
    assert_eq!(note["needs"], json!(["fleet"]));
    assert_eq!(note["commands"], json!(["note", "anote"]));
    assert_eq!(note["repo"], "owner/roost-note");
    assert_eq!(note["contract"], 1);
    for name in ["note", "mark"] {
        let stamp = lock[name]["installed"].as_str().unwrap();
        assert!(is_utc_stamp(stamp), "{stamp}");
        assert!(
            start.as_str() <= stamp && stamp <= end.as_str(),
            "{start} {stamp} {end}"
        );
    }
    assert!(
        !env.path("data/roost/ext/note/later").exists(),
        "the newer main was installed"
    );

    // The file itself: keys sorted at every depth, 2-space indent, newline.
    let text = std::fs::read_to_string(lock_file(&env)).unwrap();
    let want = format!(
        r#"{{
  "mark": {{
    "commands": [
      "mark"
    ],
    "commit": "{mc}",
    "contract": 1,
    "installed": "{mi}",
    "needs": [],
    "ref": "HEAD",
    "repo": "owner/roost-mark",
    "signer": "unsigned",
    "signers": [
      "unsigned"
    ],
    "tree": "{mt}",
    "url": "{mu}"
  }},
  "note": {{
    "commands": [
      "note",
      "anote"
    ],
    "commit": "{pinned}",
    "contract": 1,
    "installed": "{ni}",
    "needs": [
      "fleet"
    ],
    "ref": "HEAD",
    "repo": "owner/roost-note",
    "signer": "unsigned",
    "signers": [
      "unsigned"
    ],
    "tree": "{nt}",
    "url": "{nu}"
  }}
}}
"#,
        mu = url_of(&env, "owner/roost-mark"),
        nu = url_of(&env, "owner/roost-note"),
        mc = m.head(),
        mi = lock["mark"]["installed"].as_str().unwrap(),
        mt = m.tree("HEAD"),
        ni = note["installed"].as_str().unwrap(),
        nt = f.tree(&pinned),
    );
    assert_eq!(text, want);

    // ext.index: one 4-field line per command, sorted by command.
    let data = env.path("data/roost/ext");
    let want = format!(
        "anote\tnote\t{d}/note/bin/roost-anote\tfleet\n\
         mark\tmark\t{d}/mark/bin/roost-mark\t\n\
         note\tnote\t{d}/note/bin/roost-note\tfleet\n",
        d = data.display()
    );
    assert_eq!(std::fs::read_to_string(index_file(&env)).unwrap(), want);

    // The state directory was created, and the clone's tree is the pin's.
    assert!(env.path("state/roost/ext/note").is_dir());
    assert_eq!(env.ok(["ext", "verify"]), "mark: ok\nnote: ok\n");
}

#[test]
fn an_empty_remote_is_refused() {
    let env = TestEnv::new();
    env.ext_repo("owner/empty");
    let out = install(&env, &["owner/empty", "--yes"]);
    let err = refused(&out);
    assert!(err.contains("has no HEAD commit"), "{err}");
    assert!(err.contains(&url_of(&env, "owner/empty")), "{err}");
    assert!(!env.path("data/roost").exists());
}

#[test]
fn a_tag_ref_pins_the_tag_peeled_to_its_commit() {
    let env = TestEnv::new();
    let (f, [one, _, three]) = three_commits(&env);
    f.git(&["tag", "-a", "v0.1.0", "-m", "release", &one]);
    f.push();
    let tag_object = f.ls_remote("refs/tags/v0.1.0");
    assert_ne!(tag_object, one, "the tag is annotated");
    assert_eq!(f.ls_remote("refs/tags/v0.1.0^{}"), one);
    assert_eq!(f.ls_remote("refs/heads/main"), three);

    succeeded(&install(
        &env,
        &["owner/roost-note", "--ref", "v0.1.0", "--yes"],
    ));
    let lock = read_lock(&env);
    assert_eq!(lock["note"]["commit"], one);
    assert_eq!(lock["note"]["ref"], "v0.1.0");
    assert_eq!(lock["note"]["tree"], f.tree(&one));
    assert_eq!(env.ok(["note"]), "one\n");
}

#[test]
fn a_branch_ref_pins_its_tip() {
    let env = TestEnv::new();
    let (f, [_, two, _]) = three_commits(&env);
    f.git(&[
        "push",
        "-q",
        "origin",
        &format!("{two}:refs/heads/feature/x"),
    ]);
    succeeded(&install(
        &env,
        &["owner/roost-note", "--ref", "feature/x", "--yes"],
    ));
    let lock = read_lock(&env);
    assert_eq!(lock["note"]["commit"], two);
    assert_eq!(lock["note"]["ref"], "feature/x");
    assert_eq!(env.ok(["note"]), "two\n");
}

#[test]
fn a_tag_wins_over_a_branch_of_the_same_name() {
    let env = TestEnv::new();
    let (f, [one, two, _]) = three_commits(&env);
    f.git(&["push", "-q", "origin", &format!("{one}:refs/heads/same")]);
    f.git(&["tag", "same", &two]);
    f.push();
    succeeded(&install(
        &env,
        &["owner/roost-note", "--ref", "same", "--yes"],
    ));
    assert_eq!(read_lock(&env)["note"]["commit"], two);
}

/// The clone is an ordinary git repository: HEAD detached at the pin, a
/// clean status, its origin recorded. Only the pinned commit was fetched:
/// its history stays on the remote (depth 1).
#[test]
fn the_clone_holds_the_pinned_commit_alone_and_git_reads_it() {
    let env = TestEnv::new();
    let (_f, [one, two, _]) = three_commits(&env);
    succeeded(&install(
        &env,
        &["owner/roost-note", "--ref", &two, "--yes"],
    ));
    let clone = env.path("data/roost/ext/note");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .arg("-C")
            .arg(&clone)
            .args(args)
            .env("HOME", env.path("home"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8(out.stdout).unwrap())
    };
    assert_eq!(git(&["rev-parse", "HEAD"]), (true, format!("{two}\n")));
    assert!(!git(&["symbolic-ref", "-q", "HEAD"]).0, "HEAD is detached");
    assert_eq!(git(&["status", "--porcelain"]), (true, String::new()));
    assert_eq!(git(&["log", "--format=%H"]), (true, format!("{two}\n")));
    assert!(!git(&["cat-file", "-e", &one]).0, "history was fetched");
    let packs = std::fs::read_dir(clone.join(".git/objects/pack")).unwrap();
    let names: Vec<String> = packs
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.ends_with(".keep")),
        "a .keep was left: {names:?}"
    );
    assert_eq!(
        git(&["remote", "get-url", "origin"]),
        (true, format!("{}\n", url_of(&env, "owner/roost-note")))
    );
}

#[test]
fn a_full_sha_ref_is_taken_as_is_even_when_no_ref_points_at_it() {
    let env = TestEnv::new();
    let (f, [_, two, _]) = three_commits(&env);
    succeeded(&install(
        &env,
        &["owner/roost-note", "--ref", &two, "--yes"],
    ));
    let lock = read_lock(&env);
    assert_eq!(lock["note"]["commit"], two);
    assert_eq!(lock["note"]["ref"], two);
    assert_eq!(lock["note"]["tree"], f.tree(&two));
    assert_eq!(env.ok(["note"]), "two\n");
}

#[test]
fn an_unknown_ref_is_refused_with_nothing_left_behind() {
    let env = TestEnv::new();
    three_commits(&env);
    something_installed(&env);
    let before = snapshot(&env);
    let out = install(&env, &["owner/roost-note", "--ref", "nope", "--yes"]);
    let err = refused(&out);
    assert_eq!(
        err,
        format!(
            "roost ext install: cannot resolve nope at {}: it has no branch or tag named 'nope'\n",
            url_of(&env, "owner/roost-note")
        )
    );
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(&env), before);
}

#[test]
fn an_unknown_full_sha_is_refused_with_nothing_left_behind() {
    let env = TestEnv::new();
    three_commits(&env);
    let before = snapshot(&env);
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let out = install(&env, &["owner/roost-note", "--ref", sha, "--yes"]);
    let err = refused(&out);
    let url = url_of(&env, "owner/roost-note");
    assert_eq!(
        err,
        format!(
            "roost ext install: cannot resolve {sha} at {url}: commit {sha} is on no branch or tag of this repository; \
             refusing a commit the repository does not publish (a fork's commit can be served under its parent's name)\n"
        )
    );
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(&env), before, "no temp dir, no data dir");

    something_installed(&env);
    let before = snapshot(&env);
    refused(&install(&env, &["owner/roost-note", "--ref", sha, "--yes"]));
    assert_eq!(snapshot(&env), before);
}

#[test]
fn a_short_sha_is_not_accepted() {
    let env = TestEnv::new();
    let (_, [_, two, _]) = three_commits(&env);
    let out = install(&env, &["owner/roost-note", "--ref", &two[..12], "--yes"]);
    let err = refused(&out);
    assert!(err.contains("40 hex digits"), "{err}");
    assert!(!env.path("data/roost").exists());
}

#[test]
fn install_pins_the_commit_it_resolved_even_if_the_branch_moves_before_the_fetch() {
    let env = TestEnv::new();
    let (f, [one, two, _]) = three_commits(&env);
    // main at `one`; `two` is in the remote under another branch.
    f.git(&["push", "-q", "origin", &format!("{two}:refs/heads/next")]);
    f.git(&[
        "push",
        "-q",
        "-f",
        "origin",
        &format!("{one}:refs/heads/main"),
    ]);
    // main moves to `two` after the lookup, before the fetch.
    let calls = env.path("upload-pack-calls");
    let move_main = format!(
        "git --git-dir='{}' update-ref refs/heads/main {two}",
        f.bare.display()
    );
    let path = env.upload_pack_wrapper(&calls, &move_main);
    let out = env
        .roost([
            "ext",
            "install",
            "owner/roost-note",
            "--ref",
            "main",
            "--yes",
        ])
        .env("PATH", path)
        .output()
        .unwrap();
    succeeded(&out);
    assert_eq!(
        upload_pack_runs(&calls).0,
        1,
        "one connection for the lookup and the fetch"
    );
    assert_eq!(f.ls_remote("refs/heads/main"), two, "the branch moved");
    assert_eq!(read_lock(&env)["note"]["commit"], one);
    assert_eq!(env.ok(["note"]), "one\n");
}

/// An "imposter" commit: the server has the object (as GitHub serves every
/// fork's objects through the parent), but no branch or tag of the named
/// repository reaches it. Refused, with nothing fetched into place; a
/// commit in the history of a branch installs.
#[test]
fn a_commit_no_branch_or_tag_reaches_is_refused_as_not_published() {
    let env = TestEnv::new();
    let (f, [one, _, _]) = three_commits(&env);
    // A commit on a branch that is then deleted: the object stays on the
    // server, reachable from no ref.
    f.git(&["checkout", "-q", "-b", "fork"]);
    f.exec("bin/roost-note", "#!/bin/sh\necho not published\n");
    f.git(&["commit", "-q", "-am", "a fork's commit"]);
    let imposter = f.head();
    f.git(&["push", "-q", "origin", "fork"]);
    f.git(&["push", "-q", "origin", "--delete", "fork"]);
    f.git(&["checkout", "-q", "-"]);
    let advertised = f.git(&["ls-remote", &f.bare.to_string_lossy()]);
    assert!(
        !advertised.contains(&imposter),
        "still advertised: {advertised}"
    );
    let on_server = Command::new("git")
        .args(["cat-file", "-e", &imposter])
        .current_dir(&f.bare)
        .status()
        .unwrap();
    assert!(on_server.success(), "the server does not have the commit");
    let before = snapshot(&env);
    let out = install(&env, &["owner/roost-note", "--ref", &imposter, "--yes"]);
    let err = refused(&out);
    assert!(
        err.contains(&format!(
            "commit {imposter} is on no branch or tag of this repository; refusing a commit the repository does not publish"
        )),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(&env), before);
    // An older commit of main is published: it installs.
    succeeded(&install(
        &env,
        &["owner/roost-note", "--ref", &one, "--yes"],
    ));
}
