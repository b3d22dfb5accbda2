//! The extension author's loop: `roost ext new` scaffolds a
//! repository, `roost ext check` runs the install gates on a directory,
//! `roost ext install --link` runs it from the checkout, and list, verify,
//! update, info and remove treat a linked extension as the author's.

use crate::common::*;

use serde_json::{json, Value};
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

// ---------------------------------------------------------------- helpers

/// `git ARGS` in `dir`, with the test's isolated git configuration.
fn git(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env_clear()
        .envs(env.vars())
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", describe(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// `roost ext new NAME DIR` with DIR under the test's `authors/`; the
/// directory, as recorded when it is linked.
fn scaffold(env: &TestEnv, name: &str) -> PathBuf {
    let dir = env.path("authors").join(format!("roost-{name}"));
    clean(&env.run([
        "ext".as_ref(),
        "new".as_ref(),
        name.as_ref(),
        dir.as_os_str(),
    ]));
    std::fs::canonicalize(dir).unwrap()
}

fn link(env: &TestEnv, dir: &Path) -> Output {
    env.run([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        dir.as_os_str(),
        "--yes".as_ref(),
    ])
}

fn check(env: &TestEnv, dir: &Path, json: bool) -> Output {
    let mut args = vec!["ext".as_ref(), "check".as_ref(), dir.as_os_str()];
    if json {
        args.push("--json".as_ref());
    }
    env.run(args)
}

fn state_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("state/roost/ext").join(name)
}

/// Everything roost keeps: the test's data/ and state/ trees, except the
/// advisory lock file (and the directory holding it), which exists once any
/// ext verb has taken the lock.
fn roost_files(env: &TestEnv) -> Vec<(PathBuf, u32, Vec<u8>)> {
    let mut all = Vec::new();
    for top in ["data", "state"] {
        all.extend(
            listing(&env.path(top))
                .into_iter()
                .map(|(p, m, b)| (Path::new(top).join(p), m, b)),
        );
    }
    all.retain(|(p, _, _)| {
        p != Path::new("state/roost") && p != Path::new("state/roost/ext.lock.flock")
    });
    all
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
         \n\
         An extension that did NOT ask can still reach them if it tries. This\n\
         line tells you what it declared, not what it is stopped from doing.\n\
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

// ------------------------------------------------------------- 1. ext new

#[test]
fn ext_new_creates_a_repository_whose_one_commit_holds_the_scaffold() {
    let env = TestEnv::new();
    let dir = env.path("authors/roost-note");
    let out = env.run([
        "ext".as_ref(),
        "new".as_ref(),
        "note".as_ref(),
        dir.as_os_str(),
    ]);
    let text = clean(&out);
    let head = git(&env, &dir, &["rev-parse", "HEAD"]);
    let shown = dir.display();
    assert_eq!(
        text,
        format!(
            "created {shown}: a git repository with one commit ({})\n\
             \x20 roost-ext.json       the manifest: name, contract, commands, needs\n\
             \x20 bin/roost-note       the command (POSIX sh, executable)\n\
             \x20 README.md            the contract in brief\n\
             next:\n\
             \x20 roost ext check {shown}            what install would say\n\
             \x20 roost ext install --link {shown}   use it while you edit it\n\
             \x20 roost note\n",
            &head[..7]
        )
    );

    let files: Vec<(String, String)> = git(&env, &dir, &["ls-files", "-s"])
        .lines()
        .map(|l| {
            let (mode, rest) = l.split_once(' ').unwrap();
            (
                mode.to_string(),
                rest.split('\t').nth(1).unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("100644", "README.md"),
        ("100755", "bin/roost-note"),
        ("100644", "roost-ext.json"),
    ]
    .iter()
    .map(|(m, p)| (m.to_string(), p.to_string()))
    .collect();
    assert_eq!(files, want);
    assert_eq!(git(&env, &dir, &["rev-list", "--count", "HEAD"]), "1\n");
    assert_eq!(git(&env, &dir, &["status", "--porcelain"]), "");
    assert_eq!(
        git(&env, &dir, &["symbolic-ref", "--short", "HEAD"]),
        "main\n"
    );
    // The commit holds exactly what is on disk.
    assert_eq!(
        git(&env, &dir, &["ls-tree", "-r", "--name-only", "HEAD"]),
        "README.md\nbin/roost-note\nroost-ext.json\n"
    );

    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("roost-ext.json")).unwrap()).unwrap();
    assert_eq!(manifest["name"], "note");
    assert_eq!(manifest["contract"], 1);
    assert_eq!(manifest["commands"], json!(["note"]));
    assert_eq!(manifest["needs"], json!([]));
    let script = std::fs::read_to_string(dir.join("bin/roost-note")).unwrap();
    assert!(script.starts_with("#!/bin/sh\n"), "{script}");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("roost-ext.json"), "{readme}");
    assert!(readme.contains("bin/roost-CMD"), "{readme}");
    // Nothing is installed by scaffolding.
    assert!(!lock_file(&env).exists());
}

