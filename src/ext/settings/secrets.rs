//! Secrets: one owner-only file each in `$ROOST_EXT_SECRETS` (itself
//! owner-only), created with its final mode so that no moment exists when
//! another user could open it. They never enter an environment, argv or a
//! log; what reads them is the extension's own code, and the masking of a
//! handler's captured output.

use super::declaration::MAX_VALUE;
use crate::ext::error::ExtError;
use crate::fsutil;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The mode of the directory and of each file.
pub const DIR_MODE: u32 = 0o700;
pub const FILE_MODE: u32 = 0o600;

/// Writes secret `key` (owner-only from its creation: a temporary file made
/// 0600, renamed into place).
pub fn write(dir: &Path, key: &str, value: &str) -> Result<(), ExtError> {
    let fail = |what: &Path, e: std::io::Error| {
        ExtError::failed(format!(
            "cannot write {}: {}",
            crate::untrusted::path(what),
            fsutil::io_words(&e)
        ))
    };
    fsutil::make_dirs(dir, DIR_MODE).map_err(|e| fail(dir, e))?;
    let path = dir.join(key);
    fsutil::write_atomic(&path, value.as_bytes(), FILE_MODE).map_err(|e| fail(&path, e))
}

/// Whether secret `key` has a file.
pub fn is_set(dir: &Path, key: &str) -> bool {
    std::fs::symlink_metadata(dir.join(key)).is_ok_and(|m| m.is_file())
}

/// Deletes secret `key`; whether there was one.
pub fn remove(dir: &Path, key: &str) -> Result<bool, ExtError> {
    let path = dir.join(key);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(ExtError::failed(format!(
            "cannot delete {}: {}",
            crate::untrusted::path(&path),
            fsutil::io_words(&e)
        ))),
    }
}

/// The secrets in `dir` (every regular file there, up to 64 of 4 KiB
/// each): what a capture of an extension's output must mask. The events
/// runtime's capture takes them; nothing else reads a secret.
pub fn values(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .take(super::declaration::MAX_SETTINGS)
        .filter_map(|e| fsutil::read_regular(&e.path(), MAX_VALUE as u64).ok()?)
        .filter(|v| !v.is_empty())
        .collect()
}

/// What other users can reach in `dir`: the directory or a file in it
/// readable, writable or searchable by group or others, each with its mode
/// (as ssh complains of a private key).
pub fn exposed(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mode = |p: &Path| {
        std::fs::symlink_metadata(p)
            .ok()
            .map(|m| m.permissions().mode() & 0o7777)
    };
    let mut out = Vec::new();
    match mode(dir) {
        None => return out,
        Some(m) if m & 0o077 != 0 => out.push((dir.to_path_buf(), m)),
        Some(_) => {}
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten().take(1024) {
            let p = entry.path();
            if let Some(m) = mode(&p) {
                if m & 0o077 != 0 {
                    out.push((p, m));
                }
            }
        }
    }
    out.sort();
    out
}

/// `doctor`'s complaints about NAME's secrets, as ssh complains of a key:
/// each what is wrong, and the command that fixes it.
pub fn complaints(dir: &Path, name: &str) -> Vec<(String, String)> {
    exposed(dir)
        .into_iter()
        .map(|(path, mode)| {
            let shown = crate::untrusted::path(&path);
            (
                format!(
                    "extension {name}: permissions {mode:04o} for {shown} are too open: \
                     its secrets must be readable by you alone"
                ),
                format!(
                    "chmod go= {}",
                    crate::untrusted::shell_word(&path.to_string_lossy())
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_to_mask_are_the_set_secrets() {
        let dir = tempfile::tempdir().unwrap();
        assert!(values(&dir.path().join("none")).is_empty());
        write(dir.path(), "token", "s3cr3t").unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero")).unwrap();
        assert_eq!(values(dir.path()), vec![b"s3cr3t".to_vec()]);
        let mode = std::fs::metadata(dir.path().join("token"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, FILE_MODE);
    }
}
