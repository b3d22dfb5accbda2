//! `roost-ext.json`, an extension's manifest: parsed from
//! bytes and validated field by field. Pure: reading the file, and checking
//! commands against other installed extensions, belong to the caller.
//! Every refusal is one line naming the field and the reason; text taken
//! from the manifest is escaped before it is put into a message.

use super::error::ExtError;
use crate::contract::AUTHORITIES as KNOWN_AUTHORITIES;
use crate::index::valid_name;
use crate::untrusted::printable;
use serde_json::{Map, Value};

/// Largest manifest read; a bigger file is refused before it is parsed.
pub const MAX_BYTES: usize = 1024 * 1024;

/// Commands one extension may claim: far more than any real one, and few
/// enough that every check over them stays cheap.
pub const MAX_COMMANDS: usize = 256;

/// The only contract this roost speaks.
const CONTRACT: u32 = crate::contract::NUMBER;

/// Longest `roost` range understood; a longer one cannot be read.
const MAX_ROOST: usize = 64;

/// Longest `description`.
const MAX_DESCRIPTION: usize = 200;

/// A validated manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    pub name: String,
    pub contract: u32,
    /// The advisory product-version range as found (never a refusal: see
    /// `check_range`). A value that is not a string, or is longer than 64
    /// characters, is kept in a shortened form that `check_range` reports as
    /// `Unreadable`.
    pub roost: Option<String>,
    pub needs: Vec<String>,
    pub commands: Vec<String>,
    pub description: Option<String>,
    /// `events`: the moments its `bin/roost-events` handles (`events_decl`).
    pub events: Option<super::events_decl::Declared>,
    /// Typed settings the user can set (`roost ext config`).
    pub settings: Vec<super::settings::Setting>,
    /// The agents it teaches roost (`presets.rs`), none when empty.
    pub agents: Vec<super::presets::Preset>,
    /// Completion data for the commands (see `completion_data`).
    pub completion: super::completion_data::Completion,
}

/// Parses and validates `roost-ext.json`.
pub fn parse(bytes: &[u8]) -> Result<Manifest, ExtError> {
    if bytes.len() > MAX_BYTES {
        return Err(ExtError::refused(format!(
            "the manifest is {} bytes; the limit is 1 MiB",
            bytes.len()
        )));
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| ExtError::refused(format!("the manifest is not valid JSON: {e}")))?;
    let Value::Object(fields) = &value else {
        return Err(ExtError::refused(format!(
            "the manifest must be a JSON object, not {}",
            type_name(&value)
        )));
    };
    refuse_controls(&value, "")?;
    let name = name(fields)?;
    let contract = contract(fields)?;
    let needs = needs(fields)?;
    let events = super::events_decl::parse(fields, &needs)?;
    let commands = commands(fields, events.is_some())?;
    Ok(Manifest {
        name,
        contract,
        roost: roost(fields),
        needs,
        completion: super::completion_data::parse(fields, &commands)?,
        commands,
        description: description(fields)?,
        events,
        settings: super::settings::declaration::parse(fields)?,
        agents: super::presets::parse(fields)?,
    })
}

/// Refuses a control character (C0, DEL, C1) in any string or key, at any
/// depth, naming where it is. `path` is the field path so far.
fn refuse_controls(value: &Value, path: &str) -> Result<(), ExtError> {
    match value {
        Value::String(s) if s.chars().any(char::is_control) => Err(ExtError::refused(format!(
            "field \"{}\" contains a control character",
            printable(path.as_bytes())
        ))),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| refuse_controls(item, &format!("{path}[{i}]"))),
        Value::Object(fields) => fields.iter().try_for_each(|(key, item)| {
            let inner = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            if key.chars().any(char::is_control) {
                return Err(ExtError::refused(format!(
                    "field name \"{}\" contains a control character",
                    printable(inner.as_bytes())
                )));
            }
            refuse_controls(item, &inner)
        }),
        _ => Ok(()),
    }
}

