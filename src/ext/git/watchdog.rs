//! What ends a conversation with a remote that stops answering, trickles,
//! or that the user interrupts: while it lasts a thread watches the time
//! since the remote last sent anything, the time since it began, and the
//! interrupt flag, and on any ends the programs roost started for it
//! (`git-upload-pack`, `ssh` and what runs under them). The read gix is
//! blocked in then ends, and the command unwinds, removing what it made,
//! with a line that says why. Over https nothing runs to be ended: there
//! the HTTP client gives up a read after the stall limit, what arrives is
//! counted as it is read (`https`), and roost's readers (`check`) refuse
//! the next bytes once the watchdog has fired.

use super::cause::GitError;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Set when the user interrupts while `guard::Interrupts` is alive: a fetch or
/// checkout stops and the question reads as no, so the command unwinds and
/// removes what it made instead of dying with a half-made clone on disk.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How long a remote may send nothing before roost gives up on it.
pub const STALL_SECS: u64 = 60;

/// Overrides `STALL_SECS` (whole seconds, 1 to 3600).
pub const STALL_VAR: &str = "ROOST_EXT_STALL_SECS";

/// How long one conversation may last, however steadily the remote sends:
/// a remote that trickles a byte at a time is never silent for the stall
/// limit, but the pack it may send is bounded (`limits::MAX_PACK_BYTES`),
/// and fifteen minutes carries that at well under 1 MiB/s.
pub const DEADLINE_SECS: u64 = 900;

/// Overrides `DEADLINE_SECS` (whole seconds, 1 to 86400).
pub const DEADLINE_VAR: &str = "ROOST_EXT_DEADLINE_SECS";

/// Milliseconds since `epoch()` when the remote last sent something.
static LAST: AtomicU64 = AtomicU64::new(0);

/// Why the watchdog ended the conversation: 0 it did not, else `Cause`.
static FIRED: AtomicU8 = AtomicU8::new(0);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cause {
    Stalled = 1,
    Interrupted = 2,
    Overran = 3,
    Flooded = 4,
}

/// Set while the remote's bytes arrive through the pipe of a program roost
/// started (`git-upload-pack` for file://, `ssh`): the kernel counts what
/// roost reads from it. Over https it does not (the socket's bytes are
/// counted by `https`), and roost's other threads read (the TLS runtime's
/// wake-ups), so there what roost reads in all is no sign of the remote.
static PIPED: AtomicBool = AtomicBool::new(false);

/// The conversation's bytes come through a program's pipe (or not).
pub fn piped(yes: bool) {
    PIPED.store(yes, Ordering::SeqCst);
}

/// Bytes a server's greeting (its capabilities, and a v0 or v1 server's ref
/// advertisement, which `refs` bounds itself) may bring: a real one is a
/// few hundred bytes. gix holds the capabilities whole, so this is counted
/// in what roost reads (`/proc/self/io`, and what https bodies bring)
/// while the greeting lasts.
pub const MAX_GREETING_BYTES: u64 = 1 << 20;

/// What roost had read when the greeting began, plus one; 0 outside it.
static GREETING_FROM: AtomicU64 = AtomicU64::new(0);

/// Bytes of /proc/self/io the watchdog itself has read.
static OWN_READS: AtomicU64 = AtomicU64::new(0);

/// Bytes https response bodies have brought (`received`): they arrive
/// through a socket, which `rchar` does not count.
static HTTPS_READ: AtomicU64 = AtomicU64::new(0);

/// Bytes roost has read from any file or pipe, by any thread (`rchar`),
/// less the watchdog's own looks, plus what https bodies brought.
fn read_so_far() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/io").ok()?;
    let own = OWN_READS.fetch_add(text.len() as u64, Ordering::SeqCst) + text.len() as u64;
    text.lines()
        .find_map(|l| l.strip_prefix("rchar:"))?
        .trim()
        .parse::<u64>()
        .ok()
        .map(|n| n.saturating_sub(own) + HTTPS_READ.load(Ordering::SeqCst))
}

