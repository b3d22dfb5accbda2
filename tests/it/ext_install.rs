//! `roost ext install` against real bare repositories reached by file://:
//! validation before the network, pinning, fetching
//! with nothing of the repository run, the gates, the consent block and the
//! question, conflicts, network trouble, concurrent installs.

use crate::common::*;
use serde_json::{json, Value};

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const VERSION: &str = env!("CARGO_PKG_VERSION");

// ---------------------------------------------------------------- helpers

fn install(env: &TestEnv, args: &[&str]) -> Output {
    let mut all = vec!["ext", "install"];
    all.extend_from_slice(args);
    env.run(all)
}

fn read_lock(env: &TestEnv) -> Value {
    serde_json::from_slice(&std::fs::read(lock_file(env)).unwrap()).unwrap()
}

/// A repository whose manifest is `manifest` and whose `execs` are
/// executable `bin/roost-CMD` scripts, committed and pushed.
fn ext_with(env: &TestEnv, repo: &str, manifest: Value, execs: &[&str]) -> Fixture {
    let f = env.ext_repo(repo);
    f.write(
        "roost-ext.json",
        &serde_json::to_string_pretty(&manifest).unwrap(),
    );
    for c in execs {
        f.exec(&format!("bin/roost-{c}"), &format!("#!/bin/sh\necho {c}\n"));
    }
    f.commit("first");
    f
}

/// A plain extension `note` claiming `note` plus whatever the test adds.
fn note_repo(env: &TestEnv) -> Fixture {
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
    f
}

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

/// The consent block for an extension without a `roost` range or a
/// description, as install prints it.
fn block(url: &str, reference: &str, commit: &str, claims: &str, fleet: bool) -> String {
    let range = format!("any (you have {VERSION})");
    let width = range.len().max("1 (roost speaks 1)".len());
    let authority = if fleet {
        "This extension asks to drive your agents. If you install it, the code\n\
         in it can read any pane's screen and send prompts to any agent, the\n\
         same as you can.\n"
    } else {
        "This extension does not ask for access to your agents.\n"
    };
    format!(
        "  repo      {url}\n\
         \x20 ref       {reference}\n\
         \x20 commit    {} (pinned)\n\
         \x20 contract  {:<width$}  ok\n\
         \x20 roost     {:<width$}  ok\n\
         \x20 claims    {claims}\n\
         \n\
         {authority}\
         \n\
         An extension that did NOT ask can still reach them if it tries. This\n\
         line tells you what it declared, not what it is stopped from doing.\n\
         \n\
         Roost has checked that this is the exact commit named above. It has\n\
         NOT checked whether the code is honest. It cannot.\n\
         \n\
         Nothing runs during install. Code runs when you type those commands.\n",
        commit, "1 (roost speaks 1)", range,
    )
}

fn url_of(env: &TestEnv, repo: &str) -> String {
    format!("file://{}/{repo}", env.path("remote").display())
}

// ---------------------------------------------------- 1. validation first

/// A fake `ssh` first on PATH that records being run: with an ssh:// base,
/// any attempt to reach the network leaves the marker.
struct NetProbe {
    bin: PathBuf,
    marker: PathBuf,
}

impl NetProbe {
    fn new(env: &TestEnv) -> NetProbe {
        let bin = env.path("probe-bin");
        let marker = env.path("probe-ran");
        std::fs::create_dir_all(&bin).unwrap();
        let ssh = bin.join("ssh");
        std::fs::write(
            &ssh,
            format!("#!/bin/sh\ntouch '{}'\nexit 255\n", marker.display()),
        )
        .unwrap();
        std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
        NetProbe { bin, marker }
    }

    fn install(&self, env: &TestEnv, args: &[&str]) -> Output {
        let mut all = vec!["ext", "install"];
        all.extend_from_slice(args);
        let path = format!("{}:{}", self.bin.display(), std::env::var("PATH").unwrap());
        env.roost(all)
            .env("PATH", path)
            .env("ROOST_EXT_GIT_BASE", "ssh://example.invalid/")
            .output()
            .unwrap()
    }

    /// Nothing reached for the network, and nothing changed on disk since
    /// `before`, though every input of `what` was tried.
    fn untouched(&self, env: &TestEnv, before: &[(PathBuf, u32, Vec<u8>)], what: &str) {
        assert!(
            !self.marker.exists(),
            "a refused {what} reached the network"
        );
        assert_eq!(snapshot(env), before, "a refused {what} wrote something");
    }

    /// The probe works: installing ARGS, which pass validation, does reach
    /// for the network (and fails there).
    fn reached_by(&self, env: &TestEnv, args: &[&str]) {
        let out = self.install(env, args);
        refused(&out);
        assert!(
            self.marker.exists(),
            "the probe never ran: {}",
            describe(&out)
        );
    }
}

#[test]
fn install_refuses_a_malformed_owner_repo_before_touching_network_or_disk() {
    let env = TestEnv::new();
    let probe = NetProbe::new(&env);
    let before = snapshot(&env);
    for bad in [
        "../..", "-x/y", "x/-y", "a b/c", "./..", "o/..", "o/r/x", "o/r;id",
    ] {
        // After `--` nothing is an option: `-x/y` is a malformed name.
        // Without it, a word that starts with '-' is an option, and an
        // unknown one is a usage error (below).
        for args in [vec!["--yes", bad], vec!["--yes", "--", bad]] {
            if bad.starts_with('-') && args.len() == 2 {
                let out = probe.install(&env, &args);
                assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
                continue;
            }
            let out = probe.install(&env, &args);
            let err = refused(&out);
            assert!(out.stdout.is_empty(), "{bad}: {}", describe(&out));
            // A word that names a directory here (`../..`) also gets the
            // --link hint.
            let link = format!("to run a local checkout in place: roost ext install --link {bad}");
            let lines: Vec<&str> = err.lines().collect();
            assert!(
                lines.len() == 1 || (lines.len() == 2 && lines[1] == link),
                "{bad}: {err}"
            );
            assert!(
                err.starts_with(&format!("roost ext install: \"{bad}\" ")),
                "{bad}: {err}"
            );
            assert!(
                err.contains("OWNER/REPO"),
                "{bad}: the refusal says what is expected: {err}"
            );
        }
    }
    probe.untouched(&env, &before, "input");
    probe.reached_by(&env, &["owner/roost-note", "--yes"]);
}

#[test]
fn install_refuses_a_malformed_ref_before_touching_network_or_disk() {
    let env = TestEnv::new();
    let probe = NetProbe::new(&env);
    let before = snapshot(&env);
    let cases = [
        ("-x", "it may not start with '-'"),
        ("a..b", "it may not contain \"..\""),
        ("/abs", "it may not start with '/'"),
        ("a b", "it may not contain spaces or control characters"),
        ("", "it is empty"),
    ];
    for (bad, why) in cases {
        let spaced = ["owner/roost-note", "--yes", "--ref", bad];
        let joined = format!("--ref={bad}");
        let glued = ["owner/roost-note", "--yes", joined.as_str()];
        for args in [&spaced[..], &glued[..]] {
            let out = probe.install(&env, args);
            let err = refused(&out);
            assert!(out.stdout.is_empty(), "{bad}: {}", describe(&out));
            assert_eq!(
                err,
                format!("roost ext install: invalid ref \"{bad}\": {why}\n"),
                "{args:?}"
            );
        }
    }
    probe.untouched(&env, &before, "ref");
}

