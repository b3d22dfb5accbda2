//! `send [--force] TARGET TEXT...`: one bracketed paste through a tmux buffer,
//! a check that it reached the pane, then Enter.

use super::{target, Args, Ctx};
use crate::error::{Error, Result};
use std::os::unix::ffi::OsStrExt;
use std::time::{Duration, Instant};

/// How long the pasted text may take to show up on the pane's screen.
const ARRIVAL: Duration = Duration::from_secs(3);

pub fn run(ctx: &Ctx, a: &mut Args) -> Result<u8> {
    a.options(&["--force"])?;
    let force = a.has("--force");
    let target = a.required("TARGET")?;
    let words = a.rest();
    if words.is_empty() {
        return Err(Error::usage(ctx.cmd, "missing TEXT"));
    }
    let text = words
        .iter()
        .map(|w| w.as_bytes())
        .collect::<Vec<_>>()
        .join(&b' ');
    if text.is_empty() {
        return Err(Error::usage(ctx.cmd, "TEXT is empty"));
    }
    let pane = target::resolve(ctx, &target)?;
    if pane.dead {
        return Err(Error::fail(
            ctx.cmd,
            format!(
                "'{target}' ({}) is a dead pane: its program has exited",
                pane.id
            ),
        )
        .code(2));
    }
    if pane.state == "blocked" && !force {
        return Err(Error::fail(
            ctx.cmd,
            format!(
                "'{target}' ({}) is blocked: it is waiting for a person",
                pane.id
            ),
        )
        .code(3)
        .hint("look at it first (roost screen TARGET); --force sends anyway"));
    }
    let tmux = &ctx.tmux;
    let fail = |e: crate::tmux::TmuxError| {
        Error::fail(ctx.cmd, format!("could not submit to '{target}': {}", e.0))
    };
    // A new prompt makes the previous answer and state stale.
    for option in ["@roost-reply", "@agent_state"] {
        tmux.run(&["set-option", "-p", "-u", "-t", &pane.id, option])
            .map_err(fail)?;
    }
    let before = tmux
        .run(&["capture-pane", "-p", "-t", &pane.id])
        .map_err(fail)?;
    let buffer = format!("roost-send-{}", std::process::id());
    tmux.run_with_input(&["load-buffer", "-b", &buffer, "-"], &text)
        .map_err(fail)?;
    tmux.run(&["paste-buffer", "-p", "-d", "-b", &buffer, "-t", &pane.id])
        .map_err(|e| {
            let _ = tmux.run(&["delete-buffer", "-b", &buffer]);
            fail(e)
        })?;
    let deadline = Instant::now() + ARRIVAL;
    loop {
        let now = tmux
            .run(&["capture-pane", "-p", "-t", &pane.id])
            .map_err(fail)?;
        if now != before {
            break;
        }
        if Instant::now() >= deadline {
            return Err(Error::fail(
                ctx.cmd,
                format!(
                    "the text never showed up in '{target}' ({}); Enter was not pressed",
                    pane.id
                ),
            )
            .hint("look at the pane (roost screen TARGET): it may not be reading input"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    tmux.run(&["send-keys", "-t", &pane.id, "Enter"])
        .map_err(fail)?;
    Ok(0)
}
