//! git's ids of a directory as it is on disk, computed in-process with no
//! filters (what `verify` and install's second look compare with a pinned
//! tree): the tree is walked once, then its files are hashed on all cores.

use super::git::{io, Leaf, Leaves, Result};
use gix::bstr::BString;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// git's tree id of `dir` as it is on disk (`.git` excluded, no filters, raw
/// bytes, empty directories dropped), and its leaves. `gitlinks` are the
/// submodule paths of the pinned tree: roost never fetches them, so each is
/// an empty directory standing for the recorded commit.
pub fn hash_dir(dir: &Path, gitlinks: &Leaves) -> Result<(ObjectId, Leaves)> {
    let mut files = Vec::new();
    let root = walk(dir, b"", gitlinks, &mut files)?;
    let ids = hash_files(&files)?;
    let mut leaves = Leaves::new();
    let id = tree_of(&root, b"", &ids, &mut leaves)?
        .unwrap_or_else(|| ObjectId::empty_tree(gix::hash::Kind::Sha1));
    Ok((id, leaves))
}

/// The leaf at `path` on disk, as git would record it; None when nothing,
/// a directory or a special file is there.
pub fn leaf_on_disk(path: &Path) -> Result<Option<Leaf>> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(None);
    };
    let ft = meta.file_type();
    Ok(Some(if ft.is_symlink() {
        Leaf {
            kind: EntryKind::Link,
            id: link_id(path)?,
        }
    } else if ft.is_file() {
        Leaf {
            kind: file_kind(&meta),
            id: hash_file(path)?,
        }
    } else {
        return Ok(None);
    }))
}

/// One entry of the walked tree; a file's id is hashed later, in `slot`.
enum Node {
    Dir(Vec<(OsString, Node)>),
    File { slot: usize, kind: EntryKind },
    Known(Leaf),
}

/// Reads the tree under `dir`: directories and symlinks now, files queued
/// in `files` for `hash_files`.
fn walk(
    dir: &Path,
    prefix: &[u8],
    gitlinks: &Leaves,
    files: &mut Vec<PathBuf>,
) -> Result<Vec<(OsString, Node)>> {
    let cannot_read = |e| io(&format!("cannot read {}", dir.display()), e);
    let mut nodes = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(cannot_read)? {
        let name = entry.map_err(cannot_read)?.file_name();
        if prefix.is_empty() && name == ".git" {
            continue;
        }
        let path = dir.join(&name);
        let meta = std::fs::symlink_metadata(&path)
            .map_err(|e| io(&format!("cannot stat {}", path.display()), e))?;
        let rel: BString = [prefix, name.as_bytes()].concat().into();
        let ft = meta.file_type();
        let node = if ft.is_symlink() {
            Node::Known(Leaf {
                kind: EntryKind::Link,
                id: link_id(&path)?,
            })
        } else if ft.is_file() {
            files.push(path);
            Node::File {
                slot: files.len() - 1,
                kind: file_kind(&meta),
            }
        } else if ft.is_dir() {
            match gitlinks.get(&rel) {
                Some(link) => Node::Known(*link),
                None => {
                    let sub = [&rel[..], b"/"].concat();
                    Node::Dir(walk(&path, &sub, gitlinks, files)?)
                }
            }
        } else {
            return Err(format!(
                "{} is not a file, directory or symlink",
                path.display()
            ));
        };
        nodes.push((name, node));
    }
    Ok(nodes)
}

/// The tree id of walked `nodes` (None when nothing is in it), recording
/// every non-directory leaf by path in `out`.
fn tree_of(
    nodes: &[(OsString, Node)],
    prefix: &[u8],
    ids: &[ObjectId],
    out: &mut Leaves,
) -> Result<Option<ObjectId>> {
    let mut entries = Vec::with_capacity(nodes.len());
    for (name, node) in nodes {
        let rel: BString = [prefix, name.as_bytes()].concat().into();
        let leaf = match node {
            Node::Dir(children) => {
                let sub = [&rel[..], b"/"].concat();
                match tree_of(children, &sub, ids, out)? {
                    Some(id) => Leaf {
                        kind: EntryKind::Tree,
                        id,
                    },
                    None => continue,
                }
            }
            Node::File { slot, kind } => Leaf {
                kind: *kind,
                id: ids[*slot],
            },
            Node::Known(leaf) => *leaf,
        };
        if leaf.kind != EntryKind::Tree {
            out.insert(rel, leaf);
        }
        entries.push(gix::objs::tree::Entry {
            mode: leaf.kind.into(),
            filename: name.as_bytes().into(),
            oid: leaf.id,
        });
    }
    if entries.is_empty() {
        return Ok(None);
    }
    entries.sort();
    let mut buf = Vec::new();
    gix::objs::WriteTo::write_to(&gix::objs::Tree { entries }, &mut buf)
        .map_err(|e| e.to_string())?;
    hash_of(gix::objs::Kind::Tree, &buf).map(Some)
}

/// The blob id of every file, in order. Reading and hashing many small
/// files is mostly waiting on system calls, so it is spread over the cores;
/// the first failure (in walk order) is the one reported.
fn hash_files(files: &[PathBuf]) -> Result<Vec<ObjectId>> {
    const PER_THREAD: usize = 64;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len().div_ceil(PER_THREAD))
        .max(1);
    if threads == 1 {
        return files.iter().map(|f| hash_file(f)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, Result<ObjectId>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(file) = files.get(i) else {
                            return done;
                        };
                        done.push((i, hash_file(file)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    if results.len() != files.len() {
        return Err("a hashing thread failed".to_string());
    }
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, id)| id).collect()
}

fn file_kind(meta: &std::fs::Metadata) -> EntryKind {
    if meta.permissions().mode() & 0o100 != 0 {
        EntryKind::BlobExecutable
    } else {
        EntryKind::Blob
    }
}

/// A symlink's blob: its target's bytes.
fn link_id(path: &Path) -> Result<ObjectId> {
    let target =
        std::fs::read_link(path).map_err(|e| io(&format!("cannot read {}", path.display()), e))?;
    hash_of(gix::objs::Kind::Blob, target.as_os_str().as_bytes())
}

fn hash_of(kind: gix::objs::Kind, bytes: &[u8]) -> Result<ObjectId> {
    gix::objs::compute_hash(gix::hash::Kind::Sha1, kind, bytes).map_err(|e| e.to_string())
}

/// git's blob id of the file at `path`, streamed: memory stays bounded
/// whatever the file's size.
fn hash_file(path: &Path) -> Result<ObjectId> {
    let cannot = |e| io(&format!("cannot read {}", path.display()), e);
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    gix::objs::compute_stream_hash(
        gix::hash::Kind::Sha1,
        gix::objs::Kind::Blob,
        &mut file,
        len,
        &mut gix::progress::Discard,
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())
}
