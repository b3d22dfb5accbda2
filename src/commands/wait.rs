//! `wait-done TARGET [SECONDS]`: block until the agent says it is finished.

use super::{target, Ctx};
use crate::cli::model::WaitArgs;
use crate::error::{Error, Exit, Result};
use std::time::{Duration, Instant};

const DEFAULT_SECONDS: u64 = 600;
const POLL: Duration = Duration::from_millis(200);

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
            "done" | "idle" => return Ok(Exit::Ok),
            "error" => return Err(Error::fail(ctx.cmd, format!("{who} reported an error"))),
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
        std::thread::sleep(POLL);
    }
}

fn describe(state: &str) -> &str {
    if state.is_empty() {
        "without a state"
    } else {
        state
    }
}
