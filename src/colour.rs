//! Whether roost colours what it writes, and the few colours it uses: only
//! on a terminal, only while `NO_COLOR` is unset or empty and `TERM` is not
//! `dumb`. Only roost's own words and markers are painted, and only text
//! that already went through `untrusted` when it came from elsewhere, so no
//! escape but these SGR codes ever reaches the terminal.

use std::io::IsTerminal;

/// A colour roost uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    Red,
    Green,
    Yellow,
    Cyan,
    Bold,
}

impl Colour {
    fn sgr(self) -> &'static str {
        match self {
            Colour::Red => "\x1b[31m",
            Colour::Green => "\x1b[32m",
            Colour::Yellow => "\x1b[33m",
            Colour::Cyan => "\x1b[36m",
            Colour::Bold => "\x1b[1m",
        }
    }
}

const RESET: &str = "\x1b[m";

/// Paints text when colour is on for the stream it is written to; the
/// default paints nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Paint {
    on: bool,
}

impl Paint {
    /// For text written to stdout.
    pub fn stdout() -> Paint {
        Paint::when(std::io::stdout().is_terminal())
    }

    /// For text written to stderr.
    pub fn stderr() -> Paint {
        Paint::when(std::io::stderr().is_terminal())
    }

    /// Colour for a stream that is (or is not) a terminal, as the
    /// environment allows.
    fn when(terminal: bool) -> Paint {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        Paint {
            on: allowed(terminal, no_color, dumb),
        }
    }

    /// `text` in `colour`, or as it is when colour is off. `text` must be
    /// roost's own words or already printable (`untrusted`).
    pub fn paint(self, colour: Colour, text: &str) -> String {
        if self.on && !text.is_empty() {
            format!("{}{text}{RESET}", colour.sgr())
        } else {
            text.to_string()
        }
    }
}

/// The rule: a terminal, no `NO_COLOR` (set and not empty), no dumb `TERM`.
fn allowed(terminal: bool, no_color: bool, dumb: bool) -> bool {
    terminal && !no_color && !dumb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_terminal_that_allows_it_gets_colour() {
        assert!(allowed(true, false, false));
        assert!(!allowed(false, false, false));
        assert!(!allowed(true, true, false));
        assert!(!allowed(true, false, true));
    }

    #[test]
    fn off_leaves_text_alone_and_on_wraps_it_whole() {
        assert_eq!(Paint::default().paint(Colour::Red, "x"), "x");
        let on = Paint { on: true };
        assert_eq!(on.paint(Colour::Green, "+a"), "\x1b[32m+a\x1b[m");
        assert_eq!(on.paint(Colour::Green, ""), "");
    }
}
