//! `kill`/`down`/`stop`: one agent by TARGET, one session by name, or the
//! whole server (asked first on a terminal); and every process of what it
//! ended, not only the panes tmux closes.
//!
//! The rule: `kill TARGET` ends the pane (`%N`, `WINDOW.PANE`) or the window
//! (a name, `SESSION:WINDOW`, `@N`) TARGET names; a bare word that names no
//! window but a session ends that session, as `--session NAME` does. Plain
//! `kill` ends the whole server: with stdin on a terminal it asks first,
//! unless `--all` is given; with stdin not a terminal (a script) it does so
//! without asking, as it always has. A TARGET or session that is the last
//! of the server ends the whole server too, and is the same: asked first
//! on a terminal, and refused without one unless `--all` is given (a script
//! that named one agent did not say it meant them all).
//!
//! What `roost resume` brings back follows the same rule: an agent ended by
//! `kill TARGET` or `kill --session` is forgotten (it was ended on
//! purpose); ending the whole server, however it was named, forgets
//! nothing, as a crash or a reboot does not, so `resume` brings every agent
//! back.
//!
//! tmux closing a pane only hangs up its terminal, which a program may
//! ignore (Gemini CLI does) or outlive (one that left the pane's session).
//! So `kill` holds the pane's processes before tmux closes it, then ends
//! them (`procs::Ending`), and says so when one would not end.

mod scope;

use super::{ctx::Ctx, target};
use crate::cli::model::KillArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::consent::{ask, Answer};
use scope::{Scope, What};
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// How long the processes of what was ended have, after SIGTERM, to end
/// by themselves (an agent saving its session) before SIGKILL.
const GRACE: Duration = Duration::from_secs(3);

/// How long a process has to end after SIGKILL before it is reported.
const AFTER_KILL: Duration = Duration::from_secs(2);

pub fn run(ctx: &Ctx, a: KillArgs) -> Result<Exit> {
    if !ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        ctx.require_tmux()?;
        if let Some(what) = a.session.as_ref().or(a.target.as_ref()) {
            return Err(missing(ctx, what, "roost is not running"));
        }
        eprintln!("roost {}: not running", ctx.cmd);
        return Ok(Exit::Ok);
    }
    let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
    let sessions = ctx.tmux.sessions().map_err(|e| ctx.tmux_err(e))?;
    let has_session = |s: &str| sessions.iter().any(|x| x.name == s);
    let session = |s: &str| Scope::new(What::Session(s.to_string()), &panes, &sessions, None);
    let (scope, named) = match (&a.session, &a.target) {
        (Some(s), _) if !has_session(s) => {
            return Err(Error::fail(ctx.cmd, format!("no session '{s}'"))
                .code(Exit::NoTarget)
                .hint("roost status lists the sessions"))
        }
        (Some(s), _) => (session(s), Some(format!("--session {s}"))),
        (None, None) => (Scope::new(What::Server, &panes, &sessions, None), None),
        (None, Some(t)) => {
            let found = target::find(&panes, t).ok();
            match (found, is_bare(t) && has_session(t)) {
                (Some(_), true) => {
                    return Err(Error::fail(
                        ctx.cmd,
                        format!("'{t}' names both a window in session main and a session"),
                    )
                    .code(Exit::Usage)
                    .hint(format!(
                        "say which: roost kill main:{t} (the window) or roost kill --session {t}"
                    )))
                }
                (Some(p), false) => (
                    Scope::new(names(t, p), &panes, &sessions, Some(p)),
                    Some(t.clone()),
                ),
                (None, true) => (session(t), Some(t.clone())),
                (None, false) => return Err(missing(ctx, t, "")),
            }
        }
    };
    if scope.is_everything() && !a.all {
        confirm(ctx, &scope, named.as_deref())?;
    }
    end(ctx, &scope)
}