fn name(fields: &Map<String, Value>) -> Result<String, ExtError> {
    let name = required_string(fields, "name")?;
    if !valid_name(name.as_bytes()) {
        return Err(ExtError::refused(format!(
            "field \"name\": \"{}\" is not a valid name ({GRAMMAR})",
            printable(name.as_bytes())
        )));
    }
    Ok(name.to_string())
}

/// What `valid_name` accepts, for messages.
const GRAMMAR: &str = "a lowercase letter, then a-z, 0-9 or '-', at most 32 characters";

/// The contract gate: integer 1 or string "1"; anything else refuses naming
/// what the manifest says and what this roost speaks.
fn contract(fields: &Map<String, Value>) -> Result<u32, ExtError> {
    let value = fields
        .get("contract")
        .ok_or_else(|| ExtError::refused("field \"contract\" is required"))?;
    let said = match value {
        Value::Number(n) if n.as_u64() == Some(u64::from(CONTRACT)) => return Ok(CONTRACT),
        Value::String(s) if s == "1" => return Ok(CONTRACT),
        Value::Number(n) => n.to_string(),
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.clone(),
        Value::String(s) => format!("\"{}\"", printable(s.as_bytes())),
        other => {
            return Err(ExtError::refused(format!(
                "field \"contract\" must be the number {CONTRACT}, not {}",
                type_name(other)
            )))
        }
    };
    Err(ExtError::refused(format!(
        "contract {said}: this roost speaks contract {CONTRACT}"
    )))
}

/// The advisory range, which never refuses: a value that cannot be a range
/// is kept, shortened, in a form `check_range` cannot read.
fn roost(fields: &Map<String, Value>) -> Option<String> {
    let text = match fields.get("roost")? {
        Value::Null => return None,
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() <= MAX_ROOST {
        return Some(text);
    }
    let mut short: String = text.chars().take(MAX_ROOST).collect();
    short.push('…');
    Some(short)
}

/// Authorities; each must be one this roost knows, and appear once.
fn needs(fields: &Map<String, Value>) -> Result<Vec<String>, ExtError> {
    let needs = optional_strings(fields, "needs")?;
    for (i, need) in needs.iter().enumerate() {
        let shown = printable(need.as_bytes());
        if !KNOWN_AUTHORITIES.contains(&need.as_str()) {
            return Err(ExtError::refused(format!(
                "field \"needs\": unknown authority \"{shown}\" (this roost knows: {})",
                KNOWN_AUTHORITIES.join(", ")
            )));
        }
        if needs[..i].contains(need) {
            return Err(ExtError::refused(format!(
                "field \"needs\": \"{shown}\" appears twice"
            )));
        }
    }
    Ok(needs)
}

/// The commands claimed: at least one (none only for an extension that
/// declares events), each a valid name, no core command, none twice.
/// (Claims of other installed extensions are the caller's check.)
fn commands(fields: &Map<String, Value>, events: bool) -> Result<Vec<String>, ExtError> {
    let commands =
        match fields.get("commands") {
            None if events => Vec::new(),
            None => return Err(ExtError::refused(
                "field \"commands\" is required (or \"events\", for an extension with no commands)",
            )),
            Some(_) => optional_strings(fields, "commands")?,
        };
    if commands.is_empty() && !events {
        return Err(ExtError::refused(
            "field \"commands\" must name at least one command (or declare \"events\" for an extension with none)",
        ));
    }
    if commands.len() > MAX_COMMANDS {
        return Err(ExtError::refused(format!(
            "field \"commands\" names {} commands; the limit for one extension is {MAX_COMMANDS}",
            commands.len()
        )));
    }
    let mut seen = std::collections::HashSet::new();
    for command in &commands {
        let shown = printable(command.as_bytes());
        if !valid_name(command.as_bytes()) {
            return Err(ExtError::refused(format!(
                "command \"{shown}\" is not a valid name ({GRAMMAR})"
            )));
        }
        if let Some(what) = crate::cli::reserved_as(command) {
            return Err(ExtError::refused(format!(
                "command \"{shown}\" is {what}; an extension cannot claim it"
            )));
        }
        if !seen.insert(command.as_str()) {
            return Err(ExtError::refused(format!(
                "command \"{shown}\" appears twice in \"commands\""
            )));
        }
    }
    Ok(commands)
}

fn description(fields: &Map<String, Value>) -> Result<Option<String>, ExtError> {
    let Some(text) = optional_string(fields, "description")? else {
        return Ok(None);
    };
    // Control characters (newlines included) were refused already; these
    // are the other characters that end a line.
    if text.contains(['\u{2028}', '\u{2029}']) {
        return Err(ExtError::refused("field \"description\" must be one line"));
    }
    let len = text.chars().count();
    if len > MAX_DESCRIPTION {
        return Err(ExtError::refused(format!(
            "field \"description\" is {len} characters; the limit is {MAX_DESCRIPTION}"
        )));
    }
    Ok(Some(text.to_string()))
}

fn required_string<'a>(fields: &'a Map<String, Value>, key: &str) -> Result<&'a str, ExtError> {
    optional_string(fields, key)?
        .ok_or_else(|| ExtError::refused(format!("field \"{key}\" is required")))
}

