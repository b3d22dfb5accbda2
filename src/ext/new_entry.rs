//! What a new install records in ext.lock, and what already recorded (or
//! already on disk) stands in its way.

use super::display;
use super::error::{ExtError, Result};
use super::lock::{utc_timestamp, Contract, Entry, Lock, Source};
use super::manifest::Manifest;
use crate::paths::Paths;

/// The ext.lock entry for an install of `manifest` from `source`, now.
pub fn entry_for(manifest: &Manifest, source: Source) -> Entry {
    Entry {
        commands: manifest.commands.clone(),
        needs: manifest.needs.clone(),
        contract: Contract::new(manifest.contract.into()),
        installed: utc_timestamp(std::time::SystemTime::now()),
        source,
        disabled: false,
        previous: None,
        extra: completion_extra(manifest),
    }
}

/// The manifest's completion data, kept in the entry for ext.complete.
fn completion_extra(manifest: &Manifest) -> std::collections::BTreeMap<String, serde_json::Value> {
    let mut extra = std::collections::BTreeMap::new();
    if !manifest.completion.is_empty() {
        extra.insert(
            "completion".to_string(),
            super::completion_data::to_value(&manifest.completion),
        );
    }
    extra
}

/// What an install refuses because of what is already there. `clone`: the
/// install makes a clone directory, which must not exist yet.
pub fn conflicts(lock: &Lock, manifest: &Manifest, paths: &Paths, clone: bool) -> Result<()> {
    let name = &manifest.name;
    if let Some(slot) = lock.get(name) {
        let at = match slot.typed().map(|e| &e.source) {
            Ok(Source::Linked { .. }) => "linked",
            Ok(Source::Pinned(pin)) => display::short(&pin.commit),
            Err(_) => "?",
        };
        return Err(ExtError::refused(format!("{name} is already installed (at {at})")).hint(format!(
            "update it with `roost ext update {name}`, or remove it first with `roost ext remove {name}`"
        )));
    }
    let claims = lock.claims();
    for command in &manifest.commands {
        if let Some(owner) = claims.get(command.as_str()) {
            return Err(ExtError::refused(format!(
                "command {command} is already claimed by the installed extension {owner}"
            ))
            .hint(format!(
                "remove {owner} first (roost ext remove {owner}) to install this one"
            )));
        }
    }
    let dest = paths.ext_clone(name);
    if clone && (dest.exists() || dest.is_symlink()) {
        return Err(ExtError::refused(format!(
            "{} exists, but ext.lock has no entry for {name}",
            dest.display()
        ))
        .hint("move that directory aside or delete it, then install again"));
    }
    Ok(())
}