#[test]
fn ext_new_defaults_to_roost_name_in_the_current_directory() {
    let env = TestEnv::new();
    let cwd = env.path("elsewhere");
    std::fs::create_dir_all(&cwd).unwrap();
    let out = env
        .roost(["ext", "new", "note"])
        .current_dir(&cwd)
        .output()
        .unwrap();
    let text = clean(&out);
    assert!(
        text.starts_with("created roost-note: a git repository with one commit ("),
        "{text}"
    );
    let dir = cwd.join("roost-note");
    assert!(dir.join(".git").is_dir());
    assert!(dir.join("bin/roost-note").is_file());
    assert_eq!(git(&env, &dir, &["status", "--porcelain"]), "");
    assert!(!env.path("work/roost-note").exists());
}

/// `roost ext new ARGS` is refused with exactly `want` on stderr, and the
/// directory it would have written does not appear.
fn assert_new_refused(env: &TestEnv, args: &[&str], want: &str) {
    let mut all = vec!["ext", "new"];
    all.extend_from_slice(args);
    let before = listing(&env.path("work"));
    let out = env.run(all);
    assert_eq!(exits(&out, 1), want);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert_eq!(listing(&env.path("work")), before);
    assert!(!lock_file(env).exists());
}

#[test]
fn ext_new_refuses_a_core_command_name() {
    let env = TestEnv::new();
    assert_new_refused(
        &env,
        &["status"],
        "roost ext new: status is a roost core command; an extension cannot claim it\n",
    );
    assert_new_refused(
        &env,
        &["ext", "roost-ext"],
        "roost ext new: ext is a roost core command; an extension cannot claim it\n",
    );
    assert_new_refused(
        &env,
        &["install"],
        "roost ext new: install is a verb of roost ext (roost ext install); an extension cannot claim it\n",
    );
}

/// The next steps it prints can be pasted as they are, whatever the
/// directory is called.
#[test]
fn ext_new_quotes_the_directory_in_the_steps_it_suggests() {
    let env = TestEnv::new();
    let text = clean(&env.run(["ext", "new", "note", "dir one"]));
    assert!(
        text.contains(
            "\n  roost ext check 'dir one'            what install would say\n\
             \x20 roost ext install --link 'dir one'   use it while you edit it\n"
        ),
        "{text}"
    );
    clean(&env.run(["ext", "check", "dir one"]));
}

#[test]
fn ext_new_refuses_an_invalid_name() {
    let env = TestEnv::new();
    for (name, shown) in [("Bad", "\"Bad\""), ("../x", "\"../x\""), ("-x", "\"-x\"")] {
        let args = if name.starts_with('-') {
            vec!["--", name]
        } else {
            vec![name]
        };
        assert_new_refused(
            &env,
            &args,
            &format!(
                "roost ext new: invalid name {shown}: use a lowercase letter, then lowercase \
                 letters, digits or '-' (at most 32)\n"
            ),
        );
    }
    let long = "a".repeat(33);
    let out = env.run(["ext", "new", &long]);
    exits(&out, 1);
    assert!(!env.path("work").join(format!("roost-{long}")).exists());
}

