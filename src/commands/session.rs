//! `up`/`start`/plain `roost` and `session NAME`.

use super::{ctx::Ctx, target};
use crate::error::{Error, Exit, Result};
use std::io::IsTerminal;

/// Makes sure the session exists (starting the server if needed) and attaches.
pub fn up(ctx: &Ctx, name: &str) -> Result<Exit> {
    target::check_name(ctx, "session name", name)?;
    ensure(ctx, name)?;
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

/// Session `name` exists afterwards, or an error says why not.
pub fn ensure(ctx: &Ctx, name: &str) -> Result<()> {
    let start = ctx.server_start()?;
    if !ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        crate::tmux::installed().map_err(|e| ctx.tmux_err(e))?;
        if let Some((why, hint)) = crate::tmux::socket_dir::problem(&ctx.tmux.socket) {
            return Err(
                Error::fail(ctx.cmd, format!("cannot start session {name}: {why}")).hint(hint),
            );
        }
    }
    match ctx.tmux.ensure_session(name, &start) {
        Ok(None) => Ok(()),
        Ok(Some(warning)) => {
            conf_warning(ctx.cmd, &start.user_conf, warning);
            Ok(())
        }
        Err(e) if e.0 == crate::tmux::MISSING => Err(ctx.tmux_err(e)),
        Err(e) => Err(Error::fail(
            ctx.cmd,
            format!("cannot start session {name}: {}", e.0),
        )),
    }
}

/// roost.conf's errors at a server start, each with its line when it can be
/// found (a throwaway server loads the file again to find it).
fn conf_warning(cmd: &str, conf: &std::path::Path, raw: String) {
    let errors = match crate::tmux::check_conf(crate::home::BASE_CONF, conf) {
        Ok(errors) if !errors.is_empty() => errors,
        _ => raw.lines().map(str::to_string).collect(),
    };
    for e in errors {
        eprintln!("roost {cmd}: warning: {}: {e}", conf.display());
    }
    eprintln!(
        "the server started without it: fix roost.conf, then roost kill and roost to load it again (roost doctor checks it)"
    );
}