/// A string field; absent or `null` is `None`.
fn optional_string<'a>(
    fields: &'a Map<String, Value>,
    key: &str,
) -> Result<Option<&'a str>, ExtError> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(ExtError::refused(format!(
            "field \"{key}\" must be a string, not {}",
            type_name(other)
        ))),
    }
}

/// An array-of-strings field; absent or `null` is empty.
fn optional_strings(fields: &Map<String, Value>, key: &str) -> Result<Vec<String>, ExtError> {
    let items = match fields.get(key) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"{key}\" must be an array of strings, not {}",
                type_name(other)
            )))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(ExtError::refused(format!(
                "field \"{key}[{i}]\" must be a string, not {}",
                type_name(other)
            ))),
        })
        .collect()
}

pub(crate) use super::json_type::type_name;

/// The outcome of the advisory `roost` range against this roost's version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeCheck {
    Ok,
    OutOfRange,
    /// Present but not a range roost understands: warn "cannot read".
    Unreadable,
    Absent,
}

/// Checks `version` against the manifest's `roost` range. Only `*` and
/// `>=A.B.C <D.E.F` (one space, plain numbers) are understood.
pub fn check_range(range: Option<&str>, version: &str) -> RangeCheck {
    let Some(range) = range else {
        return RangeCheck::Absent;
    };
    if range == "*" {
        return RangeCheck::Ok;
    }
    let Some((low, high)) = parse_range(range) else {
        return RangeCheck::Unreadable;
    };
    let Some(version) = Version::parse(version) else {
        return RangeCheck::Unreadable;
    };
    if version.at_least(low) && version.below(high) {
        RangeCheck::Ok
    } else {
        RangeCheck::OutOfRange
    }
}

type Triple = (u64, u64, u64);

/// `>=A.B.C <D.E.F` into its two bounds.
fn parse_range(range: &str) -> Option<(Triple, Triple)> {
    if range.len() > MAX_ROOST {
        return None;
    }
    let (low, high) = range.split_once(' ')?;
    Some((
        parse_triple(low.strip_prefix(">=")?)?,
        parse_triple(high.strip_prefix('<')?)?,
    ))
}

/// `A.B.C`, each part one or more ASCII digits.
fn parse_triple(s: &str) -> Option<Triple> {
    let mut parts = s.split('.').map(|part| {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        part.parse::<u64>().ok()
    });
    let triple = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(triple)
}

/// A product version: `A.B.C`, optionally with a pre-release (`-dev`) or
/// build (`+x`) suffix. A pre-release sorts just below its own `A.B.C`.
struct Version {
    core: Triple,
    pre_release: bool,
}

impl Version {
    fn parse(s: &str) -> Option<Version> {
        let without_build = s.split_once('+').map_or(s, |(v, _)| v);
        let (core, pre_release) = match without_build.split_once('-') {
            Some((core, _)) => (core, true),
            None => (without_build, false),
        };
        Some(Version {
            core: parse_triple(core)?,
            pre_release,
        })
    }

