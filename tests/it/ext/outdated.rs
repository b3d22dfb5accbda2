//! `roost ext outdated`: the ref listing alone, one connection per source,
//! nothing fetched; progress on a terminal.

use crate::common::ext::{lock, short};
use crate::common::sources::{break_source, bump, installed, linked};
use crate::common::*;

use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// What a `upload_pack_wrapper` logged after each ref listing: the first
/// four bytes the client sent next. A fetch starts with the length of
/// `command=fetch` ("0012"); the end of a conversation is a flush ("0000")
/// or nothing.
fn after_listing(calls: &Path) -> Vec<String> {
    std::fs::read_to_string(calls)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix("after:"))
        .map(String::from)
        .collect()
}

/// The wrapper's log once every run begun has said what followed its
/// listing and ended: a wrapper shell may outlive the roost that hung up on
/// it by a moment, so its last lines are waited for (ten seconds at most).
fn settled(calls: &Path) -> ((usize, usize), Vec<String>) {
    wait_until(Duration::from_secs(10), || {
        let (start, end) = upload_pack_runs(calls);
        start == end && after_listing(calls).len() == start
    });
    (upload_pack_runs(calls), after_listing(calls))
}

/// One connection per pinned source, the ref listing alone: no fetch
/// command is ever sent, so no pack is. A ref that is a full commit id is
/// not asked about, and nothing on disk changes.
#[test]
fn outdated_asks_each_source_once_and_fetches_nothing() {
    let env = TestEnv::new();
    let mark = installed(&env, "mark", &[]);
    let note = installed(&env, "note", &["fleet"]);
    let old = note.head();
    let new = bump(&note, "note", "two");
    let pinned = env.simple_ext("owner/roost-sha", "sha", &["sha"], &[]);
    let sha = pinned.head();
    succeeded(&env.run(["ext", "install", "owner/roost-sha", "--ref", &sha, "--yes"]));
    bump(&pinned, "sha", "later");
    let before = snapshot(&env);

    let calls = env.path("upload-pack-calls");
    let path = env.upload_pack_wrapper(
        &calls,
        &format!("echo \"after:$next\" >> '{}'", calls.display()),
    );
    let out = env
        .roost(["ext", "outdated"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(
        clean(&out),
        format!(
            "NAME  PINNED   AVAILABLE  NEEDS\n\
             mark  {}  unchanged  same\n\
             note  {}  {}    unknown without a fetch\n\
             sha   {}  unchanged  same\n\
             roost ext update note fetches the new commit, shows the diff and what it needs, and asks\n",
            short(&mark.head()),
            short(&old),
            short(&new),
            short(&sha),
        )
    );
    let (runs, after) = settled(&calls);
    assert_eq!(runs, (2, 2), "one connection per source asked");
    assert_eq!(after.len(), 2, "{after:?}");
    assert!(
        after.iter().all(|next| next.is_empty() || next == "0000"),
        "something followed the ref listing: {after:?}"
    );
    assert_eq!(snapshot(&env), before, "outdated wrote something");

    // JSON: the same, in full; needs_grow is unknown (null) where the ref moved.
    let v: Value = serde_json::from_str(&clean(&env.run(["ext", "outdated", "--json"]))).unwrap();
    assert_eq!(v[0]["name"], "mark");
    assert_eq!(v[0]["status"], "unchanged");
    assert_eq!(v[0]["needs_grow"], false);
    assert_eq!(v[1]["name"], "note");
    assert_eq!(v[1]["status"], "moved");
    assert_eq!(v[1]["pinned"], old.as_str());
    assert_eq!(v[1]["available"], new.as_str());
    assert_eq!(v[1]["needs"], serde_json::json!(["fleet"]));
    assert_eq!(v[1]["needs_grow"], Value::Null);
    assert_eq!(v[1]["ref"], "HEAD");
    assert_eq!(v[2]["ref"], sha.as_str());

    // Names choose (each once); an unknown one is refused before any source is asked.
    let out = env
        .roost(["ext", "outdated", "mark", "mark"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(clean(&out).lines().count(), 2);
    assert_eq!(upload_pack_runs(&calls).0, 3);
    let out = env
        .roost(["ext", "outdated", "mark", "nope"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_refusal(
        &out,
        Exit::Failed,
        "roost ext outdated: no such extension: nope\n",
    );
    assert_eq!(upload_pack_runs(&calls).0, 3);

    // The wrapper does see a fetch when there is one: update's.
    let out = env
        .roost(["ext", "update", "note", "--yes"])
        .env("PATH", &path)
        .output()
        .unwrap();
    succeeded(&out);
    let (_, after) = settled(&calls);
    assert_eq!(after.len(), 4, "{after:?}");
    assert!(
        after
            .last()
            .is_some_and(|next| !next.is_empty() && next != "0000"),
        "{after:?}"
    );
}

/// A source that cannot be reached fails its row and the exit status; the
/// rest are still checked and listed, and a linked extension is listed as
/// linked, not checked.
#[test]
fn outdated_with_one_unreachable_source_lists_the_rest_and_exits_1() {
    let env = TestEnv::new();
    let gone = installed(&env, "gone", &[]);
    let note = installed(&env, "note", &[]);
    let dir = linked(&env);
    break_source(&gone);
    let out = env.run(["ext", "outdated"]);
    let err = exits(&out, Exit::Failed);
    assert_eq!(
        stdout(&out),
        format!(
            "NAME  PINNED   AVAILABLE  NEEDS\n\
             dev   linked   -          -  (linked to {}, not checked)\n\
             gone  {}  failed     -\n\
             note  {}  unchanged  same\n",
            dir.display(),
            short(&gone.head()),
            short(&note.head()),
        )
    );
    let bare = gone.bare.display();
    assert_eq!(
        err,
        format!(
            "roost ext outdated: gone: cannot resolve HEAD at file://{bare}: \
             no repository there ({bare} does not exist); check the path\n"
        )
    );
    let v: Value = serde_json::from_str(&stdout(&env.run(["ext", "outdated", "--json"]))).unwrap();
    assert_eq!(v[0]["status"], "linked");
    assert_eq!(v[0]["linked"], dir.display().to_string());
    assert_eq!(v[1]["status"], "failed");
    assert!(v[1]["error"]
        .as_str()
        .unwrap()
        .contains("no repository there"));
    assert_eq!(v[2]["status"], "unchanged");
}

#[test]
fn outdated_with_nothing_installed_says_so() {
    let env = TestEnv::new();
    assert_eq!(
        clean(&env.run(["ext", "outdated"])),
        "no extensions installed\n"
    );
    assert_eq!(clean(&env.run(["ext", "outdated", "--json"])), "[]\n");
}

/// `outdated` and `rollback` reach their remotes with the same progress line
/// as install and update on a terminal, taken away before their own output.
#[test]
fn outdated_and_rollback_show_progress_on_a_terminal() {
    let env = TestEnv::new();
    let mark = installed(&env, "mark", &[]);
    let old = mark.head();
    let new = bump(&mark, "mark", "mark-two");
    let seen = |args: &str| {
        env.on_a_terminal(args, b"")
            .map(|out| succeeded(&out).replace('\r', ""))
    };
    let url = format!("file://{}", mark.bare.display());
    let Some(text) = seen("ext outdated") else {
        return;
    };
    assert!(
        text.starts_with(&format!("\x1b[Kroost: connecting to {url}")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "\x1b[KNAME  PINNED   AVAILABLE  NEEDS\nmark  {}  {}",
            short(&old),
            short(&new)
        )),
        "{text}"
    );
    succeeded(&env.run(["ext", "update", "mark", "--yes"]));
    let text = seen("ext rollback mark --yes").unwrap();
    assert!(
        text.starts_with(&format!("\x1b[Kroost: connecting to {url}")),
        "{text}"
    );
    assert_eq!(lock(&env)["mark"]["commit"], old.as_str());
    // An update with nothing to do takes the line away before it says so.
    succeeded(&env.run(["ext", "update", "mark", "--yes"]));
    let text = seen("ext update mark").unwrap();
    assert!(
        text.contains(&format!("\x1b[Kmark: up to date (HEAD is still {new})\n")),
        "{text:?}"
    );
}