/// Whether TARGET named the window `p` is in (a name, an index, `@N`, as
/// `SESSION:WINDOW` or alone) rather than the pane itself.
fn names(t: &str, p: &crate::tmux::Pane) -> What {
    let window = t.split_once(':').map_or(t, |(_, w)| w);
    let named = !t.starts_with('%')
        && (p.window_name == window || p.window_index == window || p.window_id == window);
    if named {
        What::Window
    } else {
        What::Pane
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

/// Before the whole server ends without `--all`: the question on a
/// terminal; without one, plain `kill` goes ahead (as it always has) and a
/// kill that named one thing is refused.
fn confirm(ctx: &Ctx, scope: &Scope, named: Option<&str>) -> Result<()> {
    let last = scope.last_of_it();
    let terminal = std::io::stdin().is_terminal();
    if terminal && !last.is_empty() {
        eprintln!(
            "roost {}: {}: ending it ends the whole roost server",
            ctx.cmd,
            crate::untrusted::printable(last.as_bytes())
        );
    }
    match ask(&scope.question(), false, &mut std::io::stderr()) {
        Answer::Yes => Ok(()),
        Answer::NoTerminal if named.is_none() => Ok(()),
        Answer::NoTerminal => Err(Error::fail(
            ctx.cmd,
            format!("{last}: ending it would end the whole roost server; nothing killed"),
        )
        .hint(format!(
            "on a terminal roost kill asks first; roost kill --all {} ends it without asking",
            named.unwrap_or_default()
        ))),
        Answer::No if named.is_none() => Err(Error::fail(ctx.cmd, "nothing killed").hint(
            "roost kill TARGET ends one agent; roost kill --all ends every one without asking",
        )),
        Answer::No => Err(Error::fail(ctx.cmd, "nothing killed")
            .hint(format!("{last}, so ending it ends the whole roost server"))),
    }
}

/// Ends what `scope` holds: its processes held first, tmux closes it, the
/// agents it named are forgotten, then its processes are ended for good.
/// Prints one line saying what was ended.
fn end(ctx: &Ctx, scope: &Scope) -> Result<Exit> {
    let server = ctx.tmux.server_pid().map_err(|e| ctx.tmux_err(e))?;
    let leaders: Vec<u32> = scope
        .panes
        .iter()
        .filter(|p| !p.dead)
        .filter_map(|p| u32::try_from(p.pid?).ok())
        .filter(|pid| crate::procs::leads_a_pane(*pid, server))
        .collect();
    let held = crate::procs::Ending::hold(&leaders);
    // A roost run from a pane it ends is hung up with it: it finishes first.
    // SAFETY: setting a signal's disposition to ignored installs no handler.
    let _ = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGHUP,
            nix::sys::signal::SigHandler::SigIgn,
        )
    };
    let first = scope.panes.first();
    let forgotten = agents(ctx, scope);
    // A session id an agent reported a moment ago is recorded by a job of
    // the server, which ends with it: record what the panes hold now.
    if scope.is_everything() {
        for p in scope.panes.iter().filter(|p| !p.dead) {
            crate::agents::record_session(&ctx.tmux, &p.id);
        }
    }
    let closed = match (&scope.what, first) {
        _ if scope.is_everything() => ctx.tmux.kill_server(),
        (What::Session(s), _) => ctx.tmux.kill_session(s),
        (What::Window, Some(p)) => ctx.tmux.kill_window_id(&p.window_id),
        (What::Pane, Some(p)) => ctx.tmux.kill_pane(&p.id),
        _ => Ok(()),
    };
    closed.map_err(|e| ctx.tmux_err(e))?;
    fire_killed(scope);
    if let Some((session, window)) = forgotten {
        crate::agents::launch::killed(&ctx.tmux, ctx.paths().ok(), &session, window.as_deref());
    }
    let left = held.finish(GRACE, AFTER_KILL);
    let said = format!("roost {}: ended {}", ctx.cmd, scope.ended());
    // Into a terminal that may have just closed (the caller's own pane).
    let _ = writeln!(
        std::io::stderr(),
        "{}",
        crate::untrusted::printable(said.as_bytes())
    );
    if left.is_empty() {
        return Ok(Exit::Ok);
    }
    let list: Vec<String> = left
        .iter()
        .map(|s| format!("{} ({})", s.pid, s.name))
        .collect();
    let pids: Vec<String> = left.iter().map(|s| s.pid.to_string()).collect();
    Err(Error::fail(
        ctx.cmd,
        format!(
            "{} of it would not end, even after SIGKILL: {}",
            match left.len() {
                1 => "1 process".to_string(),
                n => format!("{n} processes"),
            },
            list.join(", ")
        ),
    )
    .hint(format!(
        "a process stuck in the kernel or another user's cannot be ended from here: look with ps -o pid,user,stat,args -p {}",
        pids.join(",")
    )))
}

/// `agent.killed` for every pane `scope` closed (the names passed along:
/// the panes are gone when the runner would ask), and `server.stop` when
/// it was the whole server: each runner started by roost itself, detached,
/// since the server's own jobs end with it.
fn fire_killed(scope: &Scope) {
    use crate::events::{Emitter, Event};
    let Some(em) = Emitter::from_env() else {
        return;
    };
    for p in scope.panes.iter() {
        let names = [
            format!("--window={}", p.window_name.raw()),
            format!("--session={}", p.session.raw()),
        ];
        em.detached(Event::Killed, Some(&p.id), &names);
    }
    if scope.is_everything() {
        em.detached(Event::ServerStop, None, &[]);
    }
}

/// The agents a kill of one pane, window or session ends on purpose, for
/// `roost resume` to leave ended, as (session, window): the session's, the
/// window's, or the agent's own pane's. Asked before the pane is gone.
fn agents(ctx: &Ctx, scope: &Scope) -> Option<(String, Option<String>)> {
    let first = scope.panes.first()?;
    let window = Some((
        first.session.raw().to_string(),
        Some(first.window_name.raw().to_string()),
    ));
    match &scope.what {
        _ if scope.is_everything() => None,
        What::Session(s) => Some((s.clone(), None)),
        What::Window => window,
        What::Pane if ctx.tmux.agent_of(&first.id).ok().flatten().is_some() => window,
        _ => None,
    }
}
