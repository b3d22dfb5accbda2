//! Where each agent reads its hooks, and writing roost's into them as the
//! user would edit the file: under a lock, through a link (which stays a
//! link), with roost's part spliced in and every other byte kept; a backup
//! (`FILE.roost-backup`) is written before roost's first change and taken
//! away by the remove that undoes it; remove gives the file back byte for
//! byte when nothing else in it changed meanwhile. Every file is read
//! bounded, as a regular file, and every write is atomic.

pub mod block;
pub mod codex_trust;
mod command;
pub mod copilot;
pub mod json;
pub mod jsontext;
pub mod opencode;
pub mod pi;
pub mod place;

use super::Agent;
use crate::fsutil::ReadError;
use crate::tmux::AgentState;
pub use command::hook_command;
use place::LinkProblem;
use std::fmt;
use std::path::{Path, PathBuf};

/// The most of an agent's configuration file roost reads.
pub const MAX_FILE: u64 = 4 << 20;

/// User scope (under HOME / XDG), or one project's directory.
#[derive(Debug, Clone)]
pub enum Scope {
    User,
    Project(PathBuf),
}

impl Scope {
    pub fn label(&self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project(_) => "project",
        }
    }
}

/// The home directory the agents read their files under: HOME, which must
/// be set and absolute (they take it as it is, and a relative one would
/// put the user's settings into whatever directory roost runs in).
pub fn home() -> Result<PathBuf, WiringError> {
    match std::env::var_os("HOME") {
        Some(h) if Path::new(&h).is_absolute() => Ok(PathBuf::from(h)),
        Some(h) if !h.is_empty() => Err(WiringError::Home(format!(
            "HOME ({}) is not an absolute path",
            Path::new(&h).display()
        ))),
        _ => Err(WiringError::Home("HOME is not set".into())),
    }
}

fn env_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// The file roost writes for `agent` in `scope`, under `home`.
pub fn file(agent: Agent, scope: &Scope, home: &Path) -> PathBuf {
    match (agent, scope) {
        (Agent::Claude, Scope::User) => env_dir("CLAUDE_CONFIG_DIR")
            .unwrap_or_else(|| home.join(".claude"))
            .join("settings.json"),
        (Agent::Claude, Scope::Project(d)) => d.join(".claude").join("settings.local.json"),
        (Agent::Codex, Scope::User) => env_dir("CODEX_HOME")
            .unwrap_or_else(|| home.join(".codex"))
            .join("hooks.json"),
        (Agent::Codex, Scope::Project(d)) => d.join(".codex").join("hooks.json"),
        (Agent::Gemini, Scope::User) => home.join(".gemini").join("settings.json"),
        (Agent::Gemini, Scope::Project(d)) => d.join(".gemini").join("settings.json"),
        (Agent::Opencode, Scope::User) => env_dir("XDG_CONFIG_HOME")
            .unwrap_or_else(|| home.join(".config"))
            .join("opencode")
            .join("plugin")
            .join(opencode::FILE),
        (Agent::Opencode, Scope::Project(d)) => {
            d.join(".opencode").join("plugin").join(opencode::FILE)
        }
        (Agent::Aider, Scope::User) => home.join(".aider.conf.yml"),
        (Agent::Aider, Scope::Project(d)) => d.join(".aider.conf.yml"),
        (Agent::Copilot, Scope::User) => env_dir("COPILOT_HOME")
            .unwrap_or_else(|| home.join(".copilot"))
            .join("hooks")
            .join(copilot::FILE),
        (Agent::Copilot, Scope::Project(d)) => d.join(".github").join("hooks").join(copilot::FILE),
        (Agent::Pi, Scope::User) => env_dir("PI_CODING_AGENT_DIR")
            .unwrap_or_else(|| home.join(".pi").join("agent"))
            .join("extensions")
            .join(pi::FILE),
        (Agent::Pi, Scope::Project(d)) => d.join(".pi").join("extensions").join(pi::FILE),
    }
}

