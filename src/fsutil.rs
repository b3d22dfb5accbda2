//! File-system helpers shared by every writer: atomic replacement of a file
//! (temp file, fsync, rename) and of a symlink; and a bounded read of a
//! regular file roost did not write.

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
    make_dirs(dir, 0o755)?;
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
    make_dirs(dir, 0o755)?;
    let tmp = dir.join(format!(".roost-link-{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp)?;
    std::fs::rename(&tmp, link).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Makes `dir` and the directories above it that are missing, each with
/// `mode` at most: the umask narrows it, never widens it (a umask of 000
/// gives `mode` itself, not 0777).
pub fn make_dirs(dir: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(mode)
        .create(dir)
}

/// Adds group and other write to this process's umask: from here on no
/// file or directory it creates (gix's checkout included) is writable by
/// anyone but the user, whatever umask it was started with.
pub fn narrow_umask() {
    use nix::sys::stat::{umask, Mode};
    let old = umask(Mode::S_IWGRP | Mode::S_IWOTH);
    umask(old | Mode::S_IWGRP | Mode::S_IWOTH);
}

fn parent(path: &Path) -> io::Result<&Path> {
    path.parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no parent directory"))
}

/// Whether `dir` can be made and written to: it, or the nearest directory
/// above it that exists, is writable by this process (asked with access(2);
/// nothing is written). The error says what is in the way.
pub fn check_writable(dir: &Path) -> Result<(), String> {
    use nix::unistd::{access, AccessFlags};
    let mut at = dir;
    loop {
        match std::fs::metadata(at) {
            Ok(m) if m.is_dir() => {
                return access(at, AccessFlags::W_OK | AccessFlags::X_OK).map_err(|e| {
                    let why = match e {
                        nix::errno::Errno::EROFS => "on a read-only file system".to_string(),
                        nix::errno::Errno::EACCES | nix::errno::Errno::EPERM => {
                            "not writable".to_string()
                        }
                        other => format!("not writable ({})", other.desc()),
                    };
                    if at == dir {
                        format!("{} is {why}", dir.display())
                    } else {
                        format!(
                            "{} cannot be made: {} is {why}",
                            dir.display(),
                            at.display()
                        )
                    }
                });
            }
            Ok(_) => {
                return Err(format!(
                    "{} cannot be made: {} is not a directory",
                    dir.display(),
                    at.display()
                ))
            }
            Err(_) => match at.parent() {
                Some(parent) => at = parent,
                None => return Err(format!("{} cannot be made", dir.display())),
            },
        }
    }
}

/// The executable regular file `name` names: itself when it holds a `/`
/// (relative to the current directory), else the first match on `path`.
pub fn find_program(name: &str, path: &std::ffi::OsStr) -> Option<std::path::PathBuf> {
    let runnable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            && nix::unistd::access(p, nix::unistd::AccessFlags::X_OK).is_ok()
    };
    if name.contains('/') {
        let p = Path::new(name);
        return runnable(p).then(|| p.to_path_buf());
    }
    if name.is_empty() {
        return None;
    }
    std::env::split_paths(path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|p| runnable(p))
}

/// The bytes of `path`, a regular file of at most `max` bytes, read as
/// text roost did not write is read: a link is not followed, and nothing
/// but a regular file (never a FIFO or a terminal) is opened far enough to
/// block; a longer file is an error, not a truncated read.
pub fn read_regular(path: &Path, max: usize) -> io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK | nix::libc::O_CLOEXEC)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(max as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > max {
        return Err(io::Error::other(format!("longer than {max} bytes")));
    }
    Ok(bytes)
}

/// An io error in words, without std's `(os error N)` tail: "No such file
/// or directory".
pub fn io_words(e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(n) => nix::errno::Errno::from_raw(n).desc().to_string(),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::read_regular;

    #[test]
    fn a_bounded_read_takes_a_regular_file_alone_and_never_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, b"12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), b"12345");
        assert!(read_regular(&file, 4).is_err());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert!(read_regular(&link, 5).is_err());
        // A FIFO with no writer would block an ordinary open and read.
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        assert!(read_regular(&fifo, 5).is_err());
        assert!(read_regular(dir.path(), 5).is_err());
    }
}
