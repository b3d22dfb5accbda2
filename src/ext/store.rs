//! The installed state on disk: ext.lock and what is derived from it
//! (ext.index, ext.agents, ext.complete, ext.events) written together
//! (temp files, then renames, rolled back together), under an exclusive
//! advisory lock so that concurrent `roost ext` commands serialise; and the
//! journal that lets the next command finish or undo one that was killed
//! half-way.

use super::error::{ExtError, Result};
use super::lock::{render_index, Lock};
use crate::fsutil;
use crate::paths::Paths;
use nix::fcntl::{Flock, FlockArg};
use std::fs::File;
use std::path::{Path, PathBuf};

/// Holds the exclusive lock for as long as it lives.
pub struct Store {
    pub paths: Paths,
    _guard: Flock<File>,
}

impl Store {
    /// Takes the lock, waiting for another `roost ext` command to finish.
    pub fn open(paths: &Paths) -> Result<Store> {
        std::fs::create_dir_all(&paths.state).map_err(|e| {
            ExtError::failed(format!("cannot create {}: {e}", paths.state.display()))
        })?;
        let path = lock_path(paths);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| {
                ExtError::failed(format!("cannot open the lock file {}: {e}", path.display()))
            })?;
        let guard = Flock::lock(file, FlockArg::LockExclusive)
            .map_err(|(_, e)| ExtError::failed(format!("cannot lock {}: {e}", path.display())))?;
        let store = Store {
            paths: paths.clone(),
            _guard: guard,
        };
        store.recover()?;
        Ok(store)
    }

    /// Notes, before the first step of moving clones, what this process is
    /// about to do to extension `name`, so that if it is killed the next
    /// `roost ext` command can finish or undo it. The note goes away when the
    /// returned value is dropped (the work done, or undone by the code that
    /// failed).
    pub fn begin(&self, name: &str, action: Action, detail: &str) -> Result<Pending> {
        let path = self.paths.data.join("ext").join(format!(".pending-{name}"));
        let text = format!("{} {} {detail}\n", action.word(), std::process::id());
        fsutil::write_atomic(&path, text.as_bytes(), 0o644)
            .map_err(|e| ExtError::failed(format!("cannot write {}: {e}", path.display())))?;
        Ok(Pending { path })
    }

    /// Cleans up after `roost ext` commands that were killed: their
    /// temporary clones, half-moved clones (undone or finished by what
    /// ext.lock says), and an ext.index left behind by a write cut between
    /// the two files (`save`'s marker says so; a hand edit of ext.lock alone
    /// is not obeyed until a command writes the pair). State data is never
    /// touched.
    fn recover(&self) -> Result<()> {
        let root = self.paths.data.join("ext");
        let entries: Vec<String> = match std::fs::read_dir(&root) {
            Ok(dir) => dir
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect(),
            Err(_) => Vec::new(),
        };
        // Half-written files of a killed writer: every writer of these two
        // directories holds the lock we hold now, so none is in use.
        for dir in [&root, &self.paths.state] {
            if let Ok(listing) = std::fs::read_dir(dir) {
                for e in listing.filter_map(|e| e.ok()) {
                    if e.file_name()
                        .to_string_lossy()
                        .starts_with(fsutil::TEMP_PREFIX)
                    {
                        let _ = std::fs::remove_file(e.path());
                    }
                }
            }
        }
        // Journal notes first: finishing an update may still need the
        // clone waiting in its temporary directory.
        for entry in &entries {
            let Some(name) = entry.strip_prefix(".pending-") else {
                continue;
            };
            let marker = root.join(entry);
            let text = std::fs::read_to_string(&marker).unwrap_or_default();
            let mut words = text.trim_end_matches('\n').splitn(4, ' ');
            let action = words.next().and_then(Action::from_word);
            let pid = words.next().unwrap_or("");
            let old = words.next().unwrap_or("");
            let waiting = words.next().map(PathBuf::from);
            if alive(pid) {
                continue;
            }
            if crate::index::valid_name(name.as_bytes()) {
                self.undo_or_finish(name, action, pid, old, waiting.as_deref())?;
            }
            let _ = std::fs::remove_file(&marker);
        }
        for entry in &entries {
            if let Some(rest) = entry.strip_prefix(".fetch-") {
                if !alive(rest.split('-').next().unwrap_or("")) {
                    let _ = std::fs::remove_dir_all(root.join(entry));
                }
            }
        }
        if saving_marker(&self.paths).exists() {
            // Best effort: a write that fails here fails again, loudly, when
            // the command itself saves.
            let _ = self.save(&self.load()?);
        }
        Ok(())
    }

    fn undo_or_finish(
        &self,
        name: &str,
        action: Option<Action>,
        pid: &str,
        old: &str,
        waiting: Option<&Path>,
    ) -> Result<()> {
        let lock = self.load()?;
        let slot = lock.get(name);
        let clone = self.paths.ext_clone(name);
        let aside = self
            .paths
            .data
            .join("ext")
            .join(format!(".old-{pid}-{name}"));
        // An entry that cannot be read is recorded all the same: its clone
        // is left where it is.
        let recorded = slot.is_some_and(|s| s.typed().map_or(true, |e| e.linked().is_none()));
        match action {
            // Not recorded: the clone that was moved into place goes again.
            Some(Action::Install) | Some(Action::Remove) if !recorded => remove_tree(&clone),
            Some(Action::Update) => {
                let pinned = lock.entry(name).and_then(|e| e.pin());
                let saved = pinned.map(|pin| pin.commit.as_str()) != Some(old);
                if saved {
                    // Recorded: finish by putting the new clone in place.
                    if let Some(new) = waiting.filter(|_| !clone.exists()) {
                        if new.is_dir() {
                            std::fs::rename(new, &clone).map_err(|e| {
                                ExtError::failed(format!("cannot finish updating {name}: {e}"))
                            })?;
                        }
                    }
                    remove_tree(&aside)
                } else if aside.exists() {
                    remove_tree(&clone)?;
                    std::fs::rename(&aside, &clone).map_err(|e| {
                        ExtError::failed(format!("cannot put {} back: {e}", clone.display()))
                    })
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }

    pub fn load(&self) -> Result<Lock> {
        read_lock(&self.paths)
    }

    /// Writes `lock` and the ext.index, ext.agents, ext.complete and
    /// ext.events derived from it. When any write fails, all are put back
    /// as they were.
    pub fn save(&self, lock: &Lock) -> Result<()> {
        let lock_file = self.paths.ext_lock();
        let index_file = self.paths.ext_index();
        let old_lock = read_optional(&lock_file)?;
        let old_index = read_optional(&index_file)?;
        let agents_file = super::taught::file(&self.paths);
        let old_agents = read_optional(&agents_file)?;
        let lines = lock.index_entries(|name| self.paths.ext_clone(name));
        let new_index = render_index(&lines);
        let complete_file = self.paths.ext_complete();
        let old_complete = read_optional(&complete_file)?;
        let new_complete = super::complete_file::render(lock, &lines);
        let events_file = crate::events::index::file(&self.paths);
        let old_events = read_optional(&events_file)?;
        let subscribers = lock.subscribers(|name| self.paths.ext_clone(name));
        // While it exists, the pair may disagree: a writer killed before it
        // is gone leaves the index for the next command to derive again.
        let marker = saving_marker(&self.paths);
        write(&marker, b"")
            .map_err(|e| e.reword(|m| format!("{m}; {} was not written", lock_file.display())))?;
        let result = if lock.is_empty() {
            remove_if_present(&lock_file)
                .and_then(|()| remove_if_present(&index_file))
                .and_then(|()| remove_if_present(&agents_file))
                .and_then(|()| remove_if_present(&complete_file))
        } else {
            write(&lock_file, &lock.to_bytes())
                .and_then(|()| write(&index_file, &new_index))
                .and_then(|()| write(&agents_file, &super::taught::render(lock)))
                .and_then(|()| write(&complete_file, &new_complete))
        }
        .and_then(|()| write_events(&self.paths, &subscribers));
        if let Err(e) = result {
            let restored = restore(&lock_file, old_lock.as_deref())
                & restore(&index_file, old_index.as_deref())
                & restore(&agents_file, old_agents.as_deref())
                & restore(&complete_file, old_complete.as_deref())
                & restore(&events_file, old_events.as_deref());
            // Put back as they were, the pair agrees again; if not, the
            // marker stays and the next command derives the index again.
            if restored {
                let _ = std::fs::remove_file(&marker);
            }
            return Err(e);
        }
        // Both written: a marker that cannot be removed only means the
        // next command derives the index once more.
        let _ = std::fs::remove_file(&marker);
        Ok(())
    }
}

/// ext.events for `subs` (removed when there are none), so that the
/// runner sees the consented handlers as the lock records them.
fn write_events(paths: &Paths, subs: &[crate::events::index::Subscriber]) -> Result<()> {
    crate::events::index::write(paths, subs).map_err(|e| {
        let file = crate::events::index::file(paths);
        ExtError::failed(format!("cannot write {}: {e}", file.display()))
    })
}

/// What a journal note says a killed command was doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Install,
    Update,
    Remove,
}

impl Action {
    fn word(self) -> &'static str {
        match self {
            Action::Install => "install",
            Action::Update => "update",
            Action::Remove => "remove",
        }
    }

    fn from_word(word: &str) -> Option<Action> {
        [Action::Install, Action::Update, Action::Remove]
            .into_iter()
            .find(|a| a.word() == word)
    }
}

