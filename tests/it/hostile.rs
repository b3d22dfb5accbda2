//! Hostile repositories: submodules pointing anywhere, attribute
//! filters and conversions, a huge file, deep and wide trees, an oversized
//! manifest, and the symlink escapes tests/it/ext_install.rs does not cover.
//! Each install and verify must finish within a stated time bound; the peak
//! resident memory of roost is sampled from /proc/PID/status (VmHWM, polled
//! every few milliseconds until exit) where the input is large.

use crate::common::*;
use std::collections::BTreeMap;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Every roost run here must end within this (debug build, 2 busy cores).
pub(crate) const LIMIT: Duration = Duration::from_secs(20);

/// The 10,000-file install, which spends most of its time in gix's debug
/// build checkout (4.7 to 7.2 s measured with the other tests running).
const WIDE_LIMIT: Duration = Duration::from_secs(40);

// ---------------------------------------------------------------- helpers

pub(crate) fn install(env: &TestEnv, repo: &str) -> Run {
    install_within(env, repo, LIMIT)
}

fn install_within(env: &TestEnv, repo: &str, limit: Duration) -> Run {
    let run = bounded(env.roost(["ext", "install", repo, "--yes"]), limit);
    eprintln!("install {repo}: {:?}, peak {} KiB", run.took, run.peak_kib);
    run
}

pub(crate) fn verify(env: &TestEnv) -> Run {
    let run = bounded(env.roost(["ext", "verify"]), LIMIT);
    eprintln!("verify: {:?}, peak {} KiB", run.took, run.peak_kib);
    run
}

/// Installs `repo` (extension `name`) and insists `verify` says ok.
fn installed_and_verified(env: &TestEnv, repo: &str, name: &str) -> (Run, Run) {
    installed_and_verified_within(env, repo, name, LIMIT)
}

fn installed_and_verified_within(
    env: &TestEnv,
    repo: &str,
    name: &str,
    limit: Duration,
) -> (Run, Run) {
    let i = install_within(env, repo, limit);
    succeeded(&i.out);
    let v = verify(env);
    assert_eq!(succeeded(&v.out), format!("{name}: ok\n"));
    (i, v)
}

/// A plain extension `note` claiming `note`, not yet committed.
pub(crate) fn note_repo(env: &TestEnv) -> Fixture {
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
    f
}

/// Stages the work-tree file `rel` byte for byte (no attributes applied).
fn add_raw(f: &Fixture, rel: &str, mode: &str) {
    let path = f.work.join(rel);
    let id = f.git(&["hash-object", "-w", "--no-filters", &path.to_string_lossy()]);
    f.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("{mode},{},{rel}", id.trim()),
    ]);
}

/// Commits what is staged (no `add -A`) and pushes; returns the commit.
fn commit_staged(f: &Fixture, message: &str) -> String {
    f.git(&["commit", "-q", "--no-verify", "-m", message]);
    f.push();
    f.head()
}

/// The bytes of `rel` as stored in the commit `rev` of `f`.
fn blob(f: &Fixture, rev: &str, rel: &str) -> Vec<u8> {
    let out = Command::new("git")
        .args(["cat-file", "blob", &format!("{rev}:{rel}")])
        .current_dir(&f.work)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    out.stdout
}

/// Names, kinds, sizes and modification times of everything under `dir`.
fn listing(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                todo.push(p.clone());
            }
            out.insert(
                p,
                format!("{:?} {} {:?}", m.file_type(), m.len(), m.modified().ok()),
            );
        }
    }
    out
}

fn clone_dir(env: &TestEnv) -> PathBuf {
    env.path("data/roost/ext/note")
}

// ------------------------------------------------------------ submodules

