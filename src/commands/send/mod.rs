//! `send [--force] [--when-idle] [--lines] [--wait SECONDS] TARGET TEXT...`:
//! TEXT delivered exactly once, as one bracketed paste followed by one Enter
//! that the program took, or a failure that says what was typed. One sender
//! at a time per pane (lock.rs); --when-idle waits for the agent first
//! (idle.rs); TEXT is made harmless first (text.rs); typing waits until the
//! program reads (ready.rs), Enter until its screen stands still (still.rs),
//! and "took" is what the kernel or the agent's own prompt hook says, never
//! the terminal's echo (tty.rs). Nothing is ever typed into a dialog that
//! waits for a person.

mod idle;
mod lock;
mod preset;
mod ready;
mod still;
mod text;
mod tty;

use super::{ctx::Ctx, target};
use crate::cli::model::SendArgs;
use crate::error::{Error, Exit, Result};
use crate::tmux::options::prompt_key;
use crate::tmux::{AgentState, Dialog, Pane, Tmux};
use ready::Reading;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};
use still::{STILL, STILL_AGENT};
use text::Shape;

/// How long the program may take to read what was typed.
const ARRIVAL: Duration = Duration::from_secs(3);

/// How long an agent's prompt hook may take to report the prompt.
const HOOK_REPORT: Duration = Duration::from_secs(15);

/// The most `send TARGET -` reads from standard input.
const MAX_STDIN: u64 = 1 << 20;

struct Request {
    force: bool,
    when_idle: bool,
    lines: bool,
    paste: bool,
    wait: u64,
    target: String,
    text: Vec<u8>,
}

/// TEXT's words joined by spaces, or standard input for `-` alone; it may
/// not be empty.
fn request(ctx: &Ctx, a: SendArgs) -> Result<Request> {
    let text = if a.text.len() == 1 && a.text[0] == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .take(MAX_STDIN + 1)
            .read_to_end(&mut buf)
            .map_err(|e| {
                Error::fail(
                    ctx.cmd,
                    format!(
                        "cannot read standard input: {}",
                        crate::fsutil::io_words(&e)
                    ),
                )
            })?;
        if buf.len() as u64 > MAX_STDIN {
            return Err(Error::fail(
                ctx.cmd,
                format!("standard input holds more than {MAX_STDIN} bytes; nothing was typed"),
            ));
        }
        while buf.last() == Some(&b'\n') {
            buf.pop();
        }
        buf
    } else {
        a.text
            .iter()
            .map(|w| w.as_bytes())
            .collect::<Vec<_>>()
            .join(&b' ')
    };
    if text.is_empty() {
        return Err(Error::usage(ctx.cmd, "TEXT is empty"));
    }
    Ok(Request {
        force: a.force,
        when_idle: a.when_idle,
        lines: a.lines,
        paste: a.paste,
        wait: a.wait,
        target: a.target,
        text,
    })
}

/// One send under way: the pane, how to name it, and the clock.
struct Send<'a> {
    ctx: &'a Ctx,
    tmux: &'a Tmux,
    pane: Pane,
    who: String,
    /// The target as the user may type it again, in a hint.
    again: String,
    deadline: Instant,
    wait: u64,
    /// The user (or the agent's preset) says the program asks for
    /// bracketed paste.
    asks: bool,
    /// What the agent's preset says of sending to it (none for others).
    manner: Option<preset::Manner>,
}

pub fn run(ctx: &Ctx, a: SendArgs) -> Result<Exit> {
    let req = request(ctx, a)?;
    deliver(ctx, req)
}

/// How long a first message waits for a program just started.
const FIRST_WAIT: u64 = 60;

/// `spawn --message`: `text` sent into the pane spawn just made, as send
/// sends it, with time for a slow start.
pub fn first_message(ctx: &Ctx, pane: &str, text: Vec<u8>) -> Result<Exit> {
    let req = Request {
        force: false,
        when_idle: false,
        lines: false,
        paste: false,
        wait: FIRST_WAIT,
        target: pane.to_string(),
        text,
    };
    deliver(ctx, req).map_err(|e| match e {
        // Nothing typed: spawn has no --wait, send has.
        Error::Fail {
            code: Exit::NotReady,
            ..
        } => e.hint(format!(
            "the window is there: send the message once it reads (roost send --wait SECONDS {pane} -- TEXT)"
        )),
        e => e,
    })
}

