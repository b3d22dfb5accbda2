//! Agent states and how waiters learn they changed without polling: `roost
//! state` stamps the pane and signals the pane's tmux channel in one tmux
//! command, a pane whose program ends signals it from a hook, and a waiter
//! sleeps in `wait-for` on that channel, entered only if, at that moment in
//! the server, the pane is still unfinished (so no change between a look and
//! the sleep is missed). The sleep also ends when the pane's program does,
//! which the kernel tells the waiter directly.

use super::agent_state::{unfinished_format, AgentState};
use super::client::{not_started, Tmux, TmuxResult};
use super::options::STATE;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitid, Id, WaitPidFlag};
use nix::unistd::Pid;
use std::os::fd::{AsFd, FromRawFd, OwnedFd};
use std::process::Stdio;
use std::time::Duration;

/// The channel that wakes the waiters of `pane`.
pub(super) fn channel(pane: &str) -> String {
    format!("roost-state-{pane}")
}

/// The hooks a server started by roost gets, in their own slots: a pane
/// whose program ends wakes its waiters (the shell's `tmux` finds the server
/// through `$TMUX`).
pub(super) fn hooks() -> Vec<String> {
    // The pane the hook is about (`hook_pane`; where a tmux has no such
    // format, the pane the hook runs in).
    let wake = format!(
        "run-shell -b \"tmux wait-for -S {}\"",
        channel("#{?hook_pane,#{hook_pane},#{pane_id}}")
    );
    let mut words = Vec::new();
    for hook in ["pane-died[77]", "pane-exited[77]"] {
        for w in ["set-hook", "-g", hook, &wake, ";"] {
            words.push(w.to_string());
        }
    }
    words
}

/// Why a sleep ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Woke {
    /// The channel was signalled, or the pane was finished or gone already.
    Signalled,
    /// The pane's program ended (seen by the kernel, not by tmux).
    ProgramEnded,
    /// `limit` passed.
    TimedOut,
}

impl Tmux {
    /// The state `pane` is stamped with, `None` when unstamped or stamped
    /// with anything but a known state's word.
    pub fn agent_state(&self, pane: &str) -> TmuxResult<Option<AgentState>> {
        let word = self.pane_option(pane, STATE)?.unwrap_or_default();
        Ok(AgentState::from_word(&word))
    }

    /// Stamps `pane` with `state` and wakes its waiters, in one command.
    pub fn stamp(&self, pane: &str, state: AgentState) -> TmuxResult<()> {
        let channel = channel(pane);
        self.run(&[
            "set-option",
            "-p",
            "-t",
            pane,
            STATE,
            state.word(),
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
    ///
    /// With `program` (the pane's process id), the sleep also ends when that
    /// process ends: tmux 3.3a can lose the signal that tells it its child
    /// ended, and then closes the pane without running pane-died, so its
    /// waiters would hear nothing.
    pub fn sleep_while_unfinished(
        &self,
        pane: &str,
        program: Option<i32>,
        limit: Duration,
    ) -> TmuxResult<Woke> {
        let wait = format!("wait-for {}", channel(pane));
        let mut cmd = self.call();
        cmd.args(["if-shell", "-F", "-t", pane, &unfinished_format(), &wait])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // The client sleeps for this waiter alone: it ends with it, even
        // when the waiter is killed outright.
        let waiter = nix::unistd::getpid();
        // SAFETY: between fork and exec the closure only makes system calls
        // (prctl, getppid) and allocates nothing.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
                nix::sys::prctl::set_pdeathsig(Signal::SIGTERM)?;
                if nix::unistd::getppid() != waiter {
                    return Err(std::io::Error::from_raw_os_error(nix::libc::ESRCH));
                }
                Ok(())
            });
        }
        let mut child = cmd.spawn().map_err(not_started)?;
        let pid = Pid::from_raw(child.id() as i32);
        // A thread waits for the client to end without reaping it (so the
        // pid stays the client's until this thread has decided), then
        // closes the pipe's writer: its reader is what the poll below sees.
        let (ended, ends) = std::io::pipe().map_err(not_started)?;
        let watcher = std::thread::spawn(move || {
            let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
            while let Err(nix::errno::Errno::EINTR) = waitid(Id::Pid(pid), flags) {}
            drop(ends);
        });
        let program = program.and_then(process_fd);
        let mut fds = vec![PollFd::new(ended.as_fd(), PollFlags::POLLIN)];
        if let Some(fd) = &program {
            fds.push(PollFd::new(fd.as_fd(), PollFlags::POLLIN));
        }
        let until = std::time::Instant::now() + limit;
        let woke = loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            let timeout = PollTimeout::try_from(left).unwrap_or(PollTimeout::MAX);
            match poll(&mut fds, timeout) {
                Err(nix::errno::Errno::EINTR) => continue,
                Ok(0) | Err(_) => break Woke::TimedOut,
                Ok(_) => {}
            }
            let ready = |fd: &PollFd| fd.revents().is_some_and(|r| !r.is_empty());
            if ready(&fds[0]) {
                break Woke::Signalled;
            }
            if fds.get(1).is_some_and(ready) {
                break Woke::ProgramEnded;
            }
        };
        if woke != Woke::Signalled {
            let _ = kill(pid, Signal::SIGTERM);
        }
        let _ = watcher.join();
        let _ = child.wait();
        Ok(woke)
    }
}

/// A descriptor that becomes readable when process `pid` ends (Linux 5.3
/// and later; None elsewhere, or when there is no such process).
fn process_fd(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor
    // or -1; nothing is borrowed.
    let fd = unsafe { nix::libc::syscall(nix::libc::SYS_pidfd_open, pid, 0) };
    let fd = i32::try_from(fd).ok().filter(|fd| *fd >= 0)?;
    // SAFETY: the descriptor was just opened and is owned by nobody else.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}
