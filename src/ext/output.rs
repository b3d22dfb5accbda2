//! Where a verb's story goes (stdout, or stderr when stdout carries a JSON
//! summary), and a long text paged on a terminal.

use std::io::{IsTerminal, Write};

/// Where the story goes: stdout, or stderr when stdout carries a JSON
/// summary.
#[derive(Clone, Copy)]
pub struct Out {
    json: bool,
}

impl Out {
    /// Everything on stdout.
    pub fn stdout() -> Out {
        Out { json: false }
    }

    /// On stderr when `json` (stdout carries the JSON), else on stdout.
    pub fn beside_json(json: bool) -> Out {
        Out { json }
    }

    /// `text`, as it is, where the story goes.
    pub fn say(self, text: &str) {
        if self.json {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
    }

    /// Colour for the stream the story goes to.
    pub fn paint(self) -> crate::colour::Paint {
        if self.json {
            crate::colour::Paint::stderr()
        } else {
            crate::colour::Paint::stdout()
        }
    }

    /// The stream the story goes to, for a question asked on it.
    pub fn writer(self) -> Box<dyn Write> {
        if self.json {
            Box::new(std::io::stderr())
        } else {
            Box::new(std::io::stdout())
        }
    }

    /// Through `$PAGER` (split with shell-words) when stdout is a terminal and
    /// carries the story (not the JSON summary); LESS=FRX unless LESS is set.
    pub fn page(self, text: &str) {
        if self.json {
            return self.say(text);
        }
        let pager = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty());
        if let (true, Some(pager)) = (std::io::stdout().is_terminal(), pager) {
            if let Ok(words) = shell_words::split(&pager) {
                if let Some((program, args)) = words.split_first() {
                    let mut command = std::process::Command::new(program);
                    command.args(args).stdin(std::process::Stdio::piped());
                    // As git does: less ends at once when it all fits, leaves
                    // the text on the screen and passes colours through, so the
                    // diff is still there when the question is asked.
                    if std::env::var_os("LESS").is_none() {
                        command.env("LESS", "FRX");
                    }
                    let child = command.spawn();
                    if let Ok(mut child) = child {
                        if let Some(mut stdin) = child.stdin.take() {
                            let _ = stdin.write_all(text.as_bytes());
                        }
                        let _ = child.wait();
                        return;
                    }
                }
            }
        }
        print!("{text}");
    }
}
