//! The `settings` field of a manifest: each setting's key, label, type and
//! default, validated so that an invalid declaration refuses the install
//! naming the setting and the rule. Pure.

use crate::ext::error::ExtError;
use crate::untrusted::printable;
use serde_json::{Map, Number, Value};

pub use super::kind::{Kind, MAX_VALUE};

/// Settings one extension may declare: far more than a real one needs, and
/// few enough that settings.env and the consent block stay short.
pub const MAX_SETTINGS: usize = 64;

/// Longest key: it becomes part of a variable name.
pub const MAX_KEY: usize = 32;

/// Longest label.
const MAX_LABEL: usize = 80;

/// Options one enum may have, and the longest.
const MAX_OPTIONS: usize = 32;
const MAX_OPTION: usize = 64;

/// One declared setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub key: String,
    pub label: String,
    pub kind: Kind,
    /// Checked against `kind`; a secret has none.
    pub default: Option<Value>,
}

/// Whether `key` is a setting key: `[a-z][a-z0-9_]*`, at most 32 bytes.
pub fn valid_key(key: &str) -> bool {
    let b = key.as_bytes();
    !b.is_empty()
        && b.len() <= MAX_KEY
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
}

/// The `settings` field of a manifest (absent or `null`: none).
pub fn parse(fields: &Map<String, Value>) -> Result<Vec<Setting>, ExtError> {
    let items = match fields.get("settings") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"settings\" must be an array of objects, not {}",
                json_type(other)
            )))
        }
    };
    if items.len() > MAX_SETTINGS {
        return Err(ExtError::refused(format!(
            "field \"settings\" declares {} settings; the limit is {MAX_SETTINGS}",
            items.len()
        )));
    }
    let mut settings: Vec<Setting> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let setting = one(item).map_err(|e| e.within(format!("field \"settings[{i}]\"")))?;
        if settings.iter().any(|s| s.key == setting.key) {
            return Err(ExtError::refused(format!(
                "field \"settings[{i}]\": key \"{}\" appears twice",
                setting.key
            )));
        }
        settings.push(setting);
    }
    Ok(settings)
}

/// One setting's object.
fn one(item: &Value) -> Result<Setting, ExtError> {
    let Value::Object(f) = item else {
        return Err(ExtError::refused(format!(
            "a setting must be an object, not {}",
            json_type(item)
        )));
    };
    let key = text(f, "key")?.ok_or_else(|| ExtError::refused("\"key\" is required"))?;
    if !valid_key(key) {
        return Err(ExtError::refused(format!(
            "key \"{}\" is not a valid key (a lowercase letter, then a-z, 0-9 or '_', at most {MAX_KEY} characters)",
            printable(key.as_bytes())
        )));
    }
    let within = |e: ExtError| e.within(format!("setting \"{key}\""));
    let label = text(f, "label")
        .map_err(within)?
        .ok_or_else(|| within(ExtError::refused("\"label\" is required")))?;
    if label.chars().count() > MAX_LABEL || label.contains(['\u{2028}', '\u{2029}']) {
        return Err(within(ExtError::refused(format!(
            "\"label\" must be one line of at most {MAX_LABEL} characters"
        ))));
    }
    let kind = kind(f).map_err(within)?;
    let default =
        match (f.get("default"), &kind) {
            (None | Some(Value::Null), _) => None,
            (Some(_), Kind::Secret) => return Err(within(ExtError::refused(
                "a secret cannot have a default (it would be in the repository for all to read)",
            ))),
            (Some(v), kind) => {
                Some(super::check::value(kind, v).map_err(|e| within(e.within("\"default\"")))?)
            }
        };
    Ok(Setting {
        key: key.to_string(),
        label: label.to_string(),
        kind,
        default,
    })
}

