//! The commands about agents: `hook` (hook.rs does the work), `resume`,
//! `next` and `badge` (the status-line segment), and the calls spawn, kill
//! and doctor make.

use super::wiring::{self, Scope, Setting, Target, Wiring};
use super::Agent;
use crate::commands::ctx::Ctx;
use crate::error::{Error, Exit, Result};
use crate::tmux::{options, AgentState};
use std::ffi::OsString;
use std::path::Path;

pub fn hook(words: Vec<OsString>, agent: String) -> Result<Exit> {
    let mut all = vec![OsString::from(agent)];
    all.extend(words);
    Ok(match super::hook::run(&all) {
        0 => Exit::Ok,
        _ => Exit::Failed,
    })
}

/// spawn's call, before the window is made: CMD as roost runs it (codex
/// gets its own server, `--no-daemon`), and the agent it is.
pub fn spawn_command(command: Vec<OsString>) -> (Vec<OsString>, Option<Agent>) {
    let Some(first) = command.first() else {
        return (command, None);
    };
    let Some(agent) = Agent::from_program(&first.to_string_lossy()) else {
        return (command, None);
    };
    let mut out = vec![first.clone()];
    let given: Vec<&OsString> = command[1..].iter().collect();
    for extra in agent.spawn_args() {
        if !given.iter().any(|w| w.as_os_str() == *extra) {
            out.push(OsString::from(extra));
        }
    }
    out.extend(command[1..].iter().cloned());
    (out, Some(agent))
}

/// What spawn made, for `spawned`.
pub struct Spawned<'a> {
    pub agent: Option<Agent>,
    pub session: &'a str,
    pub name: &'a str,
    /// The pane's working directory.
    pub cwd: Option<&'a Path>,
    /// CMD as roost ran it (`spawn_command`'s).
    pub command: &'a [OsString],
    pub pane: &'a str,
}

/// spawn's call, once the window exists: the pane knows its agent, and
/// roost's record has it, with the arguments the user gave and the pane's
/// working directory, for `resume`. Best effort.
pub fn spawned(ctx: &Ctx, s: Spawned) {
    let Some(agent) = s.agent else {
        return;
    };
    let paths = ctx.paths().ok();
    let state = paths.map(|p| p.state.as_path());
    let _ = ctx
        .tmux
        .set_pane_options(s.pane, &marks(agent, s.cwd, state));
    let Some(paths) = paths else {
        return;
    };
    let cwd = s
        .cwd
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    let _ = super::record::note_spawn(
        paths,
        &ctx.tmux.socket.file(),
        super::record::Entry {
            session: s.session.to_string(),
            name: s.name.to_string(),
            agent: agent.name().to_string(),
            args: agent.given_args(s.command.get(1..).unwrap_or_default()),
            cwd,
            session_id: None,
        },
    );
}

/// Whether `agent`'s prompt hook will report from a pane started in `cwd`
/// from its first prompt on, so `send` waits for that report even before
/// the agent has said anything: roost's hooks for it run this roost
/// (`hooks status` says wired) in the user's configuration or in `cwd`'s,
/// and the agent runs them without asking. Not so for codex, which runs new
/// hooks only once a person trusts them (its start hook marks the pane
/// then), for gemini's project hooks (a trusted folder only), nor for
/// aider, which has no prompt hook.
/// What a pane running `agent` is marked with as it starts: its agent,
/// and that its prompt hook will report each prompt, where roost's hooks
/// are wired where it reads them.
fn marks(
    agent: Agent,
    cwd: Option<&Path>,
    state: Option<&Path>,
) -> Vec<(&'static str, &'static str)> {
    let mut set = vec![(options::AGENT, agent.name())];
    if prompt_hook_expected(agent, cwd, state) {
        set.push((options::HOOKED, agent.name()));
    }
    set
}

