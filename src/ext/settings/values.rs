//! values.json: the values the user set with `roost ext config`, a JSON
//! object of key to value, written by roost alone (atomically, owner-only).
//! A value is kept when its key is no longer declared; secrets are never in
//! it.

use crate::ext::error::ExtError;
use crate::fsutil;
use serde_json::{Map, Value};
use std::path::Path;

/// The file, in `$ROOST_EXT_CONFIG`.
pub const FILE: &str = "values.json";

/// Largest values.json read: 64 settings of at most 4 KiB each fit.
pub const MAX_BYTES: u64 = 512 * 1024;

/// The values in `config` (none when there is no file yet).
pub fn read(config: &Path) -> Result<Map<String, Value>, ExtError> {
    let path = config.join(FILE);
    let shown = crate::untrusted::path(&path);
    let bytes = fsutil::read_regular(&path, MAX_BYTES)
        .map_err(|e| ExtError::failed(format!("cannot read {shown}: {e}")))?;
    let Some(bytes) = bytes else {
        return Ok(Map::new());
    };
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(ExtError::failed(format!("{shown} is not a JSON object"))
            .hint("roost writes this file; move it aside and set the values again")),
    }
}

/// Replaces the values in `config`.
pub fn write(config: &Path, values: &Map<String, Value>) -> Result<(), ExtError> {
    let path = config.join(FILE);
    let mut text = serde_json::to_string_pretty(values).expect("JSON values always serialize");
    text.push('\n');
    fsutil::write_atomic(&path, text.as_bytes(), 0o600).map_err(|e| {
        ExtError::failed(format!(
            "cannot write {}: {}",
            crate::untrusted::path(&path),
            fsutil::io_words(&e)
        ))
    })
}
