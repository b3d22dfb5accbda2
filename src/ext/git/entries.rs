//! What the rest of `ext` asks of a tree's ids and entries without speaking
//! gix itself: an id read from hex, the submodule entries, and an entry's
//! path as a path on disk.

use super::tree::Leaves;
use gix::bstr::{BString, ByteSlice};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A commit's or a tree's id.
pub use gix::ObjectId;

/// The id `hex` spells (40 hex digits, either case), or why it is none,
/// as gix says it.
pub fn object_id(hex: &str) -> super::cause::Result<ObjectId> {
    ObjectId::from_hex(hex.as_bytes()).map_err(|e| super::chain::chain(&e))
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
