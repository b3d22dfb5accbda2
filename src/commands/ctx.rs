//! What every command may need: roost's server, its paths, and how a tmux
//! failure or a server start reads as this command's error.

use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::tmux::Tmux;

/// What every command may need: roost's server and its paths.
pub struct Ctx {
    pub cmd: &'static str,
    pub tmux: Tmux,
    paths: std::result::Result<Paths, crate::paths::PathsError>,
}

impl Ctx {
    pub(super) fn new(cmd: &'static str) -> Ctx {
        Ctx {
            cmd,
            tmux: Tmux::from_env(),
            paths: Paths::from_env(),
        }
    }

    pub fn paths(&self) -> Result<&Paths> {
        self.paths
            .as_ref()
            .map_err(|e| Error::fail(self.cmd, e.to_string()))
    }

    /// roost's files written out, and what a server start needs: with the
    /// extension switch's keeper among its hooks.
    pub fn server_start(&self) -> Result<crate::tmux::ServerStart> {
        let paths = self.paths()?;
        paths
            .check_writable()
            .map_err(|(msg, hint)| Error::fail(self.cmd, msg).hint(hint))?;
        let start = crate::home::server_start(paths).map_err(|e| {
            Error::fail(
                self.cmd,
                format!(
                    "cannot write roost's files under {}: {}",
                    paths.data.display(),
                    crate::fsutil::io_words(&e)
                ),
            )
        })?;
        let mut hooks = crate::tmux::switch_keeper::start_hooks(&self.tmux.socket);
        // Events only tmux sees (a pane's program ending), and the start.
        if let Some(em) = crate::events::Emitter::this() {
            use crate::events::Event;
            let pane = "--pane=#{?hook_pane,#{hook_pane},#{pane_id}}";
            let died = em.hook_command(Event::Exited, &[pane, "--status=#{pane_dead_status}"]);
            let exited = em.hook_command(Event::Exited, &[pane]);
            if !hooks.at_start.is_empty() {
                hooks.at_start.push(";".into());
            }
            hooks
                .at_start
                .extend(crate::tmux::event_hooks(&died, &exited));
            if !hooks.after_session.is_empty() {
                hooks.after_session.push(";".into());
            }
            let started = em.hook_command(Event::ServerStart, &[]);
            hooks.after_session.extend(crate::tmux::run_now(&started));
        }
        Ok(crate::tmux::ServerStart { hooks, ..start })
    }

    /// For a command that found no server: a missing tmux is an error of
    /// its own, not "not running".
    pub fn require_tmux(&self) -> Result<()> {
        crate::tmux::installed().map_err(|e| self.tmux_err(e))
    }

    /// A tmux failure as this command's error.
    pub fn tmux_err(&self, e: crate::tmux::TmuxError) -> Error {
        Error::fail(self.cmd, e.0)
    }

    /// Session `name` exists afterwards, or an error says why not.
    pub fn ensure_session(&self, name: &str) -> Result<()> {
        let start = self.server_start()?;
        if !self.tmux.is_running().map_err(|e| self.tmux_err(e))? {
            crate::tmux::installed().map_err(|e| self.tmux_err(e))?;
            if let Some((why, hint)) = crate::tmux::socket_dir::problem(&self.tmux.socket) {
                return Err(
                    Error::fail(self.cmd, format!("cannot start session {name}: {why}")).hint(hint),
                );
            }
        }
        match self.tmux.ensure_session(name, &start) {
            Ok(None) => Ok(()),
            Ok(Some(warning)) => {
                conf_warning(self.cmd, &start.user_conf, warning);
                Ok(())
            }
            Err(e) if e.0 == crate::tmux::MISSING => Err(self.tmux_err(e)),
            Err(e) => Err(Error::fail(
                self.cmd,
                format!("cannot start session {name}: {}", e.0),
            )),
        }
    }
}

/// roost.conf's errors at a server start, each with its line when it can be
/// found (a throwaway server loads the file again to find it).
fn conf_warning(cmd: &str, conf: &std::path::Path, raw: String) {
    let errors = match crate::tmux::check_conf(crate::home::BASE_CONF, conf) {
        Ok(errors) if !errors.is_empty() => errors,
        _ => raw.lines().map(str::to_string).collect(),
    };
    for e in errors {
        eprintln!(
            "roost {cmd}: warning: {}: {}",
            crate::untrusted::path(conf),
            crate::untrusted::printable(e.as_bytes())
        );
    }
    eprintln!(
        "the server started without it: fix roost.conf, then roost kill and roost to load it again (roost doctor checks it)"
    );
}
