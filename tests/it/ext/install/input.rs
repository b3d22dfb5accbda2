//! `roost ext install`'s input, refused before the network or the disk:
//! owner/repo, refs, URLs, the command line; then what a good one runs.

use crate::common::*;
use crate::ext::install::{block, install, local_ssh_path, read_lock, url_of};

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::Output;

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
                assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
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
        assert_eq!(exit_of(&out), Exit::Usage, "{args:?}: {}", describe(&out));
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
