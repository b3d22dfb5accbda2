//! Ending a pane's processes for good once tmux has closed it: each held by
//! a pidfd taken before the close (so an id given to a new process later is
//! never signalled), then SIGTERM, a grace period, SIGKILL for whatever is
//! left, and the names of those that would not end even then.

use super::table::{all, belonging, Stat};
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

/// How often the held processes are looked at while they end, and the
/// sessions searched again for processes started meanwhile.
const LOOK: Duration = Duration::from_millis(20);
const SEARCH: Duration = Duration::from_millis(100);

/// One process held: its id, start time and name, and a pidfd where the
/// kernel gives one (Linux 5.3 and later).
struct Held {
    pid: u32,
    start: u64,
    name: String,
    fd: Option<OwnedFd>,
}

/// A process that was still running after SIGKILL and the wait after it:
/// in an uninterruptible sleep in the kernel, or another user's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Survivor {
    pub pid: u32,
    /// The name it gave itself (any bytes: print it neutralised).
    pub name: String,
}

/// The processes of some panes, held until they have ended.
pub struct Ending {
    leaders: Vec<u32>,
    held: Vec<Held>,
}

impl Ending {
    /// Takes hold of every process of the sessions `leaders` lead (each a
    /// pane's first process), and of their descendants, now: before tmux
    /// closes the panes, while each process is still where it was.
    pub fn hold(leaders: &[u32]) -> Ending {
        let mut ending = Ending {
            leaders: leaders.to_vec(),
            held: Vec::new(),
        };
        ending.search();
        ending
    }

    /// Holds the processes of the sessions, and children of those held,
    /// that are not held yet (started since the last search).
    fn search(&mut self) {
        let table = all();
        let known: Vec<u32> = self.held.iter().map(|h| h.pid).collect();
        for pid in belonging(&table, &self.leaders, &known, std::process::id()) {
            if known.contains(&pid) {
                continue;
            }
            let Some((_, stat)) = table.iter().find(|(p, _)| *p == pid) else {
                continue;
            };
            if let Some(held) = Held::take(pid, stat) {
                self.held.push(held);
            }
        }
    }

    /// Ends every process held: SIGTERM now, and up to `grace` to end
    /// (searching again meanwhile for processes they start); then SIGKILL
    /// for what is left and up to `last` more. Returns those still running.
    pub fn finish(mut self, grace: Duration, last: Duration) -> Vec<Survivor> {
        self.signal(nix::libc::SIGTERM);
        self.wait(grace);
        if !self.held.is_empty() {
            self.signal(nix::libc::SIGKILL);
            self.wait(last);
        }
        self.held
            .into_iter()
            .map(|h| Survivor {
                pid: h.pid,
                name: h.name,
            })
            .collect()
    }

    fn signal(&self, signal: i32) {
        for held in &self.held {
            held.signal(signal);
        }
    }

    /// Waits until every process held has ended, or `limit` has passed;
    /// a process found meanwhile gets SIGTERM as it is held.
    fn wait(&mut self, limit: Duration) {
        let end = Instant::now() + limit;
        let mut searched = Instant::now();
        loop {
            self.held.retain(Held::running);
            if searched.elapsed() >= SEARCH {
                let before = self.held.len();
                self.search();
                for held in &self.held[before..] {
                    held.signal(nix::libc::SIGTERM);
                }
                searched = Instant::now();
            }
            if self.held.is_empty() || Instant::now() >= end {
                return;
            }
            std::thread::sleep(LOOK);
        }
    }
}

impl Held {
    /// Holds `pid`, as `stat` found it: `None` when it has ended, or when
    /// its id now names another process.
    fn take(pid: u32, stat: &Stat) -> Option<Held> {
        let fd = pidfd(pid);
        // The pidfd names whatever has the id now: the same process only if
        // it started when the stat said.
        let now = Stat::of(pid)?;
        if now.start != stat.start || now.ended() {
            return None;
        }
        Some(Held {
            pid,
            start: stat.start,
            name: stat.name.clone(),
            fd,
        })
    }

    fn signal(&self, signal: i32) {
        match &self.fd {
            // SAFETY: pidfd_send_signal takes a descriptor this process
            // owns, a signal number, a null siginfo and no flags.
            Some(fd) => unsafe {
                nix::libc::syscall(
                    nix::libc::SYS_pidfd_send_signal,
                    fd.as_raw_fd(),
                    signal,
                    std::ptr::null::<nix::libc::siginfo_t>(),
                    0,
                );
            },
            None => {
                if self.same() {
                    // SAFETY: kill takes a pid and a signal number.
                    unsafe { nix::libc::kill(self.pid as i32, signal) };
                }
            }
        }
    }

    /// Whether it has not ended yet.
    fn running(&self) -> bool {
        match &self.fd {
            Some(fd) => {
                use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
                let mut fds = [PollFd::new(fd.as_fd(), PollFlags::POLLIN)];
                // A pidfd is readable once its process has ended.
                matches!(poll(&mut fds, PollTimeout::ZERO), Ok(0))
            }
            None => self.same(),
        }
    }

    /// Without a pidfd: the id still names this process, running.
    fn same(&self) -> bool {
        Stat::of(self.pid).is_some_and(|s| s.start == self.start && !s.ended())
    }
}

/// A descriptor for process `pid` (None where the kernel gives none, or
/// there is no such process).
fn pidfd(pid: u32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor
    // or -1; nothing is borrowed.
    let fd = unsafe { nix::libc::syscall(nix::libc::SYS_pidfd_open, pid, 0) };
    let fd = i32::try_from(fd).ok().filter(|fd| *fd >= 0)?;
    // SAFETY: the descriptor was just opened and is owned by nobody else.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}