/// A URL with anything odd in it is refused with one line naming the URL
/// and what is wrong, before the network (the probe's ssh never runs, even
/// for ssh URLs) and before the disk.
#[test]
fn install_refuses_an_odd_url_before_touching_network_or_disk() {
    let env = TestEnv::new();
    let probe = NetProbe::new(&env);
    let before = snapshot(&env);
    let cases = [
        (
            "https://user:secret@example.invalid/o/r",
            "credentials in an https URL",
        ),
        (
            "https://token@example.invalid/o/r",
            "credentials in an https URL",
        ),
        (
            "ssh://git:secret@example.invalid/o/r",
            "a password in a URL",
        ),
        ("ssh://example.invalid/o/r?ref=x", "query or fragment"),
        ("https://example.invalid/o/r#main", "query or fragment"),
        ("ssh://example.invalid/o/r%20x", "percent-escapes"),
        (
            "ssh://example.invalid/o/r x",
            "spaces or control characters",
        ),
        (
            "ssh://example.invalid/o/r\x1b[2J",
            "spaces or control characters",
        ),
        ("ssh://example.invalid/o/../r", "may not be \"..\""),
        ("ssh://-oProxyCommand=touch/o/r", "may not contain '='"),
        (
            "ssh://-oProxyCommand/o/r",
            "the host may not start with '-'",
        ),
        ("-oProxyCommand:o/r", "the host may not start with '-'"),
        (
            "ssh://-l@example.invalid/o/r",
            "the user may not start with '-'",
        ),
        ("example.invalid:-x/r", "may not start with '-'"),
        ("ssh://example.invalid/-x/r", "may not start with '-'"),
        ("https://example.invalid", "no path after the host"),
        ("file:///srv/git/o/r", "ROOST_EXT_GIT_BASE=file:///DIR/"),
        (
            "git://example.invalid/o/r",
            "the git:// scheme is not accepted",
        ),
        (
            "https://github.com/o/r/tree/main",
            "https://github.com/OWNER/REPO",
        ),
    ];
    for (bad, why) in cases {
        let out = probe.install(&env, &["--yes", "--", bad]);
        let err = refused(&out);
        assert!(out.stdout.is_empty(), "{bad}: {}", describe(&out));
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
        let shown = bad.replace('\x1b', "\\x1b");
        assert!(
            err.starts_with(&format!("roost ext install: \"{shown}\": ")),
            "{bad}: {err}"
        );
        assert!(err.contains(why), "{bad}: {err}");
    }
    probe.untouched(&env, &before, "URL");
    // An ssh URL that passes reaches for the network.
    probe.reached_by(&env, &["ssh://git@example.invalid/o/r.git", "--yes"]);
}

/// `https://github.com/OWNER/REPO` (with `.git`, a trailing `/`) is
/// OWNER/REPO: it installs from the base ROOST_EXT_GIT_BASE names, as
/// OWNER/REPO does, and is recorded the same way.
#[test]
fn a_github_url_installs_as_owner_repo_through_the_base() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let out = install(&env, &["https://github.com/owner/roost-note.git/", "--yes"]);
    let text = succeeded(&out);
    let url = url_of(&env, "owner/roost-note");
    assert!(
        text.starts_with(&block(&url, "HEAD", &f.head(), "roost note", false)),
        "{text}"
    );
    let lock = read_lock(&env);
    assert_eq!(lock["note"]["repo"], "owner/roost-note");
    assert_eq!(lock["note"]["url"], url.as_str());
    assert_eq!(env.ok(["note"]), "note\n");
}

/// ssh URLs, both forms, install from where they say (here an `ssh` that
/// runs the remote command on this machine); the name comes from the
/// manifest, ext.lock records HOST/PATH and the URL fetched, and a later
/// update goes back to that URL.
#[test]
fn ssh_urls_install_from_where_they_say_and_update_from_there() {
    let remote = |env: &TestEnv| env.path("remote").display().to_string();
    // REMOTE stands for the directory of the test's bare repositories.
    let forms = [
        (
            "ssh://",
            "ssh://git@example.invalid/REMOTE/owner/roost-note/",
        ),
        ("scp-like", "git@example.invalid:/REMOTE/owner/roost-note"),
    ];
    for (form, template) in forms {
        let env = TestEnv::new();
        let f = env.simple_ext("owner/roost-note", "jot", &["jot"], &[]);
        let path = local_ssh_path(&env, ":");
        let given = template.replace("/REMOTE", &remote(&env));
        let out = env
            .roost(["ext", "install", &given, "--yes"])
            .env("PATH", &path)
            .env("ROOST_EXT_GIT_BASE", "file:///nowhere/")
            .output()
            .unwrap();
        let text = succeeded(&out);
        let fetched = given.trim_end_matches('/');
        assert!(
            text.starts_with(&format!("  repo      {fetched}\n")),
            "{form}: {text}"
        );
        let lock = read_lock(&env);
        assert_eq!(
            lock["jot"]["repo"],
            format!("example.invalid{}/owner/roost-note", remote(&env)),
            "{form}"
        );
        assert_eq!(lock["jot"]["url"], fetched, "{form}");
        assert_eq!(lock["jot"]["commit"], f.head(), "{form}");
        assert_eq!(env.ok(["jot"]), "jot\n", "{form}");

        f.exec("bin/roost-jot", "#!/bin/sh\necho jot v2\n");
        let two = f.commit("two");
        let out = env
            .roost(["ext", "update", "jot", "--yes"])
            .env("PATH", &path)
            .output()
            .unwrap();
        succeeded(&out);
        assert_eq!(read_lock(&env)["jot"]["commit"], two, "{form}");
        assert_eq!(read_lock(&env)["jot"]["url"], fetched, "{form}");
        assert_eq!(env.ok(["jot"]), "jot v2\n", "{form}");
    }
}

#[test]
fn install_refuses_bad_input_even_when_the_repository_exists() {
    let env = TestEnv::new();
    env.simple_ext("o/r", "note", &["note"], &[]);
    for args in [
        vec!["o/r/x", "--yes"],
        vec!["o/r", "--ref", "-x", "--yes"],
        vec!["o/r", "--ref", "", "--yes"],
    ] {
        let out = install(&env, &args);
        refused(&out);
    }
    assert!(!env.path("data/roost").exists());
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
}

