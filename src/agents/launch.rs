//! What spawn, resume and kill do for an agent: the command line an agent
//! is started with, the marks its pane gets before it starts (its agent,
//! and whether its prompt hook will report each prompt), and the roster
//! entry that `resume` reads back, or forgets.

use super::wiring::{self, Scope, Setting, Target, Wiring};
use super::Agent;
use crate::ext::taught::{self, Taught};
use crate::paths::Paths;
use crate::tmux::{options, Tmux};
use std::ffi::OsString;
use std::path::Path;

/// CMD as roost runs it (codex gets its own server, `--no-daemon`), and
/// the agent it is.
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

/// CMD when its first word names a preset an enabled extension teaches
/// (and CMD is no agent roost knows): the preset's program and fixed
/// arguments, then CMD's other words, and the preset.
pub fn preset_command(
    paths: Option<&Paths>,
    command: &[OsString],
) -> Option<(Vec<OsString>, Taught)> {
    let (first, rest) = command.split_first()?;
    let name = first.to_str()?;
    let taught = taught::find(paths?, name).filter(|t| t.enabled)?;
    let p = &taught.preset;
    let mut out = vec![OsString::from(&p.program)];
    out.extend(p.args.iter().map(OsString::from));
    out.extend(rest.iter().cloned());
    Some((out, taught))
}

/// What spawn made, for `spawned`.
pub struct Spawned<'a> {
    pub agent: Option<Agent>,
    /// The preset it was started by, and the words the user gave after
    /// its name.
    pub preset: Option<(&'a str, Vec<String>)>,
    pub session: &'a str,
    pub name: &'a str,
    /// The pane's working directory.
    pub cwd: Option<&'a Path>,
    /// CMD as roost ran it (`spawn_command`'s).
    pub command: &'a [OsString],
    pub pane: &'a str,
}

/// Once the window exists: the pane knows its agent, and the roster has
/// it, with the arguments the user gave and the pane's working directory,
/// for `resume`. Best effort.
pub fn spawned(tmux: &Tmux, paths: Option<&Paths>, s: Spawned) {
    if let Some((name, given)) = &s.preset {
        let _ = tmux.set_pane_options(s.pane, &[(options::AGENT, name)]);
        record(paths, tmux, &s, name, given.clone());
        return;
    }
    let Some(agent) = s.agent else {
        return;
    };
    let state = paths.map(|p| p.state.as_path());
    let _ = tmux.set_pane_options(s.pane, &marks(agent, s.cwd, state));
    let given = agent.given_args(s.command.get(1..).unwrap_or_default());
    record(paths, tmux, &s, agent.name(), given);
}

/// The roster entry of what spawn made, for `resume`. Best effort.
fn record(paths: Option<&Paths>, tmux: &Tmux, s: &Spawned, agent: &str, args: Vec<String>) {
    let Some(paths) = paths else {
        return;
    };
    let cwd = s
        .cwd
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    let _ = super::roster::note_spawn(
        paths,
        &tmux.socket.file(),
        super::roster::Entry {
            session: s.session.to_string(),
            name: s.name.to_string(),
            agent: agent.to_string(),
            args,
            cwd,
            session_id: None,
        },
    );
}

/// What a pane running `agent` is marked with as it starts: its agent,
/// and that its prompt hook will report each prompt, where roost's hooks
/// are wired where it reads them (so `send` waits for that report even
/// before the agent has said anything).
pub fn marks(
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

/// Whether `agent`'s prompt hook will report from a pane started in `cwd`
/// from its first prompt on: roost's hooks for it run this roost (`hooks
/// status` says wired) in the user's configuration or in `cwd`'s, and the
/// agent runs them without asking. Not so for codex, which runs new hooks
/// only once a person trusts them (its start hook marks the pane then),
/// for gemini's and copilot's project hooks (a trusted folder only), nor
/// for aider, which has no prompt hook. copilot's own start hook runs only
/// with the first prompt, so this mark is all that tells `send` to wait
/// for its prompt hook then.
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
        Agent::Claude | Agent::Opencode | Agent::Pi => wired(&Scope::User) || project(),
        Agent::Gemini | Agent::Copilot => wired(&Scope::User),
        Agent::Codex | Agent::Aider => false,
    }
}

/// Once kill ended window `window` of `session` (every window of it when
/// None): an agent ended on purpose is not resumed. Best effort.
pub fn killed(tmux: &Tmux, paths: Option<&Paths>, session: &str, window: Option<&str>) {
    if let Some(paths) = paths {
        let _ = super::roster::forget(paths, &tmux.socket.file(), session, window);
    }
}

/// The words that resume a roster entry's agent, or why it cannot be.
pub enum Resumed {
    Args(Agent, Vec<String>),
    /// The agent reported no session id, and resumes only by one.
    NoSessionId(Agent),
    /// Not an agent this roost knows.
    Unknown,
}

pub fn resume_args(e: &super::roster::Entry) -> Resumed {
    let Some(agent) = Agent::from_name(&e.agent) else {
        return Resumed::Unknown;
    };
    match (&e.session_id, agent) {
        (Some(id), _) => Resumed::Args(agent, agent.resume_args(id, &e.args)),
        (None, Agent::Aider) => Resumed::Args(agent, agent.resume_args("", &e.args)),
        (None, _) => Resumed::NoSessionId(agent),
    }
}

/// How a roster entry of a preset's agent resumes.
pub enum PresetResumed {
    /// The command line: program, fixed arguments, the words the user gave
    /// at spawn, then the resume template with the session id in it.
    Command(Vec<OsString>),
    /// Why it is skipped, in words after "not resumed: ".
    Skipped(String),
}

/// The resume of entry `e`, whose agent is no agent roost knows: by the
/// preset of that name installed now, read from ext.agents.
pub fn resume_preset(paths: &Paths, e: &super::roster::Entry) -> PresetResumed {
    let Some(taught) = taught::find(paths, &e.agent) else {
        return PresetResumed::Skipped(format!(
            "no installed extension teaches the agent {} now (it was removed)",
            e.agent
        ));
    };
    if !taught.enabled {
        return PresetResumed::Skipped(format!(
            "the extension {ext} that teaches the agent {} is disabled (roost ext enable {ext} turns it back on)",
            e.agent,
            ext = taught.extension
        ));
    }
    let Some(id) = &e.session_id else {
        return PresetResumed::Skipped(
            "no session id was reported, so it cannot be resumed (its hooks report it: roost hook generic EVENT with the payload's session_id)"
                .to_string(),
        );
    };
    let p = &taught.preset;
    let mut out = vec![OsString::from(&p.program)];
    out.extend(p.args.iter().map(OsString::from));
    out.extend(e.args.iter().map(OsString::from));
    out.extend(
        p.resume
            .iter()
            .map(|w| OsString::from(w.replace(crate::ext::presets::ID, id))),
    );
    PresetResumed::Command(out)
}
