//! Crafted trees and packs: writing through a symlink, a `.git` directory,
//! names with newlines, gitlinks, fan-outs, big files, extra objects and
//! huge deltas.

use crate::common::*;
use crate::hostile::{
    blob_of, commit_staged, crafted, git_reading, hostile_server_path, install, leftovers_in,
    listing, mktree, note_repo, verify, LIMIT,
};

use std::process::Command;

/// A tree holding the one file `name` with `content`; returns its id.
fn tree_of(f: &Fixture, name: &str, content: &str) -> String {
    let blob = blob_of(f, content);
    mktree(f, &format!("100644 blob {blob}\t{name}\n"))
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
    assert_eq!(exit_of(&run.out), Exit::Failed, "{}", describe(&run.out));
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

/// A few hundred bytes of pack whose one delta declares a 200 MiB result,
/// then one declaring 12 GiB: each refused while the pack is read, without
/// reserving that memory, naming the limit it meets (one object's, then
/// what the whole pack may unpack to); nothing left.
#[test]
fn a_delta_declaring_a_huge_result_is_refused_in_bounded_memory() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    for (mib, limit) in [
        (
            "200",
            "an object in the pack is larger than 128.0 MiB, the limit for one object",
        ),
        (
            "12288",
            "the pack's objects unpack to more than 1.0 GiB, the limit for one extension",
        ),
    ] {
        let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
        cmd.env("PATH", &path).env("DELTA_BOMB", mib);
        let run = bounded(cmd, LIMIT);
        let err = refused(&run.out);
        assert!(err.ends_with(&format!(": {limit}\n")), "{mib} MiB: {err}");
        assert!(run.peak_kib < 256 * 1024, "peak {} KiB", run.peak_kib);
        assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
    }
}