/// A `.gitmodules` naming a file:// URL, an absolute path, a `../` path, an
/// ssh URL and git's `ext::` transport (which would run a command), with a
/// gitlink for each: roost fetches none of them and starts no transport for
/// them. Spies named `git-upload-pack` and `ssh` first on PATH log every
/// start; only the extension's own repository is ever asked for.
#[test]
fn submodules_pointing_anywhere_are_never_fetched() {
    let env = TestEnv::new();
    let other = env.simple_ext("outside/other", "other", &["other"], &[]);
    let other_commit = other.head();
    let marker = env.path("ext-transport-ran");
    let spies = env.path("spies");
    let log = env.path("spy.log");
    std::fs::create_dir_all(&spies).unwrap();
    let real_upload_pack = Command::new("git").args(["--exec-path"]).output().unwrap();
    let exec_path = String::from_utf8(real_upload_pack.stdout).unwrap();
    for (name, then) in [
        (
            "git-upload-pack",
            format!("exec '{}/git-upload-pack' \"$@\"", exec_path.trim()),
        ),
        ("ssh", "exit 255".to_string()),
    ] {
        let path = spies.join(name);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\nprintf '%s' '{name}' >>'{log}'\nprintf ' %s' \"$@\" >>'{log}'\necho >>'{log}'\n{then}\n",
                log = log.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    let f = note_repo(&env);
    let urls = [
        ("file", format!("file://{}", other.bare.display())),
        ("abs", other.bare.display().to_string()),
        ("up", "../../outside/other".to_string()),
        ("ssh", "ssh://evil.invalid/x.git".to_string()),
        ("scp", "git@evil.invalid:x.git".to_string()),
        ("ext", format!("ext::sh -c touch% {}", marker.display())),
    ];
    let mut modules = String::new();
    for (name, url) in &urls {
        modules.push_str(&format!(
            "[submodule \"{name}\"]\n\tpath = mods/{name}\n\turl = {url}\n\tupdate = !touch {}\n",
            marker.display()
        ));
        f.git(&[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{other_commit},mods/{name}"),
        ]);
    }
    f.write(".gitmodules", &modules);
    f.git(&["add", ".gitmodules", "roost-ext.json", "bin/roost-note"]);
    let head = commit_staged(&f, "submodules everywhere");
    assert_eq!(
        f.git(&["ls-tree", "HEAD", "mods/"])
            .matches("160000 commit")
            .count(),
        urls.len()
    );

    let other_before = listing(&other.bare);
    let path = format!(
        "{}:{}",
        spies.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = bounded(
        {
            let mut c = env.roost(["ext", "install", &f.repo, "--yes"]);
            c.env("PATH", &path);
            c
        },
        LIMIT,
    );
    eprintln!("install: {:?}", run.took);
    succeeded(&run.out);

    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    eprintln!("transports started:\n{calls}");
    assert!(
        !calls.is_empty(),
        "the spy saw nothing: the test proves nothing"
    );
    for call in calls.lines() {
        assert!(
            call.starts_with("git-upload-pack ") && call.ends_with("/remote/owner/roost-note"),
            "roost started a transport for something else: {call}\nall:\n{calls}"
        );
    }
    assert!(!marker.exists(), "a submodule command ran");
    assert_eq!(
        listing(&other.bare),
        other_before,
        "the outside repository was touched"
    );
    let clone = clone_dir(&env);
    for (name, _) in &urls {
        let dir = clone.join("mods").join(name);
        assert!(dir.is_dir(), "{name}");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "{name} was fetched"
        );
    }
    assert!(
        !clone.join(".git/modules").exists(),
        "submodule git dirs were made"
    );
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("state/roost/ext.lock")).unwrap()).unwrap();
    assert_eq!(lock["note"]["commit"], head);
    assert_eq!(lock["note"]["tree"], f.tree("HEAD"));
    assert_eq!(succeeded(&verify(&env).out), "note: ok\n");
}

// ------------------------------------------------------------ attributes

