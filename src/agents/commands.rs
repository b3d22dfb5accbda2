//! The commands about agents: `hooks install|remove|status|show`, `hook`
//! (hook.rs does the work), `resume`, `next` and `badge` (the status-line segment), and the
//! calls spawn, kill and doctor make.

use super::wiring::{self, Done, Scope, Wiring};
use super::Agent;
use crate::cli::model::{HooksArgs, HooksShowArgs, HooksTarget, HooksVerb};
use crate::commands::ctx::Ctx;
use crate::error::{Error, Exit, Result};
use crate::tmux::{options, AgentState};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The roost the hooks run: this binary, by its absolute path.
fn roost(cmd: &'static str) -> Result<PathBuf> {
    std::env::current_exe()
        .map_err(|e| Error::fail(cmd, format!("cannot tell where this roost is: {e}")))
}

/// The directory of roost's socket, which agents' sandboxes must let
/// their commands reach.
fn socket_dir(ctx: &Ctx) -> PathBuf {
    let file = ctx.tmux.socket.file();
    file.parent().map(Path::to_path_buf).unwrap_or(file)
}

fn agent(name: &str) -> Agent {
    Agent::from_name(name).expect("clap takes only known agents")
}

fn scope(ctx: &Ctx, project: Option<PathBuf>) -> Result<Scope> {
    let Some(dir) = project else {
        return Ok(Scope::User);
    };
    if !dir.is_dir() {
        return Err(Error::fail(
            ctx.cmd,
            format!("--project {}: no such directory", dir.display()),
        )
        .hint("give the project's directory (it must exist)"));
    }
    Ok(Scope::Project(std::path::absolute(&dir).unwrap_or(dir)))
}

pub fn hooks(ctx: &Ctx, a: HooksArgs) -> Result<Exit> {
    match a.verb {
        None => {
            let mut root = crate::cli::built();
            let hooks = root
                .find_subcommand_mut("hooks")
                .expect("hooks is in the model");
            print!("{}", hooks.render_help());
            Ok(Exit::Ok)
        }
        Some(HooksVerb::Install(t)) => install(ctx, t),
        Some(HooksVerb::Remove(t)) => remove(ctx, t),
        Some(HooksVerb::Status(j)) => status(ctx, j.json),
        Some(HooksVerb::Show(s)) => show(ctx, s),
    }
}

fn install(ctx: &Ctx, t: HooksTarget) -> Result<Exit> {
    let agent = agent(&t.agent);
    let scope = scope(ctx, t.project)?;
    let path = wiring::file(agent, &scope);
    let had_backup = wiring::backup_of(&path).exists();
    let name = agent.name();
    let done = wiring::install(agent, &path, &roost(ctx.cmd)?, &socket_dir(ctx)).map_err(|e| {
        Error::fail(ctx.cmd, e).hint(format!(
            "the file was not changed; fix it by hand, then run roost hooks install {name} again"
        ))
    })?;
    match done {
        Done::Unchanged => println!("{name}: hooks already in {}", path.display()),
        _ => {
            println!("{name}: hooks written to {}", path.display());
            let backup = wiring::backup_of(&path);
            if !had_backup && backup.exists() {
                println!("{name}: the file as it was is kept in {}", backup.display());
            }
        }
    }
    for line in notes(agent, &scope, &socket_dir(ctx)) {
        println!("note: {line}");
    }
    Ok(Exit::Ok)
}

/// What a person must still know after an install.
fn notes(agent: Agent, scope: &Scope, socket_dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    match agent {
        Agent::Claude => out.push(format!(
            "sandbox.network.allowUnixSockets lists {} (Claude Code honours it on macOS; on Linux its sandbox cannot allow one socket by path)",
            socket_dir.display()
        )),
        Agent::Codex => {
            out.push("codex runs a new or changed hook only once you trust it: open codex and trust roost's hooks in /hooks".into());
            out.push("roost spawn starts codex with --no-daemon, so each pane's hooks run in that pane".into());
            out.push(format!(
                "codex's sandbox keeps the agent's own commands from roost's socket in {} (codex 0.171 lifts that only with network on); roost leaves codex's sandbox settings as they are",
                socket_dir.display()
            ));
        }
        Agent::Aider => out.push("aider reports only the end of a turn (done); it has no prompt hook".into()),
        _ => {}
    }
    if let (Agent::Codex | Agent::Gemini, Scope::Project(_)) = (agent, scope) {
        out.push(format!(
            "{} loads a project's hooks only in a folder you trust",
            agent.title()
        ));
    }
    out
}

