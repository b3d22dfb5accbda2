//! `close TARGET [SECONDS]`: an agent roost knows is asked to exit as a
//! person ends it, by its own exit command typed at its prompt
//! (`Agent::exit_command`, or the `exit` of an extension's preset), and
//! given SECONDS to do so; then its pane (or
//! the window TARGET names) is ended as `kill` ends it. An agent that has
//! not exited by then is ended that way all the same, with a line saying
//! so. An agent's exit saves its session and ends its own processes, which
//! a hangup may not (Gemini CLI ignores one).
//!
//! Nothing is typed into a dialog: an agent waiting for a person
//! (`blocked`, or showing a dialog roost knows: codex's hooks, copilot's
//! folder trust) is refused as `send` refuses it (exit 3), and so is a pane
//! where text `send` typed still waits for its Enter (the exit command
//! would be submitted with it). A pane whose agent roost does not know (or
//! whose preset says no exit) is refused: roost cannot tell how it exits,
//! and `roost kill` ends it.
//!
//! A closed agent is forgotten by `roost resume`, as one `kill TARGET`
//! ended: closing is ending on purpose. Its session is the agent's own to
//! resume (`claude --resume ID`), and close prints the id when a hook
//! reported one.

use super::{ctx::Ctx, target};
use crate::agents::known::Known;
use crate::agents::Agent;
use crate::cli::model::CloseArgs;
use crate::error::{Error, Exit, Result};
use crate::tmux::state::Woke;
use crate::tmux::{AgentState, Dialog, Pane, Sent};
use std::time::{Duration, Instant};

/// How long an agent has to exit when SECONDS is not given: the slowest
/// of the seven measured (aider: 1.4 s from the command to its window
/// ended after a turn, 4.8 s with the two cores busy with other builds),
/// twice over.
const DEFAULT_SECONDS: u64 = 10;

/// Before Enter, the screen stands still this long (the agent has drawn
/// what it read, a menu of its commands for one), or `STILL_AT_MOST`
/// passes.
const STILL: Duration = Duration::from_millis(300);
const STILL_AT_MOST: Duration = Duration::from_secs(2);

