//! What an agent says about itself from inside its pane: `reply`, `state`,
//! `whoami`. Outside roost the first two are silent no-ops, so agent hooks
//! can call them unconditionally.

use super::ctx::Ctx;
use crate::cli::model::{ReplyArgs, StateArgs};
use crate::error::{Error, Exit, Result};
use crate::tmux::{options, AgentState};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;

/// The most of a reply that is recorded: its first 1 MiB. The rest is read
/// (so the writer is not cut off) and dropped, with a note on stderr.
pub const REPLY_MAX: usize = 1024 * 1024;

pub fn reply(ctx: &Ctx, a: ReplyArgs) -> Result<Exit> {
    let words = a.text;
    let Some(pane) = ctx.tmux.caller_pane() else {
        return Ok(Exit::Ok);
    };
    let (mut text, total) = if words.len() == 1 && words[0] == "-" {
        bounded(std::io::stdin().lock(), REPLY_MAX).map_err(|e| {
            Error::fail(
                ctx.cmd,
                format!("cannot read stdin: {}", crate::fsutil::io_words(&e)),
            )
        })?
    } else {
        let text = words
            .iter()
            .map(|w| w.as_bytes())
            .collect::<Vec<_>>()
            .join(&b' ');
        let total = text.len() as u64;
        (text, total)
    };
    if total > REPLY_MAX as u64 {
        cut(&mut text, REPLY_MAX);
        eprintln!(
            "roost reply: the reply is {total} bytes, more than the {REPLY_MAX} (1 MiB) a reply keeps; its first {} bytes were recorded",
            text.len()
        );
    }
    while text.last() == Some(&b'\n') {
        text.pop();
    }
    ctx.tmux
        .set_pane_text(&pane, options::REPLY, &text)
        .map_err(|e| ctx.tmux_err(e))?;
    Ok(Exit::Ok)
}

/// The first `max` bytes of `input` and a few more (for `cut`), and how
/// many bytes it held in all (the rest is read and dropped).
fn bounded(mut input: impl Read, max: usize) -> std::io::Result<(Vec<u8>, u64)> {
    let mut kept = Vec::new();
    (&mut input).take(max as u64 + 4).read_to_end(&mut kept)?;
    let rest = std::io::copy(&mut input, &mut std::io::sink())?;
    let total = kept.len() as u64 + rest;
    Ok((kept, total))
}

/// `text` cut to at most `max` bytes, never inside a UTF-8 character
/// (where the text is not UTF-8, at `max` itself).
fn cut(text: &mut Vec<u8>, max: usize) {
    if text.len() <= max {
        return;
    }
    let continues = |b: u8| b & 0xC0 == 0x80;
    let mut at = max;
    while at > max.saturating_sub(3) && continues(text[at]) {
        at -= 1;
    }
    if continues(text[at]) {
        at = max;
    }
    text.truncate(at);
}

pub fn state(ctx: &Ctx, a: StateArgs) -> Result<Exit> {
    let word = a.state;
    // Refused everywhere, inside roost or not, so a hook with a typo is
    // caught the first time it is tried. Exit 1, not 2: hook runners give
    // 2 a meaning of their own (Claude Code: "block, and show the model"),
    // so the word is read here and not by the command line's parser.
    let Some(state) = AgentState::from_word(&word) else {
        return Err(Error::fail(
            ctx.cmd,
            format!("unknown state '{word}'; nothing was stamped"),
        )
        .hint(format!("use one of: {}", AgentState::words().join(" "))));
    };
    let Some(pane) = ctx.tmux.caller_pane() else {
        return Ok(Exit::Ok);
    };
    // One tmux call: the stamp, and on a real change the event fired
    // inside the server.
    let mut batch = crate::tmux::Batch::new();
    let emitter = crate::events::Emitter::from_env();
    crate::events::stamp(&mut batch, &pane, state, emitter.as_ref());
    ctx.tmux.run_batch(&batch).map_err(|e| ctx.tmux_err(e))?;
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

#[cfg(test)]
mod tests {
    use super::{bounded, cut};

    #[test]
    fn a_long_reply_is_cut_at_the_bound_on_a_character_boundary() {
        let mut ascii = b"abcdef".to_vec();
        cut(&mut ascii, 4);
        assert_eq!(ascii, b"abcd");
        // "é" is two bytes: a cut inside it keeps the text before it.
        let mut text = "abc\u{e9}z".as_bytes().to_vec();
        cut(&mut text, 4);
        assert_eq!(text, b"abc");
        let mut binary = vec![0x80; 10];
        cut(&mut binary, 5);
        assert_eq!(binary.len(), 5);
        let (kept, total) = bounded(&[7u8; 100][..], 10).unwrap();
        assert_eq!((kept.len(), total), (14, 100));
    }
}
