//! The objects of an offline bundle: a git pack (version 2, every object
//! whole, no deltas) holding exactly each pinned commit's own objects (the
//! commit, its trees, its blobs; no parent, no history), written from the
//! installed clones; and that pack read back as a network pack is read:
//! through `Bounded` (its size and what it will cost to unpack), indexed by
//! gix, which hashes every object for its id and checks the pack's own
//! checksum, then every object held to the commits the set lists: one that
//! is missing or that no listed commit uses refuses the whole bundle. A
//! commit is checked out from it into a new repository holding its own
//! objects only, each written again by its id. No git program runs.

use super::cause::{GitError, Result};
use super::chain::{chain, io};
use super::limits;
use super::remote::{check_out, create};
use gix::objs::tree::EntryKind;
use gix::objs::Write as _;
use gix::ObjectId;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A commit's own objects in the repository `repo`: itself, its trees and
/// their blobs (a submodule's commit is not among them).
fn own_objects(repo: &gix::Repository, commit: ObjectId) -> Result<BTreeSet<ObjectId>> {
    let missing = |id: ObjectId, e: &(dyn std::error::Error + 'static)| {
        GitError::refused(format!(
            "object {id}, which commit {commit} uses, is not there ({})",
            chain(e)
        ))
    };
    let mut seen = BTreeSet::from([commit]);
    let found = repo.find_commit(commit).map_err(|e| missing(commit, &e))?;
    let decoded = found.decode().map_err(|e| chain(&e))?;
    let mut trees = vec![decoded.tree()];
    while let Some(id) = trees.pop() {
        if !seen.insert(id) {
            continue;
        }
        if seen.len() > limits::MAX_ENTRIES + 1 {
            return Err(GitError::refused(format!(
                "commit {commit} uses more than {} objects",
                limits::MAX_ENTRIES
            )));
        }
        let tree = repo.find_tree(id).map_err(|e| missing(id, &e))?;
        for entry in gix::objs::TreeRefIter::from_bytes(&tree.data, gix::hash::Kind::Sha1) {
            let entry = entry.map_err(|e| chain(&e))?;
            match entry.mode.kind() {
                EntryKind::Tree => trees.push(entry.oid.to_owned()),
                EntryKind::Commit => {}
                _ => {
                    let blob = entry.oid.to_owned();
                    if !repo.has_object(blob) {
                        return Err(GitError::refused(format!(
                            "object {blob}, which commit {commit} uses, is not there"
                        )));
                    }
                    seen.insert(blob);
                }
            }
        }
    }
    Ok(seen)
}

/// The pack type of an object kind.
fn pack_type(kind: gix::objs::Kind) -> u8 {
    match kind {
        gix::objs::Kind::Commit => 1,
        gix::objs::Kind::Tree => 2,
        gix::objs::Kind::Blob => 3,
        gix::objs::Kind::Tag => 4,
    }
}

/// A pack holding the own objects of each commit, read from the clone whose
/// `.git` is given with it; each object once, in the order of their ids, so
/// the same commits give the same bytes.
pub fn write_pack(commits: &[(PathBuf, ObjectId)]) -> Result<Vec<u8>> {
    // Each id once, with the repository it is read from; each object is
    // read when it is written, so only the compressed pack is held.
    let mut repos = Vec::new();
    let mut ids: std::collections::BTreeMap<ObjectId, usize> = Default::default();
    for (git_dir, commit) in commits {
        let repo =
            gix::open_opts(git_dir, gix::open::Options::isolated()).map_err(|e| chain(&e))?;
        for id in own_objects(&repo, *commit)? {
            ids.entry(id).or_insert(repos.len());
        }
        repos.push(repo);
    }
    let mut pack = Vec::new();
    pack.extend_from_slice(b"PACK");
    pack.extend_from_slice(&2u32.to_be_bytes());
    pack.extend_from_slice(&(ids.len() as u32).to_be_bytes());
    for (id, at) in ids {
        let object = repos[at].find_object(id).map_err(|e| chain(&e))?;
        let data = &object.data;
        let mut size = data.len() as u64;
        let mut byte = (pack_type(object.kind) << 4) | (size & 0x0F) as u8;
        size >>= 4;
        while size > 0 {
            pack.push(byte | 0x80);
            byte = (size & 0x7F) as u8;
            size >>= 7;
        }
        pack.push(byte);
        let mut z = gix::zlib::stream::deflate::Write::new(&mut pack, Default::default());
        std::io::Write::write_all(&mut z, data).map_err(|e| io("cannot compress an object", e))?;
        std::io::Write::flush(&mut z).map_err(|e| io("cannot compress an object", e))?;
    }
    let mut hasher = gix::hash::hasher(gix::hash::Kind::Sha1);
    hasher.update(&pack);
    let sum = hasher.try_finalize().map_err(|e| chain(&e))?;
    pack.extend_from_slice(sum.as_slice());
    Ok(pack)
}