pub fn run(ctx: &Ctx, a: CloseArgs) -> Result<Exit> {
    let pane = target::resolve_with_state(ctx, &a.target)?;
    let who = target::describe(&a.target, &pane.id);
    let whole = names_window(&a.target, &pane);
    let seconds = a.seconds.unwrap_or(DEFAULT_SECONDS);
    if pane.dead {
        end(ctx, &pane, whole)?;
        say(
            ctx,
            &format!(
                "{who}: its program had already exited; {} ended",
                what(whole)
            ),
        );
        return Ok(Exit::Ok);
    }
    let named = ctx.tmux.agent_of(&pane.id).map_err(|e| ctx.tmux_err(e))?;
    let (agent, command) = exit_of(ctx, &who, named.as_deref())?;
    let fail = |msg: String| Error::fail(ctx.cmd, msg);
    if pane.state == Some(AgentState::Blocked) {
        return Err(fail(format!(
            "{who} is blocked: it is waiting for a person; nothing was typed"
        ))
        .code(Exit::Blocked)
        .hint("answer it first (roost screen TARGET shows it), or end it with roost kill TARGET"));
    }
    let tmux = &ctx.tmux;
    // A dialog roost knows (codex's hooks, copilot's folder trust) shows
    // before any hook could report blocked: the keys would answer it.
    if let Some(dialog) = tmux.dialog(&pane.id).map_err(|e| ctx.tmux_err(e))? {
        return Err(in_dialog(ctx, &who, dialog));
    }
    if tmux.sent_mark(&pane.id).map_err(|e| ctx.tmux_err(e))? == Some(Sent::Typed) {
        return Err(fail(format!(
            "text roost send typed into {who} still waits for its Enter, and the exit command would be submitted with it; nothing was typed"
        ))
        .hint("look at it (roost screen TARGET) and clear its prompt there, or end it with roost kill TARGET"));
    }
    if let Some(mode) = tmux.leave_mode(&pane.id).map_err(|e| ctx.tmux_err(e))? {
        return Err(fail(format!(
            "{who} is in {mode} and roost could not take it out; nothing was typed"
        )));
    }
    let command = command.as_str();
    let typed = |e: crate::tmux::TmuxError| fail(format!("{}; nothing was typed into {who}", e.0));
    tmux.paste(&pane.id, command).map_err(typed)?;
    until_still(ctx, &pane.id);
    // An agent still starting may have put a dialog over its prompt
    // meanwhile: Enter would answer it.
    if let Some(dialog) = tmux.dialog(&pane.id).map_err(|e| ctx.tmux_err(e))? {
        return Err(fail(format!(
            "{command} was typed into {who}, but it then showed {}, so Enter was not pressed",
            dialog.what
        ))
        .hint(format!(
            "answer it there first ({}), then clear its prompt",
            dialog.answer
        )));
    }
    tmux.submit(&pane.id).map_err(|e| {
        fail(format!(
            "{command} was typed into {who}, but Enter could not be pressed: {}",
            e.0
        ))
    })?;
    let asked = Instant::now();
    let exited = until_exited(ctx, &pane, Duration::from_secs(seconds))?;
    let id = session_id(ctx, &pane);
    end(ctx, &pane, whole)?;
    let session = id.map_or(String::new(), |id| format!(" (its session: {id})"));
    if exited {
        let took = asked.elapsed().as_secs_f64();
        say(
            ctx,
            &format!(
                "{who}: {agent} exited on {command} in {took:.1} s{session}; {} ended",
                what(whole)
            ),
        );
    } else {
        say(
            ctx,
            &format!(
                "{who}: {agent} did not exit within {seconds} s of {command}{session}; {} ended as roost kill ends it",
                what(whole)
            ),
        );
    }
    Ok(Exit::Ok)
}

/// The refusal for a pane that shows a dialog roost knows: exit 3, as
/// `send` refuses it.
fn in_dialog(ctx: &Ctx, who: &str, dialog: &Dialog) -> Error {
    Error::fail(
        ctx.cmd,
        format!(
            "{who} shows {}: it is waiting for a person; nothing was typed",
            dialog.what
        ),
    )
    .code(Exit::Blocked)
    .hint(format!(
        "answer it in the pane first (roost screen TARGET shows it): {}; or end it with roost kill TARGET",
        dialog.answer
    ))
}

/// The agent's name and what ends it: a built-in agent's own command, or
/// the `exit` of the enabled preset the pane's agent is.
fn exit_of(ctx: &Ctx, who: &str, named: Option<&str>) -> Result<(String, String)> {
    let Some(known) = named.and_then(|n| Known::named(ctx.paths().ok(), n)) else {
        return Err(unknown(ctx, who, named));
    };
    match (known.exit_text(), &known) {
        (Some(exit), _) => Ok((known.name().to_string(), exit.to_string())),
        (None, Known::Preset(t)) => Err(Error::fail(
            ctx.cmd,
            format!(
                "{who} runs {}, whose preset (from the extension {}) says no exit command, so roost cannot tell how it exits; nothing was typed",
                t.preset.name, t.extension
            ),
        )
        .hint("roost kill TARGET ends it")),
        (None, Known::Builtin(_)) => Err(unknown(ctx, who, named)),
    }
}

/// The refusal for a pane whose agent roost does not know.
fn unknown(ctx: &Ctx, who: &str, named: Option<&str>) -> Error {
    let runs = match named {
        Some(name) => format!(
            "runs {}, an agent roost does not know",
            crate::untrusted::printable(name.as_bytes())
        ),
        None => "runs no agent roost knows".to_string(),
    };
    Error::fail(
        ctx.cmd,
        format!("{who} {runs}, so roost cannot tell how it exits; nothing was typed"),
    )
    .hint(format!(
        "roost kill TARGET ends it; roost close knows {}, and an extension's agent whose preset says how it exits",
        Agent::names()
    ))
}

