//! The record of the agents roost spawned, kept in its state directory
//! (`agents.json`), per server socket: each window's session and name, the
//! agent, the arguments it was spawned with, its working directory and,
//! once a hook reports it, its session id. `roost resume` reads it back
//! after a server restart or a reboot; `roost kill TARGET` (or `--session`)
//! forgets what it ends. Writers take a lock beside it, and write it whole
//! (atomically).

use crate::paths::Paths;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One recorded agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub session: String,
    pub name: String,
    pub agent: String,
    /// The arguments after the program, as the user gave them to spawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    pub cwd: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
}

/// The whole file: socket file path → its agents.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Record {
    #[serde(default)]
    pub servers: BTreeMap<String, Vec<Entry>>,
}

fn file(paths: &Paths) -> PathBuf {
    paths.state.join("agents.json")
}

/// The record as it is (empty when absent or unreadable).
pub fn read(paths: &Paths) -> Record {
    std::fs::read(file(paths))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Changes the record under its lock.
pub fn update(paths: &Paths, change: impl FnOnce(&mut Record)) -> std::io::Result<()> {
    use nix::fcntl::{Flock, FlockArg};
    std::fs::create_dir_all(&paths.state)?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(paths.state.join("agents.json.flock"))?;
    let _guard = Flock::lock(lock, FlockArg::LockExclusive).map_err(|(_, e)| e)?;
    let mut record = read(paths);
    change(&mut record);
    let mut bytes = serde_json::to_vec_pretty(&record).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    crate::fsutil::write_atomic(&file(paths), &bytes, 0o600)
}

/// The key of a server in the record.
pub fn server_key(socket_file: &Path) -> String {
    socket_file.to_string_lossy().into_owned()
}

/// Records (or replaces) the agent of window `name` in `session`.
pub fn note_spawn(paths: &Paths, socket_file: &Path, entry: Entry) -> std::io::Result<()> {
    let key = server_key(socket_file);
    update(paths, |r| {
        let list = r.servers.entry(key).or_default();
        list.retain(|e| !(e.session == entry.session && e.name == entry.name));
        list.push(entry);
    })
}

/// Forgets the agents of `session` (of its window `window` only, when
/// given): they were ended on purpose, so `resume` leaves them be.
pub fn forget(
    paths: &Paths,
    socket_file: &Path,
    session: &str,
    window: Option<&str>,
) -> std::io::Result<()> {
    let key = server_key(socket_file);
    let gone = |e: &Entry| e.session == session && window.is_none_or(|w| e.name == w);
    if !read(paths)
        .servers
        .get(&key)
        .is_some_and(|l| l.iter().any(gone))
    {
        return Ok(());
    }
    update(paths, |r| {
        if let Some(list) = r.servers.get_mut(&key) {
            list.retain(|e| !gone(e));
            if list.is_empty() {
                r.servers.remove(&key);
            }
        }
    })
}

/// Records the session id a hook reported for window `window` of
/// `session`, when roost recorded that window's agent. Best effort: a hook
/// never fails over it.
pub fn note_session(tmux: &crate::tmux::Tmux, session: &str, window: &str, id: &str) {
    let Ok(paths) = Paths::from_env() else {
        return;
    };
    let key = server_key(&tmux.socket.file());
    if !read(&paths)
        .servers
        .get(&key)
        .is_some_and(|l| l.iter().any(|e| e.session == session && e.name == window))
    {
        return;
    }
    let _ = update(&paths, |r| {
        if let Some(list) = r.servers.get_mut(&key) {
            for e in list
                .iter_mut()
                .filter(|e| e.session == session && e.name == window)
            {
                e.session_id = Some(id.to_string());
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spawn_replaces_the_same_window_and_keeps_others() {
        let dir = tempfile::tempdir().unwrap();
        let p = Paths::under(dir.path(), dir.path(), dir.path());
        let sock = Path::new("/tmp/s");
        let entry = |name: &str, agent: &str| Entry {
            session: "main".into(),
            name: name.into(),
            agent: agent.into(),
            args: Vec::new(),
            cwd: "/w".into(),
            session_id: None,
        };
        note_spawn(&p, sock, entry("a", "claude")).unwrap();
        note_spawn(&p, sock, entry("b", "codex")).unwrap();
        note_spawn(&p, sock, entry("a", "gemini")).unwrap();
        let list = &read(&p).servers["/tmp/s"];
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].agent, "gemini");
        note_spawn(&p, Path::new("/tmp/t"), entry("a", "aider")).unwrap();
        forget(&p, sock, "main", Some("a")).unwrap();
        assert_eq!(read(&p).servers["/tmp/s"].len(), 1);
        forget(&p, sock, "main", None).unwrap();
        let servers = read(&p).servers;
        assert!(!servers.contains_key("/tmp/s"));
        assert_eq!(servers["/tmp/t"].len(), 1, "another server's agents stay");
    }
}