/// An https body brought `n` bytes: the remote progressed, and a greeting
/// past its bound ends the conversation at once (no thread's look is
/// waited for: the bytes are already in roost's hands).
pub fn received(n: usize) {
    if n == 0 {
        return;
    }
    HTTPS_READ.fetch_add(n as u64, Ordering::SeqCst);
    progressed();
    if GREETING_FROM.load(Ordering::SeqCst) != 0 && greeting_flooded() {
        let _ = FIRED.compare_exchange(0, Cause::Flooded as u8, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// The server's greeting is being read: what roost reads from now on is
/// bounded by `MAX_GREETING_BYTES` until `greeted`.
pub fn greeting() {
    if let Some(n) = read_so_far() {
        GREETING_FROM.store(n + 1, Ordering::SeqCst);
    }
}

/// The greeting is over.
pub fn greeted() {
    GREETING_FROM.store(0, Ordering::SeqCst);
}

/// Whether the greeting has brought more than its bound.
fn greeting_flooded() -> bool {
    let from = GREETING_FROM.load(Ordering::SeqCst);
    from != 0 && read_so_far().is_some_and(|n| n.saturating_sub(from - 1) > MAX_GREETING_BYTES)
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64
}

/// The remote sent something: the stall clock starts again.
pub fn progressed() {
    LAST.store(now_ms(), Ordering::Relaxed);
}

/// Why the conversation was ended, if the watchdog ended it.
pub fn fired() -> Option<Cause> {
    match FIRED.load(Ordering::SeqCst) {
        1 => Some(Cause::Stalled),
        2 => Some(Cause::Interrupted),
        3 => Some(Cause::Overran),
        4 => Some(Cause::Flooded),
        _ => None,
    }
}

/// The stall limit in force.
pub fn stall_limit() -> Duration {
    let secs = std::env::var(STALL_VAR)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|s| (1..=3600).contains(s))
        .unwrap_or(STALL_SECS);
    Duration::from_secs(secs)
}

/// The limit on one conversation in force.
pub fn deadline() -> Duration {
    let secs = std::env::var(DEADLINE_VAR)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|s| (1..=86400).contains(s))
        .unwrap_or(DEADLINE_SECS);
    Duration::from_secs(secs)
}

/// An error once the watchdog has ended the conversation: what roost
/// reads from a remote itself stops there (over https no program ends to
/// end the read).
pub fn check() -> std::io::Result<()> {
    match fired() {
        Some(_) => Err(std::io::Error::other(explain(GitError::new("")))),
        None => Ok(()),
    }
}

/// `why`, or what the watchdog did when it ended the conversation.
pub fn explain(why: GitError) -> GitError {
    GitError::new(match fired() {
        Some(Cause::Stalled) => format!(
            "the remote sent nothing for {} s, the limit for a remote that stalls; giving up",
            stall_limit().as_secs()
        ),
        Some(Cause::Interrupted) => "interrupted".to_string(),
        Some(Cause::Overran) => format!(
            "the conversation with the remote passed {} s, the limit for one; giving up",
            deadline().as_secs()
        ),
        Some(Cause::Flooded) => format!(
            "the server's greeting passed {}, the limit for one; giving up",
            super::limits::size(MAX_GREETING_BYTES)
        ),
        None => return why,
    })
}

/// While alive, the watching thread runs.
pub struct Watchdog {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    pub fn start() -> Watchdog {
        // A new conversation: what ended an earlier one (`outdated` asks
        // one remote after another) does not end this one.
        FIRED.store(0, Ordering::SeqCst);
        PIPED.store(false, Ordering::SeqCst);
        greeted();
        progressed();
        let limit = stall_limit().as_millis() as u64;
        let ends = now_ms() + deadline().as_millis() as u64;
        let (stop, stopped) = mpsc::channel::<()>();
        let mut seen = read_so_far();
        let thread = std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || loop {
                // Often enough that a greeting arriving through a pipe
                // cannot pile up far past its bound between two looks.
                match stopped.recv_timeout(Duration::from_millis(20)) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                // What the transport's program sent counts as it is read,
                // even inside one read gix makes for a whole packet line
                // (the kernel counts each read call): a remote that sends
                // a byte at a time inside one line is slow, not silent.
                if PIPED.load(Ordering::SeqCst) {
                    let now_read = read_so_far();
                    if now_read.is_some() && now_read != seen {
                        progressed();
                        seen = now_read;
                    }
                }
                let cause = if INTERRUPTED.load(Ordering::SeqCst) {
                    Cause::Interrupted
                } else if now_ms().saturating_sub(LAST.load(Ordering::Relaxed)) > limit {
                    Cause::Stalled
                } else if now_ms() > ends {
                    Cause::Overran
                } else if greeting_flooded() {
                    Cause::Flooded
                } else {
                    continue;
                };
                FIRED.store(cause as u8, Ordering::SeqCst);
                end_children();
                return;
            })
            .ok();
        Watchdog {
            stop: Some(stop),
            thread,
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// SIGKILLs every process descended from roost (found through /proc):
/// only the transport's programs run under roost while it talks to a
/// remote.
fn end_children() {
    let me = std::process::id();
    let mut parents = std::collections::HashMap::<u32, Vec<u32>>::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: comm may hold spaces and parentheses.
        let Some(ppid) = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        parents.entry(ppid).or_default().push(pid);
    }
    let mut todo = parents.get(&me).cloned().unwrap_or_default();
    while let Some(pid) = todo.pop() {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
        todo.extend(parents.get(&pid).cloned().unwrap_or_default());
    }
}
