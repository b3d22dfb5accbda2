//! `roost next` (the next agent waiting for a person, switched to inside
//! roost) and `roost badge` (the status-line segment of how many agents are
//! blocked and done).

use super::ctx::Ctx;
use crate::error::{Error, Exit, Result};
use crate::tmux::AgentState;

pub fn next(ctx: &Ctx) -> Result<Exit> {
    let none = || {
        Error::fail(ctx.cmd, "no agent is waiting for a person")
            .hint("roost status shows every pane's state")
    };
    if !ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        return Err(none());
    }
    let panes = ctx.tmux.panes_with_dialogs().map_err(|e| ctx.tmux_err(e))?;
    let me = ctx.tmux.caller_pane();
    let at = me
        .as_ref()
        .and_then(|m| panes.iter().position(|p| &p.id == m));
    let blocked: Vec<usize> = (0..panes.len())
        .filter(|&i| !panes[i].dead && panes[i].state == Some(AgentState::Blocked))
        .collect();
    let pick = match at {
        Some(at) => blocked.iter().find(|&&i| i > at).or(blocked.first()),
        None => blocked.first(),
    };
    let Some(&i) = pick else {
        return Err(none());
    };
    let p = &panes[i];
    println!(
        "{} {} {}",
        p.id,
        p.address().for_people(),
        p.window_name.for_people()
    );
    if me.is_some() {
        let _ = ctx.tmux.show_pane(&p.id);
    }
    Ok(Exit::Ok)
}

pub fn badge(ctx: &Ctx) -> Result<Exit> {
    if !ctx.tmux.socket_exists() {
        return Ok(Exit::Ok);
    }
    let Ok(panes) = ctx.tmux.panes_with_dialogs() else {
        return Ok(Exit::Ok);
    };
    let count = |s: AgentState| {
        panes
            .iter()
            .filter(|p| !p.dead && p.state == Some(s))
            .count()
    };
    let parts: Vec<String> = [AgentState::Blocked, AgentState::Done]
        .map(|s| (s.word(), count(s)))
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(w, n)| format!("{n} {w}"))
        .collect();
    if !parts.is_empty() {
        println!("{}", parts.join(" "));
    }
    Ok(Exit::Ok)
}
