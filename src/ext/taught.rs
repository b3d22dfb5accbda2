//! ext.agents: the agent presets of the installed extensions, derived from
//! ext.lock and written with ext.index under the same lock (`store.rs`),
//! so what spawn and resume read is never staler than ext.lock. One line
//! per preset, in a form only roost writes and reads:
//! `AGENT<TAB>EXTENSION<TAB>on|off<TAB>PRESET`, PRESET the preset as its
//! manifest declared it, on one line, validated again as it is read. The
//! dispatch path never reads it.

use super::lock::Lock;
use super::presets::{self, Preset};
use crate::fsutil::read_regular;
use crate::paths::Paths;
use std::path::PathBuf;

/// The first line, naming the format.
const HEADER: &str = "# roost ext.agents 1: derived from ext.lock, rewritten with it\n";

/// The largest ext.agents read: far more than every extension's presets.
pub const MAX_BYTES: u64 = 4 * 1024 * 1024;

/// Where it is: beside ext.index.
pub fn file(paths: &Paths) -> PathBuf {
    paths.state.join("ext.agents")
}

/// A preset as installed: the extension that teaches it, and whether that
/// extension is enabled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taught {
    pub preset: Preset,
    pub extension: String,
    pub enabled: bool,
}

/// The file's bytes for `lock`: every readable entry's presets, by
/// extension name.
pub fn render(lock: &Lock) -> Vec<u8> {
    let mut out = String::from(HEADER);
    for name in lock.valid_names() {
        let Some(entry) = lock.entry(name) else {
            continue;
        };
        let taught = presets::recorded(&entry.extra);
        for (preset, value) in taught.iter().zip(
            presets::to_value(&taught)
                .as_array()
                .cloned()
                .unwrap_or_default(),
        ) {
            let state = if entry.disabled { "off" } else { "on" };
            // Compact JSON of strings without control characters (the
            // manifest refuses them): one line, no tab.
            out.push_str(&format!("{}\t{name}\t{state}\t{value}\n", preset.name));
        }
    }
    out.into_bytes()
}

/// Every preset installed (none when the file is absent or unreadable; a
/// line that does not read back whole is left out).
pub fn read(paths: &Paths) -> Vec<Taught> {
    let Ok(Some(bytes)) = read_regular(&file(paths), MAX_BYTES) else {
        return Vec::new();
    };
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(line)
        .collect()
}

fn line(text: &str) -> Option<Taught> {
    let mut fields = text.splitn(4, '\t');
    let (name, extension, state, value) = (
        fields.next()?,
        fields.next()?,
        fields.next()?,
        fields.next()?,
    );
    let enabled = match state {
        "on" => true,
        "off" => false,
        _ => return None,
    };
    let value: serde_json::Value = serde_json::from_str(value).ok()?;
    let mut extra = std::collections::BTreeMap::new();
    extra.insert(
        presets::LOCK_KEY.to_string(),
        serde_json::Value::Array(vec![value]),
    );
    let preset = presets::recorded(&extra).pop()?;
    (preset.name == name).then(|| Taught {
        preset,
        extension: extension.to_string(),
        enabled,
    })
}

/// The preset called `name`: the enabled one, else any.
pub fn find(paths: &Paths, name: &str) -> Option<Taught> {
    let all: Vec<Taught> = read(paths)
        .into_iter()
        .filter(|t| t.preset.name == name)
        .collect();
    all.iter()
        .find(|t| t.enabled)
        .or_else(|| all.first())
        .cloned()
}
