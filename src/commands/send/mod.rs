//! `send [--force] [--wait SECONDS] TARGET TEXT...`: TEXT delivered exactly
//! once, as one bracketed paste followed by one Enter that reaches the
//! program, or a failure that says what was typed. One sender at a time per
//! pane (lock.rs); TEXT is made harmless first (text.rs).

mod lock;
mod text;

use super::{target, Ctx};
use crate::cli::model::SendArgs;
use crate::error::{Error, Exit, Result};
use crate::tmux::Tmux;
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

/// How long pasted text may take to show on the screen when nothing says
/// the program took it.
const ARRIVAL: Duration = Duration::from_secs(3);

/// How long to let a program that asked for the paste show it before
/// Enter, so a TUI that reads slowly sees the paste end first.
const ECHO_GRACE: Duration = Duration::from_millis(1000);

/// The longest line a terminal in canonical mode takes whole (Linux's
/// N_TTY buffer is 4096 bytes, the newline included).
const MAX_LINE: usize = 4095;

struct Request {
    force: bool,
    wait: u64,
    target: String,
    text: Vec<u8>,
}

/// TEXT's words joined by spaces; it may not be empty.
fn request(ctx: &Ctx, a: SendArgs) -> Result<Request> {
    let text = a
        .text
        .iter()
        .map(|w| w.as_bytes())
        .collect::<Vec<_>>()
        .join(&b' ');
    if text.is_empty() {
        return Err(Error::usage(ctx.cmd, "TEXT is empty"));
    }
    Ok(Request {
        force: a.force,
        wait: a.wait,
        target: a.target,
        text,
    })
}

pub fn run(ctx: &Ctx, a: SendArgs) -> Result<Exit> {
    let req = request(ctx, a)?;
    let pane = target::resolve(ctx, &req.target)?;
    let who = target::describe(&req.target, &pane.id);
    let fail = |msg: String| Error::fail(ctx.cmd, msg);
    if pane.dead {
        return Err(
            fail(format!("{who} is a dead pane: its program has exited")).code(Exit::NoTarget),
        );
    }
    if pane.state == "blocked" && !req.force {
        return Err(
            fail(format!("{who} is blocked: it is waiting for a person"))
                .code(Exit::Blocked)
                .hint("look at it first (roost screen TARGET); --force sends anyway"),
        );
    }
    let text = text::neutralise(&req.text);
    let deadline = Instant::now() + Duration::from_secs(req.wait);
    let tmux = &ctx.tmux;
    let untyped =
        |e: crate::tmux::TmuxError| fail(format!("{}; nothing was typed into {who}", e.0));

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
                "cannot take the send lock in {}: {e}; nothing was typed",
                lock::file_for(&socket).display()
            )))
        }
    };
    leave_modes(tmux, &pane.id).map_err(|e| fail(format!("{e}; nothing was typed into {who}")))?;
    // One line a terminal's line discipline takes whole is one submission
    // whatever the program does; anything else must go in as one paste,
    // which only a program that asked for it gets.
    let one_line = !text.contains('\n') && text.len() < MAX_LINE;
    let terminal = match ready(tmux, &pane.id, deadline, one_line).map_err(untyped)? {
        Some(terminal) => terminal,
        None => {
            return Err(fail(format!(
                "{who} has not asked for a bracketed paste within {}s (it is busy or still starting), and TEXT needs one; nothing was typed",
                req.wait
            ))
            .code(Exit::NotReady)
            .hint("wait for it (roost wait-done TARGET), or give it longer with --wait SECONDS"))
        }
    };
    // A new prompt makes the previous answer and state stale.
    for option in ["@roost-reply", "@agent_state"] {
        tmux.run(&["set-option", "-p", "-u", "-t", &pane.id, option])
            .map_err(untyped)?;
    }
    let needle = text::needle(&text);
    let shown = |screen: &str| needle.as_deref().map_or(0, |n| text::count(screen, n));
    let before = shown(&recent_screen(tmux, &pane.id).map_err(untyped)?);
    let buffer = format!("roost-send-{}", std::process::id());
    tmux.run_with_input(&["load-buffer", "-b", &buffer, "-"], text.as_bytes())
        .map_err(untyped)?;
    if let Err(e) = tmux.run(&["paste-buffer", "-p", "-d", "-b", &buffer, "-t", &pane.id]) {
        let _ = tmux.run(&["delete-buffer", "-b", &buffer]);
        return Err(untyped(e));
    }
    // Arrival: the text on the screen, never just any change. Where the
    // program asked for the paste, or the terminal holds the line for it
    // without echo, the paste is known to have reached its input.
    let known = matches!(terminal, Terminal::Asked | Terminal::LineWithoutEcho);
    let limit = if known { ECHO_GRACE } else { ARRIVAL };
    let end = Instant::now() + limit;
    let arrived = needle.is_none()
        || loop {
            let now = recent_screen(tmux, &pane.id)
                .map(|s| shown(&s))
                .unwrap_or(0);
            if now > before {
                break true;
            }
            if Instant::now() >= end {
                break false;
            }
            std::thread::sleep(Duration::from_millis(15));
        };
    if !arrived && !known {
        return Err(fail(format!(
            "the text was typed into {who} but never showed on its screen within {}s, so Enter was not pressed",
            ARRIVAL.as_secs()
        ))
        .code(Exit::TypedNotSubmitted)
        .hint("do not send it again: look at the pane (roost screen TARGET), then press Enter there or clear the line"));
    }
    press_enter(tmux, &pane.id).map_err(|e| {
        fail(format!(
            "the text was typed into {who}, but Enter could not be pressed: {}",
            e.0
        ))
        .code(Exit::TypedNotSubmitted)
    })?;
    Ok(Exit::Ok)
}

