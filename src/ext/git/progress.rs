//! What a person at a terminal sees while roost talks to a remote: one line
//! on stderr, rewritten in place (connecting, which commit a ref names, so
//! many bytes and then objects received, so many files checked out), and
//! taken away before anything else is printed. When stderr is not a
//! terminal, nothing.
//!
//! The line is written to the terminal stderr was when roost first looked,
//! so it stays a terminal while the network guard has stderr on a pipe; a
//! remote's own line on that pipe takes the progress line away first.

use std::io::{IsTerminal, Write};
use std::sync::{Mutex, OnceLock};
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