/// The wiring of an agent that is a whole file of roost's own (opencode's
/// plugin, copilot's hooks file, pi's extension): written whole by
/// install, deleted by remove, and never merged into a file of the user's.
pub struct Own {
    /// Whether a file's bytes are one roost wrote.
    pub is_roost: fn(&[u8]) -> bool,
    /// The file, calling this roost.
    pub text: fn(&Path) -> String,
}

/// How `agent`'s wiring is a file of roost's own, when it is one.
pub fn own(agent: Agent) -> Option<Own> {
    match agent {
        Agent::Opencode => Some(Own {
            is_roost: opencode::is_roost,
            text: opencode::plugin,
        }),
        Agent::Copilot => Some(Own {
            is_roost: copilot::is_roost,
            text: copilot::hooks,
        }),
        Agent::Pi => Some(Own {
            is_roost: pi::is_roost,
            text: pi::extension,
        }),
        Agent::Claude | Agent::Codex | Agent::Gemini | Agent::Aider => None,
    }
}

pub fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".roost-backup");
    PathBuf::from(name)
}

/// The events roost wires for an agent whose configuration is JSON.
pub fn events(agent: Agent) -> &'static [&'static str] {
    match agent {
        Agent::Claude => &[
            "SessionStart",
            "UserPromptSubmit",
            "Notification",
            "PermissionRequest",
            "PostToolUse",
            "Stop",
            "StopFailure",
        ],
        Agent::Codex => &[
            "SessionStart",
            "UserPromptSubmit",
            "PermissionRequest",
            "PostToolUse",
            "Stop",
        ],
        Agent::Gemini => &[
            "SessionStart",
            "BeforeAgent",
            "Notification",
            "AfterTool",
            "AfterAgent",
        ],
        Agent::Copilot => copilot::EVENTS,
        Agent::Opencode | Agent::Aider | Agent::Pi => &[],
    }
}

/// Claude Code's sandbox list of Unix sockets it lets commands reach.
const CLAUDE_ALLOW: &[&str] = &["sandbox", "network", "allowUnixSockets"];

/// The keys aider's block sets.
const AIDER_KEYS: &[&str] = &["notifications", "notifications-command"];

fn wanted<'a>(agent: Agent, roost: &Path, socket_dir: &Path) -> json::Wanted<'a> {
    json::Wanted {
        agent: agent.name(),
        hooks: events(agent)
            .iter()
            .map(|e| (*e, hook_command(roost, agent.name(), e)))
            .collect(),
        // Gemini CLI counts milliseconds, the others seconds.
        timeout: if agent == Agent::Gemini { 10_000 } else { 10 },
        name: (agent == Agent::Gemini).then_some("roost"),
        allow: (agent == Agent::Claude)
            .then(|| (CLAUDE_ALLOW, socket_dir.to_string_lossy().into_owned())),
    }
}

fn aider_body(roost: &Path) -> Vec<String> {
    vec![
        "notifications: true".to_string(),
        format!(
            "notifications-command: {}",
            block::yaml_quote(&hook_command(roost, "aider", AgentState::Done.word()))
        ),
    ]
}

/// What `install` or `remove` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Done {
    Written,
    Unchanged,
    /// remove: the file is as it was before roost's first change.
    Restored,
    /// remove: the file is gone (roost had made it).
    Deleted,
    /// remove: nothing of roost's was there.
    Absent,
}

/// Why an agent's file was not changed (or could not be looked at).
#[derive(Debug)]
pub enum WiringError {
    /// HOME cannot say where the agent's files are.
    Home(String),
    /// The file (or roost's backup of it) cannot be read.
    Read { path: PathBuf, why: ReadError },
    /// It can be read, but not merged into: not the format, a key twice,
    /// a key of roost's already set by hand, a file of roost's name that
    /// roost did not write.
    Format { path: PathBuf, why: String },
    /// A link roost will not write through.
    Link { path: PathBuf, problem: LinkProblem },
    /// Writing the file, its backup or its directory failed.
    Write { path: PathBuf, why: std::io::Error },
    /// The lock that keeps two roosts from editing at once.
    Lock { path: PathBuf, why: std::io::Error },
}