fn deliver(ctx: &Ctx, req: Request) -> Result<Exit> {
    let pane = target::resolve_with_state(ctx, &req.target)?;
    let who = target::describe(&req.target, &pane.id);
    let fail = |msg: String| Error::fail(ctx.cmd, msg);
    if pane.dead {
        return Err(
            fail(format!("{who} is a dead pane: its program has exited")).code(Exit::NoTarget),
        );
    }
    if pane.state == Some(AgentState::Blocked) && !req.force && !req.when_idle {
        return Err(blocked(
            ctx,
            &who,
            &crate::untrusted::shell_word(&req.target),
        ));
    }
    let text = text::neutralise(&req.text);
    let deadline = Instant::now() + Duration::from_secs(req.wait);
    let tmux = &ctx.tmux;
    let socket = tmux.socket.file();
    let _lock = match lock::take(&socket, &pane.id, deadline) {
        Ok(Some(lock)) => lock,
        Ok(None) => {
            return Err(fail(format!(
                "another send to {who} was still under way after {}s; nothing was typed",
                req.wait
            ))
            .hint("try again, or give it longer with --wait SECONDS"))
        }
        Err(e) => {
            return Err(fail(format!(
                "cannot take the send lock in {}: {}; nothing was typed",
                lock::file_for(&socket).display(),
                crate::fsutil::io_words(&e)
            )))
        }
    };
    let manner = preset::of(ctx, &pane.id);
    let pane_id = pane.id.clone();
    let delivered = |size: usize| {
        if let Some(em) = crate::events::Emitter::from_env() {
            let size = format!("--size={size}");
            em.detached(crate::events::Event::Delivered, Some(&pane_id), &[size]);
        }
    };
    let send = Send {
        ctx,
        tmux,
        pane,
        who,
        again: crate::untrusted::shell_word(&req.target),
        deadline,
        wait: req.wait,
        asks: req.paste || manner.is_some_and(|m| m.bracketed),
        manner,
    };
    if req.when_idle {
        send.until_idle(req.force)?;
    }
    send.leave_modes()?;
    if req.lines {
        let lines: Vec<&str> = text.split('\n').collect();
        send.fits_line_by_line(&lines)?;
        for (done, line) in lines.iter().enumerate() {
            send.deliver(line).map_err(|e| match done {
                0 => e,
                1 => e.append(format!(
                    " (line 2 of {}; line 1 was submitted)",
                    lines.len()
                )),
                _ => e.append(format!(
                    " (line {} of {}; lines 1 to {done} were submitted)",
                    done + 1,
                    lines.len()
                )),
            })?;
        }
        delivered(text.len());
        return Ok(Exit::Ok);
    }
    send.deliver(&text)?;
    delivered(text.len());
    Ok(Exit::Ok)
}

/// `again`: the target as the user may type it again.
fn blocked(ctx: &Ctx, who: &str, again: &str) -> Error {
    Error::fail(ctx.cmd, format!("{who} is blocked: it is waiting for a person"))
        .code(Exit::Blocked)
        .hint(format!("look at it first (roost screen {again}); --when-idle waits until it is answered, --force sends anyway"))
}

