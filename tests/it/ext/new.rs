//! `roost ext new`: the scaffold repository, refused names and places, and
//! the identity its commit is made as.

use crate::common::ext::{git, text};
use crate::common::*;

use serde_json::{json, Value};
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::process::Command;

/// `roost ext new ARGS` is refused with exactly `want` on stderr, and the
/// directory it would have written does not appear.
fn assert_new_refused(env: &TestEnv, args: &[&str], want: &str) {
    let mut all = vec!["ext", "new"];
    all.extend_from_slice(args);
    let before = listing(&env.path("work"));
    let out = env.run(all);
    assert_eq!(exits(&out, Exit::Failed), want);
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    assert_eq!(listing(&env.path("work")), before);
    assert!(!lock_file(env).exists());
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
    let said = clean(&adjusted(&mut cmd, set, unset).output().unwrap());
    let people = git(env, dir, &["log", "-1", "--format=%an <%ae>|%cn <%ce>"]);
    let people = people.trim_end().to_string();
    // It says whom it committed as, and when the placeholder stood in.
    let author = people.split('|').next().unwrap();
    assert!(said.contains(&format!("), made as {author}\n")), "{said}");
    assert_eq!(
        said.contains("note: git names no author here"),
        author.contains("roost"),
        "{said}"
    );
    people
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
            "created {shown}: a git repository with one commit ({}), made as roost <roost@localhost>\n\
             \x20 roost-ext.json       the manifest: name, contract, commands, needs\n\
             \x20 bin/roost-note       the command (POSIX sh, executable)\n\
             \x20 README.md            the contract in brief\n\
             next:\n\
             \x20 roost ext check {shown}            what install would say\n\
             \x20 roost ext install --link {shown}   use it while you edit it\n\
             \x20 roost note\n\
             note: git names no author here, so `roost <roost@localhost>` stands in; set \
             user.name and user.email, then in {shown}: git commit --amend --reset-author\n",
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
    exits(&out, Exit::Failed);
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
    let err = exits(&out, Exit::Usage);
    assert!(err.starts_with("roost ext new: missing NAME\n"), "{err}");
    let out = env.run(["ext", "new", "note", "a", "b"]);
    let err = exits(&out, Exit::Usage);
    assert!(
        err.starts_with("roost ext new: unexpected argument 'b'\n"),
        "{err}"
    );
    assert!(!env.path("work/a").exists());
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
