//! What a new install records in ext.lock, and what already recorded (or
//! already on disk) stands in its way.

use super::display;
use super::error::{ExtError, Result};
use super::lock::{utc_timestamp, Contract, Entry, Lock, Source};
use super::manifest::Manifest;
use super::presets;
use crate::paths::Paths;

/// The ext.lock entry for an install of `manifest` from `source`, now.
pub fn entry_for(manifest: &Manifest, source: Source) -> Entry {
    let mut extra = std::collections::BTreeMap::new();
    if !manifest.agents.is_empty() {
        extra.insert(
            presets::LOCK_KEY.to_string(),
            presets::to_value(&manifest.agents),
        );
    }
    let mut entry = Entry {
        commands: manifest.commands.clone(),
        needs: manifest.needs.clone(),
        contract: Contract::new(manifest.contract.into()),
        installed: utc_timestamp(std::time::SystemTime::now()),
        source,
        disabled: false,
        previous: None,
        extra,
    };
    entry.extra.extend(completion_extra(manifest));
    super::settings::recorded::record(&mut entry, manifest);
    // Agreed to with the rest of the block: what was shown is recorded.
    super::lock::events::record(&mut entry, manifest.events.as_ref());
    entry
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
    preset_conflicts(lock, manifest)?;
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

/// A preset named like one another installed extension teaches, disabled
/// or not: a name stays its owner's while it is off, so `enable` never
/// meets a collision.
pub fn preset_conflicts(lock: &Lock, manifest: &Manifest) -> Result<()> {
    match taught_elsewhere(lock, &manifest.name, manifest) {
        Some((agent, owner)) => Err(ExtError::refused(format!(
            "agent {agent} is already taught by the installed extension {owner}"
        ))
        .hint(format!(
            "remove {owner} first (roost ext remove {owner}) to install this one"
        ))),
        None => Ok(()),
    }
}

/// The first preset of `manifest` that an installed extension other than
/// `name` teaches, and that extension.
pub fn taught_elsewhere(lock: &Lock, name: &str, manifest: &Manifest) -> Option<(String, String)> {
    lock.valid_names().filter(|n| *n != name).find_map(|owner| {
        let taught = presets::recorded(&lock.entry(owner)?.extra);
        manifest
            .agents
            .iter()
            .find(|p| taught.iter().any(|t| t.name == p.name))
            .map(|p| (p.name.clone(), owner.to_string()))
    })
}
