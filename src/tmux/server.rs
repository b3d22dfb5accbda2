//! Starting roost's server: the first session, with roost's base
//! configuration, the user's roost.conf and the hooks the caller hands in;
//! and checking a roost.conf in a throwaway server.

use super::client::{not_started, Tmux, TmuxError, TmuxResult};
use super::socket::Socket;
use super::start_hooks::StartHooks;
use super::{conf, literal, state, terminal};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// What a server needs at its first start.
pub struct ServerStart {
    pub home: PathBuf,
    /// PATH for the server: the scripts directory first.
    pub path: OsString,
    pub base_conf: PathBuf,
    pub user_conf: PathBuf,
    /// What the caller adds to the start (the extension switch's keeper).
    pub hooks: StartHooks,
}

impl Tmux {
    /// Runs a command that creates panes. tmux gives a new pane the PATH of
    /// the client that asked for it, so roost's scripts go first here too.
    pub(super) fn run_spawning<S: AsRef<OsStr>>(
        &self,
        args: &[S],
        start: &ServerStart,
    ) -> TmuxResult<String> {
        let mut cmd = self.call();
        cmd.env("ROOST_HOME", &start.home).env("PATH", &start.path);
        Self::finish(cmd.args(args).output())
    }

    /// Makes sure session `name` exists, starting the server when none runs:
    /// roost's base config first, then the user's roost.conf, with
    /// `ROOST_HOME` and the scripts directory in the server's environment,
    /// and the hooks `start` hands in. Returns a warning when the user's roost.conf reported an error.
    pub fn ensure_session(&self, name: &str, start: &ServerStart) -> TmuxResult<Option<String>> {
        let exact = literal::word(format!("={name}"));
        let has: [&OsStr; 3] = ["has-session".as_ref(), "-t".as_ref(), &exact];
        if self.socket_exists() && self.run(&has).is_ok() {
            return Ok(None);
        }
        let starting = !self.is_running()?;
        if starting {
            // Whatever an earlier server kept there is not this one's.
            for stale in &start.hooks.stale {
                let _ = std::fs::remove_file(stale);
            }
        }
        let with_conf = starting && start.user_conf.is_file();
        let result = self.start_session(name, start, starting, with_conf);
        // A concurrent start may have won the race, and an error in the
        // user's roost.conf does not stop the session from being created.
        if self.run(&has).is_ok() {
            return Ok(result.err().map(|e| e.0));
        }
        // Some versions (3.0) end the whole start at an error in roost.conf:
        // start again without it, as the warning says.
        if let (true, Err(first)) = (with_conf, &result) {
            let _ = self.start_session(name, start, starting, false);
            if self.run(&has).is_ok() {
                return Ok(Some(first.0.clone()));
            }
        }
        Err(result
            .err()
            .unwrap_or_else(|| TmuxError(format!("session {name} did not start"))))
    }

    /// One `new-session` of `ensure_session`, with the server's start in
    /// front of it when `starting`, sourcing roost.conf when `with_conf`.
    /// Whatever tmux said is the error.
    fn start_session(
        &self,
        name: &str,
        start: &ServerStart,
        starting: bool,
        with_conf: bool,
    ) -> TmuxResult<String> {
        let mut cmd = self.command();
        cmd.env("ROOST_HOME", &start.home).env("PATH", &start.path);
        if starting {
            cmd.arg("-f")
                .arg(&start.base_conf)
                .args(["start-server", ";"])
                .args(terminal::setting());
            if with_conf {
                cmd.arg("source-file").arg(&start.user_conf).arg(";");
            }
            cmd.args(state::hooks());
            if !start.hooks.at_start.is_empty() {
                cmd.args(&start.hooks.at_start).arg(";");
            }
        }
        cmd.args(["new-session", "-d", "-s"])
            .arg(literal::format(name));
        if let Ok(cwd) = std::env::current_dir() {
            cmd.arg("-c").arg(literal::format(cwd));
        }
        if starting && !start.hooks.after_session.is_empty() {
            cmd.arg(";").args(&start.hooks.after_session);
        }
        // tmux exits 0 when a later command succeeds, with roost.conf's
        // errors printed all the same: on stderr, or on stdout (a parse
        // error, depending on the version); nothing else here prints.
        match cmd.output() {
            Ok(out) => {
                let said: Vec<String> = [&out.stdout, &out.stderr]
                    .iter()
                    .flat_map(|b| {
                        String::from_utf8_lossy(b)
                            .lines()
                            .map(|l| l.trim().to_string())
                            .filter(|l| !l.is_empty())
                            .collect::<Vec<_>>()
                    })
                    .collect();
                match (said.is_empty(), out.status.success()) {
                    (true, true) => Ok(String::new()),
                    (true, false) => Err(TmuxError(format!("tmux exited with {}", out.status))),
                    (false, _) => Err(TmuxError(said.join("\n"))),
                }
            }
            Err(e) => Err(not_started(e)),
        }
    }
}

/// Loads roost's base configuration and then `user_conf` into a throwaway
/// server on a private socket, as roost's server does at its first start,
/// and returns every error tmux reports (parse errors, unknown options,
/// bad values). The throwaway server is gone when this returns.
pub fn check_conf(base_conf: &str, user_conf: &Path) -> TmuxResult<Vec<String>> {
    let temp = |e: std::io::Error| TmuxError(format!("cannot use a temp dir: {e}"));
    let dir = tempfile::tempdir().map_err(temp)?;
    let base = dir.path().join("base.conf");
    std::fs::write(&base, base_conf).map_err(temp)?;
    let scratch = Tmux {
        socket: Socket::Path(dir.path().join("check")),
    };
    let mut cmd = scratch.command();
    cmd.arg("-f")
        .arg(&base)
        .args(["new-session", "-d", "-s", "check", ";", "source-file"])
        .arg(user_conf);
    let out = cmd.output().map_err(not_started);
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            let _ = scratch.run(&["kill-server"]);
            return Err(e);
        }
    };
    // tmux reports a bad line on stdout or stderr, depending on the version.
    let mut errors: Vec<String> = [&out.stdout, &out.stderr]
        .iter()
        .flat_map(|b| {
            String::from_utf8_lossy(b)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    if errors.is_empty() && !out.status.success() {
        errors.push(format!("tmux cannot load it ({})", out.status));
    }
    let errors = conf::with_lines(&scratch, user_conf, errors);
    let _ = scratch.run(&["kill-server"]);
    Ok(errors)
}
