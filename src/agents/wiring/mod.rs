//! Where each agent reads its hooks, and writing roost's into them by
//! merging: the file is read, roost's part replaced, the rest kept as it
//! was; a backup (`FILE.roost-backup`) is written before roost's first
//! change and taken away by the remove that undoes it; remove restores the
//! file byte for byte when nothing else in it changed meanwhile. Every
//! write is atomic.

pub mod block;
pub mod json;
pub mod opencode;
pub mod ordered;

use super::Agent;
use crate::tmux::AgentState;
use std::path::{Path, PathBuf};

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

fn home() -> PathBuf {
    PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
}

fn env_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// The file roost writes for `agent` in `scope`.
pub fn file(agent: Agent, scope: &Scope) -> PathBuf {
    match (agent, scope) {
        (Agent::Claude, Scope::User) => env_dir("CLAUDE_CONFIG_DIR")
            .unwrap_or_else(|| home().join(".claude"))
            .join("settings.json"),
        (Agent::Claude, Scope::Project(d)) => d.join(".claude").join("settings.local.json"),
        (Agent::Codex, Scope::User) => env_dir("CODEX_HOME")
            .unwrap_or_else(|| home().join(".codex"))
            .join("hooks.json"),
        (Agent::Codex, Scope::Project(d)) => d.join(".codex").join("hooks.json"),
        (Agent::Gemini, Scope::User) => home().join(".gemini").join("settings.json"),
        (Agent::Gemini, Scope::Project(d)) => d.join(".gemini").join("settings.json"),
        (Agent::Opencode, Scope::User) => env_dir("XDG_CONFIG_HOME")
            .unwrap_or_else(|| home().join(".config"))
            .join("opencode")
            .join("plugin")
            .join(opencode::FILE),
        (Agent::Opencode, Scope::Project(d)) => {
            d.join(".opencode").join("plugin").join(opencode::FILE)
        }
        (Agent::Aider, Scope::User) => home().join(".aider.conf.yml"),
        (Agent::Aider, Scope::Project(d)) => d.join(".aider.conf.yml"),
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
        Agent::Opencode | Agent::Aider => &[],
    }
}