/// Every conversion `.gitattributes` can ask for, on every file, with the
/// filter defined (and required) in the user's git config: the files land
/// byte for byte as the commit stores them, nothing runs, verify is ok.
#[test]
fn attribute_filters_and_conversions_are_never_applied() {
    let env = TestEnv::new();
    let marker = env.path("filter-ran");
    env.write(
        "home/.gitconfig",
        &format!(
            "[filter \"x\"]\n\tsmudge = touch '{m}'; tr a-z A-Z\n\tclean = cat\n\trequired = true\n\
             [core]\n\tautocrlf = true\n\teol = crlf\n",
            m = marker.display()
        ),
    );
    let f = note_repo(&env);
    let files: &[(&str, &[u8])] = &[
        ("lf.txt", b"one\ntwo\n$Id$\n"),
        ("crlf.txt", b"one\r\ntwo\r\n$Id: old $\r\n"),
        ("utf8.txt", "h\u{e9}llo w\u{f6}rld\n".as_bytes()),
        ("bytes.bin", b"\xff\xfe\x00a\r\n\x00\x80"),
    ];
    for (rel, bytes) in files {
        std::fs::write(f.work.join(rel), bytes).unwrap();
    }
    f.write(
        ".gitattributes",
        "* filter=x\n* text eol=crlf\n* ident\n* working-tree-encoding=UTF-16\n",
    );
    for (rel, _) in files {
        add_raw(&f, rel, "100644");
    }
    add_raw(&f, ".gitattributes", "100644");
    add_raw(&f, "roost-ext.json", "100644");
    add_raw(&f, "bin/roost-note", "100755");
    commit_staged(&f, "attributes");
    // The attributes and config are live: git itself converts and filters.
    let check = env.path("git-would");
    let out = env.git_clone_as_user(&f.bare, &check);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(
        marker.exists(),
        "git ran no filter: the fixture proves nothing"
    );
    assert_ne!(
        std::fs::read(check.join("lf.txt")).unwrap(),
        files[0].1,
        "git converted nothing: the fixture proves nothing"
    );
    std::fs::remove_file(&marker).unwrap();

    let run = bounded(
        {
            let mut c = env.roost(["ext", "install", &f.repo, "--yes"]);
            c.env_remove("GIT_CONFIG_GLOBAL")
                .env_remove("GIT_CONFIG_NOSYSTEM");
            c
        },
        LIMIT,
    );
    eprintln!("install: {:?}", run.took);
    succeeded(&run.out);
    assert!(!marker.exists(), "the filter ran");
    let clone = clone_dir(&env);
    for rel in
        files
            .iter()
            .map(|(r, _)| *r)
            .chain([".gitattributes", "roost-ext.json", "bin/roost-note"])
    {
        assert_eq!(
            std::fs::read(clone.join(rel)).unwrap(),
            blob(&f, "HEAD", rel),
            "{rel} was converted on the way in"
        );
    }
    for (rel, bytes) in files {
        assert_eq!(&std::fs::read(clone.join(rel)).unwrap(), bytes, "{rel}");
    }
    let v = bounded(
        {
            let mut c = env.roost(["ext", "verify"]);
            c.env_remove("GIT_CONFIG_GLOBAL")
                .env_remove("GIT_CONFIG_NOSYSTEM");
            c
        },
        LIMIT,
    );
    assert_eq!(succeeded(&v.out), "note: ok\n");
    assert!(!marker.exists(), "the filter ran");
}

// ------------------------------------------------------------ size and shape

const HUGE: u64 = 50 * 1024 * 1024;

/// A 50 MiB file (sparse zeros with marks spread through it, so it is made
/// at once and compresses): installed and verified, each within the bound.
/// roost hashes it with bounded memory; the peak is printed.
#[test]
fn a_huge_file_is_installed_and_verified_in_bounded_time() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let path = f.work.join("huge.bin");
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut file = std::fs::File::create(&path).unwrap();
        file.set_len(HUGE).unwrap();
        for i in 0..50u64 {
            file.seek(SeekFrom::Start(i * 1024 * 1024 + i)).unwrap();
            file.write_all(format!("mark {i}\n").as_bytes()).unwrap();
        }
    }
    f.commit("huge");
    let (i, v) = installed_and_verified(&env, &f.repo, "note");
    let copied = std::fs::metadata(clone_dir(&env).join("huge.bin")).unwrap();
    assert_eq!(copied.len(), HUGE);
    eprintln!(
        "50 MiB file: install {:?} (peak {} KiB), verify {:?} (peak {} KiB)",
        i.took, i.peak_kib, v.took, v.peak_kib
    );
    // Install: gix inflates each blob whole, so the peak follows the largest
    // file (today about its size plus 18 MiB); never a multiple of it.
    assert!(
        i.peak_kib < HUGE / 1024 + 48 * 1024,
        "install held {} KiB for a 50 MiB file",
        i.peak_kib
    );
    // The samples are roost's own (not a run that ended before the first).
    assert!(
        i.peak_kib > 4096 && v.peak_kib > 4096,
        "{i:?} {v:?}",
        i = i.peak_kib,
        v = v.peak_kib
    );
    // verify streams the file through the hash: far below its size.
    assert!(
        v.peak_kib < 32 * 1024,
        "verify held {} KiB for a 50 MiB file",
        v.peak_kib
    );
}

