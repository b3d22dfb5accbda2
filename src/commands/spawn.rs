//! `spawn NAME [CMD...]`: a new window running an agent; prints its pane id.

use super::{session, target, Args, Ctx};
use crate::error::{Error, Result};
use std::ffi::OsString;

pub fn run(ctx: &Ctx, a: &mut Args) -> Result<u8> {
    a.options(&[])?;
    let name = a.required("NAME")?;
    let command = a.rest();
    target::check_name(ctx, "window name", &name)?;
    let session = match ctx.tmux.caller_pane() {
        Some(pane) => ctx
            .tmux
            .run(&["display-message", "-p", "-t", &pane, "#{session_name}"])
            .map_err(|e| ctx.tmux_err(e))?
            .trim_end()
            .to_string(),
        None => {
            session::ensure(ctx, target::DEFAULT_SESSION)?;
            target::DEFAULT_SESSION.to_string()
        }
    };
    let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
    if panes
        .iter()
        .any(|p| p.session == session && p.window_name == name)
    {
        return Err(Error::fail(
            ctx.cmd,
            format!("a window named '{name}' already exists in session {session}"),
        )
        .hint("names address agents, so they must be unique: pick another NAME (roost status lists them)"));
    }
    let mut args: Vec<OsString> = ["new-window", "-d", "-P", "-F", "#{pane_id}", "-t"]
        .iter()
        .map(OsString::from)
        .collect();
    args.push(format!("={session}:").into());
    args.push("-n".into());
    args.push(name.into());
    if let Ok(cwd) = std::env::current_dir() {
        args.push("-c".into());
        args.push(cwd.into());
    }
    if !command.is_empty() {
        args.push("--".into());
        args.extend(command);
    }
    let start = ctx.server_start()?;
    let out = ctx
        .tmux
        .run_spawning(&args, &start)
        .map_err(|e| ctx.tmux_err(e))?;
    println!("{}", out.trim_end());
    Ok(0)
}
