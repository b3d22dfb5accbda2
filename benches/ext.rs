//! The extension-manager benchmark: `roost ext verify`, `roost ext install`
//! and completion, each measured side by side with its peer in one run,
//! interleaved round by round so that drift on the machine hits both alike.
//!
//!     cargo bench --bench ext [-- ROUNDS]      (default 30 rounds)
//!
//! The sandbox is made in $TMPDIR (default /tmp); `TMPDIR=/dev/shm` measures
//! the programs on tmpfs, without the disk and its file-system state.
//!
//! Cases (median wall time of spawn → exit, as seen by this process):
//!   (v) roost ext verify NAME, an installed extension of 5,000 files
//!   (V) git hashing the same tree: `git add -A -f .` into a throwaway index
//!       (deleted before every round, so everything is rehashed), then
//!       `git write-tree` (both timed, as one)
//!   (i) roost ext install OWNER/REPO --yes from file://, 500 files, into
//!       fresh data and state directories every round
//!   (I) git clone --quiet file://… of the same repository into a fresh
//!       directory every round.
//!   (h) roost ext install as (i), 19,900 files: with their 50 directories,
//!       the manifest and bin/, as near the 20,000 entries a tree may hold
//!       as this layout goes (20,000 files would be refused)
//!   (H) git clone as (I), the same repository as (h); ROUNDS / 10 rounds
//!       (at least 3) for this pair
//!       Nothing of either is deleted until the end: on ext4, creating
//!       files where many were deleted seconds before is several times
//!       slower (the allocator skips recently freed inodes), which would
//!       measure the file system's state rather than the two programs.
//!   (c) roost __complete bash 1 roost '' with 1,000 installed commands
//!   (C) roost __complete bash 1 roost sp with an empty index (the baseline);
//!       10 x ROUNDS rounds for this pair
//!   (d) roost __complete bash 3 roost cmd0999 --tag '' with 1,000 installed
//!       commands that each declared completion data (10 lines each in
//!       ext.complete)
//!   (D) the same line with the same 1,000 commands declaring nothing (as
//!       before completion data: nothing offered); 10 x ROUNDS rounds
//! Before timing, the tree id git writes is checked against the `tree` that
//! ext.lock records. Everything runs in a throwaway sandbox (HOME and XDG
//! dirs, ROOST_EXT_GIT_BASE=file://…, no git config from the user or system).

mod common;
use common::*;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

type Env = Vec<(String, OsString)>;

/// Files in the largest repository installed: with its 50 directories, the
/// manifest, bin/ and its one program, 19,953 entries, just under the
/// 20,000 a tree may hold.
const HUGE: usize = 19_900;

/// One measured case: `run` does its own untimed preparation and cleanup
/// and returns the time of the timed part only.
struct Case<'a> {
    label: &'static str,
    what: &'static str,
    run: Box<dyn FnMut() -> Duration + 'a>,
    times: Vec<Duration>,
}