/// 200 nested directories, each with a file.
#[test]
fn a_deep_tree_is_installed_and_verified_in_bounded_time() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let mut rel = String::from("deep");
    for i in 0..200 {
        rel.push_str(&format!("/d{i}"));
        f.write(&format!("{rel}/f"), &format!("{i}\n"));
    }
    f.commit("deep");
    let (i, v) = installed_and_verified(&env, &f.repo, "note");
    eprintln!("200 deep: install {:?}, verify {:?}", i.took, v.took);
    assert_eq!(
        std::fs::read_to_string(clone_dir(&env).join(&rel).join("f")).unwrap(),
        "199\n"
    );
}

/// A path 2,000 directories deep (6 KB, beyond PATH_MAX; git's own limit
/// is 2,048 levels), which no work tree can hold but a tree object can
/// (made with fast-import straight into the remote): refused by the depth
/// limit before anything is checked out, no crash, nothing left.
#[test]
fn a_path_deeper_than_the_system_allows_is_refused_in_bounded_time() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let head = f.commit("base");
    let deep = "dd/".repeat(2000) + "f";
    let stream = format!(
        "commit refs/heads/main\ncommitter A <a@example.invalid> 0 +0000\ndata 4\ndeep\nfrom {head}\nM 100644 inline {deep}\ndata 2\nx\n\n"
    );
    let path = f.work.join(".git/deep-stream");
    std::fs::write(&path, stream).unwrap();
    let out = Command::new("git")
        .args(["fast-import", "--quiet", "--force"])
        .current_dir(&f.bare)
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    eprintln!("2,000 deep: {:?}: {err}", run.took);
    assert!(
        err.contains("the tree is deeper than 256 directories (at dd/dd/"),
        "{err}"
    );
    assert!(err.ends_with("), the limit for one extension\n"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!env.path("data/roost").exists());
}

/// 10,000 small files in 100 directories.
#[test]
fn a_wide_tree_is_installed_and_verified_in_bounded_time() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    for d in 0..100 {
        let dir = f.work.join(format!("wide/{d:02}"));
        std::fs::create_dir_all(&dir).unwrap();
        for n in 0..100 {
            std::fs::write(dir.join(format!("{n:02}")), format!("{d} {n}\n")).unwrap();
        }
    }
    f.commit("wide");
    let (i, v) = installed_and_verified_within(&env, &f.repo, "note", WIDE_LIMIT);
    eprintln!(
        "10,000 files: install {:?} (peak {} KiB), verify {:?} (peak {} KiB)",
        i.took, i.peak_kib, v.took, v.peak_kib
    );
    assert_eq!(
        std::fs::read_to_string(clone_dir(&env).join("wide/99/99")).unwrap(),
        "99 99\n"
    );
}

/// A manifest of 1 MiB + 1 bytes that is not JSON at all is refused by its
/// size (named), not by a parse error; exactly 1 MiB of valid JSON installs.
#[test]
fn a_manifest_over_one_mib_is_refused_by_size_before_parsing() {
    const MIB: usize = 1024 * 1024;
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.write("roost-ext.json", &"{".repeat(MIB + 1));
    f.commit("huge manifest");
    let before = listing(&env.path("state"));
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "roost-ext.json is {} bytes; the limit is 1 MiB",
            MIB + 1
        )),
        "{err}"
    );
    assert!(!err.contains("JSON"), "{err}");
    assert!(!env.path("data/roost").exists());
    assert_eq!(listing(&env.path("state")), before);

    let json = r#"{"name": "note", "contract": 1, "commands": ["note"]}"#;
    f.write(
        "roost-ext.json",
        &(json.to_string() + &" ".repeat(MIB - json.len())),
    );
    assert_eq!(
        std::fs::metadata(f.work.join("roost-ext.json"))
            .unwrap()
            .len(),
        MIB as u64
    );
    f.commit("exactly 1 MiB");
    installed_and_verified(&env, &f.repo, "note");
}

