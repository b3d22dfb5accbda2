//! When the pane's program can take what `send` types: what its terminal
//! says of it (tty.rs) together with what tmux says (did it ask for a
//! bracketed paste) and what its screen shows (a dialog roost knows),
//! looked at until it can, or it never will, or the time runs out.

use super::still::{until_still, STILL_AGENT};
use super::text::{Shape, MAX_LINE};
use super::tty::PaneTty;
use crate::tmux::dialog::{self, Dialog};
use crate::tmux::{Tmux, TmuxResult};
use std::time::{Duration, Instant};

/// How the program reads, as far as can be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// It asked for bracketed paste (tmux 3.7 and later say so; with an
    /// older tmux, an agent roost knows, all of which ask, in raw mode).
    Asked,
    /// Raw mode, and tmux says it did not ask: it takes keys.
    Keys,
    /// Raw mode, on a tmux too old to say whether it asked.
    KeysUnasked,
    /// The terminal's line mode with a program waiting in a read: the line
    /// is held for it and given whole at Enter.
    Line,
    /// The terminal's line mode with no program reading: busy, or still
    /// starting (text typed now would reach whatever reads it later, in
    /// whatever mode that is by then); or raw mode with nothing drawn yet.
    Away,
    /// The terminal cannot be looked at (another user's pane).
    Unknown,
    /// Raw mode, and the screen shows a dialog roost knows: the program
    /// waits for a person, and keys typed now would answer the dialog.
    Dialog(&'static Dialog),
}

impl Reading {
    /// Whether the kernel shows what the program read (raw mode).
    pub fn raw(self) -> bool {
        matches!(self, Reading::Asked | Reading::Keys | Reading::KeysUnasked)
    }

    /// Whether text of this shape may be typed now: anything goes in as
    /// one paste only where the program asked for it; one line goes to a
    /// program that takes keys, and to one that reads lines only if the
    /// line fits the terminal's line buffer.
    pub fn takes(self, shape: Shape) -> bool {
        match self {
            Reading::Asked => true,
            Reading::Away | Reading::Dialog(_) => false,
            Reading::Keys | Reading::KeysUnasked => shape.one_line(),
            Reading::Line | Reading::Unknown => shape.one_line() && shape.fits_a_line(),
        }
    }
}

/// What one look found.
pub struct Look {
    pub reading: Reading,
    pub tty: Option<PaneTty>,
    /// An agent roost knows runs in the pane.
    pub agent: bool,
    /// The pane is in copy mode or another mode: tmux 3.7 and later then
    /// answer for the mode's screen, not whether the program asked.
    pub in_mode: bool,
    /// An agent's prompt hook reports from the pane (`@roost-hooked`), as
    /// it stood when the program could take the text: an agent's start
    /// hook sets it while `send` waits for the program.
    pub hooked: bool,
    /// An agent that may put a dialog over its prompt as it starts runs
    /// there, and no hook of it has reported yet.
    pub may_ask: bool,
}

/// One look at the pane; `asks`: the user says its program asks for
/// bracketed paste whenever it is in raw mode.
pub fn look(tmux: &Tmux, pane: &str, asks: bool) -> TmuxResult<Look> {
    let now = tmux.typing_view(pane)?;
    let (flag, known) = (now.bracket_paste, now.agent);
    let pid = now.pid;
    let tty = PaneTty::open(&now.tty);
    let reading = match (&tty, tty.as_ref().and_then(PaneTty::modes)) {
        (Some(tty), Some(m)) if m.canonical => {
            let waiting = pid.and_then(|p| tty.reader_waiting(p));
            match waiting {
                Some(true) | None => Reading::Line,
                Some(false) => Reading::Away,
            }
        }
        (Some(_), Some(_)) => {
            let screen = tmux.visible_screen(pane)?;
            match (flag, dialog::recognise(&screen)) {
                // A program that took raw mode and has drawn nothing yet is
                // still starting (an agent gathers keys before its prompt is
                // drawn, and drops an Enter that comes first).
                _ if screen.chars().all(char::is_whitespace) => Reading::Away,
                (_, Some(shown)) => Reading::Dialog(shown),
                (Some(true), None) => Reading::Asked,
                (Some(false), None) => Reading::Keys,
                _ if known || asks => Reading::Asked,
                _ => Reading::KeysUnasked,
            }
        }
        _ if flag == Some(true) => Reading::Asked,
        _ => Reading::Unknown,
    };
    Ok(Look {
        reading,
        tty,
        agent: known,
        in_mode: now.in_mode,
        hooked: now.hooked,
        may_ask: now.may_ask,
    })
}