#[test]
fn a_malformed_command_line_is_a_usage_error() {
    let env = TestEnv::new();
    for args in [
        vec!["--bogus", "o/r"],
        vec!["o/r", "--ref"],
        vec![],
        vec!["o/r", "p/q"],
    ] {
        let out = install(&env, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", describe(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("roost ext install: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(!env.path("data/roost").exists());
}

#[test]
fn double_dash_ends_the_options() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    succeeded(&install(&env, &["--yes", "--", "owner/roost-note"]));
    assert_eq!(env.ok(["note"]), "note\n");
}

// ------------------------------------------- 2. pinning the remote's HEAD

#[test]
fn install_then_the_command_runs_with_its_arguments() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note", "notes"], &[]);
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    assert_eq!(env.ok(["note", "a", "b c"]), "note [a] [b c]\n");
    assert_eq!(env.ok(["notes", ""]), "notes []\n");
    let lock = read_lock(&env);
    assert_eq!(lock["note"]["commit"], f.ls_remote("HEAD"));
    assert_eq!(lock["note"]["tree"], f.tree("HEAD"));
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
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
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

// --------------------------------------------------- 3. tags, branches, SHAs

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

/// Installs `mark` so that a refusal has a lock and an index to leave alone.
fn something_installed(env: &TestEnv) {
    env.simple_ext("owner/roost-mark", "mark", &["mark"], &[]);
    succeeded(&install(env, &["owner/roost-mark", "--yes"]));
    assert!(lock_file(env).exists() && index_file(env).exists());
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

// ------------------------------- 4. nothing of the repository runs or is followed

#[test]
fn a_submodule_is_not_fetched() {
    let env = TestEnv::new();
    let sub = env.simple_ext("owner/sub", "sub", &["sub"], &[]);
    let f = note_repo(&env);
    f.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        &sub.bare.to_string_lossy(),
        "sub",
    ]);
    let head = f.commit("with a submodule");
    assert!(f
        .git(&["ls-tree", "HEAD", "sub"])
        .starts_with("160000 commit"));

    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    let dir = env.path("data/roost/ext/note/sub");
    assert!(dir.is_dir());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "the submodule was fetched"
    );
    let lock = read_lock(&env);
    assert_eq!(lock["note"]["commit"], head);
    assert_eq!(lock["note"]["tree"], f.tree("HEAD"));
    assert_eq!(env.ok(["ext", "verify"]), "note: ok\n");
}

#[test]
fn a_hostile_user_git_config_and_repository_attributes_fire_nothing() {
    let env = TestEnv::new();
    let marks = env.path("marks");
    std::fs::create_dir_all(&marks).unwrap();
    let touch = |what: &str| format!("touch '{}/{what}'", marks.display());
    let script = |rel: &str, what: &str| {
        let path = env.write(rel, &format!("#!/bin/sh\n{}\ncat\n", touch(what)));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    for hook in [
        "post-checkout",
        "post-merge",
        "post-rewrite",
        "reference-transaction",
    ] {
        script(&format!("hooks/{hook}"), hook);
        script(
            &format!("template/hooks/{hook}"),
            &format!("template-{hook}"),
        );
    }
    let fsmonitor = script("fsmonitor", "fsmonitor");

    // The real repository: filters, eol conversion and ident asked for.
    let f = note_repo(&env);
    f.write(
        ".gitattributes",
        "* filter=evil\nconv.txt text eol=crlf ident\n",
    );
    f.write("conv.txt", "one\ntwo $Id$\n");
    f.write("plain.txt", "crlf\r\nkept\r\n$Id$\n");
    let real = f.commit("real");
    // Another repository the insteadOf rewrite would fetch instead.
    let decoy = env.ext_repo("decoy/owner/roost-note");
    decoy.manifest("note", &["note"], &[]);
    decoy.exec("bin/roost-note", "#!/bin/sh\necho decoy\n");
    decoy.commit("decoy");

    let base = format!("file://{}/", env.path("remote").display());
    let decoy_base = format!("file://{}/", env.path("remote/decoy").display());
    env.write(
        "home/.gitconfig",
        &format!(
            "[filter \"evil\"]\n\
             \tsmudge = {smudge}; cat\n\
             \tclean = {clean}; cat\n\
             \trequired = true\n\
             [filter \"lfs\"]\n\
             \tsmudge = {lfs}; cat\n\
             [core]\n\
             \thooksPath = {hooks}\n\
             \tfsmonitor = {fsmonitor}\n\
             \tautocrlf = true\n\
             \teol = crlf\n\
             [init]\n\
             \ttemplateDir = {template}\n\
             [url \"{decoy_base}\"]\n\
             \tinsteadOf = {base}\n\
             [protocol \"file\"]\n\
             \tallow = always\n",
            smudge = touch("smudge"),
            clean = touch("clean"),
            lfs = touch("lfs"),
            hooks = env.path("hooks").display(),
            fsmonitor = fsmonitor.display(),
            template = env.path("template").display(),
        ),
    );
    // The config is live: git itself, cloning the same URL, obeys it.
    let check = env.path("git-would");
    let out = env.git_clone_as_user(format!("{base}owner/roost-note"), &check);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(
        std::fs::read_to_string(check.join("bin/roost-note"))
            .unwrap()
            .contains("echo decoy"),
        "git did not follow the insteadOf rewrite: the fixture proves nothing"
    );
    assert!(
        marks.join("post-checkout").exists(),
        "git ran no hook: the fixture proves nothing"
    );
    std::fs::remove_dir_all(&check).unwrap();
    for m in std::fs::read_dir(&marks).unwrap() {
        std::fs::remove_file(m.unwrap().path()).unwrap();
    }

    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env_remove("GIT_CONFIG_GLOBAL")
        .env_remove("GIT_CONFIG_NOSYSTEM")
        .output()
        .unwrap();
    succeeded(&out);
    let fired: Vec<_> = std::fs::read_dir(&marks)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(fired.is_empty(), "ran during install: {fired:?}");
    let lock = read_lock(&env);
    assert_eq!(lock["note"]["commit"], real);
    assert_eq!(lock["note"]["tree"], f.tree("HEAD"));
    assert_eq!(env.ok(["note"]), "note\n");
    let clone = env.path("data/roost/ext/note");
    for file in [
        ".gitattributes",
        "conv.txt",
        "plain.txt",
        "roost-ext.json",
        "bin/roost-note",
    ] {
        let blob = Command::new("git")
            .args(["cat-file", "blob", &format!("HEAD:{file}")])
            .current_dir(&f.work)
            .output()
            .unwrap();
        assert!(blob.status.success());
        assert_eq!(
            std::fs::read(clone.join(file)).unwrap(),
            blob.stdout,
            "{file} was converted on the way in"
        );
    }
    let hooks: Vec<_> = std::fs::read_dir(clone.join(".git/hooks"))
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(
        !hooks.iter().any(|h| h == "post-checkout"),
        "the user's template was copied: {hooks:?}"
    );
    assert_eq!(
        env.roost(["ext", "verify"])
            .env_remove("GIT_CONFIG_GLOBAL")
            .output()
            .unwrap()
            .stdout,
        b"note: ok\n"
    );
    let fired: Vec<_> = std::fs::read_dir(&marks).unwrap().collect();
    assert!(fired.is_empty(), "ran during verify: {fired:?}");
}

// ------------------------------------------------------------- 5. the gates

/// Refused with `needle` in the one-line reason, nothing shown, nothing written.
fn assert_gate(env: &TestEnv, needle: &str) {
    let before = snapshot(env);
    let out = install(env, &["owner/roost-note", "--yes"]);
    let err = refused(&out);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "roost ext install: refusing {} at ",
            url_of(env, "owner/roost-note")
        )),
        "{err}"
    );
    assert!(err.contains(needle), "want {needle:?} in {err}");
    assert_eq!(snapshot(env), before);
    assert!(!env.path("data/roost").exists(), "{:?}", snapshot(env));
}