fn main() {
    let args = args();
    let rounds: usize = number(&args, 0, 30);
    let roost = roost_bin();
    let roost = roost.as_str();
    // In $TMPDIR (default /tmp): TMPDIR=/dev/shm takes the disk out.
    let sandbox = tempfile::Builder::new()
        .prefix("roost-bench-ext-")
        .tempdir()
        .unwrap();
    let sb = sandbox.path();
    let base = setup(sb);

    // The repositories: big (5,000 files, verified), mid (500, installed)
    // and huge (19,900, installed).
    eprintln!("building the fixture repositories...");
    make_repo(sb, &base, "bench/big", "big", "x", 5_000);
    make_repo(sb, &base, "bench/mid", "mid", "y", 500);
    make_repo(sb, &base, "bench/huge", "huge", "z", HUGE);
    let out = run(&base, &[roost, "ext", "install", "bench/big", "--yes"]);
    assert!(out.status.success(), "install big: {}", text(&out.stderr));
    let clone = sb.join("data/roost/ext/big");
    let git_dir = clone.join(".git");
    let index_file = sb.join("throwaway.index");

    // git's hash of the installed files equals the tree ext.lock records.
    let git_tree = git_write_tree(&base, &git_dir, &clone, &index_file);
    let lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sb.join("state/roost/ext.lock")).unwrap()).unwrap();
    let recorded = find_tree(&lock, "big").expect("ext.lock records no tree for big");
    assert_eq!(
        git_tree, recorded,
        "git write-tree and ext.lock disagree on the tree"
    );
    let out = run(&base, &[roost, "ext", "verify", "big"]);
    assert!(out.status.success(), "verify: {}", text(&out.stdout));
    eprintln!("tree ids agree: {git_tree}");

    // 1. verify vs git add + write-tree.
    let mut verify = vec![
        Case {
            label: "v",
            what: "roost ext verify, 5,000 files",
            run: Box::new(|| {
                let mut cmd = command(&base, &[roost, "ext", "verify", "big"]);
                let start = Instant::now();
                let status = cmd.status().unwrap();
                let t = start.elapsed();
                assert!(status.success());
                t
            }),
            times: Vec::new(),
        },
        Case {
            label: "V",
            what: "git add -A + write-tree, same files",
            run: Box::new(|| {
                let _ = std::fs::remove_file(&index_file);
                let start = Instant::now();
                git_write_tree(&base, &git_dir, &clone, &index_file);
                start.elapsed()
            }),
            times: Vec::new(),
        },
    ];
    eprintln!("measuring verify...");
    measure(&mut verify, rounds, 2);

    // 2. install vs git clone.
    let url = format!("file://{}", sb.join("remote/bench/mid").display());
    let fresh = std::cell::Cell::new(0);
    let next = || {
        fresh.set(fresh.get() + 1);
        sb.join(format!("installs/{}", fresh.get()))
    };
    let install_case = |repo: &'static str| {
        let base = &base;
        let next = &next;
        move || {
            let dir = next();
            let mut cmd = command(base, &[roost, "ext", "install", repo, "--yes"]);
            cmd.env("XDG_DATA_HOME", dir.join("data"))
                .env("XDG_STATE_HOME", dir.join("state"));
            let start = Instant::now();
            let status = cmd.status().unwrap();
            let t = start.elapsed();
            assert!(status.success(), "roost ext install {repo} failed");
            t
        }
    };
    let clone_case = |url: String| {
        let base = &base;
        let next = &next;
        move || {
            let dest = next().join("clone");
            let dest = dest.to_str().unwrap();
            let mut cmd = command(base, &["git", "clone", "--quiet", &url, dest]);
            let start = Instant::now();
            let status = cmd.status().unwrap();
            let t = start.elapsed();
            assert!(status.success(), "git clone {url} failed");
            t
        }
    };
    let mut install = vec![
        Case {
            label: "i",
            what: "roost ext install, 500 files, file://",
            run: Box::new(install_case("bench/mid")),
            times: Vec::new(),
        },
        Case {
            label: "I",
            what: "git clone, same repository, file://",
            run: Box::new(clone_case(url)),
            times: Vec::new(),
        },
    ];
    let install_rounds = rounds;
    eprintln!("measuring install...");
    measure(&mut install, install_rounds, 2);
    let huge_url = format!("file://{}", sb.join("remote/bench/huge").display());
    let mut huge = vec![
        Case {
            label: "h",
            what: "roost ext install, 19,900 files, file://",
            run: Box::new(install_case("bench/huge")),
            times: Vec::new(),
        },
        Case {
            label: "H",
            what: "git clone, same repository, file://",
            run: Box::new(clone_case(huge_url)),
            times: Vec::new(),
        },
    ];
    let huge_rounds = (rounds / 10).max(3);
    eprintln!("measuring install of {HUGE} files...");
    measure(&mut huge, huge_rounds, 1);

    // 3. completion: 1,000 commands vs an empty index.
    let exe = sb.join("data/roost/ext/many/bin/roost-many");
    write(&exe, "#!/bin/sh\n:\n");
    chmod_x(&exe);
    let many_state = sb.join("many-state");
    let mut lines = String::new();
    for i in 0..1_000 {
        lines.push_str(&format!("cmd{i:04}\tmany\t{}\t\n", exe.display()));
    }
    write(&many_state.join("roost/ext.index"), &lines);
    let empty_state = sb.join("empty-state");
    write(&empty_state.join("roost/ext.index"), "");
    let base_ref = &base;
    let complete = |state: &Path, word: &'static str| {
        let state = state.to_path_buf();
        let base = base_ref;
        move || {
            let mut cmd = command(base, &[roost, "__complete", "bash", "1", "roost", word]);
            cmd.env("XDG_STATE_HOME", &state);
            let start = Instant::now();
            let status = cmd.status().unwrap();
            let t = start.elapsed();
            assert!(status.success());
            t
        }
    };
    // Sanity: the 1,000 commands are offered, and the baseline offers spawn.
    let mut probe = command(&base, &[roost, "__complete", "bash", "1", "roost", ""]);
    probe
        .env("XDG_STATE_HOME", &many_state)
        .stdout(Stdio::piped());
    let offered = text(&probe.output().unwrap().stdout);
    assert!(
        offered.lines().filter(|l| l.starts_with("cmd")).count() == 1_000,
        "the 1,000 commands are not all offered"
    );
    let mut probe = command(&base, &[roost, "__complete", "bash", "1", "roost", "sp"]);
    probe
        .env("XDG_STATE_HOME", &empty_state)
        .stdout(Stdio::piped());
    let offered = text(&probe.output().unwrap().stdout);
    assert!(
        offered.contains("spawn"),
        "sp does not complete: {offered:?}"
    );
    let mut completion = vec![
        Case {
            label: "c",
            what: "roost __complete '', 1,000 commands",
            run: Box::new(complete(&many_state, "")),
            times: Vec::new(),
        },
        Case {
            label: "C",
            what: "roost __complete sp, empty index",
            run: Box::new(complete(&empty_state, "sp")),
            times: Vec::new(),
        },
    ];
    let completion_rounds = rounds * 10;
    eprintln!("measuring completion...");
    measure(&mut completion, completion_rounds, 20);

    // 4. an extension command's declared arguments: 1,000 commands that
    // each declared their grammar vs the same commands declaring nothing.
    let declared_state = sb.join("declared-state");
    write(&declared_state.join("roost/ext.index"), &lines);
    let mut declared = String::new();
    for i in 0..1_000 {
        let c = format!("cmd{i:04}");
        for sub in ["add", "list", "show", "remove"] {
            declared.push_str(&format!("{c}\t\tsub\t{sub}\t\n"));
            declared.push_str(&format!("{c}\t{sub}\targ\t0\tfile\n"));
        }
        declared.push_str(&format!("{c}\t\topt\t--tag\tone-of todo done later\n"));
        declared.push_str(&format!("{c}\t\topt\t--all\tflag\n"));
    }
    write(&declared_state.join("roost/ext.complete"), &declared);
    let args = |state: &Path| {
        let state = state.to_path_buf();
        let base = base_ref;
        move || {
            let mut cmd = command(
                base,
                &[
                    roost,
                    "__complete",
                    "bash",
                    "3",
                    "roost",
                    "cmd0999",
                    "--tag",
                    "",
                ],
            );
            cmd.env("XDG_STATE_HOME", &state);
            let start = Instant::now();
            let status = cmd.status().unwrap();
            let t = start.elapsed();
            assert!(status.success());
            t
        }
    };
    let mut probe = command(
        &base,
        &[
            roost,
            "__complete",
            "bash",
            "3",
            "roost",
            "cmd0999",
            "--tag",
            "",
        ],
    );
    probe
        .env("XDG_STATE_HOME", &declared_state)
        .stdout(Stdio::piped());
    let offered = text(&probe.output().unwrap().stdout);
    assert_eq!(offered, "todo\ndone\nlater\n", "--tag does not complete");
    let mut arguments = vec![
        Case {
            label: "d",
            what: "roost __complete cmd0999 --tag '', 1,000 declared",
            run: Box::new(args(&declared_state)),
            times: Vec::new(),
        },
        Case {
            label: "D",
            what: "roost __complete cmd0999 --tag '', none declared",
            run: Box::new(args(&many_state)),
            times: Vec::new(),
        },
    ];
    eprintln!("measuring declared arguments...");
    measure(&mut arguments, completion_rounds, 20);

    println!(
        "\nroost {}, {} cores, medians of interleaved rounds ({rounds} verify, \
         {install_rounds} install, {huge_rounds} install of {HUGE} files, \
         {completion_rounds} completion)\n",
        env!("CARGO_PKG_VERSION"),
        cores()
    );
    println!("| case | median | ratio to its peer |");
    println!("|---|---|---|");
    for pair in [&verify, &install, &huge, &completion, &arguments] {
        let (a, b) = (median(&pair[0]), median(&pair[1]));
        println!(
            "| ({}) {} | {:.2} ms | {:.2}x ({}) |",
            pair[0].label,
            pair[0].what,
            a,
            a / b,
            pair[1].label
        );
        println!(
            "| ({}) {} | {:.2} ms | {:.2}x ({}) |",
            pair[1].label,
            pair[1].what,
            b,
            b / a,
            pair[0].label
        );
    }
}

