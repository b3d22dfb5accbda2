//! Windows and panes made, closed and shown: a new agent's window, the end
//! of a pane, a window, a session or the whole server, and the client
//! moved to a pane.

use super::client::{Tmux, TmuxResult};
use super::literal;
use super::server::ServerStart;
use std::ffi::{OsStr, OsString};
use std::path::Path;

impl Tmux {
    /// A new window `name` in `session`, started in `cwd` (tmux's choice
    /// when None) and running `command` (the default shell when empty),
    /// that outlives its program: remain-on-exit is set in the same command
    /// list, so the server sets it before it can see the program exit,
    /// however fast that is. `name` must be unique in the session (`=NAME`
    /// addresses the new window). Every word from outside reaches tmux
    /// literally. Returns the new pane's id.
    pub fn new_window(
        &self,
        session: &str,
        name: &str,
        cwd: Option<&Path>,
        command: &[OsString],
        start: &ServerStart,
    ) -> TmuxResult<String> {
        let mut args: Vec<OsString> = ["new-window", "-d", "-P", "-F", "#{pane_id}", "-t"]
            .iter()
            .map(OsString::from)
            .collect();
        args.push(literal::word(format!("={session}:")));
        args.push("-n".into());
        args.push(literal::format(name));
        if let Some(cwd) = cwd {
            args.push("-c".into());
            args.push(literal::format(cwd));
        }
        if !command.is_empty() {
            args.push("--".into());
            args.extend(command.iter().map(literal::word));
        }
        for word in [";", "set-option", "-w", "-t"] {
            args.push(word.into());
        }
        args.push(literal::word(format!("={session}:={name}")));
        args.push("remain-on-exit".into());
        args.push("on".into());
        let out = self.run_spawning(&args, start)?;
        Ok(out.trim_end().to_string())
    }

    /// Closes window `name` of `session`, addressed exactly.
    pub fn kill_window(&self, session: &str, name: &str) -> TmuxResult<()> {
        let exact = literal::word(format!("={session}:={name}"));
        let args: [&OsStr; 3] = ["kill-window".as_ref(), "-t".as_ref(), &exact];
        self.run(&args).map(drop)
    }

    /// Closes the window with id `window_id` (`@N`).
    pub fn kill_window_id(&self, window_id: &str) -> TmuxResult<()> {
        self.run(&["kill-window", "-t", window_id]).map(drop)
    }

    /// Closes the pane with id `pane_id` (`%N`).
    pub fn kill_pane(&self, pane_id: &str) -> TmuxResult<()> {
        self.run(&["kill-pane", "-t", pane_id]).map(drop)
    }

    /// Ends session `name`, addressed exactly.
    pub fn kill_session(&self, name: &str) -> TmuxResult<()> {
        let exact = literal::word(format!("={name}"));
        let args: [&OsStr; 3] = ["kill-session".as_ref(), "-t".as_ref(), &exact];
        self.run(&args).map(drop)
    }

    /// Ends the whole server.
    pub fn kill_server(&self) -> TmuxResult<()> {
        self.run(&["kill-server"]).map(drop)
    }

    /// Moves the client this command runs in to session `name`, addressed
    /// exactly.
    pub fn switch_to_session(&self, name: &str) -> TmuxResult<()> {
        let exact = literal::word(format!("={name}"));
        let args: [&OsStr; 3] = ["switch-client".as_ref(), "-t".as_ref(), &exact];
        self.run(&args).map(drop)
    }

    /// Moves the client this command runs in to pane `pane_id`: its
    /// session, its window, the pane itself.
    pub fn show_pane(&self, pane_id: &str) -> TmuxResult<()> {
        self.run(&[
            "switch-client",
            "-t",
            pane_id,
            ";",
            "select-window",
            "-t",
            pane_id,
            ";",
            "select-pane",
            "-t",
            pane_id,
        ])
        .map(drop)
    }
}