impl Send<'_> {
    /// Whether the paste goes in brackets (where the program asked): not
    /// when the agent's preset says its program takes none, unless the
    /// user says it does (--paste).
    fn bracketed(&self) -> bool {
        self.asks || self.manner.is_none_or(|m| m.bracketed)
    }

    fn fail(&self, msg: String) -> Error {
        Error::fail(self.ctx.cmd, msg)
    }

    /// A tmux failure before anything was typed.
    fn untyped(&self, e: crate::tmux::TmuxError) -> Error {
        self.fail(format!("{}; nothing was typed into {}", e.0, self.who))
    }

    /// Refused with nothing typed: the pane shows a dialog roost knows.
    fn in_dialog(&self, dialog: &Dialog, still: Option<u64>) -> Error {
        let shows = match still {
            Some(seconds) => format!("was still showing {} after {seconds}s", dialog.what),
            None => format!("shows {}", dialog.what),
        };
        self.fail(format!(
            "{} {shows}: it is waiting for a person, and what is typed there would answer the dialog, not reach the prompt; nothing was typed",
            self.who
        ))
        .code(Exit::Blocked)
        .hint(format!(
            "answer it in the pane first (roost screen {} shows it): {}",
            self.again, dialog.answer
        ))
    }

    /// With --lines, before any line is typed: a line longer than a
    /// terminal's line mode takes is refused at once when the program reads
    /// in that mode (and will not ask for a paste).
    fn fits_line_by_line(&self, lines: &[&str]) -> Result<()> {
        let Some(at) = lines.iter().position(|l| !Shape::of(l).fits_a_line()) else {
            return Ok(());
        };
        let look = ready::look(self.tmux, &self.pane.id, self.asks).map_err(|e| self.untyped(e))?;
        if look.reading != Reading::Line || look.agent || self.asks {
            return Ok(());
        }
        Err(self.refused(
            Reading::Line,
            Shape::of(lines[at]),
            Some((at + 1, lines.len())),
        ))
    }

    /// Refused with nothing typed (exit 4): the program cannot take text
    /// of this shape, or did not within --wait.
    fn refused(&self, reading: Reading, shape: Shape, of: Option<(usize, usize)>) -> Error {
        let version = crate::tmux::version().unwrap_or_default();
        let version = version.trim_start_matches("tmux ");
        let (why, what) = ready::refusal(reading, shape, of, self.wait, version, &self.again);
        self.fail(format!("{} {why}; nothing was typed", self.who))
            .code(Exit::NotReady)
            .hint(what)
    }

    /// Takes the pane out of copy mode or any other mode, so the paste and
    /// its Enter reach the program; refuses when it stays in one.
    fn leave_modes(&self) -> Result<()> {
        match self.tmux.leave_mode(&self.pane.id) {
            Ok(None) => Ok(()),
            Ok(Some(mode)) => Err(self.fail(format!(
                "{} is in {mode} and roost could not take it out; nothing was typed",
                self.who
            ))),
            Err(e) => Err(self.untyped(e)),
        }
    }

    /// Types `text` and presses Enter once the program took it.
    fn deliver(&self, text: &str) -> Result<()> {
        // One line a terminal's line discipline takes whole is one
        // submission whatever the program does; anything else must go in as
        // one paste, which only a program that asked for it gets.
        let shape = Shape::of(text);
        let ready = || -> Result<ready::Look> {
            match ready::wait(self.tmux, &self.pane.id, self.deadline, shape, self.asks)
                .map_err(|e| self.untyped(e))?
            {
                Ok(look) => Ok(look),
                Err(Reading::Dialog(dialog)) => Err(self.in_dialog(dialog, None)),
                Err(reading) => Err(self.refused(reading, shape, None)),
            }
        };
        let mut look = ready()?;
        // An agent that has reported no state yet may still be starting:
        // Gemini CLI resuming draws its prompt, then clears the screen and
        // draws it again under the session's history, dropping what was
        // typed between. Its screen stands still first, and is looked at
        // again (a dialog may have come).
        if look.agent && self.pane.state.is_none() {
            let end = self.deadline.min(Instant::now() + still::STILL_AT_MOST);
            still::until_still(self.tmux, &self.pane.id, STILL_AGENT, end);
            look = ready()?;
        }
        let screen_before = match look.reading {
            Reading::Unknown => Some(self.shown(text)?),
            _ => None,
        };
        let reads = self.reads(look.tty.as_ref());
        if !text.is_empty() {
            self.tmux
                .paste_as(&self.pane.id, text, self.bracketed())
                .map_err(|e| self.untyped(e))?;
        }
        let took = match (&look.tty, look.reading) {
            // An empty line (--lines) is Enter alone: nothing to be read.
            _ if text.is_empty() => true,
            (Some(tty), r) if r.raw() => self.until_read(tty, reads),
            // The line discipline holds the line for the program waiting.
            (_, Reading::Line) => true,
            _ => self.until_shown(text, screen_before.unwrap_or(0))?,
        };
        if !took {
            return Err(self
                .fail(format!(
                    "the text was typed into {} but its program did not take it within {}s, so Enter was not pressed",
                    self.who,
                    ARRIVAL.as_secs()
                ))
                .code(Exit::TypedNotSubmitted)
                .hint(format!("do not send it again: look at the pane (roost screen {}), then press Enter there or clear the line", self.again)));
        }
        if look.reading.raw() {
            let still = if look.agent { STILL_AGENT } else { STILL };
            let end = Instant::now() + still::STILL_AT_MOST;
            let screen = still::until_still(self.tmux, &self.pane.id, still, end);
            // An agent still starting may have put a dialog over its prompt
            // meanwhile: Enter would answer it.
            if let Some(dialog) = screen.as_deref().and_then(crate::tmux::dialog::recognise) {
                return Err(self
                    .fail(format!(
                        "the text was typed into {}, but it then showed {}, so Enter was not pressed",
                        self.who, dialog.what
                    ))
                    .code(Exit::TypedNotSubmitted)
                    .hint(format!(
                        "do not send it again: answer the dialog in the pane first (roost screen {} shows it), then look whether the text still waits in its prompt",
                        self.again
                    )));
            }
        }
        // The preset's program needs this long before Enter counts.
        if let Some(m) = self.manner.filter(|m| !m.settle.is_zero()) {
            std::thread::sleep(m.settle);
        }
        let reads = self.reads(look.tty.as_ref());
        self.tmux.submit(&self.pane.id).map_err(|e| {
            self.fail(format!(
                "the text was typed into {}, but Enter could not be pressed: {}",
                self.who, e.0
            ))
            .code(Exit::TypedNotSubmitted)
        })?;
        self.confirmed(text, &look, reads)
    }

    /// What the pane's foreground job has read so far, where that shows.
    fn reads(&self, tty: Option<&tty::PaneTty>) -> Option<tty::JobReads> {
        let pid = u32::try_from(self.pane.pid?).ok()?;
        tty?.job_reads(pid)
    }

    /// Whether the program read everything typed into its terminal since it
    /// had read `before` bytes: its input queue is empty, after being seen
    /// full or once the program has read more (an empty queue alone may
    /// only mean that tmux has not written the text yet).
    fn until_read(&self, tty: &tty::PaneTty, before: Option<tty::JobReads>) -> bool {
        let end = Instant::now() + ARRIVAL;
        let mut seen_full = false;
        loop {
            match tty.unread() {
                Some(0) => {
                    let more = match before {
                        Some(b) => self.reads(Some(tty)).is_none_or(|now| now.since(b)),
                        None => true,
                    };
                    if seen_full || more {
                        return true;
                    }
                }
                Some(_) => seen_full = true,
                None => return true,
            }
            if Instant::now() >= end {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// How often the end of `text` stands on the pane's recent screen.
    fn shown(&self, text: &str) -> Result<usize> {
        let Some(needle) = text::needle(text) else {
            return Ok(0);
        };
        let screen = self
            .tmux
            .recent_screen(&self.pane.id)
            .map_err(|e| self.untyped(e))?;
        Ok(text::count(&screen, &needle))
    }

    /// Where the terminal cannot be looked at: the text showing on the
    /// screen once more than before is all that tells it arrived.
    fn until_shown(&self, text: &str, before: usize) -> Result<bool> {
        if text::needle(text).is_none() {
            return Ok(true);
        }
        let end = Instant::now() + ARRIVAL;
        loop {
            if self.shown(text).unwrap_or(0) > before {
                return Ok(true);
            }
            if Instant::now() >= end {
                return Ok(false);
            }
            std::thread::sleep(Duration::from_millis(15));
        }
    }

    /// After Enter: the agent's prompt hook reports the prompt, where one
    /// is wired; else the program read the Enter, where that can be seen.
    fn confirmed(
        &self,
        text: &str,
        look: &ready::Look,
        reads: Option<tty::JobReads>,
    ) -> Result<()> {
        let unconfirmed = |why: String| {
            self.fail(format!(
                "the text and Enter were typed into {}, but {why}",
                self.who
            ))
            .code(Exit::NotConfirmed)
            .hint(format!(
                "do not send it again: look at the pane (roost screen {}) first",
                self.again
            ))
        };
        if look.hooked {
            let want = prompt_key(text);
            let end = Instant::now() + HOOK_REPORT;
            loop {
                let seen = self.tmux.prompt_seen(&self.pane.id).ok().flatten();
                if seen.as_deref() == Some(want.as_str()) {
                    return Ok(());
                }
                if Instant::now() >= end {
                    let why = match seen {
                        Some(_) => "its agent's prompt hook reported another prompt".to_string(),
                        None => format!(
                            "its agent's prompt hook did not report it within {}s",
                            HOOK_REPORT.as_secs()
                        ),
                    };
                    return Err(unconfirmed(why));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        if let Some(tty) = &look.tty {
            if !self.until_read(tty, reads) {
                return Err(unconfirmed(format!(
                    "its program did not read the Enter within {}s",
                    ARRIVAL.as_secs()
                )));
            }
        }
        Ok(())
    }
}