impl fmt::Display for WiringError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        use crate::fsutil::io_words;
        match self {
            WiringError::Home(why) => f.write_str(why),
            WiringError::Read { path, why } => write!(f, "cannot read {}: {why}", path.display()),
            WiringError::Format { path, why } => {
                write!(f, "cannot merge into {}: {why}", path.display())
            }
            WiringError::Link { path, problem } => match problem {
                LinkProblem::Dangling { link, to } => write!(
                    f,
                    "{} is a link to {}, which does not exist",
                    link.display(),
                    to.display()
                ),
                LinkProblem::LeavesProject { to } => write!(
                    f,
                    "{} is a link to {}, outside the project: roost does not write a project's hooks into a file outside it",
                    path.display(),
                    to.display()
                ),
                LinkProblem::Io(e) => write!(f, "cannot follow {}: {}", path.display(), io_words(e)),
            },
            WiringError::Write { path, why } => {
                write!(f, "cannot write {}: {}", path.display(), io_words(why))
            }
            WiringError::Lock { path, why } => {
                write!(f, "cannot take the lock {}: {}", path.display(), io_words(why))
            }
        }
    }
}

impl WiringError {
    /// What the user can do about it, for `hooks VERB AGENT`.
    pub fn hint(&self, verb: &str, agent: &str) -> String {
        let again = format!("then run roost hooks {verb} {agent} again");
        match self {
            WiringError::Home(_) => "set HOME to your home directory (an absolute path)".into(),
            WiringError::Read {
                why: ReadError::NotRegular(_) | ReadError::TooBig(_),
                ..
            } => format!("the file was not changed; put a regular file of the agent's settings there, {again}"),
            WiringError::Read { .. } | WiringError::Write { .. } | WiringError::Lock { .. } => {
                format!("the file was not changed; make it and its directory readable and writable, {again}")
            }
            WiringError::Format { .. } => {
                format!("the file was not changed; fix it by hand, {again}")
            }
            WiringError::Link {
                problem: LinkProblem::LeavesProject { .. },
                ..
            } => format!(
                "the file was not changed; remove the link (or make it a file of the project's own), {again}"
            ),
            WiringError::Link { .. } => {
                format!("the file was not changed; create the file the link names, or remove the link, {again}")
            }
        }
    }
}

/// What every edit needs: this roost, its socket's directory, roost's
/// state directory (the lock, codex's trust record), and the home the
/// agents read their files under.
pub struct Setting<'a> {
    pub roost: &'a Path,
    pub socket_dir: &'a Path,
    pub state: &'a Path,
    pub home: &'a Path,
}

/// One agent's file in one scope, as the agent reads it.
pub struct Target<'a> {
    pub agent: Agent,
    pub scope: &'a Scope,
    pub path: PathBuf,
}

