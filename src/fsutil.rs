//! File-system helpers shared by every writer: atomic replacement of a file
//! (temp file, fsync, rename) and of a symlink, and the one way to read a
//! file roost did not write (bounded, regular files only, never blocking).

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

/// Why a file roost did not write could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// It is a FIFO, a device, a socket or a directory: reading it could
    /// block, never end, or read a person's keystrokes.
    NotRegular(&'static str),
    /// It holds more than the bound allows.
    TooBig(u64),
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ReadError::NotRegular(kind) => write!(f, "it is {kind}, not a regular file"),
            ReadError::TooBig(limit) => write!(f, "it is larger than {}", size_words(*limit)),
            ReadError::Io(e) => f.write_str(&io_words(e)),
        }
    }
}

/// A bound in words: `1 MiB`, `64 KiB`, `100 bytes`.
pub fn size_words(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The bytes of `path` (links followed), or `None` when nothing is there,
/// read as a file roost did not write: opened without blocking and without
/// taking a terminal, refused unless it is a regular file, and refused when
/// it holds more than `limit` bytes (the read stops there, whatever the
/// file claims its size is).
pub fn read_regular(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, ReadError> {
    use std::io::Read;
    let Some(file) = open_regular(path)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooBig(limit));
    }
    Ok(Some(bytes))
}

/// The last `limit` bytes (at most) of the regular file at `path`, read as
/// `read_regular` reads: for a log or a transcript that only grows.
pub fn read_regular_tail(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, ReadError> {
    use std::io::{Read, Seek, SeekFrom};
    let Some(mut file) = open_regular(path)? else {
        return Ok(None);
    };
    let len = file.metadata().map_err(ReadError::Io)?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(limit)))
        .map_err(ReadError::Io)?;
    let mut bytes = Vec::new();
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    Ok(Some(bytes))
}

/// `path` opened for reading without blocking and without taking a
/// terminal, when it is a regular file.
pub fn open_regular(path: &Path) -> Result<Option<std::fs::File>, ReadError> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path);
    let file = match file {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ReadError::Io(e)),
    };
    let kind = file.metadata().map_err(ReadError::Io)?.file_type();
    if kind.is_file() {
        return Ok(Some(file));
    }
    Err(ReadError::NotRegular(if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }))
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
    use super::*;

    #[test]
    fn a_regular_file_is_read_whole_and_nothing_there_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, b"abc").unwrap();
        assert_eq!(read_regular(&f, 3).unwrap().unwrap(), b"abc");
        assert!(matches!(read_regular(&f, 2), Err(ReadError::TooBig(2))));
        assert!(read_regular(&dir.path().join("none"), 3).unwrap().is_none());
    }

    #[test]
    fn devices_fifos_and_directories_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let zero = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        for (path, kind) in [
            (fifo.as_path(), "a FIFO"),
            (zero.as_path(), "a character device"),
            (dir.path(), "a directory"),
        ] {
            match read_regular(path, 1 << 20) {
                Err(ReadError::NotRegular(k)) => assert_eq!(k, kind),
                other => panic!("{path:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn sizes_read_in_words() {
        assert_eq!(size_words(1 << 20), "1 MiB");
        assert_eq!(size_words(64 << 10), "64 KiB");
        assert_eq!(size_words(100), "100 bytes");
    }
}
