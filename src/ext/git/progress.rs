//! What a person at a terminal sees while roost talks to a remote: one line
//! on stderr, rewritten in place (connecting, which commit a ref names, so
//! many bytes and then objects received, so many of so many files checked
//! out and then hashed, counted as they go), and taken away before anything
//! else is printed. When stderr is not a
//! terminal, nothing.
//!
//! The line is written to the terminal stderr was when roost first looked,
//! so it stays a terminal while the network guard has stderr on a pipe; a
//! remote's own line on that pipe takes the progress line away first.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

struct Line {
    /// The terminal (a duplicate of stderr as it was at first).
    out: std::fs::File,
    /// When the line was last drawn; None when nothing is shown.
    drawn: Option<Instant>,
}

/// A byte count redraws the line at most this often.
const REDRAW: Duration = Duration::from_millis(100);

fn line() -> Option<&'static Mutex<Line>> {
    static LINE: OnceLock<Option<Mutex<Line>>> = OnceLock::new();
    LINE.get_or_init(|| {
        use std::os::fd::AsFd;
        let err = std::io::stderr();
        if !err.is_terminal() {
            return None;
        }
        let out = err.as_fd().try_clone_to_owned().ok()?;
        Some(Mutex::new(Line {
            out: out.into(),
            drawn: None,
        }))
    })
    .as_ref()
}

/// Finds the terminal while stderr is still roost's own.
pub fn prepare() {
    let _ = line();
}

fn draw(text: &str, throttled: bool) {
    let Some(Ok(mut line)) = line().map(Mutex::lock) else {
        return;
    };
    let now = Instant::now();
    if throttled && line.drawn.is_some_and(|t| now - t < REDRAW) {
        return;
    }
    line.drawn = Some(now);
    let shown = crate::untrusted::printable(text.as_bytes());
    let _ = write!(line.out, "\r\x1b[Kroost: {shown}");
}

/// A step: "connecting to URL".
pub fn step(text: &str) {
    draw(text, false);
}

/// Bytes of pack received so far.
pub fn bytes(n: u64) {
    if line().is_some() {
        draw(
            &format!("receiving objects: {}", super::limits::size(n)),
            true,
        );
    }
}

/// Takes the line away (nothing when none is shown).
pub fn clear() {
    let Some(Ok(mut line)) = line().map(Mutex::lock) else {
        return;
    };
    if line.drawn.take().is_some() {
        let _ = write!(line.out, "\r\x1b[K");
    }
}

/// A count of files the line shows while a long step runs (`checking out
/// files: 1200/15000`): the step adds to `counter()` as it goes, from any
/// thread, and a thread of the ticker's own redraws the line until it is
/// dropped, which draws the count reached, then takes the line away. Without a terminal nothing is drawn
/// and no thread runs.
pub struct Ticker {
    done: gix::progress::StepShared,
    total: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Starts showing `what: DONE/TOTAL files` (`what: DONE files` while the
/// total is 0, not yet known).
pub fn ticking(what: &'static str, total: usize) -> Ticker {
    let done: gix::progress::StepShared = Arc::new(AtomicUsize::new(0));
    let total = Arc::new(AtomicUsize::new(total));
    let stop = Arc::new(AtomicBool::new(false));
    let thread = line().map(|_| {
        let (done, total, stop) = (done.clone(), total.clone(), stop.clone());
        std::thread::spawn(move || loop {
            // Asked to stop before the count is read, so the last draw is
            // of the count the step reached (the drop's store releases it),
            // never of one read just before it ended.
            let stopping = stop.load(Ordering::Acquire);
            let (n, of) = (done.load(Ordering::Relaxed), total.load(Ordering::Relaxed));
            draw(&counted(what, n, of), false);
            if stopping {
                return;
            }
            std::thread::park_timeout(REDRAW);
        })
    });
    Ticker {
        done,
        total,
        stop,
        thread,
    }
}

/// The line a ticker draws.
fn counted(what: &str, done: usize, total: usize) -> String {
    if total == 0 {
        format!("{what}: {done} files")
    } else {
        format!("{what}: {}/{total} files", done.min(total))
    }
}

impl Ticker {
    /// What the step adds each file it finishes to.
    pub fn counter(&self) -> gix::progress::StepShared {
        self.done.clone()
    }

    /// The total, once the step knows it.
    pub fn set_total(&self, total: usize) {
        self.total.store(total, Ordering::Relaxed);
    }
}

/// gix's checkout counts its files here.
impl gix::progress::Count for Ticker {
    fn set(&self, step: gix::progress::Step) {
        self.done.store(step, Ordering::Relaxed);
    }

    fn step(&self) -> gix::progress::Step {
        self.done.load(Ordering::Relaxed)
    }

    fn inc_by(&self, step: gix::progress::Step) {
        self.done.fetch_add(step, Ordering::Relaxed);
    }

    fn counter(&self) -> gix::progress::StepShared {
        self.done.clone()
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
            clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_says_of_how_many_once_the_total_is_known() {
        assert_eq!(counted("hashing", 12, 0), "hashing: 12 files");
        assert_eq!(
            counted("checking out", 1200, 15000),
            "checking out: 1200/15000 files"
        );
        assert_eq!(counted("hashing", 7, 5), "hashing: 5/5 files");
        let ticker = ticking("hashing", 0);
        ticker.counter().fetch_add(3, Ordering::Relaxed);
        gix::progress::Count::inc(&ticker);
        assert_eq!(gix::progress::Count::step(&ticker), 4);
    }
}
