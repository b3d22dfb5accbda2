//! Bounds a remote meets whatever it sends, beyond those of tests/it/hostile/:
//! gitlinks and empty directories count against the tree limit, a pack
//! holds only objects the pinned commit's closure needs (present ones,
//! not ids gix answers without an object) and unpacks to a bounded size,
//! and a pin is reachable only from the repository's own branches, tags
//! and HEAD.

use crate::common::*;
use crate::hostile::{
    crafted, hostile_server_path, install, leftovers_in, mktree, note_repo, LIMIT,
};
use std::time::Duration;

/// The tree limit's refusal, as the last part of the first line says it.
const ENTRY_LIMIT: &str =
    "the tree holds more than 20000 entries (files, links, submodules and directories), the limit for one extension";

/// A tree whose every level lists the one below ten times, `levels` deep,
/// above ten copies of the entry `leaf` (a `git mktree` line with `{i}`
/// for the copy's number), committed as `fan` and pushed.
fn fan_out(f: &Fixture, leaf: &str, levels: usize) -> String {
    f.commit("base");
    let mut level = mktree(
        f,
        &(0..10)
            .map(|i| leaf.replace("{i}", &i.to_string()) + "\n")
            .collect::<String>(),
    );
    for _ in 0..levels {
        level = mktree(
            f,
            &(0..10)
                .map(|i| format!("040000 tree {level}\td{i}\n"))
                .collect::<String>(),
        );
    }
    crafted(f, &[format!("040000 tree {level}\tfan")])
}

/// Refused by the entry limit on one line, quickly, in little memory,
/// leaving nothing.
fn refused_by_the_entry_limit(env: &TestEnv, run: &Run) {
    let err = refused(&run.out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(
        err.trim_end().split(": ").last(),
        Some(ENTRY_LIMIT),
        "{err}"
    );
    assert!(run.took < Duration::from_secs(10), "took {:?}", run.took);
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    assert!(!env.path("data/roost").exists() || leftovers_in(env).is_empty());
    assert!(!lock_file(env).exists());
}

/// 100,000 gitlinks (a few KB of remote): each is an entry of the tree.
#[test]
fn a_fan_out_of_gitlinks_is_refused_by_the_entry_limit() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let base = f.commit("base");
    fan_out(&f, &format!("160000 commit {base}\tm{{i}}"), 4);
    let run = install(&env, &f.repo);
    refused_by_the_entry_limit(&env, &run);
}

/// 10,000,000 empty directories: no file, no gitlink, seven levels deep.
/// Each directory is an entry, and the walk stops at the limit.
#[test]
fn a_fan_out_ending_in_empty_trees_is_refused_by_the_entry_limit() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let empty = mktree(&f, "");
    fan_out(&f, &format!("040000 tree {empty}\te{{i}}"), 6);
    let run = install(&env, &f.repo);
    refused_by_the_entry_limit(&env, &run);
}