// ------------------------------------------------------------ symlinks

/// The note repository plus the symlinks `links` (path, target), installed:
/// refused with `needle` in the one-line reason, nothing written.
fn link_refused(links: &[(&str, &str)], needle: &str) {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.write("sub/deeper/file", "x\n");
    for (path, target) in links {
        let at = f.work.join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        symlink(target, at).unwrap();
    }
    f.commit("links");
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("refusing "), "{err}");
    assert!(err.contains(needle), "want {needle:?} in {err}");
    assert!(!env.path("data/roost").exists());
}

#[test]
fn a_chain_of_links_ending_at_an_absolute_path_is_refused() {
    link_refused(
        &[("a", "b"), ("b", "sub/c"), ("sub/c", "/etc")],
        "points to the absolute path /etc",
    );
}

#[test]
fn a_chain_of_links_climbing_out_step_by_step_is_refused() {
    // Each link alone climbs one level and stays inside; the chain leaves.
    link_refused(
        &[
            ("sub/deeper/up", ".."),
            ("sub/up", "deeper/up/.."),
            ("out", "sub/up/../x"),
        ],
        "the symlink out points to",
    );
}

#[test]
fn a_directory_link_deep_inside_pointing_to_the_top_then_up_is_refused() {
    // Lexically `sub/deeper/top/../x` is sub/deeper/x; really it is ../x.
    link_refused(
        &[("sub/deeper/top", "../.."), ("y", "sub/deeper/top/../x")],
        "the symlink y points to",
    );
}

#[test]
fn a_directory_link_to_an_absolute_directory_is_refused() {
    link_refused(
        &[("sub/tmp", "/tmp")],
        "the symlink sub/tmp points to the absolute path /tmp",
    );
}

#[test]
fn a_loop_of_links_is_refused_in_bounded_time() {
    link_refused(
        &[("l1", "l2"), ("l2", "sub/l3"), ("sub/l3", "../l1")],
        "chain of more than 40 symlinks",
    );
}

#[test]
fn a_link_to_itself_and_a_fan_of_links_is_refused_in_bounded_time() {
    // 30 links each pointing through the previous twice: a naive resolver
    // walks 2^30 steps; roost stops at 40.
    let mut links: Vec<(String, String)> = vec![("l0".into(), "l0".into())];
    for i in 1..30 {
        links.push((format!("l{i}"), format!("l{}/../l{}", i - 1, i - 1)));
    }
    let links: Vec<(&str, &str)> = links
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    link_refused(&links, "chain of more than 40 symlinks");
}

// ------------------------------------------------------------ crafted trees

/// Commits, on top of the note repository, a tree holding its entries plus
/// the raw `git mktree` lines `extra` (which git itself would never make),
/// and pushes it.
pub(crate) fn crafted(f: &Fixture, extra: &[String]) -> String {
    f.commit("base");
    let mut lines = f.git(&["ls-tree", "HEAD"]);
    for line in extra {
        lines.push_str(line);
        lines.push('\n');
    }
    let tree = mktree(f, &lines);
    let commit = f.git(&["commit-tree", &tree, "-p", "HEAD", "-m", "crafted"]);
    f.git(&["update-ref", "refs/heads/main", commit.trim()]);
    f.push();
    commit.trim().to_string()
}

/// The tree `git mktree` makes of `lines` (its input format, which need
/// not be anything git itself would write); returns its id.
pub(crate) fn mktree(f: &Fixture, lines: &str) -> String {
    git_reading(f, &["mktree"], lines.as_bytes())
}