/// Holds the lock every edit of agents' files takes, until dropped.
struct Lock(#[allow(dead_code)] nix::fcntl::Flock<std::fs::File>);

fn lock(state: &Path) -> Result<Lock, WiringError> {
    use nix::fcntl::{Flock, FlockArg};
    let path = state.join("hooks.flock");
    let err = |why| WiringError::Lock {
        path: path.clone(),
        why,
    };
    crate::fsutil::make_dirs(state, 0o700).map_err(err)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(err)?;
    Flock::lock(file, FlockArg::LockExclusive)
        .map(Lock)
        .map_err(|(_, e)| err(e.into()))
}

fn read(path: &Path) -> Result<Option<Vec<u8>>, WiringError> {
    crate::fsutil::read_regular(path, MAX_FILE).map_err(|why| WiringError::Read {
        path: path.to_path_buf(),
        why,
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), WiringError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(0o644);
    crate::fsutil::write_atomic(path, bytes, mode).map_err(|why| WiringError::Write {
        path: path.to_path_buf(),
        why,
    })
}

fn real(t: &Target) -> Result<PathBuf, WiringError> {
    let project = match t.scope {
        Scope::Project(d) => Some(d.as_path()),
        Scope::User => None,
    };
    place::real(&t.path, project).map_err(|problem| WiringError::Link {
        path: t.path.clone(),
        problem,
    })
}

fn text<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, WiringError> {
    std::str::from_utf8(bytes).map_err(|_| WiringError::Format {
        path: path.to_path_buf(),
        why: "it is not UTF-8 text".into(),
    })
}

/// What a JSON-configured agent's file holds once roost's hooks are in.
fn merged(t: &Target, old: Option<&[u8]>, s: &Setting) -> Result<Vec<u8>, WiringError> {
    let format = |why: String| WiringError::Format {
        path: t.path.clone(),
        why,
    };
    let agent = t.agent;
    if let Some(own) = own(agent) {
        if old.is_some_and(|o| !(own.is_roost)(o)) {
            return Err(format(
                "a file of that name that roost did not write is there".into(),
            ));
        }
        return Ok((own.text)(s.roost).into_bytes());
    }
    match agent {
        Agent::Aider => {
            let old = old.unwrap_or_default();
            text(&t.path, old)?;
            block::install(old, &aider_body(s.roost), AIDER_KEYS).map_err(|e| format(e.to_string()))
        }
        _ => {
            let old = text(&t.path, old.unwrap_or_default())?;
            json::install(old, &wanted(agent, s.roost, s.socket_dir))
                .map(String::into_bytes)
                .map_err(|e| format(e.to_string()))
        }
    }
}

/// Writes roost's hooks for the target's agent into its file.
pub fn install(t: &Target, s: &Setting) -> Result<Done, WiringError> {
    let _lock = lock(s.state)?;
    let real = real(t)?;
    let old = read(&real)?;
    let new = merged(t, old.as_deref(), s)?;
    if old.as_deref() == Some(&new[..]) {
        return Ok(Done::Unchanged);
    }
    if let Some(old) = &old {
        let backup = backup_of(&t.path);
        if own(t.agent).is_none() && std::fs::symlink_metadata(&backup).is_err() {
            crate::fsutil::write_atomic(&backup, old, 0o600)
                .map_err(|why| WiringError::Write { path: backup, why })?;
        }
    } else {
        let made = place::missing_dirs(&real);
        if !made.is_empty() {
            let dir = made.last().expect("not empty");
            crate::fsutil::make_dirs(dir, 0o755).map_err(|why| WiringError::Write {
                path: dir.clone(),
                why,
            })?;
            let lines: Vec<String> = made.iter().map(|d| d.display().to_string()).collect();
            let record = place::made_record(&real);
            crate::fsutil::write_atomic(&record, lines.join("\n").as_bytes(), 0o600)
                .map_err(|why| WiringError::Write { path: record, why })?;
        }
    }
    write(&real, &new)?;
    if t.agent == Agent::Codex {
        let keys = codex_keys(t, &new);
        let _ = codex_trust::forget(s.state, &codex_config(s), &keys);
    }
    Ok(Done::Written)
}

/// Takes roost's hooks for the target's agent out of its file.
pub fn remove(t: &Target, s: &Setting) -> Result<Done, WiringError> {
    let _lock = lock(s.state)?;
    let real = real(t)?;
    let Some(old) = read(&real)? else {
        return Ok(Done::Absent);
    };
    let backup_path = backup_of(&t.path);
    let backup = read(&backup_path)?;
    let format = |why: String| WiringError::Format {
        path: t.path.clone(),
        why,
    };
    // What is left, and whether it is the file as it was before install.
    let (new, restored) = match (own(t.agent), t.agent) {
        (Some(own), _) => {
            if !(own.is_roost)(&old) {
                return Ok(Done::Absent);
            }
            (Vec::new(), false)
        }
        (None, Agent::Aider) => {
            if block::block_of(&old).is_none() {
                return Ok(Done::Absent);
            }
            let new = block::remove(&old);
            let restored = backup.as_deref().is_some_and(|b| block::same(&new, b));
            (new, restored)
        }
        (None, agent) => {
            let text = text(&t.path, &old)?;
            let before = backup.as_deref().and_then(|b| std::str::from_utf8(b).ok());
            let socket = s.socket_dir.to_string_lossy().into_owned();
            let allow = (agent == Agent::Claude).then_some((CLAUDE_ALLOW, socket.as_str()));
            let new = json::strip(text, agent.name(), allow, before)
                .map_err(|e| format(e.to_string()))?;
            if new == text {
                return Ok(Done::Absent);
            }
            let restored = before.is_some_and(|b| jsontext::same_tokens(&new, b));
            let empty = jsontext::parse(&new)
                .ok()
                .flatten()
                .is_some_and(|r| r.members().is_empty());
            let new = if empty && backup.is_none() {
                Vec::new()
            } else {
                new.into_bytes()
            };
            (new, restored)
        }
    };
    let done = if restored {
        write(&real, backup.as_deref().unwrap_or_default())?;
        Done::Restored
    } else if backup.is_none() && new.iter().all(u8::is_ascii_whitespace) {
        std::fs::remove_file(&real).map_err(|why| WiringError::Write {
            path: real.clone(),
            why,
        })?;
        place::unmake(&real);
        Done::Deleted
    } else {
        write(&real, &new)?;
        Done::Written
    };
    let _ = std::fs::remove_file(place::made_record(&real));
    let _ = std::fs::remove_file(&backup_path);
    Ok(done)
}

/// How roost's hooks stand in one file.
#[derive(Debug, PartialEq, Eq)]
pub enum Wiring {
    /// Every hook is there and runs this roost.
    Wired,
    /// Every hook is there and runs this roost, but the agent will not run
    /// them until a person trusts them (codex): why.
    NotTrusted(String),
    /// None is there.
    NotWired,
    /// Some are missing, or run another roost.
    Stale(String),
    /// The file cannot be read as its format.
    Unreadable(String),
}

impl Wiring {
    pub fn word(&self) -> &'static str {
        match self {
            Wiring::Wired => "wired",
            Wiring::NotTrusted(_) => "not trusted",
            Wiring::NotWired => "not wired",
            Wiring::Stale(_) => "stale",
            Wiring::Unreadable(_) => "unreadable",
        }
    }

    /// The line that says more, where there is more to say.
    pub fn why(&self) -> Option<&str> {
        match self {
            Wiring::NotTrusted(w) | Wiring::Stale(w) | Wiring::Unreadable(w) => Some(w),
            _ => None,
        }
    }
}

/// codex's config.toml, where it keeps the trust it gave hooks (those of
/// a project's file too).
fn codex_config(s: &Setting) -> PathBuf {
    env_dir("CODEX_HOME")
        .unwrap_or_else(|| s.home.join(".codex"))
        .join("config.toml")
}

/// codex's keys for roost's hooks in `bytes`, the target's hooks.json.
fn codex_keys(t: &Target, bytes: &[u8]) -> Vec<String> {
    let Some(root) = std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| jsontext::parse(text).ok().flatten())
    else {
        return Vec::new();
    };
    json::positions(&root, Agent::Codex.name())
        .iter()
        .map(|(event, group)| codex_trust::key(&t.path, event, *group))
        .collect()
}

