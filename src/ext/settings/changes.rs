//! What an update or a rollback changes of the settings consented to: the
//! keys added and removed, and the types that changed (a value set for one
//! then falls back to the default). Pure.

use super::declaration::Setting;

/// The lines the change block adds (empty when nothing changed), each
/// ending in a newline.
pub fn block(old: &[Setting], new: &[Setting]) -> String {
    let keys = |a: &[Setting], b: &[Setting]| -> Vec<String> {
        a.iter()
            .filter(|s| !b.iter().any(|t| t.key == s.key))
            .map(|s| s.key.clone())
            .collect()
    };
    let (added, removed) = (keys(new, old), keys(old, new));
    let mut out = String::new();
    if !added.is_empty() {
        out.push_str(&format!("settings added: {}\n", added.join(", ")));
    }
    if !removed.is_empty() {
        out.push_str(&format!(
            "settings removed: {} (a value set for one is kept, shown as no longer declared)\n",
            removed.join(", ")
        ));
    }
    for s in new {
        if let Some(o) = old.iter().find(|o| o.key == s.key && o.kind != s.kind) {
            out.push_str(&format!(
                "setting {} changes from {} to {}: a value set that does not fit falls back to the default\n",
                s.key,
                o.kind.describe(),
                s.kind.describe()
            ));
        }
    }
    out
}
