//! `wait-done TARGET [SECONDS]`: block until the agent says it is finished.
//! It sleeps in the server until the target's state changes or its program
//! ends (tmux/state.rs), looking again only then, and every `SAFETY` in case
//! a state was set some other way or the pane was killed.

use super::{target, Ctx};
use crate::cli::model::WaitArgs;
use crate::error::{Error, Exit, Result};
use crate::tmux::state::FINAL;
use std::time::{Duration, Instant};

const DEFAULT_SECONDS: u64 = 600;
/// The longest sleep between two looks.
const SAFETY: Duration = Duration::from_secs(10);

pub fn run(ctx: &Ctx, a: WaitArgs) -> Result<Exit> {
    let (target, seconds) = (a.target, a.seconds.unwrap_or(DEFAULT_SECONDS));
    let pane = target::resolve(ctx, &target)?;
    let who = target::describe(&target, &pane.id);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        let panes = if ctx.tmux.socket_exists() {
            ctx.tmux.panes().unwrap_or_default()
        } else {
            Vec::new()
        };
        let Some(now) = panes.iter().find(|p| p.id == pane.id) else {
            return Err(Error::fail(ctx.cmd, format!("{who} is gone")).code(Exit::NoTarget));
        };
        match now.state.as_str() {
            "error" => return Err(Error::fail(ctx.cmd, format!("{who} reported an error"))),
            state if FINAL.contains(&state) => return Ok(Exit::Ok),
            _ if now.dead => {
                return Err(Error::fail(ctx.cmd, format!("{who} has exited")).code(Exit::NoTarget))
            }
            _ => {}
        }
        if Instant::now() >= deadline && now.state.is_empty() {
            return Err(Error::fail(
                ctx.cmd,
                format!(
                    "{who} has never reported a state, so roost cannot tell when it is done (waited {seconds}s)"
                ),
            )
            .hint("its agent reports with `roost state done` from its hooks: see \"How agents report their state\" in roost(1) or the README"));
        }
        if Instant::now() >= deadline {
            return Err(Error::fail(
                ctx.cmd,
                format!("{who} is still {} after {seconds}s", describe(&now.state)),
            ));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        ctx.tmux
            .sleep_while_unfinished(&pane.id, left.min(SAFETY))
            .map_err(|e| ctx.tmux_err(e))?;
    }
}

fn describe(state: &str) -> &str {
    if state.is_empty() {
        "without a state"
    } else {
        state
    }
}