/// How the target's hooks stand, against this `roost`.
pub fn status(t: &Target, s: &Setting) -> Wiring {
    let roost = s.roost;
    let old = match read(&t.path) {
        Ok(Some(b)) => b,
        Ok(None) => return Wiring::NotWired,
        Err(e) => return Wiring::Unreadable(e.to_string()),
    };
    let agent = t.agent;
    if let Some(own) = own(agent) {
        return if !(own.is_roost)(&old) {
            Wiring::NotWired
        } else if old == (own.text)(roost).as_bytes() {
            Wiring::Wired
        } else {
            Wiring::Stale("the file was written by another roost (install again)".into())
        };
    }
    match agent {
        Agent::Aider => match block::block_of(&old) {
            None => Wiring::NotWired,
            Some(lines) if lines == aider_body(roost) => Wiring::Wired,
            Some(_) => Wiring::Stale("roost's block runs another roost (install again)".into()),
        },
        _ => {
            let root = match std::str::from_utf8(&old)
                .map_err(|_| "it is not UTF-8 text".to_string())
                .and_then(|text| json::check(text).map_err(|e| e.to_string()))
            {
                Ok(Some(root)) => root,
                Ok(None) => return Wiring::NotWired,
                Err(e) => return Wiring::Unreadable(format!("cannot read it: {e}")),
            };
            let found = json::found(&root, agent.name());
            if found.marked.is_empty() && found.old == 0 {
                return Wiring::NotWired;
            }
            let missing: Vec<&str> = events(agent)
                .iter()
                .copied()
                .filter(|e| {
                    !found
                        .marked
                        .iter()
                        .any(|(ev, c)| ev == e && *c == hook_command(roost, agent.name(), e))
                })
                .collect();
            if !missing.is_empty() {
                return Wiring::Stale(format!(
                    "not wired to this roost for {} (install again)",
                    missing.join(", ")
                ));
            }
            if found.old > 0 {
                return Wiring::Stale(
                    "hooks an older roost wrote are there too (install again)".into(),
                );
            }
            if agent == Agent::Codex {
                let keys = codex_keys(t, &old);
                if !codex_trust::untrusted(s.state, &codex_config(s), &keys).is_empty() {
                    return Wiring::NotTrusted(
                        "wired, not yet trusted by codex: start codex and trust roost's hooks in its review dialog (or /hooks)".into(),
                    );
                }
            }
            Wiring::Wired
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct World {
        dir: tempfile::TempDir,
        roost: PathBuf,
        sock: PathBuf,
    }

    impl World {
        fn new() -> World {
            let dir = tempfile::tempdir().unwrap();
            let roost = dir.path().join("bin/roost");
            World {
                dir,
                roost,
                sock: PathBuf::from("/tmp/tmux-1000"),
            }
        }
        fn setting(&self) -> Setting<'_> {
            Setting {
                roost: &self.roost,
                socket_dir: &self.sock,
                state: self.dir.path(),
                home: self.dir.path(),
            }
        }
        fn target(&self, agent: Agent, name: &str) -> Target<'static> {
            Target {
                agent,
                scope: &Scope::User,
                path: self.dir.path().join(name),
            }
        }
    }

    #[test]
    fn every_format_round_trips_a_fresh_file() {
        for agent in Agent::ALL {
            let w = World::new();
            let t = w.target(agent, "conf/x");
            let s = w.setting();
            assert_eq!(install(&t, &s).unwrap(), Done::Written, "{agent:?}");
            let expected = if agent == Agent::Codex {
                "not trusted"
            } else {
                "wired"
            };
            assert_eq!(status(&t, &s).word(), expected, "{agent:?}");
            assert_eq!(install(&t, &s).unwrap(), Done::Unchanged, "{agent:?}");
            assert!(!backup_of(&t.path).exists(), "{agent:?}");
            assert_eq!(remove(&t, &s).unwrap(), Done::Deleted, "{agent:?}");
            assert!(!w.dir.path().join("conf").exists(), "{agent:?}");
            assert_eq!(remove(&t, &s).unwrap(), Done::Absent, "{agent:?}");
        }
    }

    #[test]
    fn an_existing_file_keeps_a_backup_and_is_restored_byte_for_byte() {
        let cases: &[(Agent, &str)] = &[
            (Agent::Claude, "{\n    \"model\": \"opus\",\n    \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]}\n}"),
            (Agent::Codex, "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"check\"}]}]}}"),
            (Agent::Gemini, "{\"ui\": {\"theme\": \"Dracula\"}, \"n\": 1e2}\n"),
            (Agent::Aider, "model: sonnet\nauto-commits: false"),
        ];
        for (agent, text) in cases {
            let w = World::new();
            let t = w.target(*agent, "conf");
            let s = w.setting();
            std::fs::write(&t.path, text).unwrap();
            assert_eq!(install(&t, &s).unwrap(), Done::Written);
            assert_eq!(std::fs::read_to_string(backup_of(&t.path)).unwrap(), *text);
            let after = std::fs::read_to_string(&t.path).unwrap();
            assert_ne!(after, *text);
            assert_eq!(install(&t, &s).unwrap(), Done::Unchanged);
            assert_eq!(std::fs::read_to_string(&t.path).unwrap(), after);
            assert_eq!(remove(&t, &s).unwrap(), Done::Restored, "{agent:?}");
            assert_eq!(
                std::fs::read_to_string(&t.path).unwrap(),
                *text,
                "{agent:?}"
            );
            assert!(!backup_of(&t.path).exists());
        }
    }

    #[test]
    fn another_roost_is_stale_and_a_bad_file_is_refused_untouched() {
        let w = World::new();
        let s = w.setting();
        let t = w.target(Agent::Claude, "settings.json");
        let old = w.dir.path().join("old/roost");
        install(
            &t,
            &Setting {
                roost: &old,
                ..w.setting()
            },
        )
        .unwrap();
        assert!(matches!(status(&t, &s), Wiring::Stale(_)));
        std::fs::write(&t.path, "{oops").unwrap();
        assert!(matches!(install(&t, &s), Err(WiringError::Format { .. })));
        assert_eq!(std::fs::read_to_string(&t.path).unwrap(), "{oops");
        let aider = w.target(Agent::Aider, "aider.yml");
        std::fs::write(&aider.path, "notifications-command: say hi\n").unwrap();
        let err = install(&aider, &s).unwrap_err().to_string();
        assert!(err.contains("notifications-command"), "{err}");
        let mine: &[(Agent, &str, &str)] = &[
            (Agent::Opencode, "roost.js", "export const Mine = 1;\n"),
            (
                Agent::Copilot,
                "roost.json",
                "{\"version\": 1, \"hooks\": {\"Stop\": [{\"type\": \"command\", \"bash\": \"say done\"}]}}\n",
            ),
            (Agent::Pi, "roost.ts", "export default function (pi) {}\n"),
        ];
        for (agent, name, text) in mine {
            let own = w.target(*agent, name);
            std::fs::write(&own.path, text).unwrap();
            let err = install(&own, &s).unwrap_err().to_string();
            assert!(err.contains("roost did not write"), "{agent:?}: {err}");
            assert_eq!(remove(&own, &s).unwrap(), Done::Absent, "{agent:?}");
            assert_eq!(status(&own, &s), Wiring::NotWired, "{agent:?}");
            assert_eq!(std::fs::read_to_string(&own.path).unwrap(), *text);
        }
        // A file of roost's that another roost wrote is stale, and taken.
        let hooks = w.target(Agent::Copilot, "theirs.json");
        std::fs::write(&hooks.path, copilot::hooks(&old)).unwrap();
        assert!(matches!(status(&hooks, &s), Wiring::Stale(_)));
        assert_eq!(install(&hooks, &s).unwrap(), Done::Written);
        assert_eq!(status(&hooks, &s), Wiring::Wired);
    }
}
