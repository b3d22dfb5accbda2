//! git's ids of a directory as it is on disk, computed in-process with no
//! filters (what `verify` and install's second look compare with a pinned
//! tree): the tree is walked once, then its files are hashed on all cores,
//! counted on the progress line when a fetch hashes what it checked out.

use super::cause::{GitError, Result};
use super::chain::io;
use super::tree::{Leaf, Leaves};
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
    hash_dir_counted(dir, gitlinks, None)
}

/// `hash_dir`, counting the files hashed on the progress line.
pub fn hash_dir_shown(dir: &Path, gitlinks: &Leaves) -> Result<(ObjectId, Leaves)> {
    let ticker = super::progress::ticking("hashing", 0);
    hash_dir_counted(dir, gitlinks, Some(&ticker))
}

fn hash_dir_counted(
    dir: &Path,
    gitlinks: &Leaves,
    ticker: Option<&super::progress::Ticker>,
) -> Result<(ObjectId, Leaves)> {
    let mut files = Vec::new();
    let root = walk(dir, b"", gitlinks, &mut files)?;
    let done = match ticker {
        Some(ticker) => {
            ticker.set_total(files.len());
            ticker.counter()
        }
        None => Default::default(),
    };
    let hashed = hash_files(&files, &done)?;
    let mut leaves = Leaves::new();
    let id = tree_of(&root, b"", &hashed, &mut leaves)?
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
        hash_file(path)?
    } else {
        return Ok(None);
    }))
}

/// One entry of the walked tree; a file is hashed later (its kind is read
/// then too, from the open file), in `slot`.
enum Node {
    Dir(Vec<(OsString, Node)>),
    File { slot: usize },
    Known(Leaf),
}

/// Reads the tree under `dir`: directories and symlinks now, files queued
/// in `files` for `hash_files`. The kind of each entry comes with the
/// directory listing; a file is not looked at until it is opened.
fn walk(
    dir: &Path,
    prefix: &[u8],
    gitlinks: &Leaves,
    files: &mut Vec<PathBuf>,
) -> Result<Vec<(OsString, Node)>> {
    let cannot_read = |e| io(&format!("cannot read {}", dir.display()), e);
    let mut nodes = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(cannot_read)? {
        let entry = entry.map_err(cannot_read)?;
        let name = entry.file_name();
        if prefix.is_empty() && name == ".git" {
            continue;
        }
        let path = dir.join(&name);
        let ft = entry
            .file_type()
            .map_err(|e| io(&format!("cannot stat {}", path.display()), e))?;
        let rel: BString = [prefix, name.as_bytes()].concat().into();
        let node = if ft.is_symlink() {
            Node::Known(Leaf {
                kind: EntryKind::Link,
                id: link_id(&path)?,
            })
        } else if ft.is_file() {
            files.push(path);
            Node::File {
                slot: files.len() - 1,
            }
        } else if ft.is_dir() {
            // A submodule's directory is checked out empty, and stands for
            // its gitlink only while it stays empty: anything put inside it
            // is hashed like the rest, so verify names it.
            match gitlinks.get(&rel) {
                Some(link) if is_empty_dir(&path)? => Node::Known(*link),
                _ => {
                    let sub = [&rel[..], b"/"].concat();
                    Node::Dir(walk(&path, &sub, gitlinks, files)?)
                }
            }
        } else {
            return Err(GitError::new(format!(
                "{} is not a file, directory or symlink",
                path.display()
            )));
        };
        nodes.push((name, node));
    }
    Ok(nodes)
}

fn is_empty_dir(path: &Path) -> Result<bool> {
    let mut entries =
        std::fs::read_dir(path).map_err(|e| io(&format!("cannot read {}", path.display()), e))?;
    Ok(entries.next().is_none())
}

/// The tree id of walked `nodes` (None when nothing is in it), recording
/// every non-directory leaf by path in `out`.
fn tree_of(
    nodes: &[(OsString, Node)],
    prefix: &[u8],
    files: &[Leaf],
    out: &mut Leaves,
) -> Result<Option<ObjectId>> {
    let mut entries = Vec::with_capacity(nodes.len());
    for (name, node) in nodes {
        let rel: BString = [prefix, name.as_bytes()].concat().into();
        let leaf = match node {
            Node::Dir(children) => {
                let sub = [&rel[..], b"/"].concat();
                match tree_of(children, &sub, files, out)? {
                    Some(id) => Leaf {
                        kind: EntryKind::Tree,
                        id,
                    },
                    None => continue,
                }
            }
            Node::File { slot } => files[*slot],
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
        .map_err(|e| GitError::new(e.to_string()))?;
    hash_of(gix::objs::Kind::Tree, &buf).map(Some)
}

/// The leaf of every file, in order. Reading and hashing many small
/// files is mostly waiting on system calls, so it is spread over the cores;
/// the first failure (in walk order) is the one reported. Each file hashed
/// adds one to `done`.
fn hash_files(files: &[PathBuf], done: &AtomicUsize) -> Result<Vec<Leaf>> {
    const PER_THREAD: usize = 64;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len().div_ceil(PER_THREAD))
        .max(1);
    if threads == 1 {
        return files
            .iter()
            .map(|f| {
                done.fetch_add(1, Ordering::Relaxed);
                hash_file(f)
            })
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, Result<Leaf>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut hashed = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(file) = files.get(i) else {
                            return hashed;
                        };
                        hashed.push((i, hash_file(file)));
                        done.fetch_add(1, Ordering::Relaxed);
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
        return Err(GitError::new("a hashing thread failed"));
    }
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, leaf)| leaf).collect()
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
    gix::objs::compute_hash(gix::hash::Kind::Sha1, kind, bytes)
        .map_err(|e| GitError::new(e.to_string()))
}

/// The file at `path` as git records it: its kind (executable or not) and
/// blob id, streamed, so memory stays bounded whatever the file's size.
/// Opened without following a link or waiting on a pipe, and read only if
/// what was opened is a regular file: something put in its place after the
/// walk is refused, not followed.
fn hash_file(path: &Path) -> Result<Leaf> {
    use std::os::unix::fs::OpenOptionsExt;
    let cannot = |e| io(&format!("cannot read {}", path.display()), e);
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
        .open(path)
        .map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(GitError::new(format!(
            "{} is no longer a file (it changed while being read)",
            path.display()
        )));
    }
    let id = gix::objs::compute_stream_hash(
        gix::hash::Kind::Sha1,
        gix::objs::Kind::Blob,
        &mut file,
        meta.len(),
        &mut gix::progress::Discard,
        &AtomicBool::new(false),
    )
    .map_err(|e| GitError::new(e.to_string()))?;
    Ok(Leaf {
        kind: file_kind(&meta),
        id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the walk saw as a file may be something else by the time it is
    /// opened: a link is not followed and a pipe is not waited on.
    #[test]
    fn a_file_swapped_for_a_link_or_a_pipe_is_refused_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, "secret\n").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(hash_file(&link).is_err(), "followed the link");
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let err = hash_file(&fifo).unwrap_err();
        assert!(err.as_str().contains("is no longer a file"), "{err}");
        let leaf = hash_file(&target).unwrap();
        assert_eq!(leaf.kind, EntryKind::Blob);
        // `printf 'secret\n' | git hash-object --stdin`
        assert_eq!(
            leaf.id.to_string(),
            "d97c5eada5d8c52079031eef0107a4430a9617c5"
        );
    }
}
