//! The events an entry's user consented to, recorded in its ext.lock entry
//! as `"events": {"on": [...], "timeout": N}` beside the fields every entry
//! has. It is kept with the entry's other keys (`Entry::extra`), so that a
//! `previous` pin and a rollback carry it, and an older roost writes it back
//! untouched. An entry without it (every entry written before events were
//! consented to) has none: no handler of it runs until `update` asks.

use super::file::{Lock, Slot};
use super::Entry;
use crate::events::event::Event;
use crate::events::index::{Subscriber, MAX_TIMEOUT};
use crate::ext::events_decl::{Declared, HANDLER};
use crate::index::valid_name;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The key in the entry.
const KEY: &str = "events";

/// What a linked entry writes as its commit in ext.events: nothing is pinned.
const LINKED: &str = "linked";

/// The events consented to; `None` when the entry records none, or records
/// them in a form this roost cannot read whole (never guessed at).
pub fn consented(entry: &Entry) -> Option<Declared> {
    let Value::Object(decl) = entry.extra.get(KEY)? else {
        return None;
    };
    let on = decl
        .get("on")?
        .as_array()?
        .iter()
        .map(|w| w.as_str().and_then(Event::from_word))
        .collect::<Option<Vec<_>>>()?;
    let timeout = decl.get("timeout")?.as_u64()?;
    if on.is_empty() || !(1..=u64::from(MAX_TIMEOUT)).contains(&timeout) {
        return None;
    }
    Some(Declared {
        on,
        timeout: timeout as u32,
    })
}

/// Records `declared` as consented to (or, with `None`, that none is).
pub fn record(entry: &mut Entry, declared: Option<&Declared>) {
    match declared {
        Some(d) => {
            let on: Vec<&str> = d.on.iter().map(|e| e.word()).collect();
            entry
                .extra
                .insert(KEY.into(), json!({"on": on, "timeout": d.timeout}));
        }
        None => {
            entry.extra.remove(KEY);
        }
    }
}

impl Lock {
    /// The ext.events lines this lock stands for, by extension name: one
    /// for each readable entry with consented events and the `events`
    /// authority, its program `clone_dir(name)/bin/roost-events` (a linked
    /// entry's own directory), `on` unless disabled.
    pub fn subscribers(&self, clone_dir: impl Fn(&str) -> PathBuf) -> Vec<Subscriber> {
        let mut subs = Vec::new();
        for (name, slot) in &self.entries {
            let Slot::Typed(entry) = slot else {
                continue;
            };
            if !valid_name(name.as_bytes()) || !entry.needs.iter().any(|n| n == "events") {
                continue;
            }
            let Some(declared) = consented(entry) else {
                continue;
            };
            let (base, commit) = match (entry.linked(), entry.pin()) {
                (Some(dir), _) if Path::new(dir).is_absolute() => (PathBuf::from(dir), LINKED),
                (None, Some(pin)) => (clone_dir(name), pin.commit.as_str()),
                _ => continue,
            };
            subs.push(Subscriber {
                name: name.clone(),
                program: crate::contract::program(&base, HANDLER),
                timeout: declared.timeout,
                events: declared.on,
                authorities: entry.needs.clone(),
                commit: commit.to_string(),
                on: !entry.disabled,
            });
        }
        subs
    }
}
