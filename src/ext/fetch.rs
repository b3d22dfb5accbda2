//! Fetching one pinned commit into a temporary clone and holding it to
//! every install gate (the manifest, the checks, the tree hash), and who
//! signed it (read from the commit object, nothing run): what install,
//! update, rollback, repair and sync put in place. A commit from an
//! offline bundle goes through the same gates.

use super::error::{ExtError, Result};
use super::git::hash::hash_dir_shown;
use super::git::{self, entries};
use super::manifest::Manifest;
use super::signature::{self, Signer};
use super::{checks, display};
use crate::paths::Paths;
use std::path::{Path, PathBuf};

/// A pinned commit fetched and checked, waiting in a temporary directory
/// (removed on drop unless it was moved into place).
pub struct Fetched {
    _tmp: tempfile::TempDir,
    /// Dropped after `_tmp`: the directories made to hold it.
    _made: Made,
    pub dir: PathBuf,
    pub commit: String,
    pub tree: String,
    pub manifest: Manifest,
    /// Who signed the commit, read from the object fetched.
    pub signer: Signer,
    /// Dropped last: while a temporary clone exists, an interrupt unwinds
    /// (and removes it) instead of killing roost, and the move into place
    /// and the record are not cut in half.
    _interrupts: git::Interrupts,
}

/// Resolves, fetches and runs every gate on one commit of `url`.
pub fn fetch(paths: &Paths, url: &str, reference: Option<&str>) -> Result<Fetched> {
    let shown = reference.unwrap_or("HEAD");
    let mut remote = git::Remote::new(url);
    let commit = remote
        .resolve(reference)
        .map_err(|e| git::failure::explain(&format!("cannot resolve {shown} at"), url, &e))?;
    fetch_commit(paths, remote, url, commit)
}

/// Fetches `commit` from `remote` (at `url`), over the connection that
/// resolved it if there was one (closed once the fetch is done, before
/// anything is shown or asked), and runs every gate on it.
pub fn fetch_commit(
    paths: &Paths,
    remote: git::Remote,
    url: &str,
    commit: entries::ObjectId,
) -> Result<Fetched> {
    gated(paths, url, commit, |dir| {
        remote
            .fetch_pinned(commit, dir)
            .map_err(|e| git::failure::explain(&format!("cannot fetch {commit} from"), url, &e))
    })
}

/// Checks `commit` out of an offline bundle (no network, no git program),
/// its objects already verified by their ids, and runs every gate on it.
pub fn from_bundle(
    paths: &Paths,
    bundle: &git::bundle::Unpacked,
    url: &str,
    commit: entries::ObjectId,
) -> Result<Fetched> {
    gated(paths, url, commit, |dir| {
        bundle.check_out(commit, dir, url).map_err(|e| {
            ExtError::from(e).within(format!("cannot check {commit} out of the bundle"))
        })
    })
}

/// A temporary clone that `get` fills with `commit` (returning its tree),
/// held to every install gate.
fn gated(
    paths: &Paths,
    url: &str,
    commit: entries::ObjectId,
    get: impl FnOnce(&Path) -> Result<entries::ObjectId>,
) -> Result<Fetched> {
    let interrupts = git::Interrupts::catch();
    let root = paths.data.join("ext");
    let made = Made::new(&root);
    let tmp = temp_dir_in(&root)?;
    let dir = tmp.path().join("clone");
    let tree = get(&dir)?;
    let manifest = checks::check_dir(&dir).map_err(|e| {
        e.reword(|m| {
            format!(
                "refusing {url} at {}: {m}",
                display::short(&commit.to_string())
            )
        })
    })?;
    let recorded = git::tree_leaves(&dir.join(".git"), tree)?;
    let gitlinks = entries::submodules(&recorded);
    let (on_disk, _) = hash_dir_shown(&dir, &gitlinks)?;
    if on_disk != tree {
        return Err(ExtError::refused(format!(
            "the files checked out do not hash to the tree of {commit}; refusing rather than installing something else"
        )));
    }
    let object = git::commit::commit_object(&dir.join(".git"), commit)
        .map_err(|e| git::failure::explain(&format!("cannot read {commit} from"), url, &e))?;
    let signer = signature::of_commit(&object);
    Ok(Fetched {
        signer,
        _tmp: tmp,
        _made: made,
        dir,
        commit: commit.to_string(),
        tree: tree.to_string(),
        manifest,
        _interrupts: interrupts,
    })
}

/// A fresh temporary directory in `root`, creating `root` if needed. Tried
/// twice: a concurrent refused install may remove an empty `root` between
/// the two steps (see `Made`).
fn temp_dir_in(root: &Path) -> Result<tempfile::TempDir> {
    let mut tries = 0;
    loop {
        tries += 1;
        std::fs::create_dir_all(root)
            .map_err(|e| ExtError::failed(format!("cannot create {}: {e}", root.display())))?;
        match tempfile::Builder::new()
            .prefix(&format!(".fetch-{}-", std::process::id()))
            .tempdir_in(root)
        {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && tries < 2 => continue,
            result => {
                return result.map_err(|e| {
                    ExtError::failed(format!(
                        "cannot create a temporary directory in {}: {e}",
                        root.display()
                    ))
                })
            }
        }
    }
}

/// The directories that did not exist yet on the way to the temporary
/// clone. On drop each is removed if it is still empty, so a refused or
/// failed install leaves the disk as it found it; an installed clone keeps
/// them in use.
struct Made(Vec<PathBuf>);

impl Made {
    fn new(dir: &Path) -> Made {
        Made(
            dir.ancestors()
                .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
                .map(Path::to_path_buf)
                .collect(),
        )
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        for dir in &self.0 {
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
}