/// The command line a hook runs: this roost's absolute path, quoted for a
/// shell, then `hook AGENT EVENT`.
pub fn hook_command(roost: &Path, agent: &str, event: &str) -> String {
    let path = shell_words::quote(&roost.to_string_lossy()).into_owned();
    if event.is_empty() {
        format!("{path} hook {agent}")
    } else {
        format!("{path} hook {agent} {event}")
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

fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(0o644);
    crate::fsutil::write_atomic(path, bytes, mode)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes roost's hooks for `agent` into `path`.
pub fn install(agent: Agent, path: &Path, roost: &Path, socket_dir: &Path) -> Result<Done, String> {
    let old = read(path)?;
    let unreadable = |why: String| format!("cannot merge into {}: {why}", path.display());
    let new: Vec<u8> = match agent {
        Agent::Opencode => {
            if let Some(old) = &old {
                if !opencode::is_roost(old) {
                    return Err(unreadable(
                        "a file of that name that roost did not write is there".into(),
                    ));
                }
            }
            opencode::plugin(roost).into_bytes()
        }
        Agent::Aider => {
            let text = String::from_utf8(old.clone().unwrap_or_default())
                .map_err(|_| unreadable("it is not UTF-8 text".into()))?;
            block::install(&text, &aider_body(roost), AIDER_KEYS)
                .map_err(unreadable)?
                .into_bytes()
        }
        _ => {
            let doc = json::parse(old.as_deref().unwrap_or_default()).map_err(unreadable)?;
            let merged =
                json::install(&doc, &wanted(agent, roost, socket_dir)).map_err(unreadable)?;
            if merged == doc && old.is_some() {
                return Ok(Done::Unchanged);
            }
            json::render(&merged)
        }
    };
    if old.as_deref() == Some(&new[..]) {
        return Ok(Done::Unchanged);
    }
    let backup = backup_of(path);
    if let Some(old) = &old {
        if agent != Agent::Opencode && !backup.exists() {
            crate::fsutil::write_atomic(&backup, old, 0o600)
                .map_err(|e| format!("cannot write the backup {}: {e}", backup.display()))?;
        }
    }
    write(path, &new)?;
    Ok(Done::Written)
}

/// Takes roost's hooks for `agent` out of `path`.
pub fn remove(agent: Agent, path: &Path, socket_dir: &Path) -> Result<Done, String> {
    let Some(old) = read(path)? else {
        return Ok(Done::Absent);
    };
    let unreadable = |why: String| format!("cannot read {}: {why}", path.display());
    let backup_path = backup_of(path);
    let backup = read(&backup_path)?;
    let finish = |new: Vec<u8>, restored: bool| -> Result<Done, String> {
        let done = if new.is_empty() && backup.is_none() {
            std::fs::remove_file(path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            Done::Deleted
        } else if restored {
            write(path, backup.as_deref().unwrap_or_default())?;
            Done::Restored
        } else {
            write(path, &new)?;
            Done::Written
        };
        let _ = std::fs::remove_file(&backup_path);
        Ok(done)
    };
    match agent {
        Agent::Opencode => {
            if !opencode::is_roost(&old) {
                return Ok(Done::Absent);
            }
            std::fs::remove_file(path)
                .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            Ok(Done::Deleted)
        }
        Agent::Aider => {
            let text = String::from_utf8_lossy(&old);
            if block::block_of(&text).is_none() {
                return Ok(Done::Absent);
            }
            let new = block::remove(&text).into_bytes();
            let restored = backup.as_deref().is_some_and(|b| block::same(&new, b));
            finish(new, restored)
        }
        _ => {
            let doc = json::parse(&old).map_err(unreadable)?;
            let before = backup.as_deref().and_then(|b| json::parse(b).ok());
            let socket = socket_dir.to_string_lossy().into_owned();
            let allow = (agent == Agent::Claude).then_some((
                CLAUDE_ALLOW,
                socket.as_str(),
                before.as_ref(),
            ));
            let stripped = json::strip(&doc, agent.name(), allow);
            if stripped == doc {
                return Ok(Done::Absent);
            }
            let restored = before.as_ref() == Some(&stripped);
            let new = if stripped.is_empty() && backup.is_none() {
                Vec::new()
            } else {
                json::render(&stripped)
            };
            finish(new, restored)
        }
    }
}

/// How roost's hooks stand in one file.
#[derive(Debug, PartialEq, Eq)]
pub enum Wiring {
    /// Every hook is there and runs this roost.
    Wired,
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
            Wiring::NotWired => "not wired",
            Wiring::Stale(_) => "stale",
            Wiring::Unreadable(_) => "unreadable",
        }
    }
}

/// How `agent`'s hooks stand in `path`, against this `roost`.
pub fn status(agent: Agent, path: &Path, roost: &Path) -> Wiring {
    let old = match read(path) {
        Ok(Some(b)) => b,
        Ok(None) => return Wiring::NotWired,
        Err(e) => return Wiring::Unreadable(e),
    };
    match agent {
        Agent::Opencode => {
            if !opencode::is_roost(&old) {
                Wiring::NotWired
            } else if old == opencode::plugin(roost).as_bytes() {
                Wiring::Wired
            } else {
                Wiring::Stale("the plugin was written by another roost (install again)".into())
            }
        }
        Agent::Aider => match block::block_of(&String::from_utf8_lossy(&old)) {
            None => Wiring::NotWired,
            Some(lines) if lines == aider_body(roost) => Wiring::Wired,
            Some(_) => Wiring::Stale("roost's block runs another roost (install again)".into()),
        },
        _ => {
            let doc = match json::parse(&old) {
                Ok(d) => d,
                Err(e) => return Wiring::Unreadable(e),
            };
            let found = json::wired(&doc, agent.name());
            if found.is_empty() {
                return Wiring::NotWired;
            }
            let missing: Vec<&str> = events(agent)
                .iter()
                .copied()
                .filter(|e| {
                    !found
                        .iter()
                        .any(|(ev, c)| ev == e && *c == hook_command(roost, agent.name(), e))
                })
                .collect();
            if missing.is_empty() {
                Wiring::Wired
            } else {
                Wiring::Stale(format!(
                    "not wired to this roost for {} (install again)",
                    missing.join(", ")
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let roost = dir.path().join("bin/roost");
        let sock = PathBuf::from("/tmp/tmux-1000");
        (dir, roost, sock)
    }

    #[test]
    fn every_format_round_trips_a_fresh_file() {
        for agent in Agent::ALL {
            let (dir, roost, sock) = setup();
            let path = dir.path().join("conf");
            assert_eq!(
                install(agent, &path, &roost, &sock),
                Ok(Done::Written),
                "{agent:?}"
            );
            assert_eq!(status(agent, &path, &roost), Wiring::Wired, "{agent:?}");
            assert_eq!(
                install(agent, &path, &roost, &sock),
                Ok(Done::Unchanged),
                "{agent:?}"
            );
            assert!(!backup_of(&path).exists(), "{agent:?}");
            assert_eq!(remove(agent, &path, &sock), Ok(Done::Deleted), "{agent:?}");
            assert!(!path.exists(), "{agent:?}");
            assert_eq!(remove(agent, &path, &sock), Ok(Done::Absent), "{agent:?}");
        }
    }

    #[test]
    fn an_existing_file_keeps_a_backup_and_is_restored_byte_for_byte() {
        let cases: &[(Agent, &str)] = &[
            (Agent::Claude, "{\n    \"model\": \"opus\",\n    \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]}\n}"),
            (Agent::Codex, "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"check\"}]}]}}"),
            (Agent::Gemini, "{\"ui\": {\"theme\": \"Dracula\"}}\n"),
            (Agent::Aider, "model: sonnet\nauto-commits: false"),
        ];
        for (agent, text) in cases {
            let (dir, roost, sock) = setup();
            let path = dir.path().join("conf");
            std::fs::write(&path, text).unwrap();
            assert_eq!(install(*agent, &path, &roost, &sock), Ok(Done::Written));
            assert_eq!(std::fs::read_to_string(backup_of(&path)).unwrap(), *text);
            let after = std::fs::read_to_string(&path).unwrap();
            assert_ne!(after, *text);
            assert_eq!(status(*agent, &path, &roost), Wiring::Wired, "{agent:?}");
            // Twice is once, and the backup is the first one.
            assert_eq!(install(*agent, &path, &roost, &sock), Ok(Done::Unchanged));
            assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
            assert_eq!(
                remove(*agent, &path, &sock),
                Ok(Done::Restored),
                "{agent:?}"
            );
            assert_eq!(std::fs::read_to_string(&path).unwrap(), *text, "{agent:?}");
            assert!(!backup_of(&path).exists());
        }
    }

    #[test]
    fn the_other_hooks_stay_when_the_user_changed_the_file_meanwhile() {
        let (dir, roost, sock) = setup();
        let path = dir.path().join("settings.json");
        std::fs::write(
            &path,
            r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}"#,
        )
        .unwrap();
        install(Agent::Claude, &path, &roost, &sock).unwrap();
        let mut doc = json::parse(&std::fs::read(&path).unwrap()).unwrap();
        doc.0.push(("model".into(), ordered::Node::str("opus")));
        std::fs::write(&path, json::render(&doc)).unwrap();
        assert_eq!(remove(Agent::Claude, &path, &sock), Ok(Done::Written));
        let left = json::parse(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            serde_json::to_string(&left).unwrap(),
            r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]},"model":"opus"}"#
        );
    }

    #[test]
    fn another_roost_is_stale_and_a_bad_file_is_refused_untouched() {
        let (dir, roost, sock) = setup();
        let path = dir.path().join("settings.json");
        install(Agent::Claude, &path, &dir.path().join("old/roost"), &sock).unwrap();
        assert!(matches!(
            status(Agent::Claude, &path, &roost),
            Wiring::Stale(_)
        ));
        std::fs::write(&path, "{oops").unwrap();
        assert!(install(Agent::Claude, &path, &roost, &sock).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{oops");
        let aider = dir.path().join("aider.yml");
        std::fs::write(&aider, "notifications-command: say hi\n").unwrap();
        let err = install(Agent::Aider, &aider, &roost, &sock).unwrap_err();
        assert!(err.contains("notifications-command"), "{err}");
        let plugin = dir.path().join("roost.js");
        std::fs::write(&plugin, "export const Mine = 1;\n").unwrap();
        assert!(install(Agent::Opencode, &plugin, &roost, &sock).is_err());
        assert_eq!(remove(Agent::Opencode, &plugin, &sock), Ok(Done::Absent));
        assert!(plugin.exists());
    }
}
