//! What ext.index, the file the dispatcher obeys, grants one extension:
//! the commands whose first line names it, and the authorities each line
//! hands over. Said wherever ext.lock's own entry cannot be read, so no
//! report calls an entry "never run" while the index still runs it, and
//! checked before a write that would drop such commands without a word.

use super::error::{ExtError, Result};
use super::lock::{Lock, Slot};
use crate::index::Entry;
use crate::paths::Paths;
use crate::untrusted::printable;

/// One command ext.index runs for the extension, and what it hands over.
pub struct Granted {
    pub command: String,
    pub authorities: Vec<String>,
}

/// The commands ext.index runs for `name`, in index order: for each
/// command only its first line counts, as in the dispatcher.
pub fn by_index(paths: &Paths, name: &str) -> Vec<Granted> {
    let bytes = std::fs::read(paths.ext_index()).unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for line in bytes.split(|&b| b == b'\n') {
        let Some(e) = Entry::parse(line) else {
            continue;
        };
        if !seen.insert(e.command.to_vec()) || e.extension != name.as_bytes() {
            continue;
        }
        out.push(Granted {
            command: printable(e.command),
            authorities: e.authorities().map(printable).collect(),
        });
    }
    out
}

/// How a report ends the line of an entry ext.lock cannot give: what the
/// index still runs of it, or that it runs nothing.
pub fn said(granted: &[Granted]) -> String {
    if granted.is_empty() {
        return "never run (ext.index has no line for it)".into();
    }
    let each: Vec<String> = granted
        .iter()
        .map(|g| match g.authorities.as_slice() {
            [] => format!("{} (no authority)", g.command),
            a => format!("{} (with {})", g.command, a.join(" ")),
        })
        .collect();
    format!(
        "yet ext.index, which is obeyed, still runs {}",
        each.join(", ")
    )
}

/// Refuses a write of ext.lock and ext.index while an entry of the lock
/// cannot be read and the index still runs its commands: deriving the index
/// from the lock would stop them without a word. `about` is the entry the
/// verb names: removing it is how such an entry is dealt with, and update
/// and rollback refuse it in their own words.
pub fn check_nothing_dropped(paths: &Paths, lock: &Lock, about: Option<&str>) -> Result<()> {
    for name in lock.valid_names() {
        if Some(name) == about {
            continue;
        }
        let Some(Slot::Unreadable(u)) = lock.get(name) else {
            continue;
        };
        let granted = by_index(paths, name);
        if granted.is_empty() {
            continue;
        }
        let commands: Vec<&str> = granted.iter().map(|g| g.command.as_str()).collect();
        return Err(ExtError::refused(format!(
            "ext.lock's entry {name} cannot be read ({}), and ext.index still runs its commands ({}); \
             rewriting ext.index from ext.lock would stop them without a word, so nothing was changed",
            u.why,
            commands.join(", ")
        ))
        .hint(format!(
            "roost ext remove {name} (then install it again), or put its ext.lock entry back as it was"
        )));
    }
    Ok(())
}
