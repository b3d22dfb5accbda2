//! `read TARGET [N]` (the recorded reply, else the screen) and
//! `screen TARGET [N]` (the last N non-blank lines of the pane). What an
//! agent wrote reaches a terminal printable (`untrusted::printable_lines`)
//! and a pipe or file byte for byte, so `roost send b "$(roost read a)"`
//! passes a reply on unchanged.

use super::{ctx::Ctx, target};
use crate::cli::model::LinesArgs;
use crate::error::{Exit, Result};

const DEFAULT_LINES: u64 = 40;

pub fn read(ctx: &Ctx, a: LinesArgs) -> Result<Exit> {
    let (target, n) = (a.target, a.n.unwrap_or(DEFAULT_LINES));
    let pane = target::resolve(ctx, &target)?;
    match ctx
        .tmux
        .pane_text(&pane.id, crate::tmux::options::REPLY)
        .map_err(|e| ctx.tmux_err(e))?
    {
        Some(mut reply) => {
            reply.push(b'\n');
            show(ctx, &reply)?;
        }
        None => {
            eprintln!("roost read: '{target}' has recorded no reply; showing the last {n} lines of its screen");
            show(ctx, last_lines(ctx, &pane.id, n)?.as_bytes())?;
        }
    }
    Ok(Exit::Ok)
}

pub fn screen(ctx: &Ctx, a: LinesArgs) -> Result<Exit> {
    let (target, n) = (a.target, a.n.unwrap_or(DEFAULT_LINES));
    let pane = target::resolve(ctx, &target)?;
    show(ctx, last_lines(ctx, &pane.id, n)?.as_bytes())?;
    Ok(Exit::Ok)
}

/// Writes an agent's text: made printable on a terminal, as it is elsewhere.
fn show(ctx: &Ctx, text: &[u8]) -> Result<()> {
    use std::io::{IsTerminal, Write};
    let mut stdout = std::io::stdout().lock();
    let written = if stdout.is_terminal() {
        stdout.write_all(crate::untrusted::printable_lines(text).as_bytes())
    } else {
        stdout.write_all(text)
    };
    written.and_then(|()| stdout.flush()).map_err(|e| {
        crate::error::Error::fail(
            ctx.cmd,
            format!("cannot write: {}", crate::fsutil::io_words(&e)),
        )
    })
}

fn last_lines(ctx: &Ctx, pane: &str, n: u64) -> Result<String> {
    let text = ctx.tmux.capture(pane).map_err(|e| ctx.tmux_err(e))?;
    Ok(tail_non_blank(&text, n as usize))
}

/// The last `n` lines that are not blank, trailing spaces trimmed.
fn tail_non_blank(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    let start = lines.len().saturating_sub(n);
    lines[start..].iter().map(|l| format!("{l}\n")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn tail_skips_blank_lines() {
        assert_eq!(super::tail_non_blank("a\n\n  \nb  \nc\n\n", 2), "b\nc\n");
        assert_eq!(super::tail_non_blank("a\n", 5), "a\n");
        assert_eq!(super::tail_non_blank("\n\n", 5), "");
    }
}
