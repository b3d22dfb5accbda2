//! Whether codex has trusted roost's hooks. codex runs a new or changed
//! hook only once a person has trusted it in its "Hooks need review"
//! dialog, and keeps that trust in its `config.toml`, one table per hook:
//! `[hooks.state."FILE:EVENT:GROUP:HOOK"]` with `trusted_hash = "…"`, the
//! hash of the hook as it was when trusted. roost cannot compute codex's
//! hash, so it remembers, whenever it writes codex's hooks, the hashes
//! codex then held for roost's places (they belong to what was there
//! before): a place trusted since holds a hash roost has not seen.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The most of codex's config.toml roost reads.
const MAX_CONFIG: u64 = 4 << 20;

/// codex's key for one of roost's hooks: the hooks file as codex names it,
/// the event in codex's words (`user_prompt_submit`), the group's place in
/// the event's list, and the hook's in the group (roost's groups hold one).
pub fn key(file: &Path, event: &str, group: usize) -> String {
    format!("{}:{}:{group}:0", file.display(), snake(event))
}

/// `UserPromptSubmit` as codex writes it in its keys: `user_prompt_submit`.
fn snake(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The trusted hashes codex's `config.toml` holds, by key. The file is
/// read as codex writes it: a table header on its own line, then its
/// `trusted_hash` line.
pub fn trusted(config: &Path) -> BTreeMap<String, String> {
    let Ok(Some(bytes)) = crate::fsutil::read_regular(config, MAX_CONFIG) else {
        return BTreeMap::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut out = BTreeMap::new();
    let mut table: Option<String> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            table = line
                .strip_prefix("[hooks.state.")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(toml_string);
        } else if let (Some(key), Some(value)) = (&table, line.strip_prefix("trusted_hash")) {
            if let Some(hash) = value
                .trim_start()
                .strip_prefix('=')
                .and_then(|v| toml_string(v.trim()))
            {
                out.insert(key.clone(), hash);
            }
        }
    }
    out
}

/// A TOML basic string (`"…"`, with its escapes) or literal string (`'…'`).
fn toml_string(text: &str) -> Option<String> {
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return Some(inner.to_string());
    }
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            'U' => {
                let hex: String = chars.by_ref().take(8).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Where roost remembers the hashes that belonged to what was there
/// before it wrote codex's hooks.
pub fn stale_record(state: &Path) -> PathBuf {
    state.join("codex-hooks.stale")
}

fn read_stale(state: &Path) -> BTreeMap<String, String> {
    let Ok(Some(bytes)) = crate::fsutil::read_regular(&stale_record(state), MAX_CONFIG) else {
        return BTreeMap::new();
    };
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// After roost wrote codex's hooks at `keys`: whatever codex trusted at
/// those places was trust in something else.
pub fn forget(state: &Path, config: &Path, keys: &[String]) -> std::io::Result<()> {
    let held = trusted(config);
    let mut stale = read_stale(state);
    for key in keys {
        match held.get(key) {
            Some(hash) => stale.insert(key.clone(), hash.clone()),
            None => stale.remove(key),
        };
    }
    let mut text = String::new();
    for (k, v) in &stale {
        if !k.contains(['\t', '\n']) && !v.contains(['\t', '\n']) {
            text.push_str(&format!("{k}\t{v}\n"));
        }
    }
    crate::fsutil::write_atomic(&stale_record(state), text.as_bytes(), 0o600)
}

/// The keys among `keys` that codex has not trusted since roost wrote them.
pub fn untrusted(state: &Path, config: &Path, keys: &[String]) -> Vec<String> {
    let held = trusted(config);
    let stale = read_stale(state);
    keys.iter()
        .filter(|k| match held.get(*k) {
            Some(hash) => stale.get(*k) == Some(hash),
            None => true,
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_codex_s() {
        assert_eq!(
            key(Path::new("/h/.codex/hooks.json"), "UserPromptSubmit", 2),
            "/h/.codex/hooks.json:user_prompt_submit:2:0"
        );
    }

    #[test]
    fn trust_counts_only_when_given_after_roost_wrote() {
        let d = tempfile::tempdir().unwrap();
        let config = d.path().join("config.toml");
        let k = key(Path::new("/h/hooks.json"), "Stop", 0);
        let keys = vec![k.clone()];
        assert_eq!(untrusted(d.path(), &config, &keys), keys);
        std::fs::write(
            &config,
            "model = \"x\"\n[hooks.state.\"/h/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:old\"\n",
        )
        .unwrap();
        forget(d.path(), &config, &keys).unwrap();
        assert_eq!(untrusted(d.path(), &config, &keys), keys);
        std::fs::write(
            &config,
            "[hooks.state.\"/h/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:new\"\n",
        )
        .unwrap();
        assert!(untrusted(d.path(), &config, &keys).is_empty());
    }
}