/// A blob holding `content` written straight into the bare remote (no
/// commit names it); returns its id.
fn loose_in_remote(f: &Fixture, content: &[u8]) -> String {
    let path = f.bare.join("payload-input");
    std::fs::write(&path, content).unwrap();
    let out = std::process::Command::new("git")
        .args(["hash-object", "-w", "--no-filters", "payload-input"])
        .current_dir(&f.bare)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    std::fs::remove_file(&path).unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The empty tree's id, which gix answers without the object.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// A history that begins with an empty commit, served whole by a stand-in
/// that leaves the empty tree out and puts a payload blob in its place:
/// the pack holds as many objects as the commit's walk meets ids, but one
/// of them is not the commit's. Refused, nothing left. The same server
/// leaving the empty tree out without adding anything installs (the
/// stand-in works, and an object the pack lacks is no reason to refuse).
#[test]
fn a_payload_in_place_of_the_empty_tree_is_refused() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-note");
    f.commit("empty start");
    assert_eq!(f.tree("HEAD"), EMPTY_TREE);
    f.manifest("note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
    let head = f.commit("note");
    let payload = loose_in_remote(&f, b"payload the commit never names\n");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let run_with = |extra: &str| {
        let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
        cmd.env("PATH", &path)
            .env("HISTORY", "1")
            .env("OMIT_OBJECT", EMPTY_TREE)
            .env("EXTRA_OBJECT", extra);
        bounded(cmd, LIMIT)
    };
    let run = run_with(&payload);
    let err = refused(&run.out);
    assert_eq!(
        err,
        format!(
            "roost ext install: cannot fetch {head} from file://{bare}: the server sent 1 object that commit {head} does not use; refusing them\n",
            bare = f.bare.display(),
        )
    );
    assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
    assert!(!lock_file(&env).exists());
    succeeded(&run_with("").out);
    let v = bounded(env.roost(["ext", "verify"]), LIMIT);
    assert_eq!(succeeded(&v.out), "note: ok\n");
}

// ------------------------------------------------------------------ pins

/// The note repository with `main` at one commit, and two more commits on
/// top of it pushed only as `refs/pull/1/head` (as a forge advertises a
/// pull request anyone may open): returns (main, parent, tip).
fn pull_request(env: &TestEnv) -> (Fixture, String, String, String) {
    let f = note_repo(env);
    let main = f.commit("main");
    f.git(&["checkout", "-q", "-b", "pr"]);
    f.exec("bin/roost-note", "#!/bin/sh\necho from a pull request\n");
    f.git(&["commit", "-q", "-am", "pr one"]);
    let parent = f.head();
    f.write("README", "pr two\n");
    f.git(&["add", "-A"]);
    f.git(&["commit", "-q", "-m", "pr two"]);
    let tip = f.head();
    f.git(&["push", "-q", "origin", "pr:refs/pull/1/head"]);
    f.git(&["checkout", "-q", "main"]);
    f.git(&["branch", "-q", "-D", "pr"]);
    let advertised = f.git(&["ls-remote", &f.bare.to_string_lossy()]);
    assert!(
        advertised.contains(&format!("{tip}\trefs/pull/1/head")),
        "{advertised}"
    );
    (f, main, parent, tip)
}

fn not_published(url: &str, verb: &str, reference: &str, commit: &str) -> String {
    format!(
        "roost ext {verb} cannot resolve {reference} at {url}: commit {commit} is on no branch or tag of this repository; \
         refusing a commit the repository does not publish (a fork's commit can be served under its parent's name)\n"
    )
}

/// A commit reachable only from `refs/pull/1/head`, as its tip or one
/// parent below, is refused at install, and so is the name itself; nothing
/// is written. main's commit installs from the same repository.
#[test]
fn a_pin_reachable_only_from_a_pull_request_ref_is_refused_at_install() {
    let env = TestEnv::new();
    let (f, main, parent, tip) = pull_request(&env);
    let url = format!("file://{}", f.bare.display());
    for commit in [&tip, &parent] {
        let out = env.run(["ext", "install", &f.repo, "--ref", commit, "--yes"]);
        let err = refused(&out);
        let first = err.lines().next().unwrap().to_string() + "\n";
        assert_eq!(first, not_published(&url, "install:", commit, commit));
        assert!(!lock_file(&env).exists());
        assert!(!env.path("data/roost/ext/note").exists());
    }
    let out = env.run(["ext", "install", &f.repo, "--ref", "pull/1/head", "--yes"]);
    let err = refused(&out);
    assert!(
        err.starts_with(&format!(
            "roost ext install: cannot resolve pull/1/head at {url}: it has no branch or tag named 'pull/1/head'\n"
        )),
        "{err}"
    );
    assert!(!lock_file(&env).exists());
    succeeded(&env.run(["ext", "install", &f.repo, "--ref", &main, "--yes"]));
}

/// An ext.lock entry whose ref was changed to a commit only a pull
/// request reaches: update refuses it and changes nothing.
#[test]
fn a_pin_reachable_only_from_a_pull_request_ref_is_refused_at_update() {
    let env = TestEnv::new();
    let (f, _, parent, tip) = pull_request(&env);
    let url = format!("file://{}", f.bare.display());
    succeeded(&env.run(["ext", "install", &f.repo, "--yes"]));
    let clean_lock = std::fs::read_to_string(lock_file(&env)).unwrap();
    for commit in [&tip, &parent] {
        let mut lock: serde_json::Value = serde_json::from_str(&clean_lock).unwrap();
        lock["note"]["ref"] = serde_json::Value::String(commit.clone());
        let edited = serde_json::to_string_pretty(&lock).unwrap();
        std::fs::write(lock_file(&env), &edited).unwrap();
        let out = env.run(["ext", "update", "note", "--yes"]);
        let err = refused(&out);
        let first = err.lines().next().unwrap().to_string() + "\n";
        assert_eq!(first, not_published(&url, "update: note:", commit, commit));
        assert_eq!(std::fs::read_to_string(lock_file(&env)).unwrap(), edited);
        let note = env.run(["note"]);
        assert_eq!(succeeded(&note), "note\n");
    }
}

// -------------------------------------------------------- the ref listing

/// A stand-in whose ref listing floods 300,000 tags (about 20 MiB): install
/// and outdated refuse it once it passes the bound, naming it, in bounded
/// memory and time, leaving nothing.
#[test]
fn a_flooding_ref_listing_is_refused_past_its_bound() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    succeeded(&env.run(["ext", "install", &f.repo, "--yes"]));
    let installed = std::fs::read(lock_file(&env)).unwrap();
    let g = env.simple_ext("owner/roost-mark", "mark", &["mark"], &[]);
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let want = "the server's ref listing passed 8.0 MiB, the limit for one repository";
    for args in [
        vec!["ext", "install", &g.repo, "--yes"],
        vec!["ext", "outdated"],
    ] {
        let mut cmd = env.roost(&args);
        cmd.env("PATH", &path).env("REF_FLOOD", "300000");
        let run = bounded(cmd, LIMIT);
        let err = refused(&run.out);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(
            run.peak_kib < 64 * 1024,
            "{args:?}: peak {} KiB",
            run.peak_kib
        );
        assert!(
            run.took < Duration::from_secs(15),
            "{args:?}: took {:?}",
            run.took
        );
        assert_eq!(std::fs::read(lock_file(&env)).unwrap(), installed);
        assert!(!env.path("data/roost/ext/mark").exists());
    }
}

