//! The pane's terminal seen from outside, as the kernel keeps it: its line
//! discipline's settings, the bytes typed into it that its program has not
//! read yet, and whether a program of its foreground job sits in a read of
//! it. This is how `send` knows the program took what was typed, where the
//! screen can only show that the terminal echoed it.

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

    /// Whether a process of the terminal's foreground job is asleep in a
    /// read of it, given the pane's first process (`None`: cannot tell).
    pub fn reader_waiting(&self, pane_pid: u32) -> Option<bool> {
        let leader = Stat::of(pane_pid)?;
        if leader.tty_nr != self.tty_nr || leader.tpgid <= 0 {
            return None;
        }
        let job = leader.tpgid as u32;
        let mut seen_any = false;
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let Some(stat) = Stat::of(pid) else { continue };
            if stat.pgrp != job || stat.tty_nr != self.tty_nr {
                continue;
            }
            seen_any = true;
            if stat.state == 'S' && in_terminal_read(pid) {
                return Some(true);
            }
        }
        seen_any.then_some(false)
    }
}

/// The kernel function a sleeping process waits in names a terminal read.
fn in_terminal_read(pid: u32) -> bool {
    let wchan = std::fs::read_to_string(format!("/proc/{pid}/wchan")).unwrap_or_default();
    matches!(wchan.trim(), "n_tty_read" | "wait_woken")
}

/// The fields of `/proc/PID/stat` that say which job of which terminal a
/// process belongs to.
struct Stat {
    state: char,
    pgrp: u32,
    tty_nr: u64,
    tpgid: i64,
}

impl Stat {
    fn of(pid: u32) -> Option<Stat> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // The command name is in parentheses and may hold anything: the
        // fields start after the last ')'.
        let rest = &text[text.rfind(')')? + 1..];
        let mut f = rest.split_ascii_whitespace();
        let state = f.next()?.chars().next()?;
        let _ppid = f.next()?;
        let pgrp = f.next()?.parse().ok()?;
        let _session = f.next()?;
        let tty_nr = f.next()?.parse().ok()?;
        let tpgid = f.next()?.parse().ok()?;
        Some(Stat {
            state,
            pgrp,
            tty_nr,
            tpgid,
        })
    }
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
    fn this_process_reads_its_own_stat() {
        let me = Stat::of(std::process::id()).unwrap();
        assert!(me.state.is_ascii_uppercase());
        assert!(me.pgrp > 0);
    }
}
