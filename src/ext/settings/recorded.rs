//! The declaration an install consented to, as its ext.lock entry records
//! it (under `settings`, kept among the entry's other fields, and so in a
//! `previous` too, which a rollback restores). An entry recorded before
//! settings existed has none: what runs is what was consented.

use super::declaration::{self, Setting};
use crate::ext::lock::Entry;
use crate::ext::manifest::Manifest;

/// The key in an ext.lock entry.
const KEY: &str = "settings";

/// Records `manifest`'s declaration in `entry` (nothing when it declares
/// none).
pub fn record(entry: &mut Entry, manifest: &Manifest) {
    if manifest.settings.is_empty() {
        entry.extra.remove(KEY);
    } else {
        entry
            .extra
            .insert(KEY.into(), declaration::to_json(&manifest.settings));
    }
}

/// The declaration `entry` records; none when it records none, or when
/// what it holds cannot be read (a hand edit: nothing is assumed of it).
pub fn of(entry: &Entry) -> Vec<Setting> {
    let Some(v) = entry.extra.get(KEY) else {
        return Vec::new();
    };
    let mut fields = serde_json::Map::new();
    fields.insert(KEY.into(), v.clone());
    declaration::parse(&fields).unwrap_or_default()
}
