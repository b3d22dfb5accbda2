//! `roost hooks install|remove|status|show`: roost's hooks in the agents'
//! own configuration files, through the agents domain's wiring
//! (agents/wiring/), which keeps those files the user's.

use super::ctx::Ctx;
use crate::agents::known::Known;
use crate::agents::wiring::{self, Done, Scope, Setting, Target, Wiring};
use crate::agents::{Agent, HookAgent, HookWord};
use crate::cli::model::{HooksArgs, HooksShowArgs, HooksTarget, HooksVerb};
use crate::error::{Error, Exit, Result};
use crate::ext::taught;
use crate::tmux::AgentState;
use crate::untrusted::printable;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// A path as it may be printed: roost did not choose its bytes.
fn shown(path: &Path) -> String {
    printable(path.as_os_str().as_bytes())
}

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

/// What the wiring needs, checked: HOME, roost's state directory, this roost.
struct Needs {
    roost: PathBuf,
    socket_dir: PathBuf,
    state: PathBuf,
    home: PathBuf,
}

impl Needs {
    fn of(ctx: &Ctx) -> Result<Needs> {
        let home = wiring::home().map_err(|e| {
            Error::refuse(ctx.cmd, e.to_string())
                .hint("set HOME to your home directory (an absolute path); the agents read their settings under it")
        })?;
        Ok(Needs {
            roost: roost(ctx.cmd)?,
            socket_dir: socket_dir(ctx),
            state: ctx.paths()?.state.clone(),
            home,
        })
    }

    fn setting(&self) -> Setting<'_> {
        Setting {
            roost: &self.roost,
            socket_dir: &self.socket_dir,
            state: &self.state,
            home: &self.home,
        }
    }
}

fn scope(ctx: &Ctx, project: Option<PathBuf>) -> Result<Scope> {
    let Some(dir) = project else {
        return Ok(Scope::User);
    };
    if !dir.is_dir() {
        return Err(Error::refuse(
            ctx.cmd,
            format!("--project {}: no such directory", shown(&dir)),
        )
        .hint("give the project's directory (it must exist)"));
    }
    Ok(Scope::Project(std::path::absolute(&dir).unwrap_or(dir)))
}

pub fn run(ctx: &Ctx, a: HooksArgs) -> Result<Exit> {
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

/// Where `agent`'s program is on PATH, if it is.
/// Where `name` is on PATH.
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    crate::fsutil::find_program(name, &path)
}

fn install(ctx: &Ctx, t: HooksTarget) -> Result<Exit> {
    let agent = t.agent;
    let scope = scope(ctx, t.project)?;
    let needs = Needs::of(ctx)?;
    let target = Target {
        agent,
        path: wiring::file(agent, &scope, &needs.home),
        scope: &scope,
    };
    let name = agent.name();
    let backup = wiring::backup_of(&target.path);
    let had_backup = backup.exists();
    let done = wiring::install(&target, &needs.setting())
        .map_err(|e| Error::refuse(ctx.cmd, e.to_string()).hint(e.hint("install", name)))?;
    let path = shown(&target.path);
    match done {
        Done::Unchanged => println!("{name}: hooks already in {path}"),
        _ => {
            println!("{name}: hooks written to {path}");
            if !had_backup && backup.exists() {
                println!("{name}: the file as it was is kept in {}", shown(&backup));
            }
        }
    }
    if program(agent.name()).is_none() {
        println!(
            "note: {name} is not on PATH here; the hooks take effect where {} runs",
            agent.title()
        );
    }
    for line in notes(agent, &scope, &needs.socket_dir) {
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
            shown(socket_dir)
        )),
        Agent::Codex => {
            out.push("codex runs these hooks only once you trust them: start codex and choose to trust them in its \"Hooks need review\" dialog (or in /hooks); until then roost hooks status says not trusted, and roost send refuses while the dialog waits".into());
            out.push("roost spawn starts codex with --no-daemon, so each pane's hooks run in that pane".into());
            out.push(format!(
                "codex's sandbox keeps the agent's own commands from roost's socket in {} (codex 0.171 lifts that only with network on); roost leaves codex's sandbox settings as they are",
                shown(socket_dir)
            ));
        }
        Agent::Aider => out.push("aider reports only the end of a turn (done); it has no prompt hook".into()),
        Agent::Pi => out.push("pi asks no one before it runs a tool, so its pane is never blocked by pi itself".into()),
        Agent::Copilot => out.push("copilot asks once per folder whether you trust it, before any hook runs: start it once in a folder yourself (or list the folder in trustedFolders in ~/.copilot/config.json) before roost sends to it there".into()),
        _ => {}
    }
    if let (Agent::Codex | Agent::Gemini | Agent::Copilot, Scope::Project(_)) = (agent, scope) {
        out.push(format!(
            "{} loads a project's hooks only in a folder you trust",
            agent.title()
        ));
    }
    out
}

