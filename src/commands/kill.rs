//! `kill`/`down`/`stop`: one agent by TARGET, one session by name, or the
//! whole server (asked first on a terminal).
//!
//! The rule: `kill TARGET` ends the pane (`%N`, `WINDOW.PANE`) or the window
//! (a name, `SESSION:WINDOW`, `@N`) TARGET names; a bare word that names no
//! window but a session ends that session, as `--session NAME` does. Plain
//! `kill` ends the whole server: with stdin on a terminal it asks first,
//! unless `--all` is given; with stdin not a terminal (a script) it does so
//! without asking, as it always has.
//!
//! What `roost resume` brings back follows the same rule: an agent ended by
//! `kill TARGET` or `kill --session` is forgotten (it was ended on
//! purpose); ending the whole server forgets nothing, as a crash or a
//! reboot does not, so `resume` brings every agent back.

use super::{ctx::Ctx, target};
use crate::cli::model::KillArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::consent::{ask, Answer};
use crate::tmux::Pane;

pub fn run(ctx: &Ctx, a: KillArgs) -> Result<Exit> {
    if !ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        ctx.require_tmux()?;
        if let Some(what) = a.session.as_ref().or(a.target.as_ref()) {
            return Err(missing(ctx, what, "roost is not running"));
        }
        eprintln!("roost {}: not running", ctx.cmd);
        return Ok(Exit::Ok);
    }
    if let Some(s) = &a.session {
        return kill_session(ctx, s);
    }
    let Some(t) = &a.target else {
        return kill_server(ctx, a.all);
    };
    let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
    let found = target::find(&panes, t).ok();
    let session = is_bare(t) && session_exists(ctx, t)?;
    match (found, session) {
        (Some(_), true) => Err(Error::fail(
            ctx.cmd,
            format!("'{t}' names both a window in session main and a session"),
        )
        .code(Exit::Usage)
        .hint(format!(
            "say which: roost kill main:{t} (the window) or roost kill --session {t}"
        ))),
        (Some(p), false) => kill_target(ctx, t, p),
        (None, true) => kill_session(ctx, t),
        (None, false) => Err(missing(ctx, t, "")),
    }
}

fn missing(ctx: &Ctx, what: &str, why: &str) -> Error {
    let mut msg = format!("no such target or session '{what}'");
    if !why.is_empty() {
        msg = format!("{msg}: {why}");
    }
    Error::fail(ctx.cmd, msg)
        .code(Exit::NoTarget)
        .hint("roost status lists the sessions and panes")
}

/// A word that could be a session name: no target syntax in it.
fn is_bare(t: &str) -> bool {
    !t.contains(':') && !t.starts_with(['%', '@'])
}

fn session_exists(ctx: &Ctx, name: &str) -> Result<bool> {
    let sessions = ctx.tmux.sessions().map_err(|e| ctx.tmux_err(e))?;
    Ok(sessions.iter().any(|s| s.name == name))
}

/// Ends the pane when TARGET named a pane, else the window it named.
fn kill_target(ctx: &Ctx, t: &str, p: &Pane) -> Result<Exit> {
    let window = t.split_once(':').map_or(t, |(_, w)| w);
    let names_window = !t.starts_with('%')
        && (p.window_name == window || p.window_index == window || p.window_id == window);
    // The agent's own pane, when TARGET named a pane.
    let agent = names_window || ctx.tmux.agent_of(&p.id).ok().flatten().is_some();
    let killed = if names_window {
        ctx.tmux.kill_window_id(&p.window_id)
    } else {
        ctx.tmux.kill_pane(&p.id)
    };
    killed.map_err(|e| ctx.tmux_err(e))?;
    if agent {
        crate::agents::launch::killed(
            &ctx.tmux,
            ctx.paths().ok(),
            p.session.raw(),
            Some(p.window_name.raw()),
        );
    }
    Ok(Exit::Ok)
}

fn kill_session(ctx: &Ctx, s: &str) -> Result<Exit> {
    if !session_exists(ctx, s)? {
        return Err(Error::fail(ctx.cmd, format!("no session '{s}'"))
            .code(Exit::NoTarget)
            .hint("roost status lists the sessions"));
    }
    ctx.tmux.kill_session(s).map_err(|e| ctx.tmux_err(e))?;
    crate::agents::launch::killed(&ctx.tmux, ctx.paths().ok(), s, None);
    Ok(Exit::Ok)
}

/// The whole server: asked first when stdin is a terminal and `--all` was
/// not given.
fn kill_server(ctx: &Ctx, all: bool) -> Result<Exit> {
    if !all {
        let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
        let sessions = ctx.tmux.sessions().map_err(|e| ctx.tmux_err(e))?;
        let question = format!(
            "End the whole roost server: {} in {}?",
            crate::words::count(panes.len(), "pane"),
            crate::words::count(sessions.len(), "session")
        );
        match ask(&question, false, &mut std::io::stderr()) {
            Answer::Yes | Answer::NoTerminal => {}
            Answer::No => return Err(Error::fail(ctx.cmd, "nothing killed").hint(
                "roost kill TARGET ends one agent; roost kill --all ends every one without asking",
            )),
        }
    }
    ctx.tmux.kill_server().map_err(|e| ctx.tmux_err(e))?;
    Ok(Exit::Ok)
}