/// `git ARGS` in the fixture's work tree reading `input`; returns its
/// output, trimmed.
pub(crate) fn git_reading(f: &Fixture, args: &[&str], input: &[u8]) -> String {
    let path = f.work.join(".git/crafted-input");
    std::fs::write(&path, input).unwrap();
    let out = Command::new("git")
        .args(args)
        .current_dir(&f.work)
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A blob holding `content`; returns its id.
pub(crate) fn blob_of(f: &Fixture, content: &str) -> String {
    let path = f.work.join(".git/crafted-blob");
    std::fs::write(&path, content).unwrap();
    let id = f.git(&["hash-object", "-w", "--no-filters", &path.to_string_lossy()]);
    id.trim().to_string()
}

/// A tree holding the one file `name` with `content`; returns its id.
fn tree_of(f: &Fixture, name: &str, content: &str) -> String {
    let blob = blob_of(f, content);
    mktree(f, &format!("100644 blob {blob}\t{name}\n"))
}

/// A tree with both a symlink `l` to a directory outside and a directory
/// `l/` holding a file: a checkout that wrote `l/pwned` after making the
/// link would write outside. Nothing lands outside; the install is refused
/// and leaves nothing.
#[test]
fn a_tree_writing_through_its_own_symlink_touches_nothing_outside() {
    let env = TestEnv::new();
    let outside = env.path("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let f = note_repo(&env);
    let target = blob_of(&f, &outside.to_string_lossy());
    let sub = tree_of(&f, "pwned", "pwned\n");
    crafted(
        &f,
        &[
            format!("120000 blob {target}\tl"),
            format!("040000 tree {sub}\tl"),
        ],
    );
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    eprintln!("{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("checkout failed for 1 file (first: l)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "the checkout wrote outside: {err}"
    );
    assert!(!env.path("data/roost").exists());
}

/// A tree carrying its own `.git` (top level, nested, and differently
/// cased) with a config that would run a command: gix refuses to check it
/// out, naming the path; nothing runs, nothing is left.
#[test]
fn a_tree_carrying_a_git_directory_is_refused() {
    for name in [".git", ".GIT", ".Git", "sub/.git"] {
        let env = TestEnv::new();
        let marker = env.path("marker");
        let config = format!(
            "[core]\n\tfsmonitor = touch '{m}'\n\thooksPath = /tmp\n[alias]\n\tstatus = !touch '{m}'\n",
            m = marker.display()
        );
        let f = note_repo(&env);
        let git = tree_of(&f, "config", &config);
        let line = match name.split_once('/') {
            None => format!("040000 tree {git}\t{name}"),
            Some((dir, inner)) => {
                let outer = mktree(&f, &format!("040000 tree {git}\t{inner}\n"));
                format!("040000 tree {outer}\t{dir}")
            }
        };
        crafted(&f, &[line]);
        let run = install(&env, &f.repo);
        let err = refused(&run.out);
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(
            err.contains(&format!("The path \"{name}\" is invalid")),
            "{name}: {err}"
        );
        assert!(!marker.exists(), "{name}: a command ran");
        assert!(!env.path("data/roost").exists(), "{name}");
    }
}

/// `git mktree -z`: entries separated by NUL, so a name may hold a newline.
fn mktree_z(f: &Fixture, entries: &[String]) -> String {
    let mut bytes = Vec::new();
    for e in entries {
        bytes.extend_from_slice(e.as_bytes());
        bytes.push(0);
    }
    git_reading(f, &["mktree", "-z"], &bytes)
}

/// Tree entries named with newlines cannot make a refusal print a line of
/// their own (a forged success line): the error stays on one line.
#[test]
fn a_name_with_newlines_cannot_forge_a_line_in_an_error() {
    let env = TestEnv::new();
    let outside = env.path("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let f = note_repo(&env);
    f.commit("base");
    let forged = "l\ninstalled note at 1234567: roost note\nits data directory: here";
    let target = blob_of(&f, &outside.to_string_lossy());
    let sub = tree_of(&f, "pwned", "pwned\n");
    let mut entries: Vec<String> = f
        .git(&["ls-tree", "HEAD"])
        .lines()
        .map(str::to_string)
        .collect();
    entries.push(format!("120000 blob {target}\t{forged}"));
    entries.push(format!("040000 tree {sub}\t{forged}"));
    let tree = mktree_z(&f, &entries);
    let commit = f.git(&["commit-tree", &tree, "-p", "HEAD", "-m", "crafted"]);
    f.git(&["update-ref", "refs/heads/main", commit.trim()]);
    f.push();
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(run.out.stdout.is_empty(), "{}", describe(&run.out));
    assert!(err.contains("\\x0ainstalled note at 1234567"), "{err}");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    assert!(!env.path("data/roost").exists());
}

/// A submodule's directory is checked out empty; a file put inside it later
/// is named by verify as added (it is not hidden behind the gitlink), and
/// verify is ok again once it is gone.
#[test]
fn verify_names_a_file_added_inside_a_gitlink_directory() {
    let env = TestEnv::new();
    let other = env.simple_ext("outside/other", "other", &["other"], &[]);
    let f = note_repo(&env);
    f.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{},vendor/plugins", other.head()),
    ]);
    f.git(&["add", "roost-ext.json", "bin/roost-note"]);
    commit_staged(&f, "a gitlink");
    succeeded(&install(&env, &f.repo).out);
    let plugins = env.path("data/roost/ext/note/vendor/plugins");
    assert_eq!(std::fs::read_dir(&plugins).unwrap().count(), 0);
    assert!(verify(&env).out.status.success());
    std::fs::write(plugins.join("evil.sh"), "#!/bin/sh\nid\n").unwrap();
    let run = verify(&env);
    assert_eq!(run.out.status.code(), Some(1), "{}", describe(&run.out));
    let text = String::from_utf8_lossy(&run.out.stdout).into_owned();
    assert!(
        text.contains("vendor/plugins/evil.sh"),
        "{}",
        describe(&run.out)
    );
    std::fs::remove_file(plugins.join("evil.sh")).unwrap();
    assert!(verify(&env).out.status.success());
}

/// `bin -> .git/../realbin`: the link resolves inside the clone today, but
/// through its `.git`, which verify does not hash and which can be swapped
/// for a link later. Refused at install; nothing is left.
#[test]
fn a_link_through_the_clones_git_directory_is_refused() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.exec("realbin/roost-note", "#!/bin/sh\necho note\n");
    std::os::unix::fs::symlink(".git/../realbin", f.work.join("bin")).unwrap();
    f.commit("bin through .git");
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the symlink bin points to .git/../realbin, through the clone's .git, outside the extension"),
        "{err}"
    );
    assert!(!env.path("data/roost").exists() || listing(&env.path("data/roost/ext")).is_empty());
    assert!(!lock_file(&env).exists());
}