/// A stand-in whose capability advertisement floods 3,000 lines of 64 KiB
/// (about 190 MiB) before any ref: refused once it passes the bound on a
/// greeting, in bounded memory and time, leaving nothing.
#[test]
fn a_flooding_capability_advertisement_is_refused_past_its_bound() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", &path).env("CAPS_FLOOD", "3000");
    refused_by_the_greeting_limit(&env, cmd, "capability flood");
}

/// `cmd`, an install from a server whose greeting floods, refused by the
/// bound on a greeting in bounded memory and time, leaving nothing.
fn refused_by_the_greeting_limit(env: &TestEnv, cmd: std::process::Command, what: &str) {
    let run = bounded(cmd, LIMIT);
    eprintln!("{what}: {:?}, peak {} KiB", run.took, run.peak_kib);
    let err = refused(&run.out);
    assert!(
        err.lines()
            .next()
            .unwrap()
            .ends_with(": the server's greeting passed 1.0 MiB, the limit for one; giving up"),
        "{err}"
    );
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    assert!(run.took < Duration::from_secs(10), "took {:?}", run.took);
    assert!(!lock_file(env).exists());
    assert!(!env.path("data/roost").exists() || leftovers_in(env).is_empty());
    assert!(fetch_dirs(env).is_empty());
}

// ------------------------------------------------- a remote that stalls

