//! `wait-done TARGET [SECONDS]`: block until the agent says it is finished.
//! It sleeps in the server until the target's state changes or its program
//! ends (tmux/state.rs), looking again only then, and every `SAFETY` in case
//! a state was set some other way or the pane was killed.

use super::{ctx::Ctx, target};
use crate::cli::model::WaitArgs;
use crate::error::{Error, Exit, Result};
use crate::tmux::state::Woke;
use crate::tmux::{AgentState, Sent};
use std::time::{Duration, Instant};

const DEFAULT_SECONDS: u64 = 600;
/// The longest sleep between two looks.
const SAFETY: Duration = Duration::from_secs(10);
/// After the pane's program ended, how long tmux is given to see it, looked
/// at every `SETTLE_LOOK`.
const SETTLE: Duration = Duration::from_secs(2);
const SETTLE_LOOK: Duration = Duration::from_millis(20);

pub fn run(ctx: &Ctx, a: WaitArgs) -> Result<Exit> {
    let (target, seconds) = (a.target, a.seconds.unwrap_or(DEFAULT_SECONDS));
    let pane = target::resolve(ctx, &target)?;
    let who = target::describe(&target, &pane.id);
    // The target as the user may type it again, in a hint.
    let again = crate::untrusted::shell_word(&target);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    // When the pane's program was seen to end.
    let mut ended: Option<Instant> = None;
    loop {
        let panes = if ctx.tmux.socket_exists() {
            ctx.tmux.panes().unwrap_or_default()
        } else {
            Vec::new()
        };
        let Some(now) = panes.iter().find(|p| p.id == pane.id) else {
            return Err(Error::fail(ctx.cmd, format!("{who} is gone")).code(Exit::NoTarget));
        };
        match now.state {
            Some(AgentState::Error) => return Err(reported_error(ctx, &who, &pane.id)),
            Some(state) if state.is_final() => return Ok(Exit::Ok),
            _ if now.dead => {
                // tmux may mark a pane dead a while before its status
                // (under load, more than 100 ms).
                let mut status = now.dead_status;
                let settle = Instant::now() + SETTLE;
                while status.is_none() && Instant::now() < settle {
                    std::thread::sleep(SETTLE_LOOK);
                    let again = ctx.tmux.panes().unwrap_or_default();
                    status = again
                        .iter()
                        .find(|p| p.id == pane.id)
                        .and_then(|p| p.dead_status);
                }
                let how = match status {
                    Some(code) => format!("{who} has exited with status {code}"),
                    None => format!("{who} has exited"),
                };
                return Err(Error::fail(ctx.cmd, how)
                    .code(Exit::NoTarget)
                    .hint(format!("roost read {again} shows its last output")));
            }
            _ => {}
        }
        if Instant::now() >= deadline && now.state.is_none() {
            // A preset's pane no hook reported from: its screen rules say.
            let mut looked = [now.clone()];
            crate::agents::screen_state::read_into(&ctx.tmux, ctx.paths().ok(), &mut looked);
            if let Some(state) = looked[0].state {
                return Err(Error::fail(
                    ctx.cmd,
                    format!(
                        "{who} is still {} after {seconds}s (its screen shows it)",
                        state.word()
                    ),
                ));
            }
            let sent = ctx.tmux.sent_mark(&pane.id).ok().flatten();
            let hooks = "its agent reports with `roost state done` from its hooks: see \"How agents report their state\" in roost(1) or the README";
            let (since, hint) = match sent {
                Some(Sent::Typed) => (
                    "has reported no state since text was typed into it, whose Enter was never pressed",
                    format!("look at the pane (roost screen {again}), then press Enter there or clear the line"),
                ),
                Some(_) => ("has reported no state since its last prompt was sent", hooks.to_string()),
                None => ("has never reported a state", hooks.to_string()),
            };
            return Err(Error::fail(
                ctx.cmd,
                format!("{who} {since}, so roost cannot tell when it is done (waited {seconds}s)"),
            )
            .hint(hint));
        }
        if Instant::now() >= deadline {
            return Err(Error::fail(
                ctx.cmd,
                format!("{who} is still {} after {seconds}s", describe(now.state)),
            ));
        }
        // The program has ended and tmux has not yet seen its terminal
        // close: look again shortly, as no hook may come (tmux 3.3a).
        if ended.is_some_and(|t| t.elapsed() < SETTLE) {
            std::thread::sleep(SETTLE_LOOK);
            continue;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let program = if ended.is_none() { now.pid } else { None };
        let woke = ctx
            .tmux
            .sleep_while_unfinished(&pane.id, program, left.min(SAFETY))
            .map_err(|e| ctx.tmux_err(e))?;
        if woke == Woke::ProgramEnded {
            ended = Some(Instant::now());
        }
    }
}

/// Most characters of an agent's last reply an error's line carries.
const ERROR_SHOWN: usize = 200;

/// The error an agent reported, with the first line of its last reply (an
/// agent's hooks keep the error there), and where the whole of it is.
fn reported_error(ctx: &Ctx, who: &str, pane: &str) -> Error {
    let reply = ctx
        .tmux
        .pane_text(pane, crate::tmux::options::REPLY)
        .ok()
        .flatten()
        .map(|r| String::from_utf8_lossy(&r).into_owned())
        .and_then(|r| r.lines().find(|l| !l.trim().is_empty()).map(str::to_string));
    match reply {
        None => Error::fail(ctx.cmd, format!("{who} reported an error")),
        Some(line) => {
            let mut shown: String = line.trim().chars().take(ERROR_SHOWN).collect();
            if shown.len() < line.trim().len() {
                shown.push('…');
            }
            Error::fail(
                ctx.cmd,
                format!("{who} reported an error; its last reply: {shown}"),
            )
            .hint(format!("roost read {pane} shows all of it"))
        }
    }
}

fn describe(state: Option<AgentState>) -> &'static str {
    state.map_or("without a state", AgentState::word)
}