/// A journal note; removed on drop.
pub struct Pending {
    path: PathBuf,
}

impl Drop for Pending {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether process `pid` still runs (an unreadable pid counts as gone).
fn alive(pid: &str) -> bool {
    match pid.parse::<i32>() {
        Ok(n) if n > 0 => {
            let pid = nix::unistd::Pid::from_raw(n);
            !matches!(
                nix::sys::signal::kill(pid, None),
                Err(nix::errno::Errno::ESRCH)
            )
        }
        _ => false,
    }
}

fn remove_tree(path: &Path) -> Result<()> {
    match std::fs::remove_dir_all(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ExtError::failed(format!(
            "cannot remove {}: {e}",
            path.display()
        ))),
    }
}

/// Finishes or undoes what a killed `roost ext` command left behind, taking
/// the lock only when there is something to do (so a command that is then
/// refused has written nothing).
pub fn recover_leftovers(paths: &Paths) -> Result<()> {
    let stray = |dir: &Path, prefixes: &[&str]| {
        std::fs::read_dir(dir).is_ok_and(|listing| {
            listing.filter_map(|e| e.ok()).any(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                prefixes.iter().any(|p| name.starts_with(p))
            })
        })
    };
    let root = paths.data.join("ext");
    let needed = stray(&root, &[".pending-", ".fetch-", fsutil::TEMP_PREFIX])
        || stray(&paths.state, &[fsutil::TEMP_PREFIX])
        || saving_marker(paths).exists();
    if needed {
        Store::open(paths)?;
    }
    Ok(())
}

