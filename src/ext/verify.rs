//! `roost ext verify [NAME]`: recompute each installed tree's git hash from
//! the files on disk and compare it with the one recorded at install.

use super::git::{self, Leaf, Leaves};
use super::lock::Source;
use super::{hash, store};
use crate::cli::model::NameArgs;
use crate::error::{Error, Exit, Result};
use crate::untrusted::printable;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

const CMD: &str = "ext verify";

pub fn run(a: NameArgs) -> Result<Exit> {
    let paths = super::paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| Error::fail(CMD, e))?;
    let one = a.name;
    let everything = one.is_none();
    let names = super::chosen(CMD, &lock, one)?;
    let mut differing = 0;
    // Pinned extensions whose files differ: repair puts them back.
    let mut changed = Vec::new();
    if everything {
        for bad in lock.invalid_names() {
            differing += 1;
            println!("{}: {INVALID}", printable(bad.as_bytes()));
        }
    }
    if names.is_empty() && differing == 0 {
        println!("no extensions installed");
        return Ok(Exit::Ok);
    }
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
                if std::path::Path::new(dir).is_dir() {
                    println!("{name}: linked to {shown} (not pinned, not hashed)");
                } else {
                    differing += 1;
                    println!("{name}: missing (linked to {shown}, which does not exist)");
                }
                continue;
            }
            Err(u) => {
                differing += 1;
                println!("{name}: {}", unreadable_granting(&paths, name, &u.why));
                continue;
            }
        };
        let report = check(&paths.ext_clone(name), &pin.tree);
        if !report.ok {
            differing += 1;
            changed.push(name.as_str());
        }
        println!("{name}: {}", report.verdict);
        for line in &report.details {
            println!("  {line}");
        }
    }
    match changed.as_slice() {
        [] => {}
        [name] => eprintln!("{}", repair_hint(name)),
        _ => eprintln!("roost ext repair --all puts back the files pinned in ext.lock"),
    }
    Ok(Exit::check(differing == 0))
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
    pub details: Vec<String>,
}

/// Compares the files in `clone` with the tree id recorded in ext.lock.
pub fn check(clone: &Path, recorded: &str) -> Report {
    let bad = |verdict: String, details: Vec<String>| Report {
        ok: false,
        verdict,
        details,
    };
    let expected = super::names::is_full_sha(recorded)
        .then(|| ObjectId::from_hex(recorded.to_ascii_lowercase().as_bytes()).ok());
    let Some(expected) = expected.flatten() else {
        return bad("ext.lock records no valid tree hash for it".into(), vec![]);
    };
    if !clone.is_dir() {
        return bad(
            format!(
                "missing ({} does not exist)",
                printable(clone.as_os_str().as_bytes())
            ),
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
            return bad(format!("cannot be hashed: {e}"), vec![]);
        }
    };
    if actual == expected {
        return Report {
            ok: true,
            verdict: "ok".into(),
            details: vec![],
        };
    }
    let details = match leaves {
        Ok(expected_leaves) => differences(&expected_leaves, &on_disk),
        Err(e) => vec![format!(
            "(which files differ is unknown: the clone's .git cannot be read: {})",
            printable(e.to_string().as_bytes())
        )],
    };
    bad(
        format!(
            "differs from the tree recorded at install ({})",
            super::counted(details.len(), "file", "files")
        ),
        details,
    )
}

/// Every added, removed or modified file (content, mode or symlink target).
pub fn differences(expected: &Leaves, actual: &Leaves) -> Vec<String> {
    let mut out = Vec::new();
    for (path, want) in expected {
        let shown = printable(path);
        match actual.get(path) {
            None => out.push(format!("removed   {shown}")),
            Some(have) if have == want => {}
            Some(have) => out.push(format!("modified  {shown} ({})", what_changed(want, have))),
        }
    }
    for path in actual.keys().filter(|p| !expected.contains_key(*p)) {
        out.push(format!("added     {}", printable(path)));
    }
    out.sort_by(|a, b| a[10..].cmp(&b[10..]));
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
