//! Whether an installed clone still holds the tree pinned in ext.lock: the
//! check verify, list, info, repair, update and doctor share, the files that
//! differ, and what each says of an entry that is bad or changed.

use super::git::hash::hash_dir;
use super::git::{self, entries, Leaf, Leaves};
use super::{granted, names};
use crate::untrusted::printable;
use serde::Serialize;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

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
/// disagreement lines of `disagreements`).
pub fn unreadable(why: &str) -> String {
    format!("not an entry install could have written ({why}; a hand edit of ext.lock?)")
}

/// `unreadable`, with what ext.index still runs of `name`.
pub fn unreadable_granting(paths: &crate::paths::Paths, name: &str, why: &str) -> String {
    let granted = granted::by_index(paths, name);
    format!("{}; {}", unreadable(why), granted::said(&granted))
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
    let expected = names::is_full_sha(recorded)
        .then(|| entries::object_id(&recorded.to_ascii_lowercase()).ok());
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
        Ok(l) => entries::submodules(l),
        Err(_) => Leaves::new(),
    };
    let (actual, on_disk) = match hash_dir(clone, &gitlinks) {
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
    let change = |change, path: &[u8], what| Change {
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
    if want.is_link() && have.is_link() {
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