#[test]
fn ext_new_refuses_a_directory_that_is_not_empty() {
    let env = TestEnv::new();
    env.write("work/mine/notes.txt", "the author's\n");
    assert_new_refused(
        &env,
        &["note", "mine"],
        "roost ext new: mine exists and is not empty\nname a new directory\n",
    );
    assert_eq!(env.read("work/mine/notes.txt"), "the author's\n");
    assert!(!env.path("work/mine/.git").exists());
    // The default directory is refused the same way.
    env.write("work/roost-note/keep", "");
    assert_new_refused(
        &env,
        &["note"],
        "roost ext new: roost-note exists and is not empty\nname a new directory\n",
    );
}

#[test]
fn ext_new_refuses_a_path_that_is_a_file() {
    let env = TestEnv::new();
    env.write("work/afile", "mine\n");
    assert_new_refused(
        &env,
        &["note", "afile"],
        "roost ext new: afile exists and is not a directory\nname a new directory\n",
    );
    assert_eq!(env.read("work/afile"), "mine\n");
}

#[test]
fn ext_new_into_an_existing_empty_directory() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.path("work/empty")).unwrap();
    clean(&env.run(["ext", "new", "note", "empty"]));
    assert_eq!(
        git(&env, &env.path("work/empty"), &["status", "--porcelain"]),
        ""
    );
}

#[test]
fn ext_new_without_a_name_is_a_usage_error() {
    let env = TestEnv::new();
    let out = env.run(["ext", "new"]);
    let err = exits(&out, 2);
    assert!(err.starts_with("roost ext new: missing NAME\n"), "{err}");
    let out = env.run(["ext", "new", "note", "a", "b"]);
    let err = exits(&out, 2);
    assert!(
        err.starts_with("roost ext new: unexpected argument 'b'\n"),
        "{err}"
    );
    assert!(!env.path("work/a").exists());
}

/// `cmd` with `set` added to its environment and `unset` taken out of it.
fn adjusted<'c>(cmd: &'c mut Command, set: &[(&str, &str)], unset: &[&str]) -> &'c mut Command {
    cmd.envs(set.iter().copied());
    for name in unset {
        cmd.env_remove(name);
    }
    cmd
}

/// `roost ext new note DIR` with the test's environment changed by `set`
/// and `unset`; the new commit's people, `author|committer`, as git shows
/// them.
fn new_commit_people(env: &TestEnv, dir: &Path, set: &[(&str, &str)], unset: &[&str]) -> String {
    let mut cmd = env.roost([
        "ext".as_ref(),
        "new".as_ref(),
        "note".as_ref(),
        dir.as_os_str(),
    ]);
    clean(&adjusted(&mut cmd, set, unset).output().unwrap());
    let people = git(env, dir, &["log", "-1", "--format=%an <%ae>|%cn <%ce>"]);
    people.trim_end().to_string()
}

/// Whom git itself would name as author and committer of a commit in
/// `dir`, in the test's environment changed by `set` and `unset`:
/// `author|committer`.
fn git_people(env: &TestEnv, dir: &Path, set: &[(&str, &str)], unset: &[&str]) -> String {
    let ident = |var: &str| {
        let mut cmd = Command::new("git");
        cmd.arg("-C")
            .arg(dir)
            .args(["var", var])
            .env_clear()
            .envs(env.vars());
        let out = adjusted(&mut cmd, set, unset).output().unwrap();
        assert!(out.status.success(), "git var {var}: {}", describe(&out));
        let line = String::from_utf8(out.stdout).unwrap();
        // "Name <email> SECONDS ZONE"
        line[..line.rfind("> ").unwrap() + 1].to_string()
    };
    format!(
        "{}|{}",
        ident("GIT_AUTHOR_IDENT"),
        ident("GIT_COMMITTER_IDENT")
    )
}