/// ext.lock as it is (missing = nothing installed); no lock taken.
pub fn read_lock(paths: &Paths) -> Result<Lock> {
    let path = paths.ext_lock();
    match read_optional(&path)? {
        None => Ok(Lock::default()),
        Some(bytes) => Lock::parse(&bytes).map_err(|e| {
            e.reword(|m| {
                format!(
                    "{} cannot be read: {m}; fix it by hand or move it aside",
                    path.display()
                )
            })
        }),
    }
}

fn lock_path(paths: &Paths) -> PathBuf {
    paths.state.join("ext.lock.flock")
}

/// Present only while `save` writes ext.lock and ext.index.
fn saving_marker(paths: &Paths) -> PathBuf {
    paths.state.join("ext.saving")
}

fn read_optional(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ExtError::failed(format!(
            "cannot read {}: {e}",
            path.display()
        ))),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    fsutil::write_atomic(path, bytes, 0o644)
        .map_err(|e| ExtError::failed(format!("cannot write {}: {e}", path.display())))
}

fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ExtError::failed(format!(
            "cannot remove {}: {e}",
            path.display()
        ))),
    }
}

/// Best effort: a failure here leaves what the failed write left, and says
/// so (false).
fn restore(path: &Path, old: Option<&[u8]>) -> bool {
    match old {
        Some(bytes) => fsutil::write_atomic(path, bytes, 0o644).is_ok(),
        None => match std::fs::remove_file(path) {
            Ok(()) => true,
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        },
    }
}
