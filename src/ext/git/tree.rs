//! The trees recorded in a repository: the leaves of a tree or of the
//! commit checked out in a work tree, and the objects a commit needs.

use super::cause::Result;
use super::chain::chain;
use gix::bstr::BString;
use gix::objs::tree::EntryKind;
use gix::ObjectId;
use std::collections::BTreeMap;
use std::path::Path;

/// One file of a tree: its kind (blob, executable, symlink, submodule) and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    pub kind: EntryKind,
    pub id: ObjectId,
}

impl Leaf {
    /// A symlink: its blob is the link's target.
    pub fn is_link(&self) -> bool {
        self.kind == EntryKind::Link
    }

    /// A submodule (gitlink): its id is a commit, not a blob.
    pub fn is_submodule(&self) -> bool {
        self.kind == EntryKind::Commit
    }
}

/// git's octal mode of an entry kind, as `git diff` prints it.
pub fn mode(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Blob => "100644",
        EntryKind::BlobExecutable => "100755",
        EntryKind::Link => "120000",
        EntryKind::Commit => "160000",
        EntryKind::Tree => "040000",
    }
}

/// A path in a tree: bytes, as git stores them.
pub type LeafPath = BString;

/// Every non-directory entry of a tree, by path.
pub type Leaves = BTreeMap<LeafPath, Leaf>;

/// The ids `commit` needs in the repository at `git_dir`: itself, its
/// trees and blobs, and those of every ancestor the repository has. An id
/// may be one gix answers without an object (the empty tree); whoever
/// compares this with what a pack holds looks the pack's ids up here, never
/// the other way round.
pub fn needed(git_dir: &Path, commit: ObjectId) -> Result<std::collections::HashSet<ObjectId>> {
    let repo = gix::open_opts(git_dir, gix::open::Options::isolated()).map_err(|e| chain(&e))?;
    let mut seen = std::collections::HashSet::new();
    let mut commits = vec![commit];
    let mut trees = Vec::new();
    while let Some(id) = commits.pop() {
        if !seen.insert(id) {
            continue;
        }
        let object = repo.find_commit(id).map_err(|e| chain(&e))?;
        let decoded = object.decode().map_err(|e| chain(&e))?;
        trees.push(decoded.tree());
        commits.extend(decoded.parents().filter(|p| repo.has_object(p)));
    }
    while let Some(id) = trees.pop() {
        if !seen.insert(id) {
            continue;
        }
        let tree = repo.find_tree(id).map_err(|e| chain(&e))?;
        for entry in gix::objs::TreeRefIter::from_bytes(&tree.data, gix::hash::Kind::Sha1) {
            let entry = entry.map_err(|e| chain(&e))?;
            match entry.mode.kind() {
                EntryKind::Tree => trees.push(entry.oid.to_owned()),
                EntryKind::Commit => {}
                _ => {
                    seen.insert(entry.oid.to_owned());
                }
            }
        }
    }
    Ok(seen)
}

/// The leaves of the commit checked out in the work tree `dir` (None when
/// `dir` holds no git repository, or one with no commit yet).
pub fn committed_leaves(dir: &Path) -> Option<Leaves> {
    let repo = gix::open_opts(dir, gix::open::Options::isolated()).ok()?;
    let tree = repo.head_commit().ok()?.tree_id().ok()?.detach();
    tree_leaves(repo.git_dir(), tree).ok()
}

/// The leaves of `tree` as stored in the object database of a fetched
/// repository (opened isolated: its config is not trusted).
pub fn tree_leaves(git_dir: &Path, tree: ObjectId) -> Result<Leaves> {
    let repo = gix::open_opts(git_dir, gix::open::Options::isolated()).map_err(|e| chain(&e))?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    repo.find_tree(tree)
        .map_err(|e| chain(&e))?
        .traverse()
        .breadthfirst(&mut recorder)
        .map_err(|e| chain(&e))?;
    Ok(recorder
        .records
        .into_iter()
        .filter(|r| !r.mode.is_tree())
        .map(|r| {
            (
                r.filepath,
                Leaf {
                    kind: r.mode.kind(),
                    id: r.oid,
                },
            )
        })
        .collect())
}