/// `.fetch-*` directories under roost's data (an install in flight).
fn fetch_dirs(env: &TestEnv) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(env.path("data/roost/ext"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .starts_with(".fetch-")
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A stand-in that says nothing, one that stops after its capabilities,
/// and one that stops half-way through the pack: each install ends once
/// the stated stall limit has passed (2 s here), with a line that says so,
/// and leaves nothing.
#[test]
fn a_remote_that_stops_answering_is_given_up_after_the_stall_limit() {
    for stall in ["greeting", "listing", "pack"] {
        let env = TestEnv::new();
        let f = note_repo(&env);
        f.commit("base");
        let Some(path) = hostile_server_path(&env) else {
            return;
        };
        let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
        cmd.env("PATH", &path)
            .env("STALL", stall)
            .env("ROOST_EXT_STALL_SECS", "2");
        let run = bounded(cmd, LIMIT);
        let err = refused(&run.out);
        assert!(
            err.lines().next().unwrap().ends_with(
                ": the remote sent nothing for 2 s, the limit for a remote that stalls; giving up"
            ),
            "{stall}: {err}"
        );
        assert!(
            run.took >= Duration::from_secs(2),
            "{stall}: {:?}",
            run.took
        );
        assert!(run.took < Duration::from_secs(8), "{stall}: {:?}", run.took);
        assert!(fetch_dirs(&env).is_empty(), "{stall}");
        assert!(!lock_file(&env).exists());
    }
}

/// `outdated` over two sources, the first of which stalls: it is given up
/// on after the stall limit, and the second is still asked, its answer
/// untouched by what ended the first conversation.
#[test]
fn a_stalled_source_does_not_end_the_next_conversation() {
    let env = TestEnv::new();
    let mark = env.simple_ext("owner/roost-mark", "mark", &["mark"], &[]);
    succeeded(&env.run(["ext", "install", &mark.repo, "--yes"]));
    let note = note_repo(&env);
    let head = note.commit("base");
    succeeded(&env.run(["ext", "install", &note.repo, "--yes"]));
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "outdated"]);
    cmd.env("PATH", &path)
        .env("STALL", "listing")
        .env("STALL_ONLY", "roost-mark")
        .env("ROOST_EXT_STALL_SECS", "2");
    let run = bounded(cmd, LIMIT);
    let out = String::from_utf8_lossy(&run.out.stdout).to_string();
    let err = String::from_utf8_lossy(&run.out.stderr).to_string();
    assert!(
        err.contains("the remote sent nothing for 2 s, the limit for a remote that stalls"),
        "{err}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("note") && l.contains(&head[..7]) && l.contains("unchanged")),
        "{out}\n{err}"
    );
}

/// A stand-in that sends its pack a byte every 0.2 s: never silent for
/// the stall limit, it is given up on once the conversation has lasted the
/// limit for one (3 s here), with a line that says so, leaving nothing.
#[test]
fn a_remote_that_trickles_is_given_up_after_the_conversation_limit() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", &path)
        .env("STALL", "trickle")
        .env("ROOST_EXT_STALL_SECS", "2")
        .env("ROOST_EXT_DEADLINE_SECS", "3");
    let run = bounded(cmd, LIMIT);
    eprintln!("trickle: {:?}, peak {} KiB", run.took, run.peak_kib);
    let err = refused(&run.out);
    assert!(
        err.lines().next().unwrap().ends_with(
            ": the conversation with the remote passed 3 s, the limit for one; giving up"
        ),
        "{err}"
    );
    assert!(run.took >= Duration::from_secs(3), "{:?}", run.took);
    assert!(run.took < Duration::from_secs(8), "{:?}", run.took);
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    assert!(fetch_dirs(&env).is_empty());
    assert!(!lock_file(&env).exists());
}

/// A stand-in that announces its pack in one packet line and sends that
/// line's bytes one every 0.5 s: never silent, so never called stalled,
/// only ended by the conversation's deadline (the bytes count as they are
/// read, inside the one read that takes the whole line).
#[test]
fn a_remote_that_trickles_inside_one_packet_line_is_not_called_stalled() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", &path)
        .env("STALL", "inline")
        .env("ROOST_EXT_STALL_SECS", "2")
        .env("ROOST_EXT_DEADLINE_SECS", "6");
    let run = bounded(cmd, LIMIT);
    let err = refused(&run.out);
    assert!(
        err.lines().next().unwrap().ends_with(
            ": the conversation with the remote passed 6 s, the limit for one; giving up"
        ),
        "{err}"
    );
    assert!(run.took >= Duration::from_secs(6), "{:?}", run.took);
    assert!(fetch_dirs(&env).is_empty());
}

