//! `roost ext install` fetches and runs nothing of the repository: no
//! submodule, no hostile git config or attributes.

use crate::common::*;
use crate::ext::install::{install, note_repo, read_lock};

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

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
