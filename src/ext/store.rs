//! The installed state on disk: ext.lock and ext.index written together
//! (temp files, then renames, rolled back as a pair), under an exclusive
//! advisory lock so that concurrent `roost ext` commands serialise.

use super::lock::{render_index, Lock};
use crate::fsutil;
use crate::paths::Paths;
use nix::fcntl::{Flock, FlockArg};
use std::fs::File;
use std::path::{Path, PathBuf};

/// Holds the exclusive lock for as long as it lives.
pub struct Store {
    pub paths: Paths,
    _guard: Flock<File>,
}

impl Store {
    /// Takes the lock, waiting for another `roost ext` command to finish.
    pub fn open(paths: &Paths) -> Result<Store, String> {
        std::fs::create_dir_all(&paths.state)
            .map_err(|e| format!("cannot create {}: {e}", paths.state.display()))?;
        let path = lock_path(paths);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("cannot open the lock file {}: {e}", path.display()))?;
        let guard = Flock::lock(file, FlockArg::LockExclusive)
            .map_err(|(_, e)| format!("cannot lock {}: {e}", path.display()))?;
        Ok(Store {
            paths: paths.clone(),
            _guard: guard,
        })
    }

    pub fn load(&self) -> Result<Lock, String> {
        read_lock(&self.paths)
    }

    /// Writes `lock` and the ext.index derived from it. When either write
    /// fails, both files are put back as they were.
    pub fn save(&self, lock: &Lock) -> Result<(), String> {
        let lock_file = self.paths.ext_lock();
        let index_file = self.paths.ext_index();
        let old_lock = read_optional(&lock_file)?;
        let old_index = read_optional(&index_file)?;
        let lines = lock.index_entries(|name| self.paths.ext_clone(name));
        let new_index = render_index(&lines);
        let result = if lock.is_empty() {
            remove_if_present(&lock_file).and_then(|()| remove_if_present(&index_file))
        } else {
            write(&lock_file, &lock.to_bytes()).and_then(|()| write(&index_file, &new_index))
        };
        if let Err(e) = result {
            restore(&lock_file, old_lock.as_deref());
            restore(&index_file, old_index.as_deref());
            return Err(e);
        }
        Ok(())
    }
}

/// ext.lock as it is (missing = nothing installed); no lock taken.
pub fn read_lock(paths: &Paths) -> Result<Lock, String> {
    let path = paths.ext_lock();
    match read_optional(&path)? {
        None => Ok(Lock::default()),
        Some(bytes) => Lock::parse(&bytes).map_err(|e| {
            format!(
                "{} cannot be read: {e}; fix it by hand or move it aside",
                path.display()
            )
        }),
    }
}

fn lock_path(paths: &Paths) -> PathBuf {
    paths.state.join("ext.lock.flock")
}

fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    fsutil::write_atomic(path, bytes, 0o644)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn remove_if_present(path: &Path) -> Result<(), String> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot remove {}: {e}", path.display())),
    }
}

/// Best effort: a failure here leaves what the failed write left.
fn restore(path: &Path, old: Option<&[u8]>) {
    let _ = match old {
        Some(bytes) => fsutil::write_atomic(path, bytes, 0o644),
        None => std::fs::remove_file(path).or(Ok(())),
    };
}
