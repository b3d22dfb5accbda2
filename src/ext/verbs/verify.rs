//! `roost ext verify [NAME]`: recompute each installed tree's git hash from
//! the files on disk and compare it with the one recorded at install.

use super::git::{self, Leaf, Leaves};
use super::lock::Source;
use super::{hash, store};
use crate::cli::model::VerifyArgs;
use crate::error::{Error, Exit, Result};
use crate::untrusted::printable;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use serde::Serialize;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

const CMD: &str = "ext verify";

pub fn run(a: VerifyArgs) -> Result<Exit> {
    let paths = super::paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| Error::fail(CMD, e))?;
    let one = a.name;
    let everything = one.is_none();
    let names = super::chosen(CMD, &lock, one)?;
    let mut rows = Vec::new();
    if everything {
        for bad in lock.invalid_names() {
            rows.push(Row::bad(printable(bad.as_bytes()), INVALID.into()));
        }
    }
    // Pinned extensions whose files differ: repair puts them back.
    let mut changed = Vec::new();
    for name in &names {
        let Some(slot) = lock.get(name) else {
            continue;
        };
        let pin = match slot.typed().map(|e| &e.source) {
            Ok(Source::Pinned(pin)) => pin,
            Ok(Source::Linked { dir }) => {
                // Nothing was pinned, so there is nothing to compare with; a
                // checkout that is gone leaves its commands dead all the same.
                let shown = printable(dir.as_bytes());
                rows.push(if std::path::Path::new(dir).is_dir() {
                    Row::ok(name, format!("linked to {shown} (not pinned, not hashed)"))
                } else {
                    Row::bad(
                        name.clone(),
                        format!("missing (linked to {shown}, which does not exist)"),
                    )
                });
                continue;
            }
            Err(u) => {
                rows.push(Row::bad(
                    name.clone(),
                    unreadable_granting(&paths, name, &u.why),
                ));
                continue;
            }
        };
        let report = check(&paths.ext_clone(name), &pin.tree);
        if !report.ok {
            changed.push(name.as_str());
        }
        rows.push(Row {
            name: name.clone(),
            ok: report.ok,
            verdict: report.verdict,
            files: report.files,
            details: report.details,
        });
    }
    let all_ok = rows.iter().all(|r| r.ok);
    if a.json {
        println!("{}", crate::untrusted::json(&rows));
    } else if rows.is_empty() {
        println!("no extensions installed");
    } else {
        for row in &rows {
            println!("{}: {}", row.name, row.verdict);
            for line in &row.details {
                println!("  {line}");
            }
        }
    }
    match changed.as_slice() {
        [] => {}
        [name] => eprintln!("{}", repair_hint(name)),
        _ => eprintln!("roost ext repair --all puts back the files pinned in ext.lock"),
    }
    Ok(Exit::check(all_ok))
}

/// One entry as verify reports it (`verify --json` prints a list of them).
#[derive(Serialize)]
struct Row {
    name: String,
    /// Its files match the pinned tree (or it is linked, with its checkout
    /// there): nothing more is claimed.
    ok: bool,
    /// The verdict, as the text form gives it after `NAME: `.
    verdict: String,
    /// Every file added, removed or modified; empty when ok, or when which
    /// files differ cannot be known.
    files: Vec<Change>,
    #[serde(skip)]
    details: Vec<String>,
}

impl Row {
    fn ok(name: &str, verdict: String) -> Row {
        Row {
            name: name.to_string(),
            ok: true,
            verdict,
            files: vec![],
            details: vec![],
        }
    }

    fn bad(name: String, verdict: String) -> Row {
        Row {
            name,
            ok: false,
            verdict,
            files: vec![],
            details: vec![],
        }
    }
}

/// What verify, doctor and update say of a pinned extension whose files
/// differ from its tree.
pub fn repair_hint(name: &str) -> String {
    format!("roost ext repair {name} puts back the files pinned in ext.lock")
}

/// What verify, list and doctor say of an ext.lock entry named outside the
/// name grammar.
pub const INVALID: &str =
    "not a name install could have written (a hand edit of ext.lock?); never run";

/// What verify, list and doctor say of an ext.lock entry that cannot be
/// read (`why`, from `lock::Unreadable`, is printable already). Whether
/// ext.index still runs it is said beside it (`granted::said`, and the
/// disagreement lines of `list::disagreements`).
pub fn unreadable(why: &str) -> String {
    format!("not an entry install could have written ({why}; a hand edit of ext.lock?)")
}