/// Install refuses the note repository with the symlinks `links`, with a
/// one-line refusal holding `needle` (see `assert_gate`).
fn refuses_links(links: &[(&str, &str)], needle: &str) {
    let env = TestEnv::new();
    with_links(&env, links);
    assert_gate(&env, needle);
}

/// The note repository plus the symlinks `links` (path, target).
fn with_links(env: &TestEnv, links: &[(&str, &str)]) {
    let f = note_repo(env);
    f.write("sub/file", "x\n");
    for (path, target) in links {
        let at = f.work.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(target, at).unwrap();
    }
    f.commit("links");
}

#[test]
fn install_refuses_a_symlink_to_an_absolute_path() {
    refuses_links(
        &[("passwd", "/etc/passwd")],
        "the symlink passwd points to the absolute path /etc/passwd",
    );
}

#[test]
fn install_refuses_a_symlink_that_climbs_out_of_the_tree() {
    refuses_links(
        &[("sub/up", "../../outside")],
        "the symlink sub/up points to ../../outside, outside the extension",
    );
}

#[test]
fn install_refuses_a_symlink_that_leaves_through_a_chain_of_links() {
    // `here` stays inside; `x` looks inside but goes through `here` to the parent.
    refuses_links(
        &[("here", "."), ("x", "here/../secret")],
        "the symlink x points to",
    );
}

#[test]
fn install_refuses_a_directory_symlink_out() {
    refuses_links(
        &[("sub/top", ".."), ("etc", "sub/top/..")],
        "the symlink etc ",
    );
}

#[test]
fn symlinks_that_stay_inside_are_installed() {
    let env = TestEnv::new();
    with_links(
        &env,
        &[
            ("a", "sub/file"),
            ("sub/b", "../sub/file"),
            ("dirlink", "sub"),
        ],
    );
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    assert_eq!(
        std::fs::read_link(env.path("data/roost/ext/note/a")).unwrap(),
        Path::new("sub/file")
    );
    assert_eq!(env.ok(["ext", "verify"]), "note: ok\n");
}

/// The note repository with `manifest` (and executables for `execs`).
fn gate_manifest(manifest: Value, execs: &[&str], needle: &str) {
    let env = TestEnv::new();
    ext_with(&env, "owner/roost-note", manifest, execs);
    assert_gate(&env, needle);
}

#[test]
fn install_refuses_another_contract_naming_both_numbers() {
    gate_manifest(
        json!({"name": "note", "contract": 2, "commands": ["note"]}),
        &["note"],
        "roost-ext.json: contract 2: this roost speaks contract 1",
    );
}

#[test]
fn install_refuses_an_unknown_authority_naming_it() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note"], "needs": ["fleet", "network"]}),
        &["note"],
        "field \"needs\": unknown authority \"network\"",
    );
}

#[test]
fn install_refuses_a_claim_on_a_core_command() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note", "send"]}),
        &["note", "send"],
        "command \"send\" is a roost core command",
    );
}

#[test]
fn install_refuses_a_claim_on_an_ext_verb() {
    for verb in [
        "remove", "verify", "install", "list", "update", "info", "check", "new",
    ] {
        gate_manifest(
            json!({"name": "squat", "contract": 1, "commands": ["squat", verb]}),
            &["squat", verb],
            &format!(
                "command \"{verb}\" is a verb of roost ext (roost ext {verb}); an extension cannot claim it"
            ),
        );
    }
}

#[test]
fn install_refuses_a_command_claimed_twice() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note", "note"]}),
        &["note"],
        "command \"note\" appears twice",
    );
}

#[test]
fn install_refuses_a_bad_name() {
    gate_manifest(
        json!({"name": "Note", "contract": 1, "commands": ["note"]}),
        &["note"],
        "field \"name\": \"Note\" is not a valid name",
    );
}

#[test]
fn install_refuses_a_bad_command_name() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["../note"]}),
        &["note"],
        "command \"../note\" is not a valid name",
    );
}

#[test]
fn install_refuses_a_control_character_naming_the_field() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.write(
        "roost-ext.json",
        r#"{"name": "note", "contract": 1, "commands": ["note"], "description": "hi \u001b[2J there"}"#,
    );
    f.commit("escape");
    assert_gate(&env, "field \"description\" contains a control character");
}

#[test]
fn install_refuses_a_missing_manifest() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    f.exec("bin/roost-note", "#!/bin/sh\n");
    f.commit("no manifest");
    assert_gate(&env, "there is no roost-ext.json");
}

#[test]
fn install_refuses_a_missing_command_executable() {
    gate_manifest(
        json!({"name": "note", "contract": 1, "commands": ["note", "notes"]}),
        &["note"],
        "command notes: bin/roost-notes is missing",
    );
}

#[test]
fn install_refuses_a_command_that_is_not_executable() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.write("bin/roost-note", "#!/bin/sh\n");
    f.commit("not executable");
    assert!(f
        .git(&["ls-files", "-s", "bin/roost-note"])
        .starts_with("100644 "));
    assert_gate(&env, "command note: bin/roost-note is not executable");
}

// ------------------------------------------------ 6. consent and the question

#[test]
fn the_consent_block_for_a_fleet_extension() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note", "notes"], &["fleet"]);
    f.git(&["tag", "v0.1.0"]);
    f.push();
    let commit = f.head();
    let out = install(&env, &["owner/roost-note", "--ref", "v0.1.0", "--yes"]);
    let url = url_of(&env, "owner/roost-note");
    let want = format!(
        "{}\nInstall? [y/N] yes (--yes)\n\
         installed note at {}: roost note, roost notes\n\
         its data directory: {}\n",
        block(&url, "v0.1.0", &commit, "roost note, roost notes", true),
        commit,
        env.path("state/roost/ext/note").display(),
    );
    assert_eq!(succeeded(&out), want);
    assert!(out.stderr.is_empty(), "{}", describe(&out));
}

