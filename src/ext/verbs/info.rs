//! `roost ext info NAME [--json]`: the lock entry (whether it is disabled
//! and the pin a rollback returns to included), the manifest as found in
//! the clone, and both directories; for people as aligned `key  value`
//! rows, for programs as JSON.

use crate::cli::model::InfoArgs;
use crate::error::{Exit, Result};
use crate::ext::error::At;
use crate::ext::lock::{Entry, Slot, Source};
use crate::ext::store;
use crate::untrusted::printable;
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

const CMD: &str = "ext info";

/// Keys longer than this do not widen the key column (an unknown field's
/// name comes from the lock, and may be long).
const MAX_KEY: usize = 12;

/// What `info --json` prints.
#[derive(Serialize)]
struct Info<'a> {
    name: &'a str,
    /// The entry as ext.lock holds it, unknown fields included.
    lock: &'a Slot,
    /// roost-ext.json as found in the clone, if it can be read.
    manifest: Option<Value>,
    clone: String,
    state: String,
}

pub fn run(a: InfoArgs) -> Result<Exit> {
    let (as_json, name) = (a.json, a.name);
    if !crate::index::valid_name(name.as_bytes()) {
        return Err(crate::ext::installed::no_such(&name).at(CMD));
    }
    let paths = crate::ext::dirs::paths().at(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let Some(slot) = lock.get(&name) else {
        return Err(crate::ext::installed::no_such(&name).at(CMD));
    };
    if let Some(note) = crate::ext::disabled::seam_note() {
        eprintln!("roost {CMD}: note: {note}");
    }
    let clone = crate::ext::dirs::ext_dir(&paths, &name, lock.entry(&name));
    let state = paths.ext_state(&name);
    let manifest = read_manifest(&clone);
    if as_json {
        let info = Info {
            name: &name,
            lock: slot,
            manifest,
            clone: clone.to_string_lossy().into_owned(),
            state: state.to_string_lossy().into_owned(),
        };
        println!("{}", crate::untrusted::json(&info));
        return Ok(Exit::Ok);
    }
    let mut rows = vec![("name".to_string(), name.clone())];
    let mut raw = None;
    match slot.typed() {
        Ok(entry) => rows.extend(record(&name, entry)),
        Err(u) => {
            rows.push((
                "ext.lock".into(),
                crate::ext::integrity::unreadable_granting(&paths, &name, &u.why),
            ));
            raw = Some(&u.raw);
        }
    }
    // A linked extension runs from the author's checkout, not a clone.
    let place = match lock.entry(&name).map(|e| &e.source) {
        Some(Source::Linked { .. }) => "checkout",
        _ => "clone",
    };
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count().min(MAX_KEY))
        .chain([place.len()])
        .max()
        .unwrap_or(0);
    let row = |key: &str, value: &str| println!("{key:<width$}  {value}");
    for (key, value) in &rows {
        row(key, value);
    }
    if let Some(raw) = raw {
        print!("{}", indented(raw));
    }
    println!("manifest (roost-ext.json as found in the {place}):");
    match &manifest {
        Some(m) => print!("{}", indented(m)),
        None => println!("  (missing or unreadable)"),
    }
    let missing = if clone.is_dir() { "" } else { "  (missing)" };
    row(place, &format!("{}{missing}", clone.display()));
    row("state", &state.display().to_string());
    if !clone.is_dir() && lock.entry(&name).and_then(|e| e.pin()).is_some() {
        eprintln!(
            "roost {CMD}: note: {name}'s files are gone; {}",
            crate::ext::integrity::repair_hint(&name)
        );
    }
    Ok(Exit::Ok)
}

/// The record's rows, every value printable: where it comes from, what it
/// claims and needs, whether it is disabled, the pin a rollback returns to,
/// and any field this roost does not know (as JSON).
fn record(name: &str, e: &Entry) -> Vec<(String, String)> {
    let text = |s: &str| printable(s.as_bytes());
    let list = |items: &[String], none: &str| match items {
        [] => none.to_string(),
        _ => text(&items.join(", ")),
    };
    let mut rows: Vec<(String, String)> = Vec::new();
    match &e.source {
        Source::Pinned(pin) => {
            rows.push(("repo".into(), text(&pin.repo)));
            if let Some(url) = &pin.url {
                rows.push(("url".into(), text(url)));
            }
            rows.push(("ref".into(), text(&pin.git_ref)));
            rows.push(("commit".into(), text(&pin.commit)));
            rows.push(("tree".into(), text(&pin.tree)));
            // Which key made the pinned commit object, never a word on
            // who wrote the code in it.
            let signer = match &pin.signer {
                Some(id) => format!("{} (the key that made the pinned commit object)", text(id)),
                None => "none recorded (pinned before roost recorded signers)".into(),
            };
            rows.push(("signer".into(), signer));
            if !pin.signers.is_empty() {
                rows.push((
                    "signers".into(),
                    format!("{} (every signer agreed to)", list(&pin.signers, "none")),
                ));
            }
        }
        Source::Linked { dir } => rows.push(("linked".into(), text(dir))),
    }
    rows.push(("commands".into(), list(&e.commands, "none")));
    rows.push(("needs".into(), list(&e.needs, "none")));
    rows.push(("contract".into(), e.contract.number.to_string()));
    rows.push(("installed".into(), text(&e.installed)));
    if e.disabled {
        rows.push((
            "disabled".into(),
            format!("yes: its commands do not run (roost ext enable {name} turns it on)"),
        ));
    }
    if let Some(p) = &e.previous {
        rows.push((
            "previous".into(),
            format!(
                "{} (roost ext rollback {name} returns to it)",
                text(&p.pin.commit)
            ),
        ));
    }
    for (key, value) in &e.extra {
        let json = serde_json::to_string(value).unwrap_or_default();
        rows.push((text(key), text(&json)));
    }
    rows
}

/// Only a regular file of a manifest's size is read: the clone may have
/// been changed since install (a FIFO or /dev/zero would never end).
fn read_manifest(clone: &Path) -> Option<Value> {
    let path = clone.join(crate::contract::MANIFEST);
    std::fs::symlink_metadata(&path)
        .ok()
        .filter(|m| m.is_file() && m.len() <= crate::ext::manifest::MAX_BYTES as u64)
        .and_then(|_| std::fs::read(&path).ok())
        .and_then(|b| serde_json::from_slice(&b).ok())
}

/// Pretty JSON, two spaces in, with every line made printable.
fn indented(v: &Value) -> String {
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.lines()
        .map(|l| format!("  {}\n", printable(l.as_bytes())))
        .collect()
}
