//! `roost ext info NAME [--json]`: the lock entry, the manifest as found in
//! the clone, and both directories.

use super::store;
use crate::cli::model::InfoArgs;
use crate::error::{Error, Result};
use crate::untrusted::printable;
use serde_json::{json, Value};

const CMD: &str = "ext info";

pub fn run(a: InfoArgs) -> Result<u8> {
    let (as_json, name) = (a.json, a.name);
    if !crate::index::valid_name(name.as_bytes()) {
        return Err(super::no_such(CMD, &name));
    }
    let paths = super::paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| Error::fail(CMD, e))?;
    let Some(entry) = lock.get(&name) else {
        return Err(super::no_such(CMD, &name));
    };
    let clone = super::ext_dir(&paths, &name, Some(&entry));
    let state = paths.ext_state(&name);
    // Only a regular file of a manifest's size is read: the clone may have
    // been changed since install (a FIFO or /dev/zero would never end).
    let path = clone.join(crate::contract::MANIFEST);
    let manifest: Option<Value> = std::fs::symlink_metadata(&path)
        .ok()
        .filter(|m| m.is_file() && m.len() <= super::manifest::MAX_BYTES as u64)
        .and_then(|_| std::fs::read(&path).ok())
        .and_then(|b| serde_json::from_slice(&b).ok());
    if as_json {
        let out = json!({
            "name": name,
            "lock": entry.raw(),
            "manifest": manifest,
            "clone": clone.to_string_lossy(),
            "state": state.to_string_lossy(),
        });
        println!("{}", crate::untrusted::json(&out));
        return Ok(0);
    }
    println!("{name}");
    println!("ext.lock entry:");
    for line in pretty(entry.raw()).lines() {
        println!("  {line}");
    }
    // A linked extension runs from the author's checkout, not a clone.
    let place = if entry.linked().is_some() {
        "checkout"
    } else {
        "clone"
    };
    println!("manifest (roost-ext.json as found in the {place}):");
    match &manifest {
        Some(m) => {
            for line in pretty(m).lines() {
                println!("  {line}");
            }
        }
        None => println!("  (missing or unreadable)"),
    }
    let missing = if clone.is_dir() { "" } else { "  (missing)" };
    let w = place.len() + 2;
    println!("{place:<w$}{}{missing}", clone.display());
    println!("{:<w$}{}", "data", state.display());
    Ok(0)
}

/// Pretty JSON with every line made printable.
fn pretty(v: &Value) -> String {
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.lines()
        .map(|l| printable(l.as_bytes()) + "\n")
        .collect()
}
