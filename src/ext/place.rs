//! Putting a new install's clone in place and recording it: what install
//! and sync share.

use super::error::{ExtError, Result};
use super::lock::{Entry, Lock};
use super::store::{Action, Store};
use std::path::{Path, PathBuf};

/// Moves the clone at `dir` into place as NAME's, creates its state
/// directory and writes ext.lock + ext.index. On failure undoes all of it,
/// except state data that existed before. Returns the state directory.
pub fn install(
    store: &Store,
    lock: &mut Lock,
    dir: &Path,
    name: &str,
    entry: Entry,
) -> Result<PathBuf> {
    let paths = &store.paths;
    let dest = paths.ext_clone(name);
    let _pending = store.begin(name, Action::Install, "")?;
    std::fs::rename(dir, &dest).map_err(|e| {
        ExtError::failed(format!("cannot move the clone to {}: {e}", dest.display()))
    })?;
    let state = paths.ext_state(name);
    let state_existed = state.exists();
    let result = std::fs::create_dir_all(&state)
        .map_err(|e| ExtError::failed(format!("cannot create {}: {e}", state.display())))
        .and_then(|()| {
            lock.insert(name, entry);
            store.save(lock)
        });
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&dest);
        if !state_existed {
            let _ = std::fs::remove_dir_all(&state);
        }
        return Err(e.reword(|m| format!("{m}; nothing was installed")));
    }
    Ok(state)
}