/// The type and what it allows; a field that belongs to another type is
/// refused, so a mistyped declaration is never half understood.
fn kind(f: &Map<String, Value>) -> Result<Kind, ExtError> {
    let name = text(f, "type")?.ok_or_else(|| {
        ExtError::refused("\"type\" is required (string, bool, enum, number or secret)")
    })?;
    let allowed: &[&str] = match name {
        "string" => &["max_length"],
        "enum" => &["options"],
        "number" => &["integer", "min", "max"],
        _ => &[],
    };
    for extra in ["max_length", "options", "integer", "min", "max"] {
        if f.contains_key(extra) && !allowed.contains(&extra) {
            return Err(ExtError::refused(format!(
                "\"{extra}\" does not apply to type {}",
                printable(name.as_bytes())
            )));
        }
    }
    Ok(match name {
        "string" => Kind::String {
            max_length: max_length(f)?,
        },
        "bool" => Kind::Bool,
        "secret" => Kind::Secret,
        "enum" => Kind::Enum {
            options: options(f)?,
        },
        "number" => number(f)?,
        other => {
            return Err(ExtError::refused(format!(
                "unknown type \"{}\" (string, bool, enum, number or secret)",
                printable(other.as_bytes())
            )))
        }
    })
}

fn max_length(f: &Map<String, Value>) -> Result<usize, ExtError> {
    match f.get("max_length") {
        None | Some(Value::Null) => Ok(MAX_VALUE),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(m) if m >= 1 && m <= MAX_VALUE as u64 => Ok(m as usize),
            _ => Err(ExtError::refused(format!(
                "\"max_length\" must be a whole number from 1 to {MAX_VALUE}"
            ))),
        },
        Some(_) => Err(ExtError::refused(format!(
            "\"max_length\" must be a whole number from 1 to {MAX_VALUE}"
        ))),
    }
}

fn options(f: &Map<String, Value>) -> Result<Vec<String>, ExtError> {
    let Some(Value::Array(items)) = f.get("options") else {
        return Err(ExtError::refused(
            "\"options\" is required: an array of the strings it may be",
        ));
    };
    if items.is_empty() || items.len() > MAX_OPTIONS {
        return Err(ExtError::refused(format!(
            "\"options\" must name 1 to {MAX_OPTIONS} options"
        )));
    }
    let mut out: Vec<String> = Vec::new();
    for item in items {
        let Value::String(s) = item else {
            return Err(ExtError::refused("\"options\" must hold strings only"));
        };
        if s.is_empty() || s.chars().count() > MAX_OPTION {
            return Err(ExtError::refused(format!(
                "an option must be 1 to {MAX_OPTION} characters"
            )));
        }
        if s.contains('|') {
            return Err(ExtError::refused(format!(
                "option \"{}\" contains '|'",
                printable(s.as_bytes())
            )));
        }
        if out.contains(s) {
            return Err(ExtError::refused(format!(
                "option \"{}\" appears twice",
                printable(s.as_bytes())
            )));
        }
        out.push(s.clone());
    }
    Ok(out)
}

fn number(f: &Map<String, Value>) -> Result<Kind, ExtError> {
    let integer = match f.get("integer") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ExtError::refused("\"integer\" must be true or false")),
    };
    let bound = |key: &str| -> Result<Option<Number>, ExtError> {
        match f.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(Some(n.clone())),
            Some(_) => Err(ExtError::refused(format!("\"{key}\" must be a number"))),
        }
    };
    let (min, max) = (bound("min")?, bound("max")?);
    if let (Some(a), Some(b)) = (&min, &max) {
        if a.as_f64() > b.as_f64() {
            return Err(ExtError::refused(format!(
                "\"min\" ({a}) is above \"max\" ({b})"
            )));
        }
    }
    Ok(Kind::Number { integer, min, max })
}

/// A string field; absent or `null` is `None`.
fn text<'a>(f: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, ExtError> {
    match f.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(ExtError::refused(format!(
            "\"{key}\" must be a string, not {}",
            json_type(other)
        ))),
    }
}

/// The consent block's rows for `settings`: the first labelled, each a
/// key, its type, its default and its label.
pub fn consent_rows(settings: &[Setting]) -> Vec<(&'static str, String, &'static str)> {
    settings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let default = match &s.default {
                Some(d) => format!(
                    ", default {}",
                    printable(super::check::as_text(d).as_bytes())
                ),
                None => String::new(),
            };
            let line = format!(
                "{}: {}{default} - {}",
                s.key,
                s.kind.describe(),
                printable(s.label.as_bytes())
            );
            (if i == 0 { "settings" } else { "" }, line, "")
        })
        .collect()
}

/// How a JSON value's type reads in a message (as the manifest's own
/// messages say it).
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The declaration as the lock records it, in the manifest's own form
/// (`parse` reads it back).
pub fn to_json(settings: &[Setting]) -> Value {
    Value::Array(settings.iter().map(one_to_json).collect())
}