    fn at_least(&self, bound: Triple) -> bool {
        self.core > bound || (self.core == bound && !self.pre_release)
    }

    fn below(&self, bound: Triple) -> bool {
        self.core < bound || (self.core == bound && self.pre_release)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> Result<Manifest, ExtError> {
        parse(text.as_bytes())
    }

    fn refusal(text: &str) -> String {
        match parse_str(text) {
            Ok(m) => panic!("accepted {text}: {m:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_full_manifest_is_read() {
        let m = parse_str(
            r#"{"name": "mark", "contract": 1, "roost": ">=0.1.0 <0.2.0",
                "needs": ["fleet"], "commands": ["mark", "marks"],
                "description": "Bookmarks for panes", "homepage": "x"}"#,
        )
        .unwrap();
        assert_eq!(
            m,
            Manifest {
                name: "mark".into(),
                contract: 1,
                roost: Some(">=0.1.0 <0.2.0".into()),
                needs: vec!["fleet".into()],
                commands: vec!["mark".into(), "marks".into()],
                description: Some("Bookmarks for panes".into()),
                events: None,
                settings: Vec::new(),
                agents: Vec::new(),
                completion: Default::default(),
            }
        );
    }

    #[test]
    fn at_most_256_commands_are_claimed_and_100000_are_refused_at_once() {
        let names = |n: usize| {
            (0..n)
                .map(|i| format!("\"c{i}\""))
                .collect::<Vec<_>>()
                .join(",")
        };
        let m = parse_str(&format!(
            r#"{{"name":"many","contract":1,"commands":[{}]}}"#,
            names(256)
        ))
        .unwrap();
        assert_eq!(m.commands.len(), 256);
        let start = std::time::Instant::now();
        assert_eq!(
            refusal(&format!(
                r#"{{"name":"many","contract":1,"commands":[{}]}}"#,
                names(100_000)
            )),
            "field \"commands\" names 100000 commands; the limit for one extension is 256"
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn a_minimal_manifest_is_read() {
        let m = parse_str(r#"{"name":"note","contract":"1","commands":["note"]}"#).unwrap();
        assert_eq!(m.contract, 1);
        assert_eq!(m.roost, None);
        assert!(m.needs.is_empty());
        assert_eq!(m.description, None);
        let m = parse_str(
            r#"{"name":"note","contract":1,"commands":["note"],"needs":[],"roost":null,"description":null}"#,
        )
        .unwrap();
        assert!(m.needs.is_empty() && m.roost.is_none() && m.description.is_none());
    }

    #[test]
    fn the_manifest_must_be_a_json_object_of_at_most_one_mib() {
        assert_eq!(
            refusal("[]"),
            "the manifest must be a JSON object, not an array"
        );
        assert_eq!(
            refusal("\"x\""),
            "the manifest must be a JSON object, not a string"
        );
        assert!(refusal("").starts_with("the manifest is not valid JSON: "));
        assert!(refusal("{\"name\":").starts_with("the manifest is not valid JSON: "));
        assert!(refusal("{} {}").starts_with("the manifest is not valid JSON: "));

        let head = r#"{"name":"note","contract":1,"commands":["note"],"pad":""#;
        let fill = |total: usize| {
            let mut text = head.to_string();
            text.push_str(&"x".repeat(total - head.len() - 2));
            text.push_str("\"}");
            assert_eq!(text.len(), total);
            text
        };
        assert!(parse_str(&fill(MAX_BYTES)).is_ok());
        assert_eq!(
            refusal(&fill(MAX_BYTES + 1)),
            "the manifest is 1048577 bytes; the limit is 1 MiB"
        );
    }

    #[test]
    fn a_control_character_anywhere_refuses_naming_the_field() {
        let base = r#""name":"note","contract":1,"commands":["note"]"#;
        let cases = [
            (r#""description":"a\u001b[2Jb""#, "field \"description\""),
            (r#""description":"two\nlines""#, "field \"description\""),
            (r#""description":"tab\there""#, "field \"description\""),
            (r#""description":"del\u007f""#, "field \"description\""),
            (r#""description":"c1\u009b31m""#, "field \"description\""),
            (r#""roost":">=0.1.0\t<0.2.0""#, "field \"roost\""),
            (
                r#""extra":{"deep":[1,"x\u0000"]}"#,
                "field \"extra.deep[1]\"",
            ),
            (r#""a\u001bb":1"#, "field name \"a\\x1bb\""),
            (r#""x":{"k\u0085":1}"#, "field name \"x.k\\x85\""),
        ];
        for (extra, named) in cases {
            let err = refusal(&format!("{{{base},{extra}}}"));
            assert!(err.starts_with(named), "{extra}: {err}");
            assert!(err.ends_with("contains a control character"), "{err}");
            assert!(!err.chars().any(char::is_control), "{err:?}");
        }
        // In the required fields too, before their own checks.
        let err = refusal(r#"{"name":"no\u0007te","contract":1,"commands":["note"]}"#);
        assert_eq!(err, "field \"name\" contains a control character");
        let err = refusal(r#"{"name":"note","contract":1,"commands":["note","x\u001b"]}"#);
        assert_eq!(err, "field \"commands[1]\" contains a control character");
    }

    #[test]
    fn a_raw_control_character_is_not_json() {
        let err =
            refusal("{\"name\":\"note\",\"contract\":1,\"commands\":[\"note\"],\"d\":\"a\x1bb\"}");
        assert!(err.starts_with("the manifest is not valid JSON: "), "{err}");
        assert!(!err.chars().any(char::is_control), "{err:?}");
    }

    #[test]
    fn name_is_required_and_follows_the_grammar() {
        assert_eq!(
            refusal(r#"{"contract":1,"commands":["note"]}"#),
            "field \"name\" is required"
        );
        assert_eq!(
            refusal(r#"{"name":7,"contract":1,"commands":["note"]}"#),
            "field \"name\" must be a string, not a number"
        );
        for bad in crate::index::NOT_NAMES {
            let err = refusal(&format!(
                r#"{{"name":"{bad}","contract":1,"commands":["note"]}}"#
            ));
            assert_eq!(
                err,
                format!("field \"name\": \"{bad}\" is not a valid name ({GRAMMAR})")
            );
        }
        assert!(parse_str(&format!(
            r#"{{"name":"{}","contract":1,"commands":["note"]}}"#,
            "a".repeat(32)
        ))
        .is_ok());
    }

    #[test]
    fn contract_is_a_hard_gate_naming_both_numbers() {
        let with = |c: &str| format!(r#"{{"name":"note","contract":{c},"commands":["note"]}}"#);
        assert_eq!(parse_str(&with("1")).unwrap().contract, 1);
        assert_eq!(parse_str(&with("\"1\"")).unwrap().contract, 1);
        let cases = [
            ("2", "contract 2: this roost speaks contract 1"),
            ("\"2\"", "contract 2: this roost speaks contract 1"),
            ("0", "contract 0: this roost speaks contract 1"),
            ("-1", "contract -1: this roost speaks contract 1"),
            ("1.5", "contract 1.5: this roost speaks contract 1"),
            ("1.0", "contract 1.0: this roost speaks contract 1"),
            ("\"01\"", "contract 01: this roost speaks contract 1"),
            ("\"one\"", "contract \"one\": this roost speaks contract 1"),
            ("\"\"", "contract \"\": this roost speaks contract 1"),
            (
                "true",
                "field \"contract\" must be the number 1, not a boolean",
            ),
            ("null", "field \"contract\" must be the number 1, not null"),
            (
                "[1]",
                "field \"contract\" must be the number 1, not an array",
            ),
        ];
        for (c, want) in cases {
            assert_eq!(refusal(&with(c)), want, "{c}");
        }
        assert_eq!(
            refusal(r#"{"name":"note","commands":["note"]}"#),
            "field \"contract\" is required"
        );
    }

    #[test]
    fn roost_is_advisory_and_never_refuses() {
        let with = |r: &str| {
            parse_str(&format!(
                r#"{{"name":"note","contract":1,"commands":["note"],"roost":{r}}}"#
            ))
            .unwrap()
            .roost
        };
        assert_eq!(with("\"*\""), Some("*".into()));
        assert_eq!(with("\"~1.2\""), Some("~1.2".into()));
        assert_eq!(with("null"), None);
        assert_eq!(with("12"), Some("12".into()));
        assert_eq!(with("[\"*\"]"), Some("[\"*\"]".into()));
        let exact = format!("\"{}\"", "9".repeat(MAX_ROOST));
        assert_eq!(with(&exact), Some("9".repeat(MAX_ROOST)));
        let long = with(&format!("\"{}\"", "9".repeat(MAX_ROOST + 1))).unwrap();
        assert_eq!(long, format!("{}…", "9".repeat(MAX_ROOST)));
        for kept in [long.as_str(), "12", "[\"*\"]"] {
            assert_eq!(check_range(Some(kept), "0.1.0"), RangeCheck::Unreadable);
        }
    }

    #[test]
    fn needs_knows_only_fleet_and_events() {
        let with = |n: &str| {
            parse_str(&format!(
                r#"{{"name":"note","contract":1,"commands":["note"],"needs":{n}}}"#
            ))
        };
        assert_eq!(
            with("[\"fleet\"]").unwrap().needs,
            vec!["fleet".to_string()]
        );
        assert!(with("[]").unwrap().needs.is_empty());
        assert!(with("null").unwrap().needs.is_empty());
        assert_eq!(
            with("[\"fleet\",\"net\"]").unwrap_err(),
            "field \"needs\": unknown authority \"net\" (this roost knows: fleet, events)"
        );
        assert_eq!(
            with("[\"Fleet\"]").unwrap_err(),
            "field \"needs\": unknown authority \"Fleet\" (this roost knows: fleet, events)"
        );
        assert_eq!(
            with("[\"fleet\",\"fleet\"]").unwrap_err(),
            "field \"needs\": \"fleet\" appears twice"
        );
        assert_eq!(
            with("\"fleet\"").unwrap_err(),
            "field \"needs\" must be an array of strings, not a string"
        );
        assert_eq!(
            with("[\"fleet\",1]").unwrap_err(),
            "field \"needs[1]\" must be a string, not a number"
        );
    }

    #[test]
    fn commands_are_required_valid_unreserved_and_unique() {
        let with = |c: &str| format!(r#"{{"name":"note","contract":1,"commands":{c}}}"#);
        assert_eq!(
            parse_str(&with("[\"note\",\"notes\",\"stat\"]"))
                .unwrap()
                .commands,
            vec!["note", "notes", "stat"]
        );
        let cases = [
            ("[]", "field \"commands\" must name at least one command (or declare \"events\" for an extension with none)"),
            ("null", "field \"commands\" must name at least one command (or declare \"events\" for an extension with none)"),
            ("\"note\"", "field \"commands\" must be an array of strings, not a string"),
            ("{}", "field \"commands\" must be an array of strings, not an object"),
            ("[\"note\",false]", "field \"commands[1]\" must be a string, not a boolean"),
            (
                "[\"send\"]",
                "command \"send\" is a roost core command; an extension cannot claim it",
            ),
            (
                "[\"note\",\"stop\"]",
                "command \"stop\" is a roost core command; an extension cannot claim it",
            ),
            (
                "[\"note\",\"note\"]",
                "command \"note\" appears twice in \"commands\"",
            ),
            (
                "[\"Note\"]",
                "command \"Note\" is not a valid name (a lowercase letter, then a-z, 0-9 or '-', at most 32 characters)",
            ),
            (
                "[\"../x\"]",
                "command \"../x\" is not a valid name (a lowercase letter, then a-z, 0-9 or '-', at most 32 characters)",
            ),
            (
                "[\"--help\"]",
                "command \"--help\" is not a valid name (a lowercase letter, then a-z, 0-9 or '-', at most 32 characters)",
            ),
        ];
        for (c, want) in cases {
            assert_eq!(refusal(&with(c)), want, "{c}");
        }
        assert_eq!(
            refusal(r#"{"name":"note","contract":1}"#),
            "field \"commands\" is required (or \"events\", for an extension with no commands)"
        );
    }

    #[test]
    fn an_extension_with_events_may_claim_no_command() {
        let m = parse_str(
            r#"{"name":"notify","contract":1,"needs":["events"],
                "events":{"on":["agent.done"],"timeout":5}}"#,
        )
        .unwrap();
        assert!(m.commands.is_empty());
        assert_eq!(m.events.unwrap().timeout, 5);
        assert!(
            refusal(r#"{"name":"n","contract":1,"commands":[],"needs":["events"]}"#)
                .contains("declares no \"events\"")
        );
        assert!(refusal(
            r#"{"name":"n","contract":1,"events":{"on":["agent.nope"]},"needs":["events"]}"#
        )
        .contains("unknown event \"agent.nope\""));
    }

    #[test]
    fn description_is_one_short_line() {
        let with = |d: &str| {
            parse_str(&format!(
                r#"{{"name":"note","contract":1,"commands":["note"],"description":{d}}}"#
            ))
        };
        let max = "\u{e9}".repeat(MAX_DESCRIPTION);
        assert_eq!(with(&format!("\"{max}\"")).unwrap().description, Some(max));
        assert_eq!(
            with(&format!("\"{}\"", "x".repeat(MAX_DESCRIPTION + 1))).unwrap_err(),
            "field \"description\" is 201 characters; the limit is 200"
        );
        assert_eq!(
            with("\"a\u{2028}b\"").unwrap_err(),
            "field \"description\" must be one line"
        );
        assert_eq!(
            with("[\"x\"]").unwrap_err(),
            "field \"description\" must be a string, not an array"
        );
    }

    #[test]
    fn ranges_roost_understands() {
        use RangeCheck::*;
        let cases = [
            (None, "0.1.0", Absent),
            (Some("*"), "0.1.0", Ok),
            (Some(">=0.1.0 <0.2.0"), "0.1.0", Ok),
            (Some(">=0.1.0 <0.2.0"), "0.1.9", Ok),
            (Some(">=0.1.0 <0.2.0"), "0.2.0", OutOfRange),
            (Some(">=0.1.0 <0.2.0"), "0.0.9", OutOfRange),
            (Some(">=0.1.10 <0.2.0"), "0.1.9", OutOfRange),
            (Some(">=0.9.0 <0.10.0"), "0.10.0", OutOfRange),
            (Some(">=1.0.0 <2.0.0"), "1.99.99", Ok),
            (Some(">=0.2.0 <0.1.0"), "0.1.5", OutOfRange),
            (Some(">=0.1.0 <0.2.0"), "0.2.0-dev", Ok),
            (Some(">=0.1.0 <0.2.0"), "0.1.0-dev", OutOfRange),
            (Some(">=0.1.0 <0.2.0"), "0.1.0+build.5", Ok),
        ];
        for (range, version, want) in cases {
            assert_eq!(check_range(range, version), want, "{range:?} {version}");
        }
    }

    #[test]
    fn ranges_roost_cannot_read() {
        for range in [
            "",
            " ",
            "^0.1.0",
            "~0.1",
            ">=0.1.0",
            "<0.2.0",
            ">=0.1.0  <0.2.0",
            " >=0.1.0 <0.2.0",
            ">=0.1.0 <0.2.0 ",
            ">=0.1.0\t<0.2.0",
            ">=0.1 <0.2",
            ">=0.1.0.0 <0.2.0",
            ">= 0.1.0 <0.2.0",
            ">=0.1.0 <=0.2.0",
            "<0.2.0 >=0.1.0",
            ">=0.1.0 <0.2.x",
            ">=+1.0.0 <2.0.0",
            ">=0.1.0-dev <0.2.0",
            ">=99999999999999999999.0.0 <1.0.0",
            "* ",
            "**",
        ] {
            assert_eq!(
                check_range(Some(range), "0.1.0"),
                RangeCheck::Unreadable,
                "{range:?}"
            );
        }
    }
}