/// `unreadable`, with what ext.index still runs of `name`.
pub fn unreadable_granting(paths: &crate::paths::Paths, name: &str, why: &str) -> String {
    let granted = super::granted::by_index(paths, name);
    format!("{}; {}", unreadable(why), super::granted::said(&granted))
}

/// The outcome for one extension.
pub struct Report {
    pub ok: bool,
    pub verdict: String,
    /// The lines under the verdict: each file that differs, or why which
    /// files differ is unknown.
    pub details: Vec<String>,
    pub files: Vec<Change>,
}

/// Compares the files in `clone` with the tree id recorded in ext.lock.
pub fn check(clone: &Path, recorded: &str) -> Report {
    let bad = |verdict: String, details: Vec<String>, files: Vec<Change>| Report {
        ok: false,
        verdict,
        details,
        files,
    };
    let expected = super::names::is_full_sha(recorded)
        .then(|| ObjectId::from_hex(recorded.to_ascii_lowercase().as_bytes()).ok());
    let Some(expected) = expected.flatten() else {
        return bad(
            "ext.lock records no valid tree hash for it".into(),
            vec![],
            vec![],
        );
    };
    if !clone.is_dir() {
        return bad(
            format!(
                "missing ({} does not exist)",
                printable(clone.as_os_str().as_bytes())
            ),
            vec![],
            vec![],
        );
    }
    // The recorded tree's leaves, when the clone's object store still has
    // them: they name the files that differ, and its submodule entries.
    let leaves = git::tree_leaves(&clone.join(".git"), expected);
    let gitlinks: Leaves = match &leaves {
        Ok(l) => l
            .iter()
            .filter(|(_, f)| f.kind == EntryKind::Commit)
            .map(|(p, f)| (p.clone(), *f))
            .collect(),
        Err(_) => Leaves::new(),
    };
    let (actual, on_disk) = match hash::hash_dir(clone, &gitlinks) {
        Ok(v) => v,
        Err(e) => {
            let e = printable(e.to_string().as_bytes());
            return bad(format!("cannot be hashed: {e}"), vec![], vec![]);
        }
    };
    if actual == expected {
        return Report {
            ok: true,
            verdict: "ok".into(),
            details: vec![],
            files: vec![],
        };
    }
    let (details, files) = match leaves {
        Ok(expected_leaves) => {
            let files = differences(&expected_leaves, &on_disk);
            (files.iter().map(Change::line).collect(), files)
        }
        Err(e) => (
            vec![format!(
                "(which files differ is unknown: the clone's .git cannot be read: {})",
                printable(e.to_string().as_bytes())
            )],
            vec![],
        ),
    };
    bad(
        format!(
            "differs from the tree recorded at install ({})",
            crate::words::count(details.len(), "file")
        ),
        details,
        files,
    )
}

/// One file that differs from the pinned tree.
#[derive(Serialize)]
pub struct Change {
    /// `added`, `removed` or `modified`.
    pub change: &'static str,
    /// Its path in the tree, printable.
    pub path: String,
    /// For a modified file: content, mode, symlink target.
    pub what: Option<String>,
}

impl Change {
    /// As the text form gives it: `modified  bin/x (content)`.
    pub fn line(&self) -> String {
        let head = format!("{:<10}{}", self.change, self.path);
        match &self.what {
            Some(what) => format!("{head} ({what})"),
            None => head,
        }
    }
}

/// Every added, removed or modified file (content, mode or symlink target),
/// in path order.
pub fn differences(expected: &Leaves, actual: &Leaves) -> Vec<Change> {
    let change = |change, path: &gix::bstr::BString, what| Change {
        change,
        path: printable(path),
        what,
    };
    let mut out = Vec::new();
    for (path, want) in expected {
        match actual.get(path) {
            None => out.push(change("removed", path, None)),
            Some(have) if have == want => {}
            Some(have) => out.push(change("modified", path, Some(what_changed(want, have)))),
        }
    }
    for path in actual.keys().filter(|p| !expected.contains_key(*p)) {
        out.push(change("added", path, None));
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn what_changed(want: &Leaf, have: &Leaf) -> String {
    if want.kind == EntryKind::Link && have.kind == EntryKind::Link {
        return "symlink target".into();
    }
    let mut parts = Vec::new();
    if want.kind != have.kind {
        parts.push(format!(
            "mode {} -> {}",
            git::mode(want.kind),
            git::mode(have.kind)
        ));
    }
    if want.id != have.id {
        parts.push("content".into());
    }
    parts.join(", ")
}
