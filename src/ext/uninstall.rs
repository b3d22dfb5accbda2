//! What removing an installed extension does to roost's files, for `ext
//! remove` and `ext sync --prune` alike: its entry leaves ext.lock (and
//! the files derived from it) under the store's lock and journal, then its
//! clone goes (a linked extension's checkout is the author's: never), and
//! where its data stays behind, a note says whose it was, so a later
//! install under the name can say whose data it would inherit.

use super::error::Result;
use super::lock::{Lock, Source};
use super::store::{Action, Store};
use crate::paths::Paths;

/// What a removal did.
pub struct Removed {
    /// The checkout of a linked extension, left as it is.
    pub linked: Option<String>,
    /// Why the clone could not be deleted, if it could not (the extension
    /// is no longer installed all the same).
    pub clone_left: Option<std::io::Error>,
}

/// Takes `name` out of `lock` and saves it, then deletes its clone; with
/// `keep_data`, notes where its kept data came from. None when `lock`
/// records no such extension (nothing is written).
pub fn take_out(
    paths: &Paths,
    store: &Store,
    lock: &mut Lock,
    name: &str,
    keep_data: bool,
) -> Result<Option<Removed>> {
    // An entry that cannot be read is removed all the same.
    let entry = lock.entry(name);
    let linked = entry.and_then(|e| e.linked()).map(String::from);
    let source = entry.map(|e| match &e.source {
        Source::Pinned(pin) => pin.repo.clone(),
        Source::Linked { dir } => dir.clone(),
    });
    if !lock.remove(name) {
        return Ok(None);
    }
    let _pending = store.begin(name, Action::Remove, "")?;
    store.save(lock)?;
    let clone_left = match &linked {
        Some(_) => None,
        None => remove_tree(&paths.ext_clone(name)).err(),
    };
    let state = paths.ext_state(name);
    if let Some(source) = source.filter(|_| keep_data && state.exists()) {
        // Best effort: the data is kept either way.
        let _ = crate::fsutil::write_atomic(
            &paths.ext_state_left_by(name),
            format!("{source}\n").as_bytes(),
            0o644,
        );
    }
    Ok(Some(Removed { linked, clone_left }))
}

/// Deletes a tree; one already gone is fine.
pub fn remove_tree(path: &std::path::Path) -> std::io::Result<()> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}
