//! What an agent says about itself from inside its pane: `reply`, `state`,
//! `whoami`. Outside roost the first two are silent no-ops, so agent hooks
//! can call them unconditionally.

use super::Ctx;
use crate::cli::model::{ReplyArgs, StateArgs};
use crate::error::{Error, Exit, Result};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;

pub const STATES: &[&str] = crate::tmux::state::KNOWN;

pub fn reply(ctx: &Ctx, a: ReplyArgs) -> Result<Exit> {
    let words = a.text;
    let Some(pane) = ctx.tmux.caller_pane() else {
        return Ok(Exit::Ok);
    };
    let mut text = if words.len() == 1 && words[0] == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Error::fail(ctx.cmd, format!("cannot read stdin: {e}")))?;
        buf
    } else {
        words
            .iter()
            .map(|w| w.as_bytes())
            .collect::<Vec<_>>()
            .join(&b' ')
    };
    while text.last() == Some(&b'\n') {
        text.pop();
    }
    ctx.tmux
        .set_pane_text(&pane, "@roost-reply", &text)
        .map_err(|e| ctx.tmux_err(e))?;
    Ok(Exit::Ok)
}

pub fn state(ctx: &Ctx, a: StateArgs) -> Result<Exit> {
    let word = a.state;
    // Refused everywhere, inside roost or not, so a hook with a typo is
    // caught the first time it is tried. Exit 1, not 2: hook runners give
    // 2 a meaning of their own (Claude Code: "block, and show the model").
    let Some(state) = STATES.iter().find(|s| **s == word) else {
        return Err(Error::fail(
            ctx.cmd,
            format!("unknown state '{word}'; nothing was stamped"),
        )
        .hint(format!("use one of: {}", STATES.join(" "))));
    };
    let Some(pane) = ctx.tmux.caller_pane() else {
        return Ok(Exit::Ok);
    };
    ctx.tmux.stamp(&pane, state).map_err(|e| ctx.tmux_err(e))?;
    Ok(Exit::Ok)
}

pub fn whoami(ctx: &Ctx) -> Result<Exit> {
    match ctx.tmux.caller_pane() {
        Some(pane) => {
            println!("{pane}");
            Ok(Exit::Ok)
        }
        None => Err(Error::fail(ctx.cmd, "not inside a roost pane")
            .hint("run it from a pane of roost's server (roost spawn NAME starts one)")),
    }
}
