//! The bounds on what a remote may make roost do: no real extension comes
//! near them, and every hostile input meets one while it arrives or before
//! anything is checked out. Each refusal names the limit and what was found.

use super::cause::{GitError, Result};
use super::chain::chain;
use gix::objs::tree::EntryKind;
use gix::ObjectId;

/// Entries in the checked-out tree: files, links, submodules (gitlinks)
/// and directories (empty ones included), each path counted once.
pub const MAX_ENTRIES: usize = 20_000;
/// One file's size.
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// All files together.
pub const MAX_TOTAL_BYTES: u64 = 256 << 20;
/// Directories a path may pass through.
pub const MAX_DEPTH: usize = 256;
/// Bytes of pack the server may send.
pub const MAX_PACK_BYTES: u64 = 320 << 20;
/// Objects the pack may announce in its header. gix holds about 125 bytes
/// for each while it indexes the pack, whatever its size, and a pack of
/// empty blobs costs 9 bytes apiece on the wire: without this, 320 MiB of
/// pack could hold 37 million of them. A pinned commit's own pack holds at
/// most `MAX_ENTRIES` and itself; this leaves room for a server that sends
/// the history too.
pub const MAX_PACK_OBJECTS: u32 = 500_000;
/// Bytes the pack's entries inflate to and its deltas declare as results,
/// together: what indexing the pack costs (see `unpack`).
pub const MAX_UNPACKED_BYTES: u64 = 4 * MAX_TOTAL_BYTES;

/// `n` bytes as people read sizes (binary units).
pub fn size(n: u64) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Walks `tree` in the object database, reading object headers only (a
/// blob's size comes from its header, a delta's from the size it declares),
/// and stops at the first limit it meets. Every entry met counts, whatever
/// its kind, and a tree's entries are read one at a time, so the walk does
/// at most `MAX_ENTRIES` steps and holds at most `MAX_DEPTH` trees however
/// the tree fans out. Nothing is written.
pub fn check_tree(repo: &gix::Repository, tree: ObjectId) -> Result<()> {
    let mut entries = 0usize;
    let mut total = 0u64;
    // (tree, depth, path) still to read; depth first, so memory follows
    // the depth, not the width.
    let mut stack: Vec<(ObjectId, usize, String)> = vec![(tree, 0, String::new())];
    while let Some((id, depth, path)) = stack.pop() {
        let tree = repo.find_tree(id).map_err(|e| chain(&e))?;
        for entry in gix::objs::TreeRefIter::from_bytes(&tree.data, gix::hash::Kind::Sha1) {
            let entry = entry.map_err(|e| chain(&e))?;
            entries += 1;
            if entries > MAX_ENTRIES {
                return Err(GitError::refused(format!(
                    "the tree holds more than {MAX_ENTRIES} entries (files, links, submodules and \
                     directories), the limit for one extension"
                )));
            }
            let rel = shown_path(&path, entry.filename);
            match entry.mode.kind() {
                EntryKind::Tree => {
                    if depth + 1 > MAX_DEPTH {
                        return Err(GitError::refused(format!(
                            "the tree is deeper than {MAX_DEPTH} directories (at {rel}), the limit for one extension"
                        )));
                    }
                    stack.push((entry.oid.to_owned(), depth + 1, rel));
                }
                EntryKind::Commit => {}
                EntryKind::Blob | EntryKind::BlobExecutable | EntryKind::Link => {
                    let bytes = repo
                        .find_header(entry.oid.to_owned())
                        .map_err(|e| chain(&e))?
                        .size();
                    if bytes > MAX_FILE_BYTES {
                        return Err(GitError::refused(format!(
                            "{rel} is {}; the limit for one file is {}",
                            size(bytes),
                            size(MAX_FILE_BYTES)
                        )));
                    }
                    total += bytes;
                    if total > MAX_TOTAL_BYTES {
                        return Err(GitError::refused(format!(
                            "the tree's files add up to more than {}, the limit for one extension",
                            size(MAX_TOTAL_BYTES)
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The longest path a refusal shows: a path is kept for every tree still
/// to read, and names have no length limit in a tree object.
const MAX_SHOWN_PATH: usize = 1024;

/// `parent/name` as a refusal shows it, cut at `MAX_SHOWN_PATH` bytes.
fn shown_path(parent: &str, name: &gix::bstr::BStr) -> String {
    if parent.len() >= MAX_SHOWN_PATH {
        return parent.to_string();
    }
    let name = &name[..name.len().min(MAX_SHOWN_PATH)];
    let mut rel = if parent.is_empty() {
        crate::untrusted::printable(name)
    } else {
        format!("{parent}/{}", crate::untrusted::printable(name))
    };
    if rel.len() > MAX_SHOWN_PATH {
        let mut end = MAX_SHOWN_PATH;
        while !rel.is_char_boundary(end) {
            end -= 1;
        }
        rel.truncate(end);
        rel.push_str("...");
    }
    rel
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(size(512), "512 bytes");
        assert_eq!(size(64 << 20), "64.0 MiB");
        assert_eq!(size(3 << 30), "3.0 GiB");
    }
}