fn median(c: &Case) -> f64 {
    let mut t = c.times.clone();
    t.sort();
    t[t.len() / 2].as_secs_f64() * 1000.0
}

/// `rounds` timed rounds after `warmup` untimed ones, every case once a round.
fn measure(cases: &mut [Case], rounds: usize, warmup: usize) {
    for round in 0..rounds + warmup {
        for c in cases.iter_mut() {
            let t = (c.run)();
            if round >= warmup {
                c.times.push(t);
            }
        }
    }
}

/// The sandbox's environment: HOME, XDG dirs, a socket path that no server
/// listens on, the file:// base and no git config from outside.
fn setup(sb: &Path) -> Env {
    let mut env = sandbox_env(sb);
    let s = |v: &str| OsString::from(v);
    env.push(("LANG".into(), s("C.UTF-8")));
    env.push(("GIT_CONFIG_NOSYSTEM".into(), s("1")));
    env.push(("GIT_CONFIG_GLOBAL".into(), s("/dev/null")));
    env.push(("GIT_TERMINAL_PROMPT".into(), s("0")));
    env.push((
        "ROOST_EXT_GIT_BASE".into(),
        format!("file://{}/", sb.join("remote").display()).into(),
    ));
    for (k, v) in [
        ("GIT_AUTHOR_NAME", "Bench"),
        ("GIT_AUTHOR_EMAIL", "bench@example.invalid"),
        ("GIT_COMMITTER_NAME", "Bench"),
        ("GIT_COMMITTER_EMAIL", "bench@example.invalid"),
    ] {
        env.push((k.into(), s(v)));
    }
    env
}

