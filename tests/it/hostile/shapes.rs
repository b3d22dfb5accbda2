//! Hostile repositories by shape: submodules pointing anywhere, attribute
//! filters and conversions, a huge file, deep and wide trees, an oversized
//! manifest.

use crate::common::*;
use crate::hostile::{
    blob, commit_staged, install, install_within, listing, note_repo, verify, LIMIT,
};

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The 10,000-file install, which spends most of its time in gix's debug
/// build checkout (4.7 to 7.2 s measured with the other tests running).
const WIDE_LIMIT: Duration = Duration::from_secs(40);

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

fn clone_dir(env: &TestEnv) -> PathBuf {
    env.path("data/roost/ext/note")
}

const HUGE: u64 = 50 * 1024 * 1024;

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