/// An https server that completes TLS and then answers nothing: given up
/// on once the stall limit has passed (2 s here), as over file:// and
/// ssh://, with a line that says so.
#[test]
fn an_https_remote_that_stops_answering_is_given_up_after_the_stall_limit() {
    let env = TestEnv::new();
    let Some((_server, base, ca)) = crate::ext::install::tls_server_with(&env, &[]) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", &base)
        .env_remove("SSL_CERT_DIR")
        .env("SSL_CERT_FILE", &ca)
        .env("ROOST_EXT_STALL_SECS", "2");
    let run = bounded(cmd, Duration::from_secs(60));
    eprintln!("https stall: {:?}, peak {} KiB", run.took, run.peak_kib);
    let err = refused(&run.out);
    assert!(
        err.lines().next().unwrap().ends_with(
            ": the remote sent nothing for 2 s, the limit for a remote that stalls; giving up"
        ),
        "{err}"
    );
    assert!(run.took >= Duration::from_secs(2), "{:?}", run.took);
    assert!(run.took < Duration::from_secs(8), "{:?}", run.took);
    assert!(!lock_file(&env).exists());
}

/// An https server whose greeting floods: after its service line, 96 MiB
/// of packet lines and never the flush that ends a greeting. Refused once
/// it passes the bound on a greeting, as over file:// and ssh://, in
/// bounded memory and time (the body is counted as roost reads it).
#[test]
fn an_https_greeting_that_floods_is_refused_past_its_bound() {
    let env = TestEnv::new();
    let Some((_server, base, ca)) = crate::ext::install::tls_server_with(&env, &["-HTTP"]) else {
        return;
    };
    // `s_server -HTTP` answers a GET with the file the path names, its
    // headers included.
    let dir = env.path("tls/owner/roost-note/info");
    std::fs::create_dir_all(&dir).unwrap();
    let pkt = |text: &[u8]| {
        let mut line = format!("{:04x}", text.len() + 4).into_bytes();
        line.extend_from_slice(text);
        line
    };
    let mut body = b"HTTP/1.0 200 OK\r\n\
        Content-Type: application/x-git-upload-pack-advertisement\r\n\r\n"
        .to_vec();
    body.extend(pkt(b"# service=git-upload-pack\n"));
    let flood = pkt(&[b'x'; 65000]);
    for _ in 0..(96 << 20) / flood.len() {
        body.extend_from_slice(&flood);
    }
    std::fs::write(dir.join("refs?service=git-upload-pack"), body).unwrap();
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", &base)
        .env_remove("SSL_CERT_DIR")
        .env("SSL_CERT_FILE", &ca);
    refused_by_the_greeting_limit(&env, cmd, "https greeting flood");
}

/// SIGTERM or SIGHUP while a fetch waits on a stalled remote: roost ends
/// within a second or two, exit 1, and removes its `.fetch-*` directory.
#[test]
fn a_signal_during_a_fetch_ends_roost_and_removes_what_it_made() {
    for signal in [nix::sys::signal::SIGTERM, nix::sys::signal::SIGHUP] {
        let env = TestEnv::new();
        let f = note_repo(&env);
        f.commit("base");
        let Some(path) = hostile_server_path(&env) else {
            return;
        };
        let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
        cmd.env("PATH", &path)
            .env("STALL", "pack")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        assert!(
            wait_until(Duration::from_secs(10), || !fetch_dirs(&env).is_empty()),
            "no fetch began"
        );
        std::thread::sleep(Duration::from_millis(300));
        let sent = std::time::Instant::now();
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
        assert!(
            wait_until(Duration::from_secs(5), || child
                .try_wait()
                .unwrap()
                .is_some()),
            "{signal:?}: still running 5 s later"
        );
        let out = child.wait_with_output().unwrap();
        assert!(sent.elapsed() < Duration::from_secs(5));
        assert_eq!(
            exit_of(&out),
            Exit::Interrupted,
            "{signal:?}: {}",
            describe(&out)
        );
        assert!(
            fetch_dirs(&env).is_empty(),
            "{signal:?}: {:?}",
            fetch_dirs(&env)
        );
        assert!(!lock_file(&env).exists());
    }
}