/// Each tree level lists the one below ten times: six levels of a few
/// hundred bytes stand for 1,000,000 copies of one file. Refused by the
/// file limit while the tree is read, before anything is checked out.
#[test]
fn a_fan_out_tree_is_refused_by_the_file_limit_before_checkout() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let blob = blob_of(&f, "same\n");
    let mut level = mktree(
        &f,
        &(0..10)
            .map(|i| format!("100644 blob {blob}\tf{i}\n"))
            .collect::<String>(),
    );
    for _ in 0..5 {
        level = mktree(
            &f,
            &(0..10)
                .map(|i| format!("040000 tree {level}\td{i}\n"))
                .collect::<String>(),
        );
    }
    crafted(&f, &[format!("040000 tree {level}\tfan")]);
    let run = install(&env, &f.repo);
    let err = refused(&run.out);
    assert_eq!(
        err.lines().next().unwrap().split(": ").last(),
        Some("the tree holds more than 20000 entries (files, links, submodules and directories), the limit for one extension"),
        "{err}"
    );
    assert!(run.peak_kib < 256 * 1024, "peak {} KiB", run.peak_kib);
    assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
}

/// One 65 MiB file (sparse zeros: a small remote) is over the limit for one
/// file; a 40 MiB file named seven times is over the limit for all files;
/// a 200 MiB object is refused while the pack is read. All refused before
/// checkout, naming the limit, in bounded memory.
#[test]
fn big_files_are_refused_by_size_before_checkout() {
    for (size_mib, names, want) in [
        (
            65u64,
            1usize,
            "big0 is 65.0 MiB; the limit for one file is 64.0 MiB",
        ),
        (
            200,
            1,
            "an object in the pack is larger than 128.0 MiB, the limit for one object",
        ),
        (
            40,
            7,
            "the tree's files add up to more than 256.0 MiB, the limit for one extension",
        ),
    ] {
        let env = TestEnv::new();
        let f = note_repo(&env);
        f.commit("base");
        let path = f.work.join(".git/big-blob");
        std::fs::File::create(&path)
            .unwrap()
            .set_len(size_mib << 20)
            .unwrap();
        let blob = f.git(&["hash-object", "-w", "--no-filters", &path.to_string_lossy()]);
        let entries: Vec<String> = (0..names)
            .map(|i| format!("100644 blob {}\tbig{i}", blob.trim()))
            .collect();
        crafted(&f, &entries);
        let run = install(&env, &f.repo);
        let err = refused(&run.out);
        assert!(err.trim_end().ends_with(want), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(run.peak_kib < 256 * 1024, "peak {} KiB", run.peak_kib);
        assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
    }
}

/// What a refused install left under roost's data directory (nothing).
pub(crate) fn leftovers_in(env: &TestEnv) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (path, _) in listing(&env.path("data/roost")) {
        if !path.starts_with("home") {
            out.push(path);
        }
    }
    out
}