/// `roost ext new` in `dir` commits as `want` (`author|committer`), and
/// that is whom git itself names in the same environment.
fn commits_as_git_would(
    env: &TestEnv,
    dir: &Path,
    set: &[(&str, &str)],
    unset: &[&str],
    want: &str,
) {
    let people = new_commit_people(env, dir, set, unset);
    assert_eq!(people, want);
    assert_eq!(people, git_people(env, dir, set, unset));
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn ext_new_commits_as_the_user_the_global_git_config_names() {
    let env = TestEnv::new();
    let global = env.write(
        "gitconfig",
        "[user]\n\tname = Ada Lovelace\n\temail = ada@example.org\n",
    );
    let set = [("GIT_CONFIG_GLOBAL", text(&global))];
    let dir = env.path("authors/roost-note");
    commits_as_git_would(
        &env,
        &dir,
        &set,
        &[],
        "Ada Lovelace <ada@example.org>|Ada Lovelace <ada@example.org>",
    );
}

#[test]
fn ext_new_takes_git_author_and_committer_variables_over_the_git_config() {
    let env = TestEnv::new();
    let global = env.write(
        "gitconfig",
        "[user]\n\tname = Ada Lovelace\n\temail = ada@example.org\n\
         [author]\n\tname = Config Author\n",
    );
    // Each name and email is resolved on its own: the committer's email
    // is still the configured one.
    let set = [
        ("GIT_CONFIG_GLOBAL", text(&global)),
        ("GIT_AUTHOR_NAME", "Grace Hopper"),
        ("GIT_AUTHOR_EMAIL", "grace@example.org"),
        ("GIT_COMMITTER_NAME", "Linus Pauling"),
    ];
    let dir = env.path("authors/roost-note");
    commits_as_git_would(
        &env,
        &dir,
        &set,
        &[],
        "Grace Hopper <grace@example.org>|Linus Pauling <ada@example.org>",
    );
}

#[test]
fn ext_new_commits_as_the_roost_placeholder_where_git_config_names_nobody() {
    let env = TestEnv::new();
    // Nothing configured at all (the test's global config is /dev/null).
    let people = new_commit_people(&env, &env.path("authors/nobody"), &[], &[]);
    assert_eq!(people, "roost <roost@localhost>|roost <roost@localhost>");
    // A name but no email: the name is the user's, the email the placeholder's.
    let global = env.write("gitconfig", "[user]\n\tname = Ada Lovelace\n");
    let set = [("GIT_CONFIG_GLOBAL", text(&global))];
    let people = new_commit_people(&env, &env.path("authors/name-only"), &set, &[]);
    assert_eq!(
        people,
        "Ada Lovelace <roost@localhost>|Ada Lovelace <roost@localhost>"
    );
}

#[test]
fn ext_new_reads_the_xdg_and_home_git_config_when_git_config_global_is_unset() {
    let env = TestEnv::new();
    // Both files are read, ~/.gitconfig last, as git reads them; author.*
    // and committer.* come before user.*.
    env.write(
        "config/git/config",
        "[user]\n\tname = Ada Lovelace\n\temail = ada@xdg.example\n\
         [committer]\n\tname = Ada's Robot\n",
    );
    env.write(
        "home/.gitconfig",
        "[user]\n\temail = ada@example.org\n[author]\n\temail = ada@author.example\n",
    );
    let unset = ["GIT_CONFIG_GLOBAL"];
    let dir = env.path("authors/roost-note");
    commits_as_git_would(
        &env,
        &dir,
        &[],
        &unset,
        "Ada Lovelace <ada@author.example>|Ada's Robot <ada@example.org>",
    );
}

#[test]
fn ext_new_reads_the_system_git_config_unless_git_config_nosystem_is_set() {
    let env = TestEnv::new();
    let system = env.write(
        "etc/gitconfig",
        "[user]\n\tname = Sam Sysadmin\n\temail = sam@example.org\n",
    );
    let set = [("GIT_CONFIG_SYSTEM", text(&system))];
    let unset = ["GIT_CONFIG_NOSYSTEM"];
    let dir = env.path("authors/system");
    commits_as_git_would(
        &env,
        &dir,
        &set,
        &unset,
        "Sam Sysadmin <sam@example.org>|Sam Sysadmin <sam@example.org>",
    );
    // The test's environment sets GIT_CONFIG_NOSYSTEM=1.
    let people = new_commit_people(&env, &env.path("authors/nosystem"), &set, &[]);
    assert_eq!(people, "roost <roost@localhost>|roost <roost@localhost>");
}

#[test]
fn ext_new_follows_git_config_includes_for_the_identity_and_runs_nothing_it_names() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    let trap = env.write(
        "trap/run",
        &format!(
            "#!/bin/sh\necho \"$0 $*\" >> '{}'\nexit 1\n",
            marker.display()
        ),
    );
    std::fs::set_permissions(&trap, std::fs::Permissions::from_mode(0o755)).unwrap();
    // A git first on PATH, and every hook, filter, monitor and signer the
    // config can name, run the trap.
    let bin = env.path("trap/bin");
    let hooks = env.path("trap/hooks");
    for (dir, names) in [
        (&bin, &["git"][..]),
        (&hooks, &["pre-commit", "commit-msg", "post-commit"][..]),
    ] {
        std::fs::create_dir_all(dir).unwrap();
        for name in names {
            symlink(&trap, dir.join(name)).unwrap();
        }
    }
    let attributes = env.write("trap/attributes", "* filter=trap\n");
    env.write("identity/name", "[user]\n\tname = Ada Lovelace\n");
    env.write("identity/email", "[user]\n\temail = ada@example.org\n");
    let global = env.write(
        "gitconfig",
        &format!(
            "[include]\n\tpath = {identity}/name\n\
             [includeIf \"gitdir:{authors}/\"]\n\tpath = {identity}/email\n\
             [core]\n\thooksPath = {hooks}\n\tfsmonitor = {trap}\n\tattributesFile = {attributes}\n\
             [filter \"trap\"]\n\tclean = {trap}\n\tsmudge = {trap}\n\tprocess = {trap}\n\
             [commit]\n\tgpgSign = true\n[gpg]\n\tprogram = {trap}\n",
            identity = env.path("identity").display(),
            authors = env.path("authors").display(),
            hooks = hooks.display(),
            trap = trap.display(),
            attributes = attributes.display(),
        ),
    );
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let set = [
        ("GIT_CONFIG_GLOBAL", text(&global)),
        ("PATH", path.as_str()),
    ];
    let people = new_commit_people(&env, &env.path("authors/roost-note"), &set, &[]);
    assert!(
        !marker.exists(),
        "roost ran {}",
        std::fs::read_to_string(&marker).unwrap()
    );
    assert_eq!(
        people,
        "Ada Lovelace <ada@example.org>|Ada Lovelace <ada@example.org>"
    );
}

