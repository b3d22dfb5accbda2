//! Extensions whose files declare events the user never agreed to: an
//! entry recorded before events were consented to, whose clone (or linked
//! checkout) now declares them. None of their handlers runs; `list`,
//! `doctor` and `update` say how to review them.

use super::checks;
use super::lock::{events, Entry};
use crate::paths::Paths;
use std::path::PathBuf;

/// The events `name`'s installed files declare that its lock entry does
/// not record as agreed to; `None` when there are none (or the manifest
/// cannot be read: the other checks name that).
pub fn unreviewed(paths: &Paths, name: &str, entry: &Entry) -> Option<String> {
    if events::consented(entry).is_some() {
        return None;
    }
    let dir = match entry.linked() {
        Some(dir) => PathBuf::from(dir),
        None => paths.ext_clone(name),
    };
    let declared = checks::read_manifest(&dir).ok()?.events?;
    Some(super::events_decl::words(&declared.on))
}

/// How to review them, for a note.
pub fn hint(name: &str) -> String {
    format!(
        "its events were never agreed to, so none of its handlers runs; \
         `roost ext update {name}` shows them and asks"
    )
}