fn prompt_hook_expected(agent: Agent, cwd: Option<&Path>, state: Option<&Path>) -> bool {
    let (Ok(roost), Ok(home), Some(state)) = (std::env::current_exe(), wiring::home(), state)
    else {
        return false;
    };
    let setting = Setting {
        roost: &roost,
        socket_dir: Path::new(""),
        state,
        home: &home,
    };
    let wired = |scope: &Scope| {
        let target = Target {
            agent,
            scope,
            path: wiring::file(agent, scope, &home),
        };
        matches!(wiring::status(&target, &setting), Wiring::Wired)
    };
    let project = || cwd.is_some_and(|d| wired(&Scope::Project(d.to_path_buf())));
    match agent {
        Agent::Claude | Agent::Opencode => wired(&Scope::User) || project(),
        Agent::Gemini => wired(&Scope::User),
        Agent::Codex | Agent::Aider => false,
    }
}

/// kill's call, once it ended window `window` of `session` (every window
/// of it when None): an agent ended on purpose is not resumed. Best effort.
pub fn killed(ctx: &Ctx, session: &str, window: Option<&str>) {
    if let Ok(paths) = ctx.paths() {
        let _ = super::record::forget(paths, &ctx.tmux.socket.file(), session, window);
    }
}

pub fn resume(ctx: &Ctx) -> Result<Exit> {
    let paths = ctx.paths()?;
    let record = super::record::read(paths);
    let key = super::record::server_key(&ctx.tmux.socket.file());
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
    let mut failed = false;
    for e in entries {
        let shown = |s: &str| crate::untrusted::printable(s.as_bytes());
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
        let Some(agent) = Agent::from_name(&e.agent) else {
            continue;
        };
        let args = match (&e.session_id, agent) {
            (Some(id), _) => agent.resume_args(id, &e.args),
            (None, Agent::Aider) => agent.resume_args("", &e.args),
            (None, _) => {
                println!("{what}: no session id was reported, so it cannot be resumed (roost hooks install {} wires the hook that reports it)", agent.name());
                continue;
            }
        };
        if let Err(err) = ctx.tmux.ensure_session(&e.session, &start) {
            println!("{what}: cannot start session {}: {}", e.session, err.0);
            failed = true;
            continue;
        }
        let _ = ctx.tmux.kill_window(&e.session, &e.name);
        let cwd = Path::new(&e.cwd);
        let mut command = vec![OsString::from(agent.name())];
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
                let mut set = marks(agent, cwd.is_dir().then_some(cwd), Some(&paths.state));
                if let Some(id) = &e.session_id {
                    set.push((options::SESSION_ID, id.as_str()));
                }
                let _ = ctx.tmux.set_pane_options(&pane, &set);
                println!(
                    "{what}: resumed in {pane} ({} {})",
                    agent.name(),
                    args.join(" ")
                );
            }
            Err(err) => {
                println!("{what}: cannot open its window: {}", err.0);
                failed = true;
            }
        }
    }
    Ok(Exit::check(!failed))
}

/// What spawn and the hooks never record, should the record say it: a
/// session or window name spawn refuses, a session id no agent reports.
fn recorded_problem(e: &super::record::Entry) -> Option<String> {
    use crate::commands::target::name_problem;
    if let Some(why) = name_problem(&e.session) {
        return Some(format!("its session name is invalid: {why}"));
    }
    if let Some(why) = name_problem(&e.name) {
        return Some(format!("its window name is invalid: {why}"));
    }
    if e.session_id
        .as_deref()
        .is_some_and(|id| !super::valid_session_id(id))
    {
        return Some("its session id is not one an agent reports".into());
    }
    None
}

pub fn next(ctx: &Ctx) -> Result<Exit> {
    let none = || {
        Error::fail(ctx.cmd, "no agent is waiting for a person")
            .hint("roost status shows every pane's state")
    };
    if !ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        return Err(none());
    }
    let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
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
    let Ok(panes) = ctx.tmux.panes() else {
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
