//! Whether a tmux server listens on a socket, and who it is, without
//! starting a tmux process or sending a byte of tmux's protocol: a bare
//! `connect()` (closed at once; the server forgets the client) and the
//! listener's credentials from the kernel. The dispatcher asks this on every
//! extension command, so it stays a handful of system calls.

use nix::sys::socket::{self, sockopt, AddressFamily, SockFlag, SockType, UnixAddr};
use nix::unistd::{getuid, Uid};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;

/// What a socket file says about its server.
#[derive(Debug, PartialEq, Eq)]
pub enum Listener {
    /// No socket file, or nothing accepts on it (a server killed, or a
    /// socket left behind by `kill-server`).
    None,
    /// A server of this user listens; its process id.
    Ours(i32),
    /// Something roost cannot vouch for: not a socket, another user's, a path
    /// too long for `connect()`, or an error other than "nobody there".
    Unknown,
    /// Connecting was refused to this process itself (EPERM, EACCES): a
    /// sandbox around it, such as a coding agent's, forbids Unix sockets.
    Denied(nix::errno::Errno),
}

pub fn listener(socket: &Path) -> Listener {
    let uid = getuid();
    let meta = match std::fs::symlink_metadata(socket) {
        Ok(meta) => meta,
        Err(_) => return Listener::None,
    };
    if !meta.file_type().is_socket() || Uid::from_raw(meta.uid()) != uid {
        return Listener::Unknown;
    }
    let Ok(addr) = UnixAddr::new(socket) else {
        return Listener::Unknown;
    };
    use nix::errno::Errno;
    let fd = match socket::socket(
        AddressFamily::Unix,
        SockType::Stream,
        SockFlag::SOCK_CLOEXEC,
        None,
    ) {
        Ok(fd) => fd,
        Err(e @ (Errno::EPERM | Errno::EACCES)) => return Listener::Denied(e),
        Err(_) => return Listener::Unknown,
    };
    match socket::connect(std::os::fd::AsRawFd::as_raw_fd(&fd), &addr) {
        Ok(()) => {}
        Err(Errno::ECONNREFUSED | Errno::ENOENT) => return Listener::None,
        Err(e @ (Errno::EPERM | Errno::EACCES)) => return Listener::Denied(e),
        Err(_) => return Listener::Unknown,
    }
    match socket::getsockopt(&fd, sockopt::PeerCredentials) {
        Ok(cred) if Uid::from_raw(cred.uid()) == uid => Listener::Ours(cred.pid()),
        _ => Listener::Unknown,
    }
}