#[test]
fn the_consent_block_for_an_extension_that_does_not_ask_for_the_fleet() {
    let env = TestEnv::new();
    let f = ext_with(
        &env,
        "owner/roost-mark",
        json!({
            "name": "mark",
            "contract": "1",
            "commands": ["mark"],
            "needs": [],
            "roost": ">=0.0.1 <99.0.0",
            "description": "Bookmarks for panes \u{2014} caf\u{e9}"
        }),
        &["mark"],
    );
    let commit = f.head();
    let out = install(&env, &["owner/roost-mark", "--yes"]);
    let range = format!(">=0.0.1 <99.0.0 (you have {VERSION})");
    let w = range.len();
    let want = format!(
        "  repo      {url}\n\
         \x20 ref       HEAD\n\
         \x20 commit    {commit} (pinned)\n\
         \x20 contract  {contract:<w$}  ok\n\
         \x20 roost     {range}  ok\n\
         \x20 claims    roost mark\n\
         \x20 about     Bookmarks for panes \u{2014} caf\u{e9}\n\
         \n\
         This extension does not ask for access to your agents.\n\
         \n\
         An extension that did NOT ask can still reach them if it tries. This\n\
         line tells you what it declared, not what it is stopped from doing.\n\
         \n\
         Roost has checked that this is the exact commit named above. It has\n\
         NOT checked whether the code is honest. It cannot.\n\
         \n\
         Nothing runs during install. Code runs when you type those commands.\n\
         \n\
         Install? [y/N] yes (--yes)\n\
         installed mark at {commit}: roost mark\n\
         its data directory: {state}\n",
        url = url_of(&env, "owner/roost-mark"),
        contract = "1 (roost speaks 1)",
        state = env.path("state/roost/ext/mark").display(),
    );
    assert_eq!(succeeded(&out), want);
    // The same text as the shared layout, line by line.
    let stdout = String::from_utf8(out.stdout).unwrap();
    for line in block(
        &url_of(&env, "owner/roost-mark"),
        "HEAD",
        &commit,
        "roost mark",
        false,
    )
    .lines()
    .filter(|l| !l.starts_with("  contract") && !l.starts_with("  roost"))
    {
        assert!(stdout.lines().any(|l| l == line), "missing line {line:?}");
    }
    assert_eq!(read_lock(&env)["mark"]["needs"], json!([]));
}

#[test]
fn a_roost_range_out_of_range_warns_and_installs() {
    let env = TestEnv::new();
    ext_with(
        &env,
        "owner/roost-mark",
        json!({"name": "mark", "contract": 1, "commands": ["mark"], "roost": ">=99.0.0 <100.0.0"}),
        &["mark"],
    );
    let out = succeeded(&install(&env, &["owner/roost-mark", "--yes"]));
    let row = format!("  roost     >=99.0.0 <100.0.0 (you have {VERSION})  warn");
    assert!(out.lines().any(|l| l == row), "{out}");
    assert!(
        out.contains(&format!(
            "\nNote: it says it is for roost >=99.0.0 <100.0.0; this is roost {VERSION}. The range is advisory: installing anyway.\n"
        )),
        "{out}"
    );
    assert!(lock_file(&env).exists());
}

#[test]
fn without_a_terminal_and_without_yes_it_shows_the_block_and_refuses() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let before = snapshot(&env);
    let out = install(&env, &["owner/roost-note"]);
    let err = refused(&out);
    let url = url_of(&env, "owner/roost-note");
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        format!("{}\n", block(&url, "HEAD", &f.head(), "roost note", false))
    );
    assert_eq!(
        err,
        "roost ext install: not installed: stdin is not a terminal\n\
         read the block above, then pass --yes to install from a script\n"
    );
    assert_eq!(
        snapshot(&env),
        before,
        "no lock, no index, no clone, no temp dir"
    );
    assert!(!env.path("data/roost").exists());
}

/// Runs the install in a pane of the test's tmux server (a real terminal)
/// and answers the question with `answer`; returns (exit status, stderr).
fn install_in_a_terminal(env: &TestEnv, answer: &str) -> (String, String) {
    let status = env.path("status");
    let err = env.path("stderr");
    let pane = env.spawn(
        "installer",
        &format!(
            "trap : INT; '{ROOST}' ext install owner/roost-note 2>'{err}'; echo $? >'{status}.tmp'; mv '{status}.tmp' '{status}'",
            err = err.display(),
            status = status.display(),
        ),
    );
    let screen = env.wait_for_screen(&pane, "Install? [y/N]");
    assert!(screen.contains("commit    "), "{screen}");
    if answer.starts_with("C-") {
        env.tmux_ok(&["send-keys", "-t", &pane, answer]);
    } else {
        env.tmux_ok(&["send-keys", "-t", &pane, answer, "Enter"]);
    }
    assert!(
        wait_until(Duration::from_secs(20), || status.exists()),
        "the install never finished"
    );
    (
        std::fs::read_to_string(&status).unwrap().trim().to_string(),
        std::fs::read_to_string(&err).unwrap(),
    )
}

#[test]
fn answering_yes_at_the_terminal_installs() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let (status, err) = install_in_a_terminal(&env, "y");
    assert_eq!(status, "0", "{err}");
    assert_eq!(err, "");
    assert_eq!(read_lock(&env)["note"]["commit"], f.head());
    assert_eq!(env.ok(["note"]), "note\n");
}

#[test]
fn answering_no_at_the_terminal_installs_nothing() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let (status, err) = install_in_a_terminal(&env, "n");
    assert_eq!(status, "1");
    assert_eq!(err, "roost ext install: not installed\n");
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert!(!env.path("state/roost/ext/note").exists());
    // (The tmux server has its own files under data/roost; install has none.)
    assert!(
        !env.path("data/roost/ext").exists(),
        "{:?}",
        snapshot(&env).iter().map(|(p, _, _)| p).collect::<Vec<_>>()
    );
}

#[test]
fn interrupting_the_question_installs_nothing_and_leaves_nothing() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let (status, err) = install_in_a_terminal(&env, "C-c");
    assert_eq!(status, "130");
    assert_eq!(err, "roost ext install: not installed\n");
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert!(
        !env.path("data/roost/ext").exists(),
        "{:?}",
        snapshot(&env).iter().map(|(p, _, _)| p).collect::<Vec<_>>()
    );
}

#[test]
fn interrupting_the_fetch_leaves_nothing() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    // The fetch, once asked for, is held up for a moment.
    let fetching = env.path("fetching");
    let path = env.upload_pack_wrapper(
        &env.path("upload-pack-calls"),
        &format!("touch '{}'; sleep 1", fetching.display()),
    );
    let child = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("PATH", path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(wait_until(Duration::from_secs(10), || fetching.exists()));
    assert!(
        env.path("data/roost/ext").exists(),
        "the temporary clone is being made"
    );
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(!lock_file(&env).exists());
    assert!(
        !env.path("data/roost/ext").exists(),
        "{:?}",
        snapshot(&env).iter().map(|(p, _, _)| p).collect::<Vec<_>>()
    );
}

// --------------------------------------------------------- 7. conflicts

/// Installs `note`, then refuses `repo`: lock, index and disk unchanged.
fn assert_conflict(env: &TestEnv, repo: &str, want: &str) {
    let before = snapshot(env);
    let out = install(env, &[repo, "--yes"]);
    let err = refused(&out);
    assert_eq!(err, want);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert_eq!(snapshot(env), before);
}

#[test]
fn install_refuses_a_name_already_installed() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    env.simple_ext("other/roost-note", "note", &["jot"], &[]);
    assert_conflict(
        &env,
        "other/roost-note",
        &format!(
            "roost ext install: note is already installed (at {})\n\
             update it with `roost ext update note`, or remove it first with `roost ext remove note`\n",
            &f.head()[..7]
        ),
    );
    // The same repository twice is the same refusal.
    refused(&install(&env, &["owner/roost-note", "--yes"]));
}

#[test]
fn install_refuses_a_command_claimed_by_another_extension() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note", "notes"], &[]);
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    env.simple_ext("owner/roost-jot", "jot", &["jot", "notes"], &[]);
    assert_conflict(
        &env,
        "owner/roost-jot",
        "roost ext install: command notes is already claimed by the installed extension note\n\
         remove note first (roost ext remove note) to install this one\n",
    );
}