// ----------------------------------------------------------- 2. ext check

#[test]
fn check_of_the_scaffold_says_what_it_would_claim_and_ask_for() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let before = roost_files(&env);
    let out = check(&env, &dir, false);
    assert_eq!(
        clean(&out),
        format!(
            "{}: install would accept it\n\
             \x20 name      note\n\
             \x20 contract  1 (roost speaks 1)\n\
             \x20 claims    roost note\n\
             \x20 needs     nothing: it does not ask for access to the user's agents\n",
            dir.display()
        )
    );
    // Nothing is installed by checking.
    assert_eq!(roost_files(&env), before);
    assert!(!lock_file(&env).exists() && !index_file(&env).exists());
}

#[test]
fn check_says_when_an_extension_asks_for_the_fleet() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    std::fs::write(
        dir.join("roost-ext.json"),
        r#"{"name": "note", "contract": 1, "commands": ["note"], "needs": ["fleet"]}"#,
    )
    .unwrap();
    let out = check(&env, &dir, false);
    assert_eq!(
        clean(&out),
        format!(
            "{}: install would accept it\n\
             \x20 name      note\n\
             \x20 contract  1 (roost speaks 1)\n\
             \x20 claims    roost note\n\
             \x20 needs     fleet: it asks to drive the user's agents\n\
             note: install takes the last commit, and these files differ from it: \
             roost-ext.json (changed)\n",
            dir.display()
        )
    );
}

