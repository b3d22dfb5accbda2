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

    /// `text` through a pager when the story is a terminal's: `$PAGER`
    /// (split with shell-words), or `less` when PAGER is unset or empty,
    /// as git does; with LESS=FRX unless LESS is set. Said as it is when
    /// there is no terminal, or the pager cannot be started (no `less`).
    pub fn page(&mut self, text: &str) {
        if !self.pager || !page(text) {
            self.say(text);
        }
    }
}

/// Runs the pager on `text`; false when it could not be started.
fn page(text: &str) -> bool {
    // As git pages when neither it nor PAGER names a pager.
    let pager = std::env::var("PAGER")
        .ok()
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "less".to_string());
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
        // A pager quit before it has read it all (`q` in less) closes the
        // pipe: the write fails, and the verb goes on to its question,
        // rather than roost dying of SIGPIPE (which it keeps elsewhere).
        use nix::sys::signal::{signal, SigHandler, Signal};
        // SAFETY: SIG_IGN installs no handler code.
        let old = unsafe { signal(Signal::SIGPIPE, SigHandler::SigIgn) };
        let _ = stdin.write_all(text.as_bytes());
        drop(stdin);
        if let Ok(old) = old {
            // SAFETY: puts back the disposition saved above.
            let _ = unsafe { signal(Signal::SIGPIPE, old) };
        }
    }
    let _ = child.wait();
    true
}