// ------------------------------------------------------ the work a pack costs

/// A stand-in whose pack adds 3,000,000 entries that are each the empty
/// blob (9 bytes apiece, 26 MiB on the wire): nothing to inflate, but each
/// is an object gix must index (1,000,000 of them took 23 s and 147 MiB
/// before this bound). Refused at the pack's header, which announces more
/// objects than any extension's pack holds, quickly and in little memory,
/// leaving nothing.
#[test]
fn a_pack_announcing_millions_of_objects_is_refused_at_its_header() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let head = f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", &path).env("EMPTY_FLOOD", "3000000");
    let run = bounded(cmd, LIMIT);
    eprintln!("empty flood: {:?}, peak {} KiB", run.took, run.peak_kib);
    let err = refused(&run.out);
    assert_eq!(
        err,
        format!(
            "roost ext install: cannot fetch {head} from file://{bare}: the pack holds 3000005 objects; \
             the limit for one extension is 500000\n",
            bare = f.bare.display(),
        )
    );
    assert!(run.took < Duration::from_secs(10), "took {:?}", run.took);
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
    assert!(!lock_file(&env).exists());
}

/// A stand-in whose pack, about 90 KB on the wire, holds the wanted commit,
/// a 64 MiB blob of zeros and 500 deltas each copying the one before and
/// adding a byte: every object is under the one-object limit, but resolving
/// them all would inflate and hash 32 GiB (35 s before this bound). Refused
/// as the pack arrives, once what it unpacks to passes its bound, quickly
/// and in little memory, leaving nothing.
#[test]
fn a_chain_of_deltas_is_refused_once_it_unpacks_past_its_bound() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let head = f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", &path).env("DELTA_CHAIN", "500");
    let run = bounded(cmd, LIMIT);
    eprintln!("delta chain: {:?}, peak {} KiB", run.took, run.peak_kib);
    let err = refused(&run.out);
    assert_eq!(
        err,
        format!(
            "roost ext install: cannot fetch {head} from file://{bare}: the pack's objects unpack to \
             more than 1.0 GiB, the limit for one extension\n",
            bare = f.bare.display(),
        )
    );
    assert!(run.took < Duration::from_secs(10), "took {:?}", run.took);
    assert!(run.peak_kib < 256 * 1024, "peak {} KiB", run.peak_kib);
    assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
    assert!(!lock_file(&env).exists());
}

/// A stand-in that speaks only protocol v0, as a server whose ssh does not
/// pass the protocol version on does: a plain listing installs, and one
/// flooded with 2,000,000 tags (about 130 MiB, all of it read before the
/// bound) is refused once it passes the listing's bound, in bounded memory
/// and time, leaving nothing.
#[test]
fn a_flooding_v0_ref_advertisement_is_refused_past_its_bound() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    f.commit("base");
    let Some(path) = hostile_server_path(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", &path).env("V1_FLOOD", "2000000");
    let run = bounded(cmd, LIMIT);
    eprintln!("v0 flood: {:?}, peak {} KiB", run.took, run.peak_kib);
    let err = refused(&run.out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.ends_with(": the server's ref listing passed 8.0 MiB, the limit for one repository\n"),
        "{err}"
    );
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    assert!(run.took < Duration::from_secs(15), "took {:?}", run.took);
    assert!(!lock_file(&env).exists());
    assert!(!env.path("data/roost").exists() || leftovers_in(&env).is_empty());
    let mut cmd = env.roost(["ext", "install", &f.repo, "--yes"]);
    cmd.env("PATH", &path).env("V1_FLOOD", "0");
    succeeded(&bounded(cmd, LIMIT).out);
    let note = bounded(env.roost(["note"]), LIMIT);
    assert_eq!(succeeded(&note.out), "note\n");
}
