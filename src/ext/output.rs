//! Where a verb's story goes: the `Write` it is given (stdout, stderr
//! when stdout carries a JSON summary, or a buffer in a test), with the
//! colours for that stream and a long text paged on a terminal.

use crate::colour::Paint;
use std::io::{IsTerminal, Write};

/// The story's stream, its colours, and whether a long text may be paged.
pub struct Output<'a> {
    to: Box<dyn Write + 'a>,
    paint: Paint,
    /// Only where the story is stdout, and stdout is a terminal.
    pager: bool,
}

impl<'a> Output<'a> {
    /// Everything on stdout, long texts paged on a terminal.
    pub fn stdout() -> Output<'static> {
        Output {
            to: Box::new(std::io::stdout()),
            paint: Paint::stdout(),
            pager: std::io::stdout().is_terminal(),
        }
    }

    /// On stderr when `json` (stdout carries the JSON), else on stdout.
    pub fn beside_json(json: bool) -> Output<'static> {
        if !json {
            return Output::stdout();
        }
        Output {
            to: Box::new(std::io::stderr()),
            paint: Paint::stderr(),
            pager: false,
        }
    }

    /// Into `to`, without colour or pager (what a test reads back).
    #[cfg(test)]
    pub fn buffer(to: &'a mut dyn Write) -> Output<'a> {
        Output {
            to: Box::new(to),
            paint: Paint::default(),
            pager: false,
        }
    }

    /// `text`, as it is.
    pub fn say(&mut self, text: &str) {
        let _ = self.to.write_all(text.as_bytes());
        let _ = self.to.flush();
    }

    /// Colour for the stream the story goes to.
    pub fn paint(&self) -> Paint {
        self.paint
    }

    /// The stream itself, for a question asked on it.
    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.to
    }

    /// `text` through `$PAGER` (split with shell-words) when the story is a
    /// terminal's, with LESS=FRX unless LESS is set. Said as it is when
    /// there is no terminal, no PAGER, or it cannot be started.
    pub fn page(&mut self, text: &str) {
        if !self.pager || !page(text) {
            self.say(text);
        }
    }
}

/// Runs the pager on `text`; false when it could not be started.
fn page(text: &str) -> bool {
    let Some(pager) = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty()) else {
        return false;
    };
    let Ok(words) = shell_words::split(&pager) else {
        return false;
    };
    let Some((program, args)) = words.split_first() else {
        return false;
    };
    let mut command = std::process::Command::new(program);
    command.args(args).stdin(std::process::Stdio::piped());
    // As git does: less ends at once when it all fits, leaves the text on
    // the screen and passes colours through, so the diff is still there
    // when the question is asked.
    if std::env::var_os("LESS").is_none() {
        command.env("LESS", "FRX");
    }
    let Ok(mut child) = command.spawn() else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(text.as_bytes());
    }
    let _ = child.wait();
    true
}
