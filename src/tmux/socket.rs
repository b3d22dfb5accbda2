//! The socket rule: which server is roost's and how to address it
//! (`tmux -L NAME` or `tmux -S PATH`).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// How roost addresses its server: `tmux -L NAME` or `tmux -S PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Socket {
    Name(OsString),
    Path(PathBuf),
}

impl Socket {
    /// The socket rule from the process environment.
    pub fn from_env() -> Socket {
        Socket::resolve(std::env::var_os("ROOST_SOCKET"), std::env::var_os("TMUX"))
    }

    /// `ROOST_SOCKET` (a `/` makes it a path, made absolute), else the enclosing server when
    /// `$TMUX` names a socket path ending in `/roost`, else the name `roost`.
    /// Never the user's everyday server.
    pub fn resolve(roost_socket: Option<OsString>, tmux: Option<OsString>) -> Socket {
        if let Some(s) = roost_socket.filter(|s| !s.is_empty()) {
            return if s.as_bytes().contains(&b'/') {
                // Relative to where roost runs now, not to wherever a later
                // client or the server's own shells run.
                let path = PathBuf::from(s);
                if path.is_relative() {
                    Socket::Path(std::path::absolute(&path).unwrap_or(path))
                } else {
                    Socket::Path(path)
                }
            } else {
                Socket::Name(s)
            };
        }
        if let Some(path) = tmux.as_deref().and_then(enclosing_socket) {
            if path.as_os_str().as_bytes().ends_with(b"/roost") {
                return Socket::Path(path);
            }
        }
        Socket::Name(OsString::from("roost"))
    }

    /// `-L` for a name, `-S` for a path (what `ROOST_SOCKET_FLAG` carries).
    pub fn flag(&self) -> &'static str {
        match self {
            Socket::Name(_) => "-L",
            Socket::Path(_) => "-S",
        }
    }

    /// The name or path itself (what `ROOST_SOCKET` carries).
    pub fn value(&self) -> &OsStr {
        match self {
            Socket::Name(n) => n,
            Socket::Path(p) => p.as_os_str(),
        }
    }

    /// The socket file, where tmux puts it: a name lives in
    /// `${TMUX_TMPDIR:-/tmp}/tmux-UID/` (an empty TMUX_TMPDIR means /tmp).
    pub fn file(&self) -> PathBuf {
        match self {
            Socket::Path(p) => p.clone(),
            Socket::Name(n) => {
                let tmpdir = std::env::var_os("TMUX_TMPDIR")
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| OsString::from("/tmp"));
                let uid = nix::unistd::getuid();
                PathBuf::from(tmpdir).join(format!("tmux-{uid}")).join(n)
            }
        }
    }
}

/// The socket path of `$TMUX` (`/path/to/socket,PID,SESSION`).
pub(super) fn enclosing_socket(tmux: &OsStr) -> Option<PathBuf> {
    let bytes = tmux.as_bytes();
    let end = bytes.iter().rposition(|&b| b == b',')?;
    let end = bytes[..end].iter().rposition(|&b| b == b',')?;
    (end > 0).then(|| PathBuf::from(OsStr::from_bytes(&bytes[..end])))
}

/// Whether two paths name the same file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<OsString> {
        Some(OsString::from(s))
    }

    #[test]
    fn a_socket_name_uses_dash_l_and_a_path_dash_s() {
        let name = Socket::resolve(os("fleet"), None);
        assert_eq!((name.flag(), name.value()), ("-L", OsStr::new("fleet")));
        let path = Socket::resolve(os("/tmp/x/sock"), None);
        assert_eq!(
            (path.flag(), path.value()),
            ("-S", OsStr::new("/tmp/x/sock"))
        );
        assert_eq!(Socket::resolve(os("rel/sock"), None).flag(), "-S");
    }

    #[test]
    fn tmux_is_adopted_only_for_a_socket_ending_in_slash_roost() {
        let inside = Socket::resolve(None, os("/tmp/tmux-0/roost,123,0"));
        assert_eq!(inside, Socket::Path(PathBuf::from("/tmp/tmux-0/roost")));
        for other in [
            "/tmp/tmux-0/default,1,0",
            "/tmp/tmux-0/myroost,1,0",
            "/tmp/roost/x,1,0",
            "junk",
        ] {
            assert_eq!(
                Socket::resolve(None, os(other)),
                Socket::Name("roost".into()),
                "{other}"
            );
        }
    }

    #[test]
    fn roost_socket_wins_over_tmux_and_empty_means_unset() {
        assert_eq!(
            Socket::resolve(os("mine"), os("/tmp/tmux-0/roost,1,0")),
            Socket::Name("mine".into())
        );
        assert_eq!(Socket::resolve(os(""), None), Socket::Name("roost".into()));
    }

    #[test]
    fn a_socket_path_with_commas_is_split_at_the_last_two() {
        assert_eq!(
            enclosing_socket(OsStr::new("/a,b/roost,1,2")),
            Some(PathBuf::from("/a,b/roost"))
        );
    }
}