/// Looks until the program can take text of this shape (`Ok(Ok(look))`),
/// or it never will (`Ok(Err(reading))` at once: it shows a dialog, or it
/// reads lines and TEXT is not one that fits), or the deadline passes
/// (`Ok(Err(last))`, what the last look found).
pub fn wait(
    tmux: &Tmux,
    pane: &str,
    deadline: Instant,
    shape: Shape,
    asks: bool,
) -> TmuxResult<std::result::Result<Look, Reading>> {
    let mut settled = false;
    loop {
        let now = look(tmux, pane, asks)?;
        // A mode entered during the wait (one scroll of the wheel) hides
        // what the program asked for; the paste would leave it anyway.
        if now.in_mode && tmux.leave_mode(pane)?.is_none() {
            continue;
        }
        if now.reading.takes(shape) {
            // codex draws its prompt, then its hooks' dialog over it: what
            // it shows counts once its screen has stood still.
            if now.may_ask && !settled {
                until_still(tmux, pane, STILL_AGENT, deadline);
                settled = true;
                continue;
            }
            // Asked again now that the program is seen to read: an agent's
            // start hook marks the pane before it draws, which may be after
            // this look's question to tmux and before its look at the screen.
            let hooked = tmux.is_hooked(pane)?;
            return Ok(Ok(Look { hooked, ..now }));
        }
        if never(now.reading, now.agent || asks) || Instant::now() >= deadline {
            return Ok(Err(now.reading));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether what the look found will not change by waiting: a person must
/// answer a dialog first; a program that reads lines, and is not an agent
/// (which takes raw mode and asks for a paste once it starts) nor said to
/// ask (`--paste`), will never take a paste.
fn never(reading: Reading, will_ask: bool) -> bool {
    match reading {
        Reading::Dialog(_) => true,
        Reading::Line => !will_ask,
        _ => false,
    }
}

/// Why nothing was typed, for the message of exit 4, and what to do.
/// `of`: which line of how many TEXT is, when it is sent line by line;
/// `again`: the target as the user may type it again, for a hint.
pub fn refusal(
    reading: Reading,
    shape: Shape,
    of: Option<(usize, usize)>,
    seconds: u64,
    version: &str,
    again: &str,
) -> (String, String) {
    let lines = "send each line as its own submission with --lines, or TEXT as one line";
    match reading {
        Reading::Away => (
            format!("is not reading its terminal (busy, or still starting) after {seconds}s"),
            format!("wait for it (roost wait-done {again}), or give it longer with --wait SECONDS"),
        ),
        Reading::Line if !shape.fits_a_line() => {
            let line = match of {
                Some((n, total)) => format!("line {n} of {total} is {} bytes and", shape.longest),
                None if shape.one_line() => format!("a line of {} bytes", shape.longest),
                None => format!(
                    "line {} of TEXT is {} bytes and",
                    shape.longest_at, shape.longest
                ),
            };
            (
                format!("reads lines in the terminal's line mode, which takes at most {MAX_LINE} bytes in one line: {line} cannot reach it at all"),
                "split it into shorter lines (--lines submits each on its own)".to_string(),
            )
        }
        Reading::Line => (
            "reads lines in the terminal's line mode and never asks for a bracketed paste, so TEXT of more than one line would not arrive as one prompt".to_string(),
            lines.to_string(),
        ),
        Reading::Keys => (
            "takes keys and did not ask for a bracketed paste, so each newline of TEXT would act as Enter".to_string(),
            lines.to_string(),
        ),
        Reading::KeysUnasked | Reading::Unknown => (
            format!(
                "cannot be seen to have asked for a bracketed paste (tmux {version} does not say; 3.7 and later do), so each newline of TEXT could act as Enter"
            ),
            "if its program asks for bracketed paste (most agents' prompts do), say so with --paste; or submit each line on its own with --lines".to_string(),
        ),
        Reading::Asked | Reading::Dialog(_) => (String::new(), String::new()),
    }
}
