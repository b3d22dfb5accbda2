//! The contract's rules written out independently of roost's code: the
//! oracles that tests/it/properties.rs and the fuzz targets in fuzz/ compare
//! roost's parsers and validators against. One copy, used by both.

use roost::index::Entry;
use roost::testing::manifest;
use serde_json::{Map, Value};

/// Dispatch: the first line whose first TAB-separated field equals the
/// word (a line with no TAB has no fields), read as a line of 3 or 4 fields.
pub fn oracle_lookup<'a>(index: &'a [u8], word: &[u8]) -> Option<Entry<'a>> {
    if word.is_empty() || word.contains(&b'\t') || word.contains(&b'\n') {
        return None;
    }
    let line = index.split(|&b| b == b'\n').find(|line| {
        let mut parts = line.splitn(2, |&b| b == b'\t');
        parts.next() == Some(word) && parts.next().is_some()
    })?;
    let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
    if !(3..=4).contains(&fields.len()) || fields[..3].iter().any(|f| f.is_empty()) {
        return None;
    }
    Some(Entry {
        command: fields[0],
        extension: fields[1],
        path: fields[2],
        authorities: fields.get(3).copied().unwrap_or_default(),
    })
}

/// Dispatch: exactly one '/'; each part `[A-Za-z0-9._-]+`, not starting
/// with '-', not `.` or `..`, at most 255 bytes; so no URL and no spaces.
pub fn repo_ok(s: &str) -> Option<(String, String)> {
    let (owner, repo) = s.split_once('/')?;
    let part_ok = |p: &str| {
        !p.is_empty()
            && p.len() <= 255
            && p != "."
            && p != ".."
            && !p.starts_with('-')
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    };
    (part_ok(owner) && part_ok(repo)).then(|| (owner.to_string(), repo.to_string()))
}

/// The name rules and git check-ref-format, component by component: not
/// empty; no leading '-'; every '/'-separated component non-empty, not
/// starting with '.', not ending with ".lock"; no "..", no "@{", not "@";
/// not ending with '.'; none of ~^:?*[\ ; no whitespace or control chars.
pub fn ref_ok(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && s.split('/')
            .all(|c| !c.is_empty() && !c.starts_with('.') && !c.ends_with(".lock"))
        && !s.contains("..")
        && !s.contains("@{")
        && s != "@"
        && !s.ends_with('.')
        && !s
            .chars()
            .any(|c| "~^:?*[\\".contains(c) || c.is_whitespace() || c.is_control())
}

pub fn is_control(c: char) -> bool {
    (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32))
}

pub fn any_control(v: &Value) -> bool {
    match v {
        Value::String(s) => s.chars().any(is_control),
        Value::Array(a) => a.iter().any(any_control),
        Value::Object(o) => o
            .iter()
            .any(|(k, v)| k.chars().any(is_control) || any_control(v)),
        _ => false,
    }
}

pub fn valid_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 32
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

/// Absent or null: none; an array of strings: those; else not acceptable.
pub fn string_list(v: Option<&Value>) -> Option<Vec<String>> {
    match v {
        None | Some(Value::Null) => Some(vec![]),
        Some(Value::Array(a)) => a.iter().map(|x| x.as_str().map(String::from)).collect(),
        _ => None,
    }
}

pub fn unique(v: &[String]) -> bool {
    v.iter().enumerate().all(|(i, x)| !v[..i].contains(x))
}

/// The manifest rules, written out: what a manifest object must hold to be
/// accepted, and what is read from it.
pub fn manifest_oracle(m: &Map<String, Value>) -> Option<manifest::Manifest> {
    if any_control(&Value::Object(m.clone())) {
        return None;
    }
    let name = m
        .get("name")?
        .as_str()
        .filter(|n| valid_name(n))?
        .to_string();
    match m.get("contract")? {
        Value::Number(n) if n.as_u64() == Some(1) => {}
        Value::String(s) if s == "1" => {}
        _ => return None,
    }
    let needs = string_list(m.get("needs"))?;
    if !needs.iter().all(|n| n == "fleet") || !unique(&needs) {
        return None;
    }
    m.get("commands")?;
    let commands = string_list(m.get("commands"))?;
    if commands.is_empty()
        || !unique(&commands)
        || !commands
            .iter()
            .all(|c| valid_name(c) && !roost::cli::is_reserved(c))
    {
        return None;
    }
    let description = match m.get("description") {
        None | Some(Value::Null) => None,
        Some(Value::String(s))
            if s.chars().count() <= 200 && !s.contains(['\u{2028}', '\u{2029}']) =>
        {
            Some(s.clone())
        }
        Some(_) => return None,
    };
    let roost = match m.get("roost") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let text = v.as_str().map_or_else(|| v.to_string(), String::from);
            Some(if text.chars().count() <= 64 {
                text
            } else {
                text.chars().take(64).collect::<String>() + "…"
            })
        }
    };
    Some(manifest::Manifest {
        name,
        contract: 1,
        roost,
        needs,
        commands,
        description,
        events: None,
        // The generator writes no `settings`; their rules have their own
        // tests (settings::declaration, tests/it/ext/config).
        settings: Vec::new(),
        agents: Vec::new(),
        completion: Default::default(),
    })
}

pub type Triple = (u64, u64, u64);

/// `A.B.C`, each part one or more ASCII digits fitting 64 bits.
pub fn triple(s: &str) -> Option<Triple> {
    let parts: Vec<&str> = s.split('.').collect();
    let n = |p: &str| -> Option<u64> {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        p.parse().ok()
    };
    match parts[..] {
        [a, b, c] => Some((n(a)?, n(b)?, n(c)?)),
        _ => None,
    }
}

/// The manifest's `roost` field: only `*` and `>=A.B.C <D.E.F` (at most 64 chars)
/// are understood; a version `A.B.C[-pre][+build]` is in range when it is
/// at least the low bound and below the high one, a pre-release sorting
/// just below its own `A.B.C`.
pub fn range_oracle(range: &str, version: &str) -> manifest::RangeCheck {
    use manifest::RangeCheck::*;
    if range == "*" {
        return Ok;
    }
    let bounds = (range.len() <= 64)
        .then(|| range.strip_prefix(">="))
        .flatten()
        .and_then(|r| r.split_once(" <"))
        .and_then(|(l, h)| Some((triple(l)?, triple(h)?)));
    let Some((low, high)) = bounds else {
        return Unreadable;
    };
    let core = version.split('+').next().unwrap();
    let (core, pre) = match core.split_once('-') {
        Some((c, _)) => (c, true),
        None => (core, false),
    };
    let Some(v) = triple(core) else {
        return Unreadable;
    };
    // As a sortable key: a pre-release is just below its own version.
    let key = |t: Triple, pre: bool| (t, !pre);
    if key(v, pre) >= key(low, false) && key(v, pre) < key(high, false) {
        Ok
    } else {
        OutOfRange
    }
}
