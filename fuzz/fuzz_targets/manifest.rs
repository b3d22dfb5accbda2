//! roost-ext.json: `manifest::parse` never panics on any bytes, a refusal is
//! one printable line, and whenever the bytes are a JSON object it accepts
//! exactly when every rule of contract §2 holds, reading the fields written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roost::testing::manifest;
use serde_json::{Map, Value};

fn is_control(c: char) -> bool {
    (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32))
}

fn any_control(v: &Value) -> bool {
    match v {
        Value::String(s) => s.chars().any(is_control),
        Value::Array(a) => a.iter().any(any_control),
        Value::Object(o) => o
            .iter()
            .any(|(k, v)| k.chars().any(is_control) || any_control(v)),
        _ => false,
    }
}

fn valid_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 32
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

/// Absent or null: none; an array of strings: those; else not acceptable.
fn string_list(v: Option<&Value>) -> Option<Vec<String>> {
    match v {
        None | Some(Value::Null) => Some(vec![]),
        Some(Value::Array(a)) => a.iter().map(|x| x.as_str().map(String::from)).collect(),
        _ => None,
    }
}

fn unique(v: &[String]) -> bool {
    v.iter().enumerate().all(|(i, x)| !v[..i].contains(x))
}

/// Contract §2, written out (the same oracle as tests/properties.rs).
fn oracle(m: &Map<String, Value>) -> Option<manifest::Manifest> {
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
    })
}

fuzz_target!(|data: &[u8]| {
    let got = manifest::parse(data);
    if let Err(e) = &got {
        assert!(!e.chars().any(char::is_control), "refusal not printable: {e:?}");
    }
    if data.len() <= manifest::MAX_BYTES {
        if let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(data) {
            let want = oracle(&m);
            assert_eq!(
                got.clone().ok(),
                want,
                "{} -> {:?}",
                String::from_utf8_lossy(data),
                got
            );
        } else {
            assert!(got.is_err(), "accepted what is not a JSON object");
        }
    }
    // Whatever range was kept, checking it never panics, and a range that
    // was shortened is never read.
    if let Ok(m) = &got {
        let r = manifest::check_range(m.roost.as_deref(), roost::VERSION);
        if m.roost.as_deref().is_some_and(|s| s.ends_with('…')) {
            assert_eq!(r, manifest::RangeCheck::Unreadable);
        }
    }
});
