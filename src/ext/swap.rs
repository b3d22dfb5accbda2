//! Putting a fetched clone in place of an installed one and recording its
//! entry, in an order that never lets anything half-replaced be dispatched;
//! undone on failure. What update, rollback and repair share.

use super::error::{ExtError, Result};
use super::fetch::Fetched;
use super::lock::{Entry, Lock};
use super::manifest::Manifest;
use super::store::{Action, Store};
use crate::paths::Paths;

/// Puts the new clone in place of the old one and records the entry
/// `entry_for` makes of the current one (read under the lock); on any
/// failure the old clone and record are restored. Returns whether the
/// extension is disabled. Refused when the entry moved off `old_commit`
/// while the command ran, or the new commit claims a command another
/// extension now holds.
pub fn swap(
    paths: &Paths,
    name: &str,
    old_commit: &str,
    fetched: &Fetched,
    entry_for: impl FnOnce(&Entry) -> Entry,
) -> Result<bool> {
    let store = Store::open(paths)?;
    let mut lock = store.load()?;
    let current = match lock.entry(name) {
        Some(e) if e.pin().map(|pin| pin.commit.as_str()) == Some(old_commit) => e.clone(),
        _ => {
            return Err(ExtError::refused(format!(
                "{name} changed while this command ran; run it again"
            )))
        }
    };
    // Another extension may have been installed since the first check.
    if let Some((command, owner)) = claimed_elsewhere(&lock, name, &fetched.manifest) {
        return Err(ExtError::refused(format!(
            "the new commit claims {command}, which the installed extension {owner} holds; nothing was changed"
        )));
    }
    // The order keeps anything half-updated from ever being dispatched: the
    // old clone goes aside (its commands stop resolving), the record is
    // written, and only then does the new clone take its place. A kill at
    // any point is finished or undone by the next `roost ext` command.
    let dest = paths.ext_clone(name);
    let journal = format!("{old_commit} {}", fetched.dir.display());
    let _pending = store.begin(name, Action::Update, &journal)?;
    let aside = paths
        .data
        .join("ext")
        .join(format!(".old-{}-{name}", std::process::id()));
    let had_clone = dest.exists();
    if had_clone {
        std::fs::rename(&dest, &aside)
            .map_err(|e| ExtError::failed(format!("cannot move {} aside: {e}", dest.display())))?;
    }
    let put_back = |why: String| {
        if had_clone {
            let _ = std::fs::rename(&aside, &dest);
        }
        ExtError::failed(format!("{why}; {name} was left as it was"))
    };
    let before = lock.clone();
    let entry = entry_for(&current);
    let disabled = entry.disabled;
    let settings = super::settings::recorded::of(&entry);
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
    super::settings::files::refresh_or_warn(paths, name, &settings);
    Ok(disabled)
}

/// A command, or an agent preset, the new commit of `name` claims that
/// another installed extension holds (named as the messages say it:
/// `note`, `the agent qwen`), and that extension.
pub fn claimed_elsewhere(lock: &Lock, name: &str, manifest: &Manifest) -> Option<(String, String)> {
    let claims = lock.claims();
    let command = manifest.commands.iter().find_map(|command| {
        claims
            .get(command.as_str())
            .filter(|o| **o != name)
            .map(|owner| (command.clone(), owner.to_string()))
    });
    command.or_else(|| {
        super::new_entry::taught_elsewhere(lock, name, manifest)
            .map(|(agent, owner)| (format!("the agent {agent}"), owner))
    })
}
