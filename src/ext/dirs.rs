//! roost's directories as an `ext` verb needs them: the paths (or the error every
//! verb gives without them), checked writable for a verb that writes, and
//! the directory an installed extension runs from.

use super::lock;
use crate::error::{Error, Result};
use crate::paths::Paths;
use std::path::PathBuf;

/// roost's paths, or the error every verb gives without them.
pub fn paths(cmd: &'static str) -> Result<Paths> {
    Paths::from_env().map_err(|e| Error::fail(cmd, e))
}

/// roost's places for a verb that writes them: checked before anything is
/// fetched or any consent is asked.
pub fn writable_paths(cmd: &'static str) -> Result<Paths> {
    let paths = paths(cmd)?;
    paths
        .check_writable()
        .map_err(|(msg, hint)| Error::fail(cmd, msg).hint(hint))?;
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
