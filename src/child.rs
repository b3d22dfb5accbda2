//! Running a program roost did not write and reading what it prints,
//! bounded in time and in output: it runs in a process group of its own,
//! what it prints (stdout and stderr, as one stream) is read up to a
//! limit, and at the deadline (or the limit, or once it has exited) the
//! whole group is killed. roost never waits for a
//! descendant that keeps the pipe open after the program itself ended.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a bounded run gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Ran {
    /// It exited; what it printed (at most the limit).
    Exited(Vec<u8>),
    /// It printed more than the limit (what it printed up to there).
    TooMuch(Vec<u8>),
    /// It had not exited at the deadline.
    TimedOut,
    /// It could not be started.
    NotStarted(String),
}

/// How long a program that has exited gets for its last output to arrive
/// (the pipe may still be held by a descendant it left behind).
const LAST_WORDS: Duration = Duration::from_millis(100);

/// Runs `cmd` (stdin closed off) for at most `limit`, reading at most
/// `max` bytes of what it prints on stdout and stderr together (pi, for
/// one, says its version on stderr).
pub fn run(mut cmd: Command, limit: Duration, max: usize) -> Ran {
    let (mut out, writer) = match std::io::pipe() {
        Ok(pipe) => pipe,
        Err(e) => return Ran::NotStarted(crate::fsutil::io_words(&e)),
    };
    let both = match writer.try_clone() {
        Ok(w) => w,
        Err(e) => return Ran::NotStarted(crate::fsutil::io_words(&e)),
    };
    cmd.stdin(Stdio::null())
        .stdout(writer)
        .stderr(both)
        .process_group(0);
    let spawned = cmd.spawn();
    // The command holds the pipe's writing ends until dropped: the reader
    // sees the end only once the program's own are closed.
    drop(cmd);
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return Ran::NotStarted(crate::fsutil::io_words(&e)),
    };
    let group = nix::unistd::Pid::from_raw(child.id() as i32);
    let (tx, rx) = mpsc::channel::<Option<Vec<u8>>>();
    // The reader sends each piece as it comes, and None at the end; a
    // descendant holding the pipe keeps it blocked, so it is never joined.
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match out.read(&mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
                Ok(n) => {
                    if tx.send(Some(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let until = Instant::now() + limit;
    let mut got = Vec::new();
    let mut exited_at: Option<Instant> = None;
    let ran = loop {
        let now = Instant::now();
        if exited_at.is_none() && has_exited(&child) {
            exited_at = Some(now);
        }
        let end = match exited_at {
            Some(at) => at + LAST_WORDS,
            None => until,
        };
        if now >= end {
            break match exited_at {
                Some(_) => Ran::Exited(std::mem::take(&mut got)),
                None => Ran::TimedOut,
            };
        }
        let wait = (end - now).min(Duration::from_millis(20));
        match rx.recv_timeout(wait) {
            Ok(Some(piece)) => {
                got.extend_from_slice(&piece);
                if got.len() > max {
                    got.truncate(max);
                    break Ran::TooMuch(std::mem::take(&mut got));
                }
            }
            Ok(None) => {
                if exited_at.is_some() || has_exited(&child) {
                    break Ran::Exited(std::mem::take(&mut got));
                }
                // The pipe closed but the program runs on: wait for its end.
                break if ended_by(&child, until) {
                    Ran::Exited(std::mem::take(&mut got))
                } else {
                    Ran::TimedOut
                };
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Ran::Exited(std::mem::take(&mut got));
            }
        }
    };
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
    let _ = child.kill();
    let _ = child.wait();
    ran
}

/// Whether `child` has exited, without reaping it: while it is not reaped
/// its process group's id cannot be taken by another, so the group can be
/// killed safely afterwards.
fn has_exited(child: &std::process::Child) -> bool {
    use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    !matches!(
        waitid(Id::Pid(pid), flags),
        Ok(WaitStatus::StillAlive) | Err(_)
    )
}

/// Whether `child` ends before `until`.
fn ended_by(child: &std::process::Child, until: Instant) -> bool {
    while Instant::now() < until {
        if has_exited(child) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("/bin/sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn a_program_that_answers_is_read_whole() {
        assert_eq!(
            run(sh("echo 1.2.3"), Duration::from_secs(10), 1024),
            Ran::Exited(b"1.2.3\n".to_vec())
        );
    }

    #[test]
    fn what_it_prints_on_stderr_is_read_too() {
        assert_eq!(
            run(sh("echo 0.73.1 >&2"), Duration::from_secs(10), 1024),
            Ran::Exited(b"0.73.1\n".to_vec())
        );
    }

    #[test]
    fn a_child_left_holding_the_pipe_is_not_waited_for() {
        let t = Instant::now();
        let ran = run(sh("echo 1.2.3; sleep 30 &"), Duration::from_secs(10), 1024);
        assert_eq!(ran, Ran::Exited(b"1.2.3\n".to_vec()));
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }

    #[test]
    fn endless_output_and_a_hang_are_cut_off() {
        let ran = run(sh("yes"), Duration::from_secs(10), 4096);
        assert!(matches!(ran, Ran::TooMuch(v) if v.len() == 4096));
        let t = Instant::now();
        assert_eq!(
            run(sh("sleep 30"), Duration::from_millis(300), 10),
            Ran::TimedOut
        );
        assert!(t.elapsed() < Duration::from_secs(3));
        assert!(matches!(
            run(Command::new("/nonexistent/x"), Duration::from_secs(1), 10),
            Ran::NotStarted(_)
        ));
    }
}
