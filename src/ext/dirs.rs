//! roost's directories as an `ext` verb needs them: the paths (or why there
//! are none), checked writable for a verb that writes, and the directory an
//! installed extension runs from.

use super::error::{ExtError, Result};
use super::lock;
use crate::paths::Paths;
use std::path::PathBuf;

/// roost's paths, or why the environment gives none.
pub fn paths() -> Result<Paths> {
    Paths::from_env().map_err(|e| ExtError::failed(e.to_string()))
}

/// roost's places for a verb that writes them: checked before anything is
/// fetched or any consent is asked.
pub fn writable_paths() -> Result<Paths> {
    let paths = paths()?;
    paths
        .check_writable()
        .map_err(|(msg, hint)| ExtError::failed(msg).hint(hint))?;
    Ok(paths)
}

/// Where extension `name` lives: its clone, or the author's checkout when
/// it is linked.
pub fn ext_dir(paths: &Paths, name: &str, entry: Option<&lock::Entry>) -> PathBuf {
    match entry.and_then(|e| e.linked()) {
        Some(dir) => PathBuf::from(dir),
        None => paths.ext_clone(name),
    }
}
