//! What the rest of `ext` asks of a tree's ids and entries without speaking
//! gix itself: an id read from hex, the submodule entries, and an entry's
//! path as a path on disk.

use super::tree::Leaves;
use gix::bstr::{BString, ByteSlice};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A commit's or a tree's id.
pub use gix::ObjectId;

/// Why a text is not an object id, as gix says it.
#[derive(Debug)]
pub struct BadId(String);

impl std::fmt::Display for BadId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The id `hex` spells (40 hex digits, either case).
pub fn object_id(hex: &str) -> Result<ObjectId, BadId> {
    ObjectId::from_hex(hex.as_bytes()).map_err(|e| BadId(e.to_string()))
}

/// The submodule entries of `leaves`, by path.
pub fn submodules(leaves: &Leaves) -> Leaves {
    leaves
        .iter()
        .filter(|(_, leaf)| leaf.is_submodule())
        .map(|(path, leaf)| (path.clone(), *leaf))
        .collect()
}

/// The paths of `leaves` and `more`, each once, in order.
pub fn paths_with(leaves: &Leaves, more: impl IntoIterator<Item = String>) -> BTreeSet<BString> {
    leaves
        .keys()
        .cloned()
        .chain(more.into_iter().map(BString::from))
        .collect()
}

/// Where the entry at `path` of a tree sits under `dir`.
pub fn on_disk(dir: &Path, path: &BString) -> PathBuf {
    dir.join(path.to_path_lossy())
}