fn remove(ctx: &Ctx, t: HooksTarget) -> Result<Exit> {
    let agent = t.agent;
    let scope = scope(ctx, t.project)?;
    let needs = Needs::of(ctx)?;
    let target = Target {
        agent,
        path: wiring::file(agent, &scope, &needs.home),
        scope: &scope,
    };
    let name = agent.name();
    let done = wiring::remove(&target, &needs.setting())
        .map_err(|e| Error::refuse(ctx.cmd, e.to_string()).hint(e.hint("remove", name)))?;
    let path = shown(&target.path);
    match done {
        Done::Absent => println!("{name}: no roost hooks in {path}"),
        Done::Restored => println!("{name}: hooks removed; {path} is as it was before install"),
        Done::Deleted => println!("{name}: hooks removed; {path} deleted (roost had made it)"),
        Done::Written | Done::Unchanged => {
            println!("{name}: hooks removed from {path} (the rest of it kept)")
        }
    }
    Ok(Exit::Ok)
}

/// One agent's wiring in one scope.
struct Row {
    agent: Agent,
    scope: Scope,
    path: PathBuf,
    state: Wiring,
}

/// Every agent's wiring in user scope and the current directory's.
fn rows(needs: &Needs) -> Vec<Row> {
    let mut scopes = vec![Scope::User];
    if let Ok(cwd) = std::env::current_dir() {
        scopes.push(Scope::Project(cwd));
    }
    let mut out = Vec::new();
    for agent in Agent::ALL {
        for scope in &scopes {
            let path = wiring::file(agent, scope, &needs.home);
            let target = Target {
                agent,
                scope,
                path: path.clone(),
            };
            let state = wiring::status(&target, &needs.setting());
            out.push(Row {
                agent,
                scope: scope.clone(),
                path,
                state,
            });
        }
    }
    out
}

fn status(ctx: &Ctx, json: bool) -> Result<Exit> {
    let needs = Needs::of(ctx)?;
    let rows = rows(&needs);
    if json {
        let mut list: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "agent": r.agent.name(),
                    "program": program(r.agent.name()).map(|p| p.to_string_lossy().into_owned()),
                    "scope": r.scope.label(),
                    "file": r.path.to_string_lossy(),
                    "state": r.state.word(),
                    "why": r.state.why(),
                })
            })
            .collect();
        list.extend(preset_rows(ctx));
        println!("{}", crate::untrusted::json(&list));
        return Ok(Exit::Ok);
    }
    for agent in Agent::ALL {
        match program(agent.name()) {
            Some(p) => println!("{}: {}", agent.name(), shown(&p)),
            None => println!("{}: not on PATH", agent.name()),
        }
        for r in rows.iter().filter(|r| r.agent == agent) {
            println!(
                "  {:<8} {:<11} {}",
                r.scope.label(),
                r.state.word(),
                shown(&r.path)
            );
            if let Some(why) = r.state.why() {
                println!("           {}", printable(why.as_bytes()));
            }
        }
    }
    presets(ctx);
    Ok(Exit::Ok)
}