#[test]
fn install_refuses_a_destination_that_exists_without_a_lock_entry() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let dest = env.path("data/roost/ext/note");
    env.write("data/roost/ext/note/mine.txt", "not roost's\n");
    assert_conflict(
        &env,
        "owner/roost-note",
        &format!(
            "roost ext install: {} exists, but ext.lock has no entry for note\n\
             move that directory aside or delete it, then install again\n",
            dest.display()
        ),
    );
    // An empty directory, or a dangling symlink, is in the way all the same.
    std::fs::remove_dir_all(&dest).unwrap();
    std::fs::create_dir(&dest).unwrap();
    refused(&install(&env, &["owner/roost-note", "--yes"]));
    std::fs::remove_dir(&dest).unwrap();
    symlink("/nonexistent", &dest).unwrap();
    refused(&install(&env, &["owner/roost-note", "--yes"]));
    assert!(!lock_file(&env).exists());
}

#[test]
fn a_failure_after_the_move_undoes_the_install_but_keeps_existing_state() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    // ext.index cannot be written: it is a directory.
    std::fs::create_dir_all(index_file(&env)).unwrap();
    env.write("state/roost/ext/note/year-of-notes.txt", "precious\n");
    let out = install(&env, &["owner/roost-note", "--yes"]);
    let err = refused(&out);
    assert!(err.contains("nothing was installed"), "{err}");
    assert!(
        !env.path("data/roost/ext/note").exists(),
        "the clone stayed"
    );
    assert!(!lock_file(&env).exists());
    assert_eq!(
        env.read("state/roost/ext/note/year-of-notes.txt"),
        "precious\n"
    );
    let left: Vec<_> = std::fs::read_dir(env.path("data/roost/ext"))
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left behind: {left:?}");

    // Without earlier state, the state directory it made goes too.
    std::fs::remove_dir_all(env.path("state/roost/ext/note")).unwrap();
    refused(&install(&env, &["owner/roost-note", "--yes"]));
    assert!(!env.path("state/roost/ext/note").exists());
}

// ------------------------------------------------------- 8. network trouble

#[test]
fn on_a_terminal_install_shows_its_progress_on_one_line_then_takes_it_away() {
    let env = TestEnv::new();
    note_repo(&env).commit("first");
    let Some(out) = env.on_a_terminal("ext install owner/roost-note --yes", b"") else {
        return;
    };
    let seen = succeeded(&out);
    let url = format!("file://{}/owner/roost-note", env.path("remote").display());
    // Each step rewrites the one line; nothing else is printed meanwhile.
    let steps: Vec<&str> = seen.split("\r\x1b[K").filter(|s| !s.is_empty()).collect();
    let (last, drawn) = steps.split_last().unwrap();
    let want = [
        format!("roost: connecting to {url}"),
        "roost: HEAD is ".to_string(),
        "roost: received ".to_string(),
        // Checkout and hashing count their files as they go; the count
        // reached is drawn last.
        "roost: checking out: 2/2 files".to_string(),
        "roost: hashing: 2/2 files".to_string(),
    ];
    let mut at = 0;
    for step in drawn {
        assert!(
            !step.contains('\n'),
            "a progress step spans lines: {step:?}"
        );
        if at < want.len() && step.starts_with(&want[at]) {
            at += 1;
        }
    }
    assert_eq!(at, want.len(), "steps missing from {drawn:?}");
    // The line is gone before the block and the result are printed.
    assert!(last.starts_with("  repo      file://"), "{last:?}");
    assert!(last.contains("installed note"), "{last:?}");
    // Piped, the same install prints not one byte of it.
    env.ok(["ext", "remove", "note"]);
    let out = install(&env, &["owner/roost-note", "--yes"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("connecting"));
    assert!(!out.stderr.contains(&b'\r'));
}

#[test]
fn a_missing_repository_is_one_line_naming_the_url_and_a_hint() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", "file:///nonexistent/");
    let Run { out, took, .. } = bounded(cmd, Duration::from_secs(10));
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext install: cannot resolve HEAD at file:///nonexistent/owner/roost-note: \
         no repository there (/nonexistent/owner/roost-note does not exist)\n\
         check the path\n"
    );
    assert!(took < Duration::from_secs(10));
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(&env), before);
}

#[test]
fn an_unreachable_ssh_host_is_one_line_naming_the_url_and_never_prompts() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", "ssh://127.0.0.1:1/");
    let Run { out, took, .. } = bounded(cmd, Duration::from_secs(10));
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext install: cannot resolve HEAD at ssh://127.0.0.1:1/owner/roost-note: \
         127.0.0.1:1 could not be reached (connection refused)\n\
         check your connection, a proxy or firewall, and the address, then try again\n"
    );
    assert!(took < Duration::from_secs(10));
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(&env), before);
}

#[test]
fn an_ssh_base_works_and_ssh_never_prompts_nor_waits_forever() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &["fleet"]);
    // An `ssh` that logs its arguments and runs the remote command here.
    let bin = env.path("ssh-bin");
    let log = env.path("ssh-log");
    std::fs::create_dir_all(&bin).unwrap();
    let ssh = bin.join("ssh");
    std::fs::write(
        &ssh,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\n\
             while [ $# -gt 0 ]; do case \"$1\" in -o) shift 2;; -*) shift;; *) break;; esac; done\n\
             shift\nexec sh -c \"$*\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let base = format!("ssh://example.invalid{}/", env.path("remote").display());
    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("PATH", path)
        .env("ROOST_EXT_GIT_BASE", &base)
        .output()
        .unwrap();
    succeeded(&out);
    assert_eq!(read_lock(&env)["note"]["commit"], f.head());
    assert_eq!(env.ok(["note"]), "note\n");
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        calls.lines().count(),
        1,
        "one connection for the lookup and the fetch: {calls}"
    );
    for call in calls.lines() {
        for option in ["BatchMode=yes", "ConnectTimeout=", "ServerAliveInterval="] {
            assert!(call.contains(option), "{option} missing: {call}");
        }
        assert!(call.contains("git-upload-pack"), "{call}");
    }
}

#[test]
fn a_server_that_never_answers_is_given_up_on_in_bounded_time() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    // Accepts connections and never says a word (not even TLS).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            held.push(conn);
        }
    });
    let base = format!("https://127.0.0.1:{port}/");
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", &base);
    let out = bounded(cmd, Duration::from_secs(50)).out;
    let err = refused(&out);
    assert_eq!(
        err,
        format!(
            "roost ext install: cannot resolve HEAD at {base}owner/roost-note: \
             127.0.0.1:{port} could not be reached (timed out)\n\
             check your connection, a proxy or firewall, and the address, then try again\n"
        )
    );
    assert_eq!(snapshot(&env), before);
}

/// An https server on 127.0.0.1 (openssl s_server, which speaks TLS and
/// then answers any request with a status page, not git), its certificate
/// signed by a throwaway CA. Returns the server, the base URL and the CA.
fn tls_server(env: &TestEnv) -> Option<(ChildGuard, String, PathBuf)> {
    tls_server_with(env, &["-www"])
}

