//! Putting a fetched clone in place of an installed one and recording its
//! entry, in an order that never lets anything half-replaced be dispatched;
//! undone on failure. What update, rollback and repair share.

use super::fetch::Fetched;
use super::lock::Entry;
use super::repin;
use super::store::{Action, Store};
use crate::paths::Paths;

/// Why a swap did not happen; the installed clone and record were left (or
/// put back) as they were.
#[derive(Debug)]
pub enum SwapError {
    /// ext.lock or ext.index could not be opened, read or locked.
    Store(String),
    /// The entry moved off `old_commit` while the command ran.
    Changed { name: String },
    /// The new commit claims a command another extension now holds.
    Claimed {
        name: String,
        command: String,
        owner: String,
    },
    /// A step of the swap failed and was undone, and why.
    Undone(String),
}

impl std::fmt::Display for SwapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SwapError::Store(why) | SwapError::Undone(why) => f.write_str(why),
            SwapError::Changed { name } => {
                write!(f, "{name} changed while this command ran; run it again")
            }
            SwapError::Claimed {
                name,
                command,
                owner,
            } => write!(
                f,
                "{name}: the new commit claims {command}, which the installed extension {owner} holds; nothing was changed"
            ),
        }
    }
}

/// What update and rollback add when the extension they moved is disabled.
pub fn still_disabled(name: &str) -> String {
    format!("{name} stays disabled: roost ext enable {name} turns it on")
}

/// Puts the new clone in place of the old one and records the entry
/// `entry_for` makes of the current one (read under the lock); on any
/// failure the old clone and record are restored. Returns whether the
/// extension is disabled.
pub fn swap(
    paths: &Paths,
    name: &str,
    old_commit: &str,
    fetched: &Fetched,
    entry_for: impl FnOnce(&Entry) -> Entry,
) -> Result<bool, SwapError> {
    let store = Store::open(paths).map_err(|e| SwapError::Store(e.to_string()))?;
    let mut lock = store.load().map_err(|e| SwapError::Store(e.to_string()))?;
    let current = match lock.entry(name) {
        Some(e) if e.pin().map(|pin| pin.commit.as_str()) == Some(old_commit) => e.clone(),
        _ => {
            return Err(SwapError::Changed {
                name: name.to_string(),
            })
        }
    };
    // Another extension may have been installed since the first check.
    if let Some((command, owner)) = repin::claimed_elsewhere(&lock, name, &fetched.manifest) {
        return Err(SwapError::Claimed {
            name: name.to_string(),
            command,
            owner,
        });
    }
    // The order keeps anything half-updated from ever being dispatched: the
    // old clone goes aside (its commands stop resolving), the record is
    // written, and only then does the new clone take its place. A kill at
    // any point is finished or undone by the next `roost ext` command.
    let dest = paths.ext_clone(name);
    let journal = format!("{old_commit} {}", fetched.dir.display());
    let _pending = store
        .begin(name, Action::Update, &journal)
        .map_err(|e| SwapError::Store(e.to_string()))?;
    let aside = paths
        .data
        .join("ext")
        .join(format!(".old-{}-{name}", std::process::id()));
    let had_clone = dest.exists();
    if had_clone {
        std::fs::rename(&dest, &aside)
            .map_err(|e| SwapError::Undone(format!("cannot move {} aside: {e}", dest.display())))?;
    }
    let put_back = |why: String| {
        if had_clone {
            let _ = std::fs::rename(&aside, &dest);
        }
        SwapError::Undone(format!("{why}; {name} was left as it was"))
    };
    let before = lock.clone();
    let entry = entry_for(&current);
    let disabled = entry.disabled;
    lock.insert(name, entry);
    let state = paths.ext_state(name);
    std::fs::create_dir_all(&state)
        .map_err(|e| put_back(format!("cannot create {}: {e}", state.display())))?;
    store.save(&lock).map_err(|e| put_back(e.to_string()))?;
    if let Err(e) = std::fs::rename(&fetched.dir, &dest) {
        let _ = store.save(&before);
        return Err(put_back(format!(
            "cannot move the new clone into place: {e}"
        )));
    }
    if had_clone {
        let _ = std::fs::remove_dir_all(&aside);
    }
    Ok(disabled)
}