/// What the pane's terminal says of its program's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terminal {
    /// tmux reports that it asked for bracketed paste: a paste arrives as
    /// one, and reaches a program that is reading.
    Asked,
    /// In raw mode, on a tmux too old to say whether it asked: a line
    /// editor reading (which asks while it reads), or a program that takes
    /// keys; only the text on the screen shows it arrived.
    Raw,
    /// The terminal's line discipline gathers a line and does not echo it
    /// (a hidden prompt): a line typed there is held whole for the program.
    LineWithoutEcho,
    /// Anything else: only the text on the screen shows it arrived.
    Other,
}

/// Waits until the program can take TEXT: at once for `one_line`, else
/// until it asks for a bracketed paste (until then it is busy or still
/// starting, and a paste would arrive as keystrokes: each newline a
/// submission, a long line cut at 4095 bytes). `None` at the deadline.
///
/// tmux 3.7 and later report the request (`bracket_paste_flag`). Older
/// ones do not; then the pane's terminal settings stand in: a program in
/// raw mode is taken to be reading with a line editor of its own, one in
/// the terminal's line mode is not.
fn ready(
    tmux: &Tmux,
    pane: &str,
    deadline: Instant,
    one_line: bool,
) -> crate::tmux::TmuxResult<Option<Terminal>> {
    loop {
        let now = tmux.pane_format(pane, "#{bracket_paste_flag}\t#{pane_tty}")?;
        let (flag, tty) = now.split_once('\t').unwrap_or((&now, ""));
        let modes = terminal_modes(tty);
        let terminal = match (flag, modes) {
            ("1", _) => Terminal::Asked,
            (_, Some(m)) if m.canonical && !m.echo => Terminal::LineWithoutEcho,
            ("0", _) => Terminal::Other,
            (_, Some(m)) if !m.canonical => Terminal::Raw,
            _ => Terminal::Other,
        };
        if one_line || matches!(terminal, Terminal::Asked | Terminal::Raw) {
            return Ok(Some(terminal));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[derive(Clone, Copy)]
struct Modes {
    canonical: bool,
    echo: bool,
}

/// The line-discipline settings of the pane's terminal, when this user may
/// open it (never as its controlling terminal).
fn terminal_modes(tty: &str) -> Option<Modes> {
    use nix::sys::termios::LocalFlags;
    use std::os::unix::fs::OpenOptionsExt;
    if !tty.starts_with("/dev/") {
        return None;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NOCTTY | nix::libc::O_NONBLOCK | nix::libc::O_CLOEXEC)
        .open(tty)
        .ok()?;
    let t = nix::sys::termios::tcgetattr(&file).ok()?;
    Some(Modes {
        canonical: t.local_flags.contains(LocalFlags::ICANON),
        echo: t.local_flags.contains(LocalFlags::ECHO),
    })
}

/// Takes the pane out of copy mode or any other mode, so the paste and its
/// Enter reach the program; refuses when it stays in one.
fn leave_modes(tmux: &Tmux, pane: &str) -> std::result::Result<(), String> {
    let mode = |t: &Tmux| t.pane_format(pane, "#{pane_in_mode}#{pane_mode}");
    let now = mode(tmux).map_err(|e| e.0)?;
    if now.starts_with('0') || now.is_empty() {
        return Ok(());
    }
    // `copy-mode -q` (tmux 3.2 and later) leaves every mode; older tmux
    // knows `cancel` in copy mode.
    if tmux.run(&["copy-mode", "-q", "-t", pane]).is_err() {
        let _ = tmux.run(&["send-keys", "-X", "-t", pane, "cancel"]);
    }
    let after = mode(tmux).map_err(|e| e.0)?;
    if after.starts_with('1') {
        return Err(format!(
            "the pane is in {} and roost could not take it out",
            after.trim_start_matches('1')
        ));
    }
    Ok(())
}

/// Enter, in the same tmux command as a last way out of copy mode, so a
/// person who scrolled back a moment ago cannot catch it.
fn press_enter(tmux: &Tmux, pane: &str) -> crate::tmux::TmuxResult<String> {
    let cancel = format!("send-keys -X -t {pane} cancel");
    tmux.run(&[
        "if-shell",
        "-F",
        "-t",
        pane,
        "#{pane_in_mode}",
        &cancel,
        ";",
        "send-keys",
        "-t",
        pane,
        "Enter",
    ])
}

/// The last screenfuls of the pane, wrapped lines joined.
fn recent_screen(tmux: &Tmux, pane: &str) -> crate::tmux::TmuxResult<String> {
    tmux.run(&["capture-pane", "-p", "-J", "-S", "-200", "-t", pane])
}