/// One line on stderr saying how the agent ended (stdout stays empty for
/// scripts, as kill's).
fn say(ctx: &Ctx, line: &str) {
    eprintln!(
        "roost {}: {}",
        ctx.cmd,
        crate::untrusted::printable(line.as_bytes())
    );
}

fn what(whole: bool) -> &'static str {
    if whole {
        "its window"
    } else {
        "its pane"
    }
}

/// Whether TARGET named the window `p` is in (a name, an index, `@N`,
/// alone or as `SESSION:WINDOW`) rather than the pane itself, as kill
/// reads it.
fn names_window(t: &str, p: &Pane) -> bool {
    let window = t.split_once(':').map_or(t, |(_, w)| w);
    !t.starts_with('%')
        && (p.window_name == window || p.window_index == window || p.window_id == window)
}

/// Waits until the pane's screen has not changed for `STILL`, or
/// `STILL_AT_MOST` has passed.
fn until_still(ctx: &Ctx, pane: &str) {
    let end = Instant::now() + STILL_AT_MOST;
    let mut last = ctx.tmux.screen_now(pane).ok();
    let mut since = Instant::now();
    while Instant::now() < end {
        std::thread::sleep(Duration::from_millis(30));
        let now = ctx.tmux.screen_now(pane).ok();
        if now != last {
            last = now;
            since = Instant::now();
        } else if since.elapsed() >= STILL {
            return;
        }
    }
}

/// Whether the pane's program ended within `limit`: the kernel says so, or
/// tmux (its pane died). A hook's stamp meanwhile wakes the sleep early,
/// and it sleeps again.
fn until_exited(ctx: &Ctx, pane: &Pane, limit: Duration) -> Result<bool> {
    let end = Instant::now() + limit;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(false);
        }
        let woke = ctx
            .tmux
            .sleep_while_unfinished(&pane.id, pane.pid, left)
            .map_err(|e| ctx.tmux_err(e))?;
        match woke {
            Woke::ProgramEnded => return Ok(true),
            Woke::TimedOut => return Ok(false),
            Woke::Signalled => {
                if gone_or_dead(ctx, &pane.id)? {
                    return Ok(true);
                }
                // Stamped done or idle by a hook as it exits: the channel
                // does not sleep for a finished pane, so look again soon.
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// Whether the pane is dead, or no longer there.
fn gone_or_dead(ctx: &Ctx, pane: &str) -> Result<bool> {
    let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
    Ok(panes.iter().find(|p| p.id == pane).is_none_or(|p| p.dead))
}

/// The session id the agent's hooks reported on the pane, if any.
fn session_id(ctx: &Ctx, pane: &Pane) -> Option<String> {
    let view = ctx.tmux.hook_view(&pane.id).ok()?;
    Some(view.session_id).filter(|id| crate::agents::valid_session_id(id))
}

/// Ends the pane, or its window when TARGET named the window, as kill
/// does, and forgets its agent for `resume`.
fn end(ctx: &Ctx, pane: &Pane, whole: bool) -> Result<()> {
    let ended = if whole {
        ctx.tmux.kill_window_id(&pane.window_id)
    } else {
        ctx.tmux.kill_pane(&pane.id)
    };
    // A pane that went away meanwhile (its window closed with it) is ended.
    if let Err(e) = ended {
        if !gone_or_dead(ctx, &pane.id).unwrap_or(false) {
            return Err(ctx.tmux_err(e));
        }
    }
    crate::agents::launch::killed(
        &ctx.tmux,
        ctx.paths().ok(),
        pane.session.raw(),
        Some(pane.window_name.raw()),
    );
    Ok(())
}
