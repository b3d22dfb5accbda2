//! A commit object as it is stored, byte for byte: what its signature was
//! made over is the object itself, so the signature module needs the raw
//! bytes, not a parsed commit.

use super::cause::{GitError, Result};
use super::chain::chain;
use gix::ObjectId;
use std::path::Path;

/// The most bytes a commit object may hold for its signature to be read:
/// a real commit with a signature and a long message is a few KiB.
pub const MAX_COMMIT_BYTES: u64 = 1 << 20;

/// The raw bytes of commit `id` in the repository at `git_dir`, read only
/// once its header says it is a commit of at most `MAX_COMMIT_BYTES`.
pub fn commit_object(git_dir: &Path, id: ObjectId) -> Result<Vec<u8>> {
    let repo = gix::open_opts(git_dir, gix::open::Options::isolated()).map_err(|e| chain(&e))?;
    let header = repo.find_header(id).map_err(|e| chain(&e))?;
    if header.kind() != gix::object::Kind::Commit {
        return Err(GitError::refused(format!("{id} is not a commit")));
    }
    if header.size() > MAX_COMMIT_BYTES {
        return Err(GitError::refused(format!(
            "commit {id} holds {} bytes, over the {MAX_COMMIT_BYTES} a commit's signature is read from",
            header.size()
        )));
    }
    let object = repo.find_object(id).map_err(|e| chain(&e))?;
    Ok(object.data.to_vec())
}