#[test]
fn check_notes_the_files_that_differ_from_the_last_commit_which_install_takes() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {}", describe(&out));
    };
    let commit = || {
        git(&[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "commit",
            "-qm",
            "change",
        ])
    };
    // Committed without its exec bit, executable on disk: check alone would
    // pass it, install would refuse it.
    git(&["update-index", "--chmod=-x", "bin/roost-note"]);
    commit();
    std::fs::write(dir.join("README.md"), "edited\n").unwrap();
    std::fs::write(dir.join("scratch.txt"), "never committed\n").unwrap();
    std::fs::remove_file(dir.join("roost-ext.json")).unwrap();
    std::fs::write(
        dir.join("roost-ext.json"),
        r#"{"name": "note", "contract": 1, "commands": ["note", "more"]}"#,
    )
    .unwrap();
    std::fs::write(dir.join("bin/roost-more"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(
        dir.join("bin/roost-more"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let note = "install takes the last commit, and these files differ from it: \
                README.md (changed), bin/roost-more (not committed), \
                bin/roost-note (mode changed), roost-ext.json (changed)";
    let out = check(&env, &dir, false);
    assert!(
        clean(&out).ends_with(&format!("note: {note}\n")),
        "{}",
        clean(&out)
    );
    let v: Value = serde_json::from_str(&clean(&check(&env, &dir, true))).unwrap();
    assert_eq!(v["notes"], json!([note]));
    // Committed, nothing is noted.
    git(&["add", "-A"]);
    commit();
    let v: Value = serde_json::from_str(&clean(&check(&env, &dir, true))).unwrap();
    assert_eq!(v["notes"], json!([]));
}

#[test]
fn check_json_of_the_scaffold_is_ok() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let out = check(&env, &dir, true);
    let v: Value = serde_json::from_str(&clean(&out)).unwrap();
    assert_eq!(
        v,
        json!({
            "dir": dir.to_str().unwrap(),
            "ok": true,
            "refusal": null,
            "name": "note",
            "contract": 1,
            "commands": ["note"],
            "needs": [],
            "notes": [],
        })
    );
}

#[test]
fn check_of_something_that_is_not_a_directory_is_refused() {
    let env = TestEnv::new();
    let out = check(&env, &env.path("nothing-here"), false);
    assert_eq!(
        exits(&out, 1),
        format!(
            "roost ext check: {} is not a directory\n",
            env.path("nothing-here").display()
        )
    );
    assert!(out.stdout.is_empty());
    let out = env.run(["ext", "check"]);
    let err = exits(&out, 2);
    assert!(err.starts_with("roost ext check: missing DIR\n"), "{err}");
}

/// Builds a `note` extension with `build`, publishes it, and insists that
/// `ext check` on the directory and `ext install` of the repository refuse
/// with the same gate message, which contains `needle`.
fn same_refusal(build: impl FnOnce(&Fixture), needle: &str) {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    build(&f);
    f.commit("bad");

    let out = check(&env, &f.work, false);
    let err = exits(&out, 1);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    let prefix = format!(
        "roost ext check: install would refuse {}: ",
        f.work.display()
    );
    let from_check = err
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("want {prefix:?} in {err:?}"))
        .to_string();

    let out = check(&env, &f.work, true);
    exits(&out, 1);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["refusal"].as_str().unwrap(), from_check.trim_end());

    let before = roost_files(&env);
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    let err = exits(&out, 1);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    let prefix = format!(
        "roost ext install: refusing file://{}/owner/roost-note at {}: ",
        env.path("remote").display(),
        &f.head()[..7]
    );
    let from_install = err
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("want {prefix:?} in {err:?}"));
    assert_eq!(from_check, from_install);
    assert!(
        from_check.contains(needle),
        "want {needle:?} in {from_check}"
    );
    assert_eq!(from_check.lines().count(), 1, "{from_check}");
    assert_eq!(roost_files(&env), before);
}

fn note_manifest(f: &Fixture, manifest: Value) {
    f.write(
        "roost-ext.json",
        &serde_json::to_string_pretty(&manifest).unwrap(),
    );
}

