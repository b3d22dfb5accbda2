//! One tmux call: how roost runs the tmux client against its server, what
//! a failed call says, and which tmux this machine has.

use super::listening;
use super::literal;
use super::socket::Socket;
use super::switch_keeper;
use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Stdio};

/// A failed tmux call: its stderr, or why it could not be started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmuxError(pub String);

pub type TmuxResult<T> = Result<T, TmuxError>;

/// roost's tmux server.
pub struct Tmux {
    pub socket: Socket,
}

impl Tmux {
    pub fn from_env() -> Tmux {
        Tmux {
            socket: Socket::from_env(),
        }
    }

    /// Every call roost makes to its server. `-u` because tmux rewrites
    /// what it prints for a client whose locale is not UTF-8 (LC_ALL=C,
    /// POSIX, no LANG at all): the TABs between `-F` fields and every
    /// non-ASCII byte become `_`. roost reads that output, it does not show
    /// it on a terminal, so it asks for it unchanged in every locale.
    pub(super) fn command(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-u")
            .arg(self.socket.flag())
            .arg(self.socket.value());
        cmd.stdin(Stdio::null());
        cmd
    }

    /// A command list for roost's server: the client of `command`, with the
    /// switch keeper's watchers' comparison in front
    /// (`switch_keeper::watch`), so that whatever roost asks of the server
    /// also finds out whether the kept switch file can still be trusted.
    pub(super) fn call(&self) -> Command {
        let mut cmd = self.command();
        cmd.args(switch_keeper::watch());
        cmd
    }

    /// Replaces this process with a tmux client attached to session `name`
    /// (addressed exactly); returns only when tmux cannot be run. The client
    /// draws on the user's terminal, so the terminal's locale decides, not
    /// `-u`.
    pub fn attach(&self, name: &str) -> TmuxError {
        use std::os::unix::process::CommandExt;
        let err = Command::new("tmux")
            .arg(self.socket.flag())
            .arg(self.socket.value())
            .args(["attach-session", "-t"])
            .arg(literal::word(format!("={name}")))
            .env_remove("TMUX")
            .exec();
        not_started(err)
    }

    pub(super) fn finish(out: std::io::Result<std::process::Output>) -> TmuxResult<String> {
        let out = out.map_err(not_started)?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
            Err(TmuxError(if err.is_empty() {
                format!("tmux exited with {}", out.status)
            } else {
                err
            }))
        }
    }

    /// Runs one tmux command against roost's server and returns its stdout.
    pub(super) fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> TmuxResult<String> {
        Self::finish(self.call().args(args).output())
    }

    /// Like `run`, feeding `input` on stdin (for `load-buffer -`).
    pub(super) fn run_with_input<S: AsRef<OsStr>>(
        &self,
        args: &[S],
        input: &[u8],
    ) -> TmuxResult<String> {
        let mut cmd = self.call();
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .map_err(|e| TmuxError(format!("cannot run tmux: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(input)
                .map_err(|e| TmuxError(format!("cannot feed tmux: {e}")))?;
        }
        Self::finish(child.wait_with_output())
    }

    /// Whether the socket file exists: a cheap "maybe running" that never
    /// forks. A stale socket still needs `is_running` to tell.
    pub fn socket_exists(&self) -> bool {
        self.socket.file().exists()
    }

    /// Whether roost's server answers. An error, not "no", where a server
    /// may be there but this process may not connect to it: a sandbox
    /// around it (a coding agent's) that forbids Unix sockets.
    pub fn is_running(&self) -> TmuxResult<bool> {
        if !self.socket_exists() {
            return Ok(false);
        }
        let file = self.socket.file();
        if let listening::Listener::Denied(errno) = listening::listener(&file) {
            let dir = file.parent().unwrap_or(&file);
            return Err(TmuxError(format!(
                "cannot connect to roost's server at {}: {}; a sandbox around this command \
                 (a coding agent's, say) forbids Unix sockets: allow {} in it, or run roost outside it",
                file.display(),
                errno.desc(),
                dir.display()
            )));
        }
        Ok(self
            .run(&["list-sessions", "-F", "#{session_name}"])
            .is_ok())
    }
}

/// Why tmux could not be started at all.
pub(super) fn not_started(e: std::io::Error) -> TmuxError {
    match e.kind() {
        std::io::ErrorKind::NotFound => TmuxError(MISSING.into()),
        _ => TmuxError(format!("cannot run tmux: {e}")),
    }
}

/// What every command says when there is no tmux to run.
pub const MISSING: &str =
    "tmux is not installed (not found on PATH); roost runs its fleet in tmux 3.0 or later: \
     install it (apt-get install tmux, dnf install tmux, brew install tmux)";

/// Whether a tmux can be run at all (a missing tmux is not "not running").
pub fn installed() -> TmuxResult<()> {
    version().map(drop)
}

/// `tmux -V`, as it prints it.
pub fn version() -> TmuxResult<String> {
    let out = Command::new("tmux")
        .arg("-V")
        .stdin(Stdio::null())
        .output()
        .map_err(not_started)?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// What a tmux version string says: a release, a development version
/// (`next-3.8`, `master`: newer than any release), or something unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Release(u32, u32),
    Development,
    Unknown,
}

impl Version {
    /// From `tmux -V`: `tmux 3.3a`, `tmux next-3.8`, `tmux master`,
    /// `tmux openbsd-7.4`.
    pub fn parse(text: &str) -> Version {
        let Some(v) = text.split_whitespace().nth(1) else {
            return Version::Unknown;
        };
        if v.starts_with("next-") || v == "master" {
            return Version::Development;
        }
        let digits: String = v
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let mut parts = digits.split('.');
        match (
            parts.next().and_then(|p| p.parse().ok()),
            parts.next().map_or(Some(0), |p| p.parse().ok()),
        ) {
            (Some(major), Some(minor)) => Version::Release(major, minor),
            _ => Version::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tmux_versions_read_as_releases_development_or_unknown() {
        assert_eq!(Version::parse("tmux 3.3a"), Version::Release(3, 3));
        assert_eq!(Version::parse("tmux 3.0a"), Version::Release(3, 0));
        assert_eq!(Version::parse("tmux 2.9"), Version::Release(2, 9));
        assert_eq!(Version::parse("tmux 3"), Version::Release(3, 0));
        assert_eq!(Version::parse("tmux next-3.8"), Version::Development);
        assert_eq!(Version::parse("tmux master"), Version::Development);
        assert_eq!(Version::parse("tmux openbsd-7.4"), Version::Unknown);
        assert_eq!(Version::parse(""), Version::Unknown);
    }
}
