//! For extension authors: a directory turned into a git repository with one
//! commit (in-process, with gix: roost runs no git program), and the
//! scaffold `roost ext new` writes.

use gix::bstr::BStr;
use gix::objs::tree::{Entry, EntryKind};
use gix::ObjectId;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

pub type Result<T> = std::result::Result<T, String>;

fn err(what: &str, e: impl std::fmt::Display) -> String {
    format!("{what}: {e}")
}

/// Makes `dir` a git repository (branch main) whose one commit holds every
/// file in it, with modes as on disk, and an index matching it, so that
/// `git status` is clean. Returns the commit id.
pub fn commit_dir(dir: &Path, message: &str) -> Result<ObjectId> {
    let repo = gix::ThreadSafeRepository::init_opts(
        dir,
        gix::create::Kind::WithWorktree,
        gix::create::Options::default(),
        gix::open::Options::isolated(),
    )
    .map_err(|e| err("cannot create the repository", e))?
    .to_thread_local();
    let tree = write_tree(&repo, dir, true)?
        .unwrap_or_else(|| ObjectId::empty_tree(gix::hash::Kind::Sha1));
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let time = format!("{seconds} +0000");
    let who = gix::actor::SignatureRef {
        name: BStr::new("roost"),
        email: BStr::new("roost@localhost"),
        time: &time,
    };
    let commit = repo
        .commit_as(who, who, "HEAD", message, tree, Vec::<ObjectId>::new())
        .map_err(|e| err("cannot commit", e))?
        .detach();
    let mut index = repo
        .index_from_tree(&tree)
        .map_err(|e| err("cannot build the index", e))?;
    index
        .write(gix::index::write::Options::default())
        .map_err(|e| err("cannot write the index", e))?;
    Ok(commit)
}

fn write_tree(repo: &gix::Repository, dir: &Path, top: bool) -> Result<Option<ObjectId>> {
    let mut entries = Vec::new();
    let listing =
        std::fs::read_dir(dir).map_err(|e| err(&format!("cannot read {}", dir.display()), e))?;
    for entry in listing {
        let entry = entry.map_err(|e| err(&format!("cannot read {}", dir.display()), e))?;
        let name = entry.file_name();
        if top && name == ".git" {
            continue;
        }
        let path = entry.path();
        let meta = std::fs::symlink_metadata(&path)
            .map_err(|e| err(&format!("cannot stat {}", path.display()), e))?;
        let (mode, oid) = if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).map_err(|e| err("cannot read a symlink", e))?;
            let id = repo
                .write_blob(target.as_os_str().as_bytes())
                .map_err(|e| err("cannot write", e))?;
            (EntryKind::Link, id.detach())
        } else if meta.is_dir() {
            match write_tree(repo, &path, false)? {
                Some(id) => (EntryKind::Tree, id),
                None => continue,
            }
        } else {
            let bytes = std::fs::read(&path)
                .map_err(|e| err(&format!("cannot read {}", path.display()), e))?;
            let id = repo.write_blob(bytes).map_err(|e| err("cannot write", e))?;
            let kind = if meta.permissions().mode() & 0o100 != 0 {
                EntryKind::BlobExecutable
            } else {
                EntryKind::Blob
            };
            (kind, id.detach())
        };
        entries.push(Entry {
            mode: mode.into(),
            filename: name.as_bytes().into(),
            oid,
        });
    }
    if entries.is_empty() {
        return Ok(None);
    }
    entries.sort();
    let id = repo
        .write_object(&gix::objs::Tree { entries })
        .map_err(|e| err("cannot write a tree", e))?;
    Ok(Some(id.detach()))
}
