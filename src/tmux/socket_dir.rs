//! Whether a server could make its socket: the directory it goes in must
//! exist (or, for a named socket, the directory tmux makes it in) and be
//! writable. tmux's own word for this is a bare errno; this says which
//! directory and what to do.

use super::Socket;
use nix::unistd::{access, AccessFlags};
use std::path::Path;

/// What stands in the way of creating the socket, and what to do, or None.
pub fn problem(socket: &Socket) -> Option<(String, String)> {
    let file = socket.file();
    let dir = file.parent()?;
    let var = match socket {
        Socket::Path(_) => "ROOST_SOCKET",
        Socket::Name(_) => "TMUX_TMPDIR",
    };
    // For a named socket tmux makes tmux-UID itself inside TMUX_TMPDIR.
    let checked = match socket {
        Socket::Name(_) if !dir.exists() => dir.parent()?,
        _ => dir,
    };
    unusable(checked).map(|why| {
        let hint = if why.ends_with("does not exist") {
            format!(
                "create it (mkdir -p {}), or set {var} to {}",
                checked.display(),
                place(var)
            )
        } else {
            format!("set {var} to {}", place(var))
        };
        (format!("the socket's directory {why}"), hint)
    })
}

fn place(var: &str) -> &'static str {
    if var == "ROOST_SOCKET" {
        "a path in a directory you can write"
    } else {
        "a directory you can write"
    }
}

fn unusable(dir: &Path) -> Option<String> {
    match std::fs::metadata(dir) {
        Err(_) => Some(format!("{} does not exist", dir.display())),
        Ok(m) if !m.is_dir() => Some(format!("{} is not a directory", dir.display())),
        Ok(_) => match access(dir, AccessFlags::W_OK | AccessFlags::X_OK) {
            Ok(()) => None,
            Err(nix::errno::Errno::EROFS) => {
                Some(format!("{} is on a read-only file system", dir.display()))
            }
            Err(_) => Some(format!("{} is not writable", dir.display())),
        },
    }
}