/// A bundle's pack, indexed in a temporary repository, every object in it
/// used by a listed commit and every object a listed commit uses in it.
pub struct Unpacked {
    _tmp: tempfile::TempDir,
    repo: gix::Repository,
}

impl Unpacked {
    /// Reads `pack` as a network pack is read (the same bounds, the same
    /// indexing), into a temporary directory in `scratch`, and holds it to
    /// `commits`: every object one of them uses must be there, and nothing
    /// else may be.
    pub fn read(
        pack: &mut dyn std::io::BufRead,
        scratch: &Path,
        commits: &[ObjectId],
    ) -> Result<Unpacked> {
        let tmp = tempfile::Builder::new()
            .prefix(".bundle-")
            .tempdir_in(scratch)
            .map_err(|e| io("cannot make a temporary directory", e))?;
        gix::create::into(tmp.path(), gix::create::Kind::Bare, Default::default())
            .map_err(|e| chain(&e))?;
        let pack_dir = tmp.path().join("objects").join("pack");
        let mut bounded = super::bounded::Bounded::new(pack);
        let written = gix::odb::pack::Bundle::write_to_directory(
            &mut bounded,
            Some(&pack_dir),
            &mut gix::progress::Discard,
            &super::INTERRUPTED,
            None::<gix::odb::Handle>,
            gix::hash::Kind::Sha1,
            gix::odb::pack::bundle::write::Options {
                thread_limit: None,
                index_version: Default::default(),
                iteration_mode: gix::odb::pack::data::input::Mode::Verify,
                alloc_limit_bytes: Some(2 * limits::MAX_FILE_BYTES as usize),
                compression: Default::default(),
            },
        )
        .map_err(|e| match bounded.refusal() {
            Some(refusal) => GitError::refused(format!("the bundle's pack: {refusal}")),
            None => GitError::refused(format!("the bundle's pack cannot be read: {}", chain(&e))),
        })?;
        let repo =
            gix::open_opts(tmp.path(), gix::open::Options::isolated()).map_err(|e| chain(&e))?;
        let mut used = BTreeSet::new();
        for commit in commits {
            used.extend(own_objects(&repo, *commit).map_err(|e| {
                GitError::refused(format!("the bundle lacks what it must hold: {e}"))
            })?);
        }
        let extra = match &written.index_path {
            None => 0,
            Some(path) => gix::odb::pack::index::File::at(path, gix::hash::Kind::Sha1)
                .map_err(|e| chain(&e))?
                .iter()
                .filter(|entry| !used.contains(&entry.oid))
                .count(),
        };
        if extra > 0 {
            return Err(GitError::refused(format!(
                "the bundle holds {} that no commit it lists uses; refusing it whole",
                crate::words::count(extra, "object")
            )));
        }
        Ok(Unpacked { _tmp: tmp, repo })
    }

    /// Checks `commit` out into a new repository at `dest` (origin `url`),
    /// holding its own objects only, each written again by its id; returns
    /// its tree.
    pub fn check_out(&self, commit: ObjectId, dest: &Path, url: &str) -> Result<ObjectId> {
        let repo = create(dest, url)?;
        for id in own_objects(&self.repo, commit)? {
            let object = self.repo.find_object(id).map_err(|e| chain(&e))?;
            let written = repo
                .objects
                .write_buf(object.kind, &object.data)
                .map_err(|e| GitError::new(format!("cannot write object {id}: {e}")))?;
            if written != id {
                return Err(GitError::refused(format!(
                    "object {id} hashes to {written}; refusing the bundle"
                )));
            }
        }
        // Its parents are not there: the repository is shallow, as a clone
        // fetched at depth 1 is.
        let parents = self
            .repo
            .find_commit(commit)
            .map_err(|e| chain(&e))?
            .parent_ids()
            .count();
        if parents > 0 {
            std::fs::write(repo.git_dir().join("shallow"), format!("{commit}\n"))
                .map_err(|e| io("cannot write .git/shallow", e))?;
        }
        check_out(&repo, commit)
    }
}