fn remove(ctx: &Ctx, t: HooksTarget) -> Result<Exit> {
    let agent = agent(&t.agent);
    let scope = scope(ctx, t.project)?;
    let path = wiring::file(agent, &scope);
    let name = agent.name();
    let done = wiring::remove(agent, &path, &socket_dir(ctx)).map_err(|e| {
        Error::fail(ctx.cmd, e).hint(format!(
            "the file was not changed; fix it by hand, then run roost hooks remove {name} again"
        ))
    })?;
    let shown = path.display();
    match done {
        Done::Absent => println!("{name}: no roost hooks in {shown}"),
        Done::Restored => println!("{name}: hooks removed; {shown} is as it was before install"),
        Done::Deleted => println!("{name}: hooks removed; {shown} deleted (roost had made it)"),
        Done::Written | Done::Unchanged => {
            println!("{name}: hooks removed from {shown} (the rest of it kept)")
        }
    }
    Ok(Exit::Ok)
}

/// Every agent's wiring in user scope and the current directory's.
fn rows(roost: &Path) -> Vec<(Agent, Scope, PathBuf, Wiring)> {
    let mut scopes = vec![Scope::User];
    if let Ok(cwd) = std::env::current_dir() {
        scopes.push(Scope::Project(cwd));
    }
    let mut out = Vec::new();
    for agent in Agent::ALL {
        for scope in &scopes {
            let path = wiring::file(agent, scope);
            let state = wiring::status(agent, &path, roost);
            out.push((agent, scope.clone(), path, state));
        }
    }
    out
}

