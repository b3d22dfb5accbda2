//! `roost resume`: opens every agent the roster holds for this server
//! again, each in its window and directory, resuming its exact session.

use super::ctx::Ctx;
use crate::agents::launch::{self, PresetResumed, Resumed};
use crate::agents::roster;
use crate::error::{Exit, Result};
use crate::tmux::options;
use crate::untrusted::printable;
use std::ffi::OsString;
use std::path::Path;

pub fn run(ctx: &Ctx) -> Result<Exit> {
    let paths = ctx.paths()?;
    let record = roster::read(paths);
    let key = roster::server_key(&ctx.tmux.socket.file());
    let entries = record.servers.get(&key).cloned().unwrap_or_default();
    if entries.is_empty() {
        println!("no agents recorded for this server (roost spawn NAME AGENT records them)");
        return Ok(Exit::Ok);
    }
    let start = ctx.server_start()?;
    let live: Vec<(String, String)> = if ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        ctx.tmux
            .panes()
            .map_err(|e| ctx.tmux_err(e))?
            .into_iter()
            .filter(|p| !p.dead)
            .map(|p| (p.session.raw().to_string(), p.window_name.raw().to_string()))
            .collect()
    } else {
        Vec::new()
    };
    let shown = |s: &str| printable(s.as_bytes());
    let mut failed = false;
    for e in entries {
        let what = format!(
            "{}:{} ({})",
            shown(&e.session),
            shown(&e.name),
            shown(&e.agent)
        );
        if let Some(why) = recorded_problem(&e) {
            println!("{what}: not resumed: {why} (the record was edited by hand?)");
            failed = true;
            continue;
        }
        if live.iter().any(|(s, w)| *s == e.session && *w == e.name) {
            println!("{what}: running");
            continue;
        }
        let (agent, args) = match launch::resume_args(&e) {
            Resumed::Args(agent, args) => (Some(agent), args),
            Resumed::NoSessionId(agent) => {
                println!("{what}: no session id was reported, so it cannot be resumed (roost hooks install {} wires the hook that reports it)", agent.name());
                continue;
            }
            Resumed::Unknown => match launch::resume_preset(paths, &e) {
                PresetResumed::Command(words) => (
                    None,
                    words
                        .iter()
                        .map(|w| w.to_string_lossy().into_owned())
                        .collect(),
                ),
                PresetResumed::Skipped(why) => {
                    println!("{what}: not resumed: {why}");
                    continue;
                }
            },
        };
        if let Err(err) = ctx.tmux.ensure_session(&e.session, &start) {
            println!(
                "{what}: cannot start session {}: {}",
                shown(&e.session),
                shown(&err.0)
            );
            failed = true;
            continue;
        }
        let _ = ctx.tmux.kill_window(&e.session, &e.name);
        let cwd = Path::new(&e.cwd);
        // A preset's words start with its program; a known agent's do not.
        let mut command: Vec<OsString> = agent
            .map(|a| OsString::from(a.name()))
            .into_iter()
            .collect();
        command.extend(args.iter().map(OsString::from));
        match ctx.tmux.new_window(
            &e.session,
            &e.name,
            cwd.is_dir().then_some(cwd),
            &command,
            &start,
        ) {
            Ok(pane) => {
                // Marked as spawn marks its panes: a send right after the
                // resume then waits for the prompt hook as it would there.
                let mut set = match agent {
                    Some(agent) => {
                        launch::marks(agent, cwd.is_dir().then_some(cwd), Some(&paths.state))
                    }
                    None => vec![(options::AGENT, e.agent.as_str())],
                };
                if let Some(id) = &e.session_id {
                    set.push((options::SESSION_ID, id.as_str()));
                }
                let _ = ctx.tmux.set_pane_options(&pane, &set);
                if let Some(em) = crate::events::Emitter::from_env() {
                    em.detached(crate::events::Event::Resumed, Some(&pane), &[]);
                }
                let words = agent.map(|a| a.name().to_string()).into_iter().chain(args);
                println!(
                    "{what}: resumed in {pane} ({})",
                    shown(&words.collect::<Vec<_>>().join(" "))
                );
            }
            Err(err) => {
                println!("{what}: cannot open its window: {}", shown(&err.0));
                failed = true;
            }
        }
    }
    Ok(Exit::check(!failed))
}

/// What spawn and the hooks never record, should the record say it: a
/// session or window name spawn refuses, a session id no agent reports.
fn recorded_problem(e: &roster::Entry) -> Option<String> {
    use super::target::name_problem;
    if let Some(why) = name_problem(&e.session) {
        return Some(format!("its session name is invalid: {why}"));
    }
    if let Some(why) = name_problem(&e.name) {
        return Some(format!("its window name is invalid: {why}"));
    }
    if e.session_id
        .as_deref()
        .is_some_and(|id| !crate::agents::valid_session_id(id))
    {
        return Some("its session id is not one an agent reports".into());
    }
    None
}