/// A server whose pack carries an object the pinned commit does not use
/// (a stand-in upload-pack first on PATH): refused, nothing left. The same
/// server naming an object the commit does use installs, so the stand-in
/// is a working server and the refusal is about the extra object.
#[test]
fn objects_a_server_added_to_the_pack_are_refused() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let extra = Command::new("git")
        .args(["hash-object", "-w", "--stdin"])
        .current_dir(&f.bare)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(b"payload the commit never names\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let extra = String::from_utf8(extra.stdout).unwrap().trim().to_string();
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let used = f
        .git(&["rev-parse", "HEAD:roost-ext.json"])
        .trim()
        .to_string();
    let run_with = |object: &str| {
        let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
        cmd.env("PATH", &path).env("EXTRA_OBJECT", object);
        bounded(cmd, LIMIT)
    };
    let run = run_with(&extra);
    let err = refused(&run.out);
    let want = format!(
        "roost ext install: cannot fetch {head} from file://{bare}: the server sent 1 object that commit {head} does not use; refusing them\n",
        head = f.head(),
        bare = f.bare.display(),
    );
    assert_eq!(err, want);
    assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
    assert!(!lock_file(&env).exists());
    succeeded(&run_with(&used).out);
}

/// A few hundred bytes of pack whose one delta declares a 12 GiB result:
/// refused while the pack is read, without reserving that memory, naming
/// the limit; nothing left.
#[test]
fn a_delta_declaring_a_huge_result_is_refused_in_bounded_memory() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", path).env("DELTA_BOMB", "1");
    let run = bounded(cmd, LIMIT);
    let err = refused(&run.out);
    assert!(
        err.ends_with(
            ": an object in the pack is larger than 128.0 MiB, the limit for one object\n"
        ),
        "{err}"
    );
    assert!(run.peak_kib < 256 * 1024, "peak {} KiB", run.peak_kib);
    assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
}

/// A PATH whose `git-upload-pack` is tests/fixtures/hostile-upload-pack;
/// `None` (the test skips) where python3, which runs it, is missing.
pub(crate) fn hostile_server_path(env: &TestEnv) -> Option<String> {
    if !on_path("python3") {
        skip_without("python3 (the stand-in server) is not installed");
        return None;
    }
    let bin = env.path("stand-in");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/hostile-upload-pack"
        ),
        bin.join("git-upload-pack"),
    )
    .unwrap();
    Some(format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap()
    ))
}
