//! One sender at a time per pane: a POSIX record lock on one byte of a file
//! beside the server's socket (the byte is the pane's number), shared by
//! every process and every user that can reach the socket. The kernel drops
//! it when its holder exits, however it exits.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Held while a send is under way; released on drop (or on exit).
pub struct PaneLock {
    _file: File,
}

/// The file the locks live in: `<socket>.roost-send`.
pub fn file_for(socket: &Path) -> PathBuf {
    let mut name = socket.as_os_str().to_owned();
    name.push(".roost-send");
    PathBuf::from(name)
}

/// Takes the lock on `pane` (`%N`), waiting until `deadline`. `Ok(None)`
/// when another sender still holds it then.
pub fn take(socket: &Path, pane: &str, deadline: Instant) -> std::io::Result<Option<PaneLock>> {
    let number: i64 = pane
        .trim_start_matches('%')
        .parse()
        .map_err(|_| std::io::Error::other(format!("{pane} is not a pane id")))?;
    let path = file_for(socket);
    let file = open(&path)?;
    loop {
        if try_lock(&file, number)? {
            return Ok(Some(PaneLock { _file: file }));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Opens (creating) the lock file; a new one is made writable for anyone
/// who can reach the socket's directory, so every user of a shared server
/// takes the same locks.
fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o666)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_CLOEXEC)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    if meta.permissions().mode() & 0o777 != 0o666 && meta.len() == 0 {
        // The umask narrowed a file this process may just have made.
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o666));
    }
    Ok(file)
}

/// One non-blocking attempt at a write lock on byte `n`.
fn try_lock(file: &File, n: i64) -> std::io::Result<bool> {
    use nix::libc;
    // SAFETY: flock is a plain C struct; all-zero is a valid value.
    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
    lock.l_type = libc::F_WRLCK as _;
    lock.l_whence = libc::SEEK_SET as _;
    lock.l_start = n as _;
    lock.l_len = 1;
    match nix::fcntl::fcntl(file, nix::fcntl::FcntlArg::F_SETLK(&lock)) {
        Ok(_) => Ok(true),
        Err(nix::errno::Errno::EAGAIN | nix::errno::Errno::EACCES) => Ok(false),
        Err(e) => Err(e.into()),
    }
}