fn one_to_json(s: &Setting) -> Value {
    let mut f = Map::new();
    f.insert("key".into(), s.key.clone().into());
    f.insert("type".into(), s.kind.name().into());
    f.insert("label".into(), s.label.clone().into());
    match &s.kind {
        Kind::String { max_length } => {
            f.insert("max_length".into(), (*max_length as u64).into());
        }
        Kind::Enum { options } => {
            f.insert("options".into(), options.clone().into());
        }
        Kind::Number { integer, min, max } => {
            f.insert("integer".into(), (*integer).into());
            if let Some(n) = min {
                f.insert("min".into(), Value::Number(n.clone()));
            }
            if let Some(n) = max {
                f.insert("max".into(), Value::Number(n.clone()));
            }
        }
        Kind::Bool | Kind::Secret => {}
    }
    if let Some(d) = &s.default {
        f.insert("default".into(), d.clone());
    }
    Value::Object(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_value(v: Value) -> Result<Vec<Setting>, String> {
        let mut f = Map::new();
        f.insert("settings".into(), v);
        parse(&f).map_err(|e| e.to_string())
    }

    #[test]
    fn every_type_is_read_and_written_back() {
        let declared = json!([
            {"key": "level", "type": "enum", "options": ["all", "blocked"], "default": "blocked", "label": "Which moments"},
            {"key": "token", "type": "secret", "label": "API token"},
            {"key": "notify_command", "type": "string", "max_length": 200, "label": "Command"},
            {"key": "loud", "type": "bool", "default": true, "label": "Loud"},
            {"key": "every", "type": "number", "integer": true, "min": 1, "max": 300, "default": 10, "label": "Every"}
        ]);
        let settings = parse_value(declared.clone()).unwrap();
        assert_eq!(settings.len(), 5);
        assert_eq!(settings[4].kind.describe(), "integer (1 to 300)");
        let written = to_json(&settings);
        assert_eq!(parse_value(written.clone()).unwrap(), settings);
        assert_eq!(written[0], declared[0]);
    }

    #[test]
    fn an_invalid_declaration_is_refused_naming_it() {
        let cases = [
            (json!("x"), "field \"settings\" must be an array of objects, not a string"),
            (json!([{"key": "Level", "type": "bool", "label": "l"}]),
             "field \"settings[0]\": key \"Level\" is not a valid key (a lowercase letter, then a-z, 0-9 or '_', at most 32 characters)"),
            (json!([{"key": "a", "type": "colour", "label": "l"}]),
             "field \"settings[0]\": setting \"a\": unknown type \"colour\" (string, bool, enum, number or secret)"),
            (json!([{"key": "a", "type": "enum", "options": ["x"], "default": "y", "label": "l"}]),
             "field \"settings[0]\": setting \"a\": \"default\": \"y\" is not one of x"),
            (json!([{"key": "a", "type": "secret", "default": "hunter2", "label": "l"}]),
             "field \"settings[0]\": setting \"a\": a secret cannot have a default (it would be in the repository for all to read)"),
            (json!([{"key": "a", "type": "bool", "label": "l"}, {"key": "a", "type": "bool", "label": "m"}]),
             "field \"settings[1]\": key \"a\" appears twice"),
            (json!([{"key": "a", "type": "number", "min": 5, "max": 1, "label": "l"}]),
             "field \"settings[0]\": setting \"a\": \"min\" (5) is above \"max\" (1)"),
            (json!([{"key": "a", "type": "bool", "options": ["x"], "label": "l"}]),
             "field \"settings[0]\": setting \"a\": \"options\" does not apply to type bool"),
            (json!([{"key": "a", "type": "bool"}]),
             "field \"settings[0]\": setting \"a\": \"label\" is required"),
        ];
        for (v, want) in cases {
            assert_eq!(parse_value(v).unwrap_err(), want);
        }
    }

    #[test]
    fn keys_are_lowercase_words() {
        assert!(valid_key("path"));
        assert!(valid_key("a_1"));
        for bad in ["", "1a", "_a", "a-b", "A", "a b", &"a".repeat(33)] {
            assert!(!valid_key(bad), "{bad}");
        }
    }
}