fn status(ctx: &Ctx, json: bool) -> Result<Exit> {
    let rows = rows(&roost(ctx.cmd)?);
    if json {
        let list: Vec<serde_json::Value> = rows
            .iter()
            .map(|(agent, scope, path, state)| {
                let why = match state {
                    Wiring::Stale(w) | Wiring::Unreadable(w) => Some(w.clone()),
                    _ => None,
                };
                serde_json::json!({
                    "agent": agent.name(),
                    "scope": scope.label(),
                    "file": path.to_string_lossy(),
                    "state": state.word(),
                    "why": why,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&list).expect("JSON"));
        return Ok(Exit::Ok);
    }
    for (agent, scope, path, state) in &rows {
        println!(
            "{:<9} {:<8} {:<11} {}",
            agent.name(),
            scope.label(),
            state.word(),
            path.display()
        );
        if let Wiring::Stale(why) | Wiring::Unreadable(why) = state {
            println!("          {why}");
        }
    }
    Ok(Exit::Ok)
}

fn show(ctx: &Ctx, s: HooksShowArgs) -> Result<Exit> {
    let roost = roost(ctx.cmd)?;
    if s.agent == "generic" {
        let line = |state: AgentState, when: &str| {
            println!(
                "{:<48} {when}",
                wiring::hook_command(&roost, "generic", state.word())
            )
        };
        line(
            AgentState::Working,
            "when the CLI takes a prompt (stdin: optional JSON with prompt, session_id)",
        );
        line(AgentState::Blocked, "when it waits for a person");
        line(
            AgentState::Done,
            "at the end of a turn (stdin: optional JSON with reply, session_id)",
        );
        line(
            AgentState::Error,
            "when a turn fails (stdin: optional JSON with reply)",
        );
        return Ok(Exit::Ok);
    }
    let agent = agent(&s.agent);
    println!("file: {}", wiring::file(agent, &Scope::User).display());
    match agent {
        Agent::Opencode => println!(
            "a plugin that runs {} EVENT (prompt, blocked, working, error, done)",
            wiring::hook_command(&roost, "opencode", "")
        ),
        Agent::Aider => println!(
            "notifications-command: {}",
            wiring::hook_command(&roost, "aider", AgentState::Done.word())
        ),
        _ => {
            for event in wiring::events(agent) {
                println!(
                    "{event:<18} {}",
                    wiring::hook_command(&roost, agent.name(), event)
                );
            }
        }
    }
    Ok(Exit::Ok)
}

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
    let _ = ctx.tmux.set_pane_options(s.pane, &marks(agent, s.cwd));
    let Ok(paths) = ctx.paths() else {
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
fn marks(agent: Agent, cwd: Option<&Path>) -> Vec<(&'static str, &'static str)> {
    let mut set = vec![(options::AGENT, agent.name())];
    if prompt_hook_expected(agent, cwd) {
        set.push((options::HOOKED, agent.name()));
    }
    set
}

fn prompt_hook_expected(agent: Agent, cwd: Option<&Path>) -> bool {
    let Ok(roost) = std::env::current_exe() else {
        return false;
    };
    let wired = |scope: &Scope| {
        matches!(
            wiring::status(agent, &wiring::file(agent, scope), &roost),
            Wiring::Wired
        )
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
            .map(|p| (p.session, p.window_name))
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
                let mut set = marks(agent, cwd.is_dir().then_some(cwd));
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
    let panes = ctx.tmux.panes_with_dialogs().map_err(|e| ctx.tmux_err(e))?;
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
    println!("{} {} {}", p.id, p.address(), p.window_name);
    if me.is_some() {
        let _ = ctx.tmux.show_pane(&p.id);
    }
    Ok(Exit::Ok)
}

pub fn badge(ctx: &Ctx) -> Result<Exit> {
    if !ctx.tmux.socket_exists() {
        return Ok(Exit::Ok);
    }
    let Ok(panes) = ctx.tmux.panes_with_dialogs() else {
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

/// doctor's findings about the agents on PATH: (problem?, line, fix).
pub fn doctor_checks() -> Vec<(Option<&'static str>, String, String)> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let Ok(roost) = std::env::current_exe() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for agent in Agent::ALL {
        let Some(program) = crate::fsutil::find_program(agent.name(), &path) else {
            continue;
        };
        let name = agent.name();
        match version(&program) {
            Some(v) if agent.known_versions().contains(&v.as_str()) => out.push((
                Some("ok"),
                format!(
                    "{name} {v} at {} (a version roost knows)",
                    program.display()
                ),
                String::new(),
            )),
            Some(v) => out.push((
                Some("note"),
                format!(
                    "{name} {v} at {}: roost's wiring was checked against {}",
                    program.display(),
                    agent.known_versions().join(", ")
                ),
                String::new(),
            )),
            None => out.push((
                Some("note"),
                format!(
                    "{name} at {}: its version could not be read",
                    program.display()
                ),
                String::new(),
            )),
        }
        let file = wiring::file(agent, &Scope::User);
        match wiring::status(agent, &file, &roost) {
            Wiring::Wired => out.push((
                Some("ok"),
                format!("{name} hooks in {} run this roost", file.display()),
                String::new(),
            )),
            Wiring::NotWired => out.push((
                Some("note"),
                format!(
                    "{name} hooks not wired ({}): roost sees its state only on screen",
                    file.display()
                ),
                String::new(),
            )),
            Wiring::Stale(why) | Wiring::Unreadable(why) => out.push((
                None,
                format!("{name} hooks in {}: {why}", file.display()),
                format!("run roost hooks install {name}"),
            )),
        }
    }
    out
}

/// `PROGRAM --version`'s first dotted number, within two seconds.
fn version(program: &Path) -> Option<String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        if child.try_wait().ok()?.is_some() {
            break;
        }
        if std::time::Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|w| w.split('.').filter(|p| !p.is_empty()).count() >= 3)
        .map(str::to_string)
}