/// `tls_server`, s_server given `extra` instead of `-www` (without it, it
/// completes TLS and then sends only what its stdin, held open and empty,
/// says: nothing).
pub(crate) fn tls_server_with(
    env: &TestEnv,
    extra: &[&str],
) -> Option<(ChildGuard, String, PathBuf)> {
    let dir = tls_certs(env)?;
    let mut server = Command::new("openssl")
        .args([
            "s_server",
            "-accept",
            "127.0.0.1:0",
            "-cert",
            "leaf.pem",
            "-key",
            "leaf.key",
        ])
        .args(extra)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // "ACCEPT 127.0.0.1:PORT" once it listens.
    let port = listening_port(&mut server, "ACCEPT ");
    Some((
        ChildGuard(server),
        format!("https://127.0.0.1:{port}/"),
        dir.join("ca.pem"),
    ))
}

/// The port in the line of the child's stdout that starts with `prefix`
/// (what a server prints once it listens).
fn listening_port(child: &mut std::process::Child, prefix: &str) -> String {
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        if std::io::BufRead::read_line(&mut out, &mut line).unwrap() == 0 {
            panic!("the server exited before listening");
        }
        if let Some(addr) = line.trim().strip_prefix(prefix) {
            return addr.rsplit(':').next().unwrap().to_string();
        }
    }
}

/// A throwaway CA and a certificate for 127.0.0.1 it signed, made with
/// openssl in `tls/` (ca.pem, leaf.pem, leaf.key); None (the test skips)
/// without openssl.
fn tls_certs(env: &TestEnv) -> Option<PathBuf> {
    let dir = env.path("tls");
    std::fs::create_dir_all(&dir).unwrap();
    let openssl = |args: &[&str]| {
        Command::new("openssl")
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success())
    };
    std::fs::write(
        dir.join("leaf.cnf"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    let made = openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-subj",
        "/CN=roost test CA",
    ]) && openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]) && openssl(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "leaf.cnf",
        "-out",
        "leaf.pem",
    ]);
    if !made {
        skip_without("openssl is not installed");
        return None;
    }
    Some(dir)
}

/// git's smart HTTP over TLS on 127.0.0.1: `git http-backend` behind a
/// small python server, serving the bare repositories under `remote/`
/// (chunked request bodies decoded, protocol v2 passed on). Returns the
/// server, the base URL and the CA that signed its certificate.
fn https_git_server(env: &TestEnv) -> Option<(ChildGuard, String, PathBuf)> {
    let dir = tls_certs(env)?;
    std::fs::write(dir.join("serve.py"), HTTPS_GIT).unwrap();
    let server = Command::new("python3")
        .arg(dir.join("serve.py"))
        .arg(env.path("remote"))
        .current_dir(&dir)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut server) = server else {
        skip_without("python3 is not installed");
        return None;
    };
    let port = listening_port(&mut server, "LISTENING ");
    Some((
        ChildGuard(server),
        format!("https://127.0.0.1:{port}/"),
        dir.join("ca.pem"),
    ))
}

const HTTPS_GIT: &str = r#"
import http.server, os, ssl, subprocess, sys

ROOT = sys.argv[1]

class Git(http.server.BaseHTTPRequestHandler):
    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def serve(self):
        path, _, query = self.path.partition("?")
        data = self.body() if self.command == "POST" else b""
        env = {
            "PATH": os.environ["PATH"],
            "GIT_PROJECT_ROOT": ROOT,
            "GIT_HTTP_EXPORT_ALL": "1",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": "/dev/null",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(data)),
            "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
        }
        out = subprocess.run(["git", "http-backend"], input=data, env=env,
                             stdout=subprocess.PIPE).stdout
        head, _, rest = out.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.decode().split("\r\n"):
            key, _, value = line.partition(":")
            if key.lower() == "status":
                status = int(value.split()[0])
            elif key:
                headers.append((key, value.strip()))
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)

    do_GET = serve
    do_POST = serve

    def log_message(self, *args):
        pass

server = http.server.HTTPServer(("127.0.0.1", 0), Git)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain("leaf.pem", "leaf.key")
server.socket = context.wrap_socket(server.socket, server_side=True)
print("LISTENING 127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
"#;

/// Installing over https from a real git server: the clone is the pinned
/// commit, `verify` agrees, and the command runs.
#[test]
fn an_extension_installs_over_https_from_a_real_git_server() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let commit = f.commit("base");
    let Some((_server, base, ca)) = https_git_server(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", &base)
        .env_remove("SSL_CERT_DIR")
        .env("SSL_CERT_FILE", &ca);
    let run = bounded(cmd, Duration::from_secs(60));
    assert!(run.out.status.success(), "{}", describe(&run.out));
    assert!(
        stdout(&run.out).contains(&format!("installed note at {}", &commit[..7])),
        "{}",
        describe(&run.out)
    );
    let verify = env.roost(["ext", "verify", "note"]).output().unwrap();
    assert!(verify.status.success(), "{}", describe(&verify));
    let ran = env.roost(["note"]).output().unwrap();
    assert_eq!(stdout(&ran), "note\n", "{}", describe(&ran));
}

/// Kills the child when the test ends, however it ends.
pub(crate) struct ChildGuard(std::process::Child);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn https_refuses_an_untrusted_certificate_and_talks_tls_with_a_trusted_one() {
    let env = TestEnv::new();
    let Some((_server, base, ca)) = tls_server(&env) else {
        return;
    };
    let before = snapshot(&env);
    let install = |trust: Option<&Path>, verbose: bool| {
        let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
        cmd.env("ROOST_EXT_GIT_BASE", &base)
            .env_remove("SSL_CERT_DIR");
        match trust {
            Some(ca) => cmd.env("SSL_CERT_FILE", ca),
            None => cmd.env_remove("SSL_CERT_FILE"),
        };
        if verbose {
            cmd.env("ROOST_VERBOSE", "1");
        }
        refused(&bounded(cmd, Duration::from_secs(30)).out)
    };
    let host = base.trim_start_matches("https://").trim_end_matches('/');
    let prefix = format!("roost ext install: cannot resolve HEAD at {base}owner/roost-note: ");
    // Signed by nobody the system trusts: refused at the handshake, in one
    // line and a hint; the cause itself only when asked for.
    let err = install(None, false);
    assert_eq!(
        err,
        format!(
            "{prefix}a secure (TLS) connection to {host} failed\n\
             check the system's certificates and clock, and that the address is an https git server\n"
        )
    );
    let err = install(None, true);
    assert!(err.starts_with(&prefix), "{err}");
    assert!(
        err.contains("invalid peer certificate: UnknownIssuer"),
        "{err}"
    );
    // Trusted through SSL_CERT_FILE: TLS completes, and what fails is that
    // the server does not speak git.
    let err = install(Some(&ca), false);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.starts_with(&prefix), "{err}");
    assert!(!err.contains("certificate"), "{err}");
    assert!(err.contains("'dumb' protocol is not supported"), "{err}");
    assert_eq!(snapshot(&env), before);
}