/// The presets in `--json`: scope `preset`, no file (roost writes none),
/// state `hooks` or `screen` (where it comes from), `disabled` or
/// `hidden`, and the extension that claims each.
fn preset_rows(ctx: &Ctx) -> Vec<serde_json::Value> {
    let Ok(paths) = ctx.paths() else {
        return Vec::new();
    };
    taught::read(paths)
        .into_iter()
        .map(|t| {
            let state = if crate::ext::presets::shadows_builtin(&t.preset.name).is_some() {
                "hidden"
            } else if !t.enabled {
                "disabled"
            } else if t.preset.hooks {
                "hooks"
            } else {
                "screen"
            };
            let program = program(&t.preset.program);
            serde_json::json!({
                "agent": t.preset.name,
                "program": program.map(|p| p.to_string_lossy().into_owned()),
                "scope": "preset",
                "file": null,
                "state": state,
                "why": null,
                "extension": t.extension,
            })
        })
        .collect()
}

/// The agents extensions teach, each with the extension that claims it.
/// roost writes none of their files: their hooks are wired by hand with
/// the generic commands, or by a command the extension ships.
fn presets(ctx: &Ctx) {
    let Ok(paths) = ctx.paths() else {
        return;
    };
    for t in crate::ext::taught::read(paths) {
        let off = if crate::ext::presets::shadows_builtin(&t.preset.name).is_some() {
            " (hidden: roost knows this agent itself)"
        } else if t.enabled {
            ""
        } else {
            " (disabled)"
        };
        println!(
            "{}: a preset of the extension {}{off}",
            t.preset.name, t.extension
        );
        let how = if t.preset.hooks {
            format!(
                "its own hooks report: wire them with the commands roost hooks show {} prints, or a command its extension ships",
                t.preset.name
            )
        } else {
            "no hooks: its state is read from the screen".to_string()
        };
        println!("  {how}");
    }
}

fn show(ctx: &Ctx, s: HooksShowArgs) -> Result<Exit> {
    let roost = roost(ctx.cmd)?;
    // generic, or a preset's name: the four commands of the generic form.
    let (known, name) = match s.agent {
        HookWord::Builtin(a) => (a.known(), a.name().to_string()),
        HookWord::Other(w) => match Known::named(ctx.paths().ok(), &w) {
            Some(Known::Preset(t)) => (None, t.preset.name),
            _ => {
                return Err(Error::usage(
                    "hooks show",
                    format!(
                        "unknown agent '{}' (one of {}, or an installed extension's agent preset)",
                        printable(w.as_bytes()),
                        HookAgent::names()
                    ),
                ))
            }
        },
    };
    let Some(agent) = known else {
        let line = |state: AgentState, when: &str| {
            println!("# {when}");
            println!(
                "{}",
                printable(wiring::hook_command(&roost, &name, state.word()).as_bytes())
            );
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
    };
    let home = wiring::home().map_err(|e| Error::refuse(ctx.cmd, e.to_string()))?;
    println!("file: {}", shown(&wiring::file(agent, &Scope::User, &home)));
    let command =
        |event: &str| printable(wiring::hook_command(&roost, agent.name(), event).as_bytes());
    match agent {
        Agent::Opencode => println!(
            "a plugin that runs {} EVENT (prompt, blocked, working, error, done)",
            command("")
        ),
        Agent::Pi => println!(
            "an extension that runs {} EVENT (start, prompt, error, done)",
            command("")
        ),
        Agent::Aider => println!(
            "notifications-command: {}",
            command(AgentState::Done.word())
        ),
        _ => {
            for event in wiring::events(agent) {
                println!("{event:<18} {}", command(event));
            }
        }
    }
    Ok(Exit::Ok)
}