/// OWNER/REPO under `remote/` (bare), built in `authors/` with the git CLI:
/// `files` small files across 50 directories, a manifest claiming `command`
/// and its executable `bin/roost-COMMAND`, committed and pushed.
fn make_repo(sb: &Path, base: &Env, repo: &str, name: &str, command: &str, files: usize) {
    let bare = sb.join("remote").join(repo);
    let work = sb.join("authors").join(repo);
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    for i in 0..files {
        write(
            &work.join(format!("d{:02}/f{i:05}.txt", i % 50)),
            &format!("file {i}\n{}\n", "x".repeat(i % 200)),
        );
    }
    let manifest =
        serde_json::json!({"name": name, "contract": 1, "commands": [command], "needs": []});
    write(
        &work.join("roost-ext.json"),
        &serde_json::to_string_pretty(&manifest).unwrap(),
    );
    let exe = work.join(format!("bin/roost-{command}"));
    write(&exe, "#!/bin/sh\necho hi\n");
    chmod_x(&exe);
    let bare_s = bare.to_str().unwrap();
    git_in(base, &bare, &["init", "-q", "--bare", "-b", "main"]);
    git_in(base, &work, &["init", "-q", "-b", "main"]);
    git_in(base, &work, &["add", "-A"]);
    git_in(base, &work, &["commit", "-q", "-m", "bench"]);
    git_in(base, &work, &["push", "-q", bare_s, "HEAD:refs/heads/main"]);
}

fn git_in(base: &Env, dir: &Path, args: &[&str]) -> String {
    let mut argv = vec!["git"];
    argv.extend_from_slice(args);
    let mut cmd = command(base, &argv);
    cmd.current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// `git add -A -f .` into the index `index`, then `git write-tree`: the tree
/// id of the work tree as git hashes it.
fn git_write_tree(base: &Env, git_dir: &Path, work: &Path, index: &Path) -> String {
    let gd = format!("--git-dir={}", git_dir.display());
    let wt = format!("--work-tree={}", work.display());
    let mut add = command(base, &["git", &gd, &wt, "add", "-A", "-f", "."]);
    add.current_dir(work).env("GIT_INDEX_FILE", index);
    assert!(add.status().unwrap().success(), "git add failed");
    let mut write_tree = command(base, &["git", &gd, "write-tree"]);
    write_tree
        .current_dir(work)
        .env("GIT_INDEX_FILE", index)
        .stdout(Stdio::piped());
    let out = write_tree.output().unwrap();
    assert!(out.status.success(), "git write-tree failed");
    text(&out.stdout).trim().to_string()
}

/// The `tree` recorded for extension `name` anywhere in ext.lock.
fn find_tree(v: &serde_json::Value, name: &str) -> Option<String> {
    match v {
        serde_json::Value::Object(map) => {
            if let Some(tree) = map
                .get(name)
                .and_then(|e| e.get("tree"))
                .and_then(|t| t.as_str())
            {
                return Some(tree.to_string());
            }
            map.values().find_map(|v| find_tree(v, name))
        }
        _ => None,
    }
}

/// ARGV in the sandbox's environment only, stdin closed, output discarded.
fn command(base: &Env, argv: &[&str]) -> Command {
    let mut cmd = Command::new(argv[0]);
    cmd.args(&argv[1..])
        .env_clear()
        .envs(base.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

fn run(base: &Env, argv: &[&str]) -> Output {
    let mut cmd = command(base, argv);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