fn good_note(f: &Fixture) {
    f.manifest("note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
}

#[test]
fn check_and_install_refuse_a_symlink_to_an_absolute_path_alike() {
    same_refusal(
        |f| {
            good_note(f);
            symlink("/etc/passwd", f.work.join("passwd")).unwrap();
        },
        "the symlink passwd points to the absolute path /etc/passwd",
    );
}

#[test]
fn check_and_install_refuse_a_symlink_that_climbs_out_alike() {
    same_refusal(
        |f| {
            good_note(f);
            f.write("sub/file", "x\n");
            symlink("../../outside", f.work.join("sub/up")).unwrap();
        },
        "the symlink sub/up points to ../../outside, outside the extension",
    );
}

#[test]
fn check_and_install_refuse_another_contract_alike() {
    same_refusal(
        |f| {
            note_manifest(
                f,
                json!({"name": "note", "contract": 2, "commands": ["note"]}),
            );
            f.exec("bin/roost-note", "#!/bin/sh\n");
        },
        "contract 2: this roost speaks contract 1",
    );
}

#[test]
fn check_and_install_refuse_an_unknown_authority_alike() {
    same_refusal(
        |f| {
            note_manifest(
                f,
                json!({"name": "note", "contract": 1, "commands": ["note"], "needs": ["network"]}),
            );
            f.exec("bin/roost-note", "#!/bin/sh\n");
        },
        "unknown authority \"network\"",
    );
}

#[test]
fn check_and_install_refuse_a_claim_on_a_core_command_alike() {
    same_refusal(
        |f| {
            note_manifest(
                f,
                json!({"name": "note", "contract": 1, "commands": ["note", "send"]}),
            );
            f.exec("bin/roost-note", "#!/bin/sh\n");
            f.exec("bin/roost-send", "#!/bin/sh\n");
        },
        "command \"send\" is a roost core command",
    );
}

#[test]
fn check_and_install_refuse_a_missing_command_executable_alike() {
    same_refusal(
        |f| {
            f.manifest("note", &["note", "notes"], &[]);
            f.exec("bin/roost-note", "#!/bin/sh\n");
        },
        "command notes: bin/roost-notes is missing",
    );
}

#[test]
fn check_and_install_refuse_a_command_that_is_not_executable_alike() {
    same_refusal(
        |f| {
            f.manifest("note", &["note"], &[]);
            f.write("bin/roost-note", "#!/bin/sh\n");
        },
        "command note: bin/roost-note is not executable (git mode 100755)",
    );
}

// --------------------------------------------------- 3. the author's loop

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
    assert_eq!(typo("note").2, Some(2));
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
    assert_eq!(env.run(["notes"]).status.code(), Some(2));
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
    exits(&out, 1);
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

// ------------------------------------------------- link refusals

/// `install --link DIR --yes` is refused with exactly `want`; nothing of
/// roost's changes.
fn assert_link_refused(env: &TestEnv, dir: &Path, want: &str) {
    let before = roost_files(env);
    let out = link(env, dir);
    assert_eq!(exits(&out, 1), want);
    assert_eq!(roost_files(env), before);
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
        exits(&out, 1),
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
    assert!(
        exits(&out, 1).starts_with("roost ext install: note is already installed (at linked)\n")
    );
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
    let err = exits(&out, 2);
    assert!(
        err.starts_with("roost ext install: --link cannot be used with --ref\n"),
        "{err}"
    );
    assert!(!lock_file(&env).exists());
}

/// check warns of a roost range this roost is outside of, or cannot read,
/// in install's words, and still accepts it (install goes ahead too).
#[test]
fn check_gives_the_roost_range_warning_install_gives() {
    let env = TestEnv::new();
    let dir = scaffold(&env, "note");
    let manifest = dir.join("roost-ext.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["roost"] = ">=99.0.0 <100.0.0".into();
    std::fs::write(&manifest, serde_json::to_vec(&m).unwrap()).unwrap();
    let text = clean(&check(&env, &dir, false));
    let warning = format!(
        "note: it says it is for roost >=99.0.0 <100.0.0; this is roost {VERSION}. The range is advisory: installing anyway.\n"
    );
    assert!(text.contains(&warning), "{text}");
    let v: Value = serde_json::from_str(&clean(&check(&env, &dir, true))).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["notes"][0], warning["note: ".len()..warning.len() - 1]);
    m["roost"] = "99".into();
    std::fs::write(&manifest, serde_json::to_vec(&m).unwrap()).unwrap();
    let text = clean(&check(&env, &dir, false));
    assert!(
        text.contains("note: roost cannot read its roost range (only \">=A.B.C <D.E.F\" and \"*\" are understood); the check is skipped.\n"),
        "{text}"
    );
}
