//! `roost ext config`'s domain: an installed extension's settings read,
//! one set or unset under ext.lock's lock (so an update cannot write
//! settings.env between), and settings.env written again after each change.

use super::declaration::Setting;
use super::effective::{self, Row};
use super::{check, files, recorded, secrets, values, Kind};
use crate::ext::error::{ExtError, Result};
use crate::ext::store::{self, Store};
use crate::paths::Paths;
use crate::untrusted::printable;

/// An installed extension's settings: the declaration consented to, and
/// each key's row.
pub struct Settings {
    pub declared: Vec<Setting>,
    pub rows: Vec<Row>,
}

/// NAME's settings as they are.
pub fn read(paths: &Paths, name: &str) -> Result<Settings> {
    let lock = store::read_lock(paths)?;
    let declared = recorded::of(crate::ext::installed::readable(&lock, name)?);
    let values = values::read(&paths.ext_config(name))?;
    let dir = paths.ext_secrets(name);
    let rows = effective::rows(&declared, &values, |k| secrets::is_set(&dir, k));
    Ok(Settings { declared, rows })
}

/// The declared setting `key` of `declared`, or a refusal naming the keys.
pub fn declared<'a>(name: &str, declared: &'a [Setting], key: &str) -> Result<&'a Setting> {
    declared.iter().find(|s| s.key == key).ok_or_else(|| {
        let keys: Vec<&str> = declared.iter().map(|s| s.key.as_str()).collect();
        let has = match keys.is_empty() {
            true => format!("{name} declares no settings"),
            false => format!("its settings are {}", keys.join(", ")),
        };
        ExtError::refused(format!(
            "{name} declares no setting \"{}\"",
            printable(key.as_bytes())
        ))
        .hint(format!("{has}; `roost ext config {name}` lists them"))
    })
}

/// Sets `key` to `text`, checked against its type (a secret into its own
/// file). Returns the value stored (a secret's as `None`).
pub fn set(paths: &Paths, name: &str, key: &str, text: &str) -> Result<Option<String>> {
    let store = Store::open(paths)?;
    let lock = store.load()?;
    let declared_now = recorded::of(crate::ext::installed::readable(&lock, name)?);
    let setting = declared(name, &declared_now, key)?;
    let value = check::text(&setting.kind, text).map_err(|e| {
        e.within(key)
            .hint(format!("{key} is {}", setting.kind.describe()))
    })?;
    let shown = if setting.kind == Kind::Secret {
        secrets::write(&paths.ext_secrets(name), key, text)?;
        None
    } else {
        let config = paths.ext_config(name);
        crate::fsutil::make_dirs(&config, secrets::DIR_MODE)
            .map_err(|e| ExtError::failed(format!("cannot create {}: {e}", config.display())))?;
        let mut all = values::read(&config)?;
        all.insert(key.to_string(), value.clone());
        values::write(&config, &all)?;
        Some(check::as_text(&value))
    };
    files::refresh(paths, name, &declared_now)?;
    drop(store);
    Ok(shown)
}

/// Unsets `key` (declared or kept from before): back to its default, a
/// secret's file deleted. Returns whether it was set.
pub fn unset(paths: &Paths, name: &str, key: &str) -> Result<bool> {
    let store = Store::open(paths)?;
    let lock = store.load()?;
    let declared_now = recorded::of(crate::ext::installed::readable(&lock, name)?);
    let config = paths.ext_config(name);
    let mut all = values::read(&config)?;
    let is_secret = declared_now
        .iter()
        .any(|s| s.key == key && s.kind == Kind::Secret);
    let was = if is_secret {
        secrets::remove(&paths.ext_secrets(name), key)?
    } else if all.remove(key).is_some() {
        values::write(&config, &all)?;
        true
    } else {
        // Neither declared nor kept: a typo is said, not ignored.
        declared(name, &declared_now, key)?;
        false
    };
    files::refresh(paths, name, &declared_now)?;
    drop(store);
    Ok(was)
}

/// The settings set for NAME that a set file carries: every declared
/// setting but a secret that has a value of its own, as text. A secret is
/// never read here.
pub fn carried(
    paths: &Paths,
    name: &str,
    entry: &crate::ext::lock::Entry,
) -> std::collections::BTreeMap<String, String> {
    let declared = recorded::of(entry);
    let values = values::read(&paths.ext_config(name)).unwrap_or_default();
    declared
        .iter()
        .filter(|s| s.kind != Kind::Secret)
        .filter_map(|s| Some((s.key.clone(), check::as_text(values.get(&s.key)?))))
        .collect()
}

/// The secrets NAME declares that have no value yet.
pub fn secrets_unset(paths: &Paths, entry: &crate::ext::lock::Entry, name: &str) -> Vec<String> {
    let dir = paths.ext_secrets(name);
    recorded::of(entry)
        .into_iter()
        .filter(|s| s.kind == Kind::Secret && !secrets::is_set(&dir, &s.key))
        .map(|s| s.key)
        .collect()
}

/// Makes NAME's settings those of `wanted` (a set file's): each listed
/// key set, each other one set before unset. Returns what changed, by
/// key.
pub fn make(
    paths: &Paths,
    name: &str,
    entry: &crate::ext::lock::Entry,
    wanted: &std::collections::BTreeMap<String, String>,
) -> Result<Vec<String>> {
    let here = carried(paths, name, entry);
    let declared = recorded::of(entry);
    let mut changed = Vec::new();
    for (key, value) in wanted {
        if declared
            .iter()
            .any(|s| &s.key == key && s.kind == Kind::Secret)
        {
            return Err(ExtError::refused(format!(
                "the set gives a value for {key}, a secret: a set file never carries one"
            ))
            .hint(format!(
                "set it with `roost ext config {name} {key}`, which reads it from stdin"
            )));
        }
        if here.get(key) != Some(value) {
            set(paths, name, key, value)?;
            changed.push(key.clone());
        }
    }
    for key in here.keys().filter(|k| !wanted.contains_key(*k)) {
        unset(paths, name, key)?;
        changed.push(key.clone());
    }
    Ok(changed)
}
