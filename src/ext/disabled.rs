//! Turning an extension's commands off and on: the `disabled` switch in
//! ext.lock, written with ext.index under the lock (what disable and enable
//! share), and how the commands it covers are named.

use super::error::Result;
use super::installed;
use super::lock::{Entry, Lock};
use super::store::{self, Store};
use crate::paths::Paths;

/// Sets NAME's `disabled` to `disabled` and writes ext.lock and ext.index
/// together, after `check` agrees (under the lock). `None` when it already
/// was: then nothing is written.
pub fn switch(
    paths: &Paths,
    name: &str,
    disabled: bool,
    check: impl Fn(&Lock, &Entry) -> Result<()>,
) -> Result<Option<Entry>> {
    // Decided first without the lock, so a refusal or a no-op writes nothing.
    let lock = store::read_lock(paths)?;
    let entry = installed::readable(&lock, name)?;
    if entry.disabled == disabled {
        return Ok(None);
    }
    check(&lock, entry)?;
    let store = Store::open(paths)?;
    let mut lock = store.load()?;
    let mut entry = installed::readable(&lock, name)?.clone();
    if entry.disabled == disabled {
        return Ok(None);
    }
    check(&lock, &entry)?;
    entry.disabled = disabled;
    lock.insert(name, entry.clone());
    store
        .save(&lock)
        .map_err(|e| e.reword(|m| format!("{m}; {name} was left as it was")))?;
    Ok(Some(entry))
}

/// What list and info say when ROOST_NO_EXT turns every extension command
/// off in this shell (where one would wonder why an installed command does
/// not run); `None` when it does not.
pub fn seam_note() -> Option<&'static str> {
    std::env::var_os(crate::contract::env::NO_EXT)
        .is_some_and(|v| !v.is_empty())
        .then_some(
            "ROOST_NO_EXT is set, so no extension command runs in this shell; \
             unset ROOST_NO_EXT to run them",
        )
}

/// The verb after `commands`: one runs, several run.
pub fn run_or_runs(entry: &Entry) -> &'static str {
    if entry.commands.len() == 1 {
        "runs"
    } else {
        "run"
    }
}

/// `roost note, roost notes`.
pub fn commands(entry: &Entry) -> String {
    let words: Vec<String> = entry
        .commands
        .iter()
        .map(|c| format!("roost {}", crate::untrusted::printable(c.as_bytes())))
        .collect();
    words.join(", ")
}
