//! Agent states and how waiters learn they changed without polling: `roost
//! state` stamps the pane and signals the pane's tmux channel in one tmux
//! command, a pane whose program ends signals it from a hook, and a waiter
//! sleeps in `wait-for` on that channel, entered only if, at that moment in
//! the server, the pane is still unfinished (so no change between a look and
//! the sleep is missed).

use super::{not_started, Tmux, TmuxResult};
use nix::sys::wait::{waitid, Id, WaitPidFlag};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

/// The pane option holding the state.
pub const OPTION: &str = "@agent_state";

/// The states a waiter stops at.
pub const FINAL: &[&str] = &["done", "idle", "error"];

/// The channel that wakes the waiters of `pane`.
pub fn channel(pane: &str) -> String {
    format!("roost-state-{pane}")
}

/// The hooks a server started by roost gets, in their own slots: a pane
/// whose program ends wakes its waiters (the shell's `tmux` finds the server
/// through `$TMUX`).
pub fn hooks() -> Vec<String> {
    let wake = format!(
        "run-shell -b \"tmux wait-for -S {}\"",
        channel("#{pane_id}")
    );
    let mut words = Vec::new();
    for hook in ["pane-died[77]", "pane-exited[77]"] {
        for w in ["set-hook", "-g", hook, &wake, ";"] {
            words.push(w.to_string());
        }
    }
    words
}

/// A format that is 1 while `pane` is alive and not in a final state.
fn unfinished() -> String {
    let mut inner = "1".to_string();
    for state in FINAL.iter().rev() {
        inner = format!("#{{?#{{==:#{{{OPTION}}},{state}}},0,{inner}}}");
    }
    format!("#{{?pane_dead,0,{inner}}}")
}

/// Whether the sleep ended because something happened, or `limit` passed.
#[derive(Debug, PartialEq, Eq)]
pub enum Woke {
    Signalled,
    TimedOut,
}

impl Tmux {
    /// Stamps `pane` with `state` and wakes its waiters, in one command.
    pub fn stamp(&self, pane: &str, state: &str) -> TmuxResult<()> {
        let channel = channel(pane);
        self.run(&[
            "set-option",
            "-p",
            "-t",
            pane,
            OPTION,
            state,
            ";",
            "wait-for",
            "-S",
            &channel,
        ])
        .map(drop)
    }

    /// Sleeps until `pane`'s channel is signalled, returning at once when
    /// the pane is already finished or gone, and after `limit` at the
    /// latest. One tmux client sleeps in the server meanwhile; nothing polls.
    pub fn sleep_while_unfinished(&self, pane: &str, limit: Duration) -> TmuxResult<Woke> {
        let wait = format!("wait-for {}", channel(pane));
        let mut child = self
            .command()
            .args(["if-shell", "-F", "-t", pane, &unfinished(), &wait])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(not_started)?;
        let pid = nix::unistd::Pid::from_raw(child.id() as i32);
        // A thread waits for the client to end without reaping it, so the
        // pid stays the client's until this thread has decided.
        let (tx, rx) = mpsc::channel::<()>();
        let watcher = std::thread::spawn(move || {
            let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
            while let Err(nix::errno::Errno::EINTR) = waitid(Id::Pid(pid), flags) {}
            drop(tx);
        });
        let woke = match rx.recv_timeout(limit) {
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = nix::sys::signal::kill(pid, nix::sys::signal::SIGTERM);
                Woke::TimedOut
            }
            _ => Woke::Signalled,
        };
        let _ = watcher.join();
        let _ = child.wait();
        Ok(woke)
    }
}