#[test]
fn what_ssh_and_the_remote_print_reaches_the_terminal_neutralised() {
    let env = TestEnv::new();
    note_repo(&env).commit("first");
    // A stand-in for ssh, first on PATH: it prints what a hostile server's
    // banner or error could (a title change, a screen clear, a bidi
    // override), then runs the remote command on this machine, joining
    // the words after the host as ssh does.
    let path = local_ssh_path(
        &env,
        r"printf 'remote: hi \033]0;owned\007 \033[2J \342\200\256txt\r\n' >&2",
    );
    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("PATH", &path)
        .env(
            "ROOST_EXT_GIT_BASE",
            format!("ssh://example.invalid{}/", env.path("remote").display()),
        )
        .output()
        .unwrap();
    succeeded(&out);
    // Once (one connection for the lookup and the fetch): every byte visible.
    let line = "remote: hi \\x1b]0;owned\\x07 \\x1b[2J \\u{202e}txt\n";
    assert_eq!(String::from_utf8(out.stderr).unwrap(), line);
    let out = env.roost(["note"]).output().unwrap();
    assert_eq!(succeeded(&out), "note\n");
}

#[test]
fn a_host_that_wants_credentials_is_refused_without_asking() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    let bin = env.path("ssh-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ssh = bin.join("ssh");
    std::fs::write(
        &ssh,
        "#!/bin/sh\necho 'git@example.invalid: Permission denied (publickey).' >&2\nexit 255\n",
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env(
        "PATH",
        format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
    )
    .env("ROOST_EXT_GIT_BASE", "ssh://example.invalid/");
    let out = bounded(cmd, Duration::from_secs(10)).out;
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext install: cannot resolve HEAD at ssh://example.invalid/owner/roost-note: \
         example.invalid refused access: authentication failed\n\
         set up ssh keys or git credentials for it (roost never asks for a password); \
         a private repository needs them\n"
    );
    assert_eq!(snapshot(&env), before);
}

#[test]
fn a_scheme_other_than_file_https_ssh_is_refused() {
    let env = TestEnv::new();
    let marker = env.path("ext-transport-ran");
    let ext = format!("ext::sh -c touch% {}", marker.display());
    for base in ["git://127.0.0.1:1/", "http://127.0.0.1:1/", &ext] {
        let out = env
            .roost(["ext", "install", "owner/roost-note", "--yes"])
            .env("ROOST_EXT_GIT_BASE", base)
            .output()
            .unwrap();
        let err = refused(&out);
        assert!(
            err.starts_with(&format!(
                "roost ext install: ROOST_EXT_GIT_BASE={base} is not a base roost can fetch from"
            )),
            "{err}"
        );
        assert_eq!(err.lines().count(), 2, "{err}");
    }
    assert!(!marker.exists());
    assert!(!env.path("data/roost").exists());
}

#[test]
fn state_kept_from_an_earlier_install_is_reused_not_replaced() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.write("state/roost/ext/note/notes.txt", "a year of notes\n");
    succeeded(&install(&env, &["owner/roost-note", "--yes"]));
    assert_eq!(
        env.read("state/roost/ext/note/notes.txt"),
        "a year of notes\n"
    );
}

// ------------------------------------------------------------ 9. concurrency

#[test]
fn installs_started_at_the_same_time_are_all_recorded() {
    let env = TestEnv::new();
    let names = ["alpha", "bravo", "charlie", "delta"];
    for n in names {
        env.simple_ext(&format!("owner/roost-{n}"), n, &[n], &[]);
    }
    let children: Vec<_> = names
        .iter()
        .map(|n| {
            env.roost(["ext", "install", &format!("owner/roost-{n}"), "--yes"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        succeeded(&child.wait_with_output().unwrap());
    }
    let lock = read_lock(&env);
    let recorded: Vec<&String> = lock.as_object().unwrap().keys().collect();
    assert_eq!(recorded, names.to_vec());
    let index = std::fs::read_to_string(index_file(&env)).unwrap();
    let commands: Vec<&str> = index
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(commands, names.to_vec());
    for n in names {
        assert_eq!(env.ok([n]), format!("{n}\n"));
    }
    let left: Vec<_> = std::fs::read_dir(env.path("data/roost/ext"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temp dirs left: {left:?}");
}

/// An ssh remote that floods stderr with 64 MiB and no newline: what is
/// shown is cut (4 KiB a line, 64 KiB in all), nothing holds the flood, and
/// the install still completes over the same connection.
#[test]
fn an_ssh_stderr_flood_is_cut_and_never_held() {
    let env = TestEnv::new();
    note_repo(&env).commit("first");
    let path = local_ssh_path(&env, r"head -c 67108864 /dev/zero | tr '\000' 'A' >&2");
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("PATH", &path).env(
        "ROOST_EXT_GIT_BASE",
        format!("ssh://example.invalid{}/", env.path("remote").display()),
    );
    let run = bounded(cmd, Duration::from_secs(60));
    succeeded(&run.out);
    assert!(
        run.out.stderr.len() <= 80 * 1024,
        "{} bytes of stderr",
        run.out.stderr.len()
    );
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    assert_eq!(succeeded(&env.roost(["note"]).output().unwrap()), "note\n");
}

/// A PATH whose `ssh` runs the shell line `first` (what a remote prints,
/// say), then the remote command on this machine, joining the words after
/// the host as ssh does.
fn local_ssh_path(env: &TestEnv, first: &str) -> String {
    let bin = env.path("ssh-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ssh = bin.join("ssh");
    std::fs::write(
        &ssh,
        format!(
            "#!/bin/sh\n{first}\n\
             while [ $# -gt 0 ]; do case $1 in -o|-p) shift 2;; -*) shift;; *) break;; esac; done\n\
             shift\n\
             exec sh -c \"$*\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
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

/// A source that cannot be read is one line saying what happened and one
/// saying what to do; the whole error only with -v or ROOST_VERBOSE.
#[test]
fn a_source_failure_is_one_line_and_a_hint_and_the_chain_only_when_verbose() {
    let env = TestEnv::new();
    let base = format!("file://{}/", env.path("nowhere").display());
    let what = format!(
        "roost ext install: cannot resolve HEAD at {base}o/r: no repository there ({}/o/r does not exist)\n\
         check the path\n",
        env.path("nowhere").display()
    );
    let quiet = env
        .roost(["ext", "install", "o/r", "--yes"])
        .env("ROOST_EXT_GIT_BASE", &base)
        .output()
        .unwrap();
    assert_eq!(exits(&quiet, 1), what);
    let chain = format!(
        "roost ext install: the whole error: no repository there ({}/o/r does not exist)\n",
        env.path("nowhere").display()
    );
    for (args, var) in [
        (&["ext", "install", "-v", "o/r", "--yes"][..], ""),
        (&["ext", "--verbose", "install", "o/r", "--yes"][..], ""),
        (&["ext", "install", "o/r", "--yes"][..], "1"),
    ] {
        let out = env
            .roost(args)
            .env("ROOST_EXT_GIT_BASE", &base)
            .env("ROOST_VERBOSE", var)
            .output()
            .unwrap();
        assert_eq!(exits(&out, 1), format!("{what}{chain}"), "{args:?} {var:?}");
    }
    assert!(!lock_file(&env).exists());
}
