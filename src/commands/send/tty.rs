//! The pane's terminal seen from outside, as the kernel keeps it: its line
//! discipline's settings, the bytes typed into it that its program has not
//! read yet, and whether a program of its foreground job sits in a read of
//! it. This is how `send` knows the program took what was typed, where the
//! screen can only show that the terminal echoed it.

use crate::procs::Stat;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};

/// The pane's terminal, open for looking only: never as a controlling
/// terminal, and never read (reading would take the program's input).
pub struct PaneTty {
    file: File,
    /// The device number in the form `/proc/PID/stat` gives it (`tty_nr`).
    tty_nr: u64,
}

/// What a terminal's foreground job has read so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobReads {
    /// The job (process group) at the terminal.
    job: u32,
    /// The bytes its processes have read, from anything.
    read: u64,
}

impl JobReads {
    /// Whether the job at the terminal read something since `before`: it
    /// has read more, or another job holds the terminal now (a shell hands
    /// it to the command line it read, and hands it back when that ends).
    pub fn since(self, before: JobReads) -> bool {
        self.job != before.job || self.read > before.read
    }
}

/// What the line discipline does with what is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Modes {
    /// Canonical ("cooked"): lines are gathered and edited by the terminal,
    /// and the program gets each one whole at Enter.
    pub canonical: bool,
    pub echo: bool,
}

impl PaneTty {
    /// `None` when the path is not a terminal this user may open.
    pub fn open(path: &str) -> Option<PaneTty> {
        if !path.starts_with("/dev/") {
            return None;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::libc::O_NOCTTY | nix::libc::O_NONBLOCK | nix::libc::O_CLOEXEC)
            .open(path)
            .ok()?;
        let rdev = file.metadata().ok()?.rdev();
        nix::sys::termios::tcgetattr(&file).ok()?;
        Some(PaneTty {
            file,
            tty_nr: proc_tty_nr(rdev),
        })
    }

    pub fn modes(&self) -> Option<Modes> {
        use nix::sys::termios::LocalFlags;
        let t = nix::sys::termios::tcgetattr(&self.file).ok()?;
        Some(Modes {
            canonical: t.local_flags.contains(LocalFlags::ICANON),
            echo: t.local_flags.contains(LocalFlags::ECHO),
        })
    }

    /// Bytes typed and not yet read by the program. In canonical mode the
    /// kernel counts whole lines only: a line still being typed reads 0.
    pub fn unread(&self) -> Option<usize> {
        let mut n: nix::libc::c_int = 0;
        // SAFETY: FIONREAD writes one int through the pointer, which points
        // at `n`; the descriptor stays open for the call.
        let rc = unsafe { nix::libc::ioctl(self.file.as_raw_fd(), nix::libc::FIONREAD, &mut n) };
        (rc == 0).then_some(usize::try_from(n).unwrap_or(0))
    }

    /// What the terminal's foreground job has read so far, from anything
    /// (`None`: cannot tell). It grows when the program reads what was
    /// typed, where the input queue alone cannot show it: a program that
    /// reads at once empties the queue before it can be seen full, and the
    /// queue is also empty before tmux has written anything into it.
    pub fn job_reads(&self, pane_pid: u32) -> Option<JobReads> {
        let (job, pids) = self.job(pane_pid)?;
        let mut read = 0;
        for pid in pids {
            let io = std::fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
            let rchar = io.lines().find_map(|l| l.strip_prefix("rchar:"))?;
            read += rchar.trim().parse::<u64>().ok()?;
        }
        Some(JobReads { job, read })
    }

    /// The terminal's foreground job and its processes, given the pane's
    /// first process (`None`: cannot tell).
    fn job(&self, pane_pid: u32) -> Option<(u32, Vec<u32>)> {
        let leader = Stat::of(pane_pid)?;
        if leader.tty_nr != self.tty_nr || leader.tpgid <= 0 {
            return None;
        }
        let job = leader.tpgid as u32;
        let found: Vec<u32> = crate::procs::all()
            .into_iter()
            .filter(|(_, s)| s.pgrp == job && s.tty_nr == self.tty_nr)
            .map(|(pid, _)| pid)
            .collect();
        (!found.is_empty()).then_some((job, found))
    }

    /// Whether a process of the terminal's foreground job is asleep in a
    /// read of it, given the pane's first process (`None`: cannot tell).
    pub fn reader_waiting(&self, pane_pid: u32) -> Option<bool> {
        let (_, job) = self.job(pane_pid)?;
        Some(
            job.into_iter()
                .any(|pid| Stat::of(pid).is_some_and(|s| s.state == 'S') && in_terminal_read(pid)),
        )
    }
}

/// The kernel function a sleeping process waits in names a terminal read.
fn in_terminal_read(pid: u32) -> bool {
    let wchan = std::fs::read_to_string(format!("/proc/{pid}/wchan")).unwrap_or_default();
    matches!(wchan.trim(), "n_tty_read" | "wait_woken")
}

/// A device number as `stat(2)` gives it, in the encoding of `tty_nr`.
fn proc_tty_nr(rdev: u64) -> u64 {
    let (major, minor) = (nix::sys::stat::major(rdev), nix::sys::stat::minor(rdev));
    (minor & 0xff) | (major << 8) | ((minor & !0xff) << 12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_numbers_are_encoded_as_proc_stat_gives_them() {
        // /dev/pts/3 (136, 3) and a minor past 255 (136, 300).
        assert_eq!(proc_tty_nr(nix::sys::stat::makedev(136, 3)), 34819);
        assert_eq!(
            proc_tty_nr(nix::sys::stat::makedev(136, 300)),
            (300 & 0xff) | (136 << 8) | (256 << 12)
        );
    }

    #[test]
    fn another_job_at_the_terminal_has_taken_what_was_typed() {
        let before = JobReads { job: 10, read: 500 };
        assert!(!JobReads { job: 10, read: 500 }.since(before));
        assert!(JobReads { job: 10, read: 501 }.since(before));
        // The shell read the line and handed the terminal to the command
        // it runs, which has read less of anything so far.
        assert!(JobReads { job: 11, read: 40 }.since(before));
    }
}
