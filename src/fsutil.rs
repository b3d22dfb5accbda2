//! File-system helpers shared by every writer: atomic replacement of a file
//! (temp file, fsync, rename) and of a symlink.

use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// How the temporary files of `write_atomic` start (a killed writer leaves
/// one behind; the ext store sweeps them).
pub const TEMP_PREFIX: &str = ".roost-tmp";

/// Replaces `path` with `bytes` so that a reader sees the old file or the new
/// one, never a half-written one. Creates the parent directory.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let dir = parent(path)?;
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
        .map_err(without_temp_path)?;
    tmp.write_all(bytes).map_err(without_temp_path)?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(mode))?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// tempfile appends `at path ".roost-tmpXXXX"` to its errors (and hides the
/// cause from `source`): a name the user never asked for and that may never
/// have existed. The callers name the file being written; keep the cause.
fn without_temp_path(e: io::Error) -> io::Error {
    let text = e.get_ref().map(ToString::to_string);
    match text.as_deref().and_then(|t| t.rsplit_once(" at path ")) {
        Some((cause, _)) => io::Error::new(e.kind(), cause.to_string()),
        None => e,
    }
}

/// Writes `path` only when its content differs (keeps mtimes of shipped files
/// quiet and avoids needless writes).
pub fn write_if_changed(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    match std::fs::read(path) {
        Ok(old) if old == bytes => {
            let current = std::fs::metadata(path)?.permissions().mode() & 0o7777;
            if current != mode {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
            }
            Ok(())
        }
        _ => write_atomic(path, bytes, mode),
    }
}

/// Points the symlink `link` at `target`, replacing whatever was there
/// atomically.
pub fn symlink_atomic(target: &Path, link: &Path) -> io::Result<()> {
    if std::fs::read_link(link).ok().as_deref() == Some(target) {
        return Ok(());
    }
    let dir = parent(link)?;
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".roost-link-{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp)?;
    std::fs::rename(&tmp, link).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn parent(path: &Path) -> io::Result<&Path> {
    path.parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no parent directory"))
}
