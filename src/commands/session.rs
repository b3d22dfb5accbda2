//! `up`/`start`/plain `roost` and `session NAME`.

use super::{ctx::Ctx, target};
use crate::error::{Exit, Result};
use std::io::IsTerminal;

/// Makes sure the session exists (starting the server if needed) and attaches.
pub fn up(ctx: &Ctx, name: &str) -> Result<Exit> {
    target::check_name(ctx, "session name", name)?;
    ctx.ensure_session(name)?;
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        eprintln!(
            "roost {}: session {name} is running (socket={}); not attaching without a terminal",
            ctx.cmd,
            ctx.tmux.socket.value().to_string_lossy()
        );
        return Ok(Exit::Ok);
    }
    if ctx.tmux.caller_pane().is_some() {
        ctx.tmux
            .switch_to_session(name)
            .map_err(|e| ctx.tmux_err(e))?;
        return Ok(Exit::Ok);
    }
    // Inside the user's own tmux (another server): tmux has no way to
    // switch a client across servers, so the client attaches nested; say so.
    if std::env::var_os("TMUX").is_some_and(|v| !v.is_empty()) {
        eprintln!("roost {}: {NESTED}", ctx.cmd);
    }
    Err(ctx.tmux_err(ctx.tmux.attach(name)))
}

/// What `roost` says before it attaches inside another tmux server.
const NESTED: &str = "attaching roost's own tmux server inside your tmux (nested); with tmux's default keys, press the prefix twice to reach roost's (prefix prefix d detaches from roost)";
