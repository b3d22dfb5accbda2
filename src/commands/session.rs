//! `up`/`start`/plain `roost`, `session NAME`, and `kill`/`down`/`stop`.

use super::{target, Ctx};
use crate::cli::model::KillArgs;
use crate::error::{Error, Exit, Result};
use crate::tmux::literal;
use std::ffi::OsStr;
use std::io::IsTerminal;

/// Makes sure the session exists (starting the server if needed) and attaches.
pub fn up(ctx: &Ctx, name: &str) -> Result<Exit> {
    target::check_name(ctx, "session name", name)?;
    ensure(ctx, name)?;
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        eprintln!(
            "roost: session {name} is running (socket={}); not attaching without a terminal",
            ctx.tmux.socket.value().to_string_lossy()
        );
        return Ok(Exit::Ok);
    }
    let exact = format!("={name}");
    if ctx.tmux.caller_pane().is_some() {
        let exact = literal::word(&exact);
        let args: [&OsStr; 3] = ["switch-client".as_ref(), "-t".as_ref(), &exact];
        ctx.tmux.run(&args).map_err(|e| ctx.tmux_err(e))?;
        return Ok(Exit::Ok);
    }
    Err(ctx.tmux_err(ctx.tmux.attach(&exact)))
}

/// Session `name` exists afterwards, or an error says why not.
pub fn ensure(ctx: &Ctx, name: &str) -> Result<()> {
    let start = ctx.server_start()?;
    match ctx.tmux.ensure_session(name, &start) {
        Ok(None) => Ok(()),
        Ok(Some(warning)) => {
            eprintln!("roost: your roost.conf reported an error: {warning}");
            Ok(())
        }
        Err(e) if e.0 == crate::tmux::MISSING => Err(ctx.tmux_err(e)),
        Err(e) => Err(Error::fail(
            ctx.cmd,
            format!("cannot start session {name}: {}", e.0),
        )),
    }
}

pub fn kill(ctx: &Ctx, a: KillArgs) -> Result<Exit> {
    let session = a.session;
    if !ctx.tmux.is_running() {
        ctx.require_tmux()?;
        if let Some(s) = session {
            return Err(
                Error::fail(ctx.cmd, format!("no session '{s}': roost is not running"))
                    .code(Exit::NoTarget),
            );
        }
        eprintln!("roost: not running");
        return Ok(Exit::Ok);
    }
    match session {
        Some(s) => {
            let sessions = ctx.tmux.sessions().map_err(|e| ctx.tmux_err(e))?;
            if !sessions.iter().any(|x| x.name == s) {
                return Err(Error::fail(ctx.cmd, format!("no session '{s}'")).code(Exit::NoTarget));
            }
            let exact = literal::word(format!("={s}"));
            let args: [&OsStr; 3] = ["kill-session".as_ref(), "-t".as_ref(), &exact];
            ctx.tmux.run(&args).map_err(|e| ctx.tmux_err(e))?;
        }
        None => {
            ctx.tmux
                .run(&["kill-server"])
                .map_err(|e| ctx.tmux_err(e))?;
        }
    }
    Ok(Exit::Ok)
}
