//! The manifest's `"events": {"on": [...], "timeout": N}`: which moments of
//! the fleet an extension's `bin/roost-events` handles, and for how long
//! each run may take. Parsed here, recorded in the lock entry as consented
//! (`lock::events`), written to ext.events by the store.

use super::error::ExtError;
use super::json_type::type_name;
use crate::events::event::Event;
use crate::events::index::{DEFAULT_TIMEOUT, MAX_TIMEOUT};
use crate::untrusted::printable;
use serde_json::{Map, Value};

/// The authority an events declaration goes with.
pub const AUTHORITY: &str = "events";

/// The handler every events extension ships: `bin/roost-events`.
pub const HANDLER: &str = "events";

/// What an extension declared it handles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// The moments, in the order declared, each once.
    pub on: Vec<Event>,
    /// Seconds a run may take, 1 to `MAX_TIMEOUT`.
    pub timeout: u32,
}

/// The `events` field, if the manifest has one; `needs` must name
/// `events` exactly when it does.
pub fn parse(fields: &Map<String, Value>, needs: &[String]) -> Result<Option<Declared>, ExtError> {
    let asked = needs.iter().any(|n| n == AUTHORITY);
    let declared = match fields.get("events") {
        None | Some(Value::Null) => None,
        Some(Value::Object(decl)) => Some(declared(decl)?),
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"events\" must be an object, not {}",
                type_name(other)
            )))
        }
    };
    match (&declared, asked) {
        (Some(_), false) => Err(ExtError::refused(
            "field \"events\" is declared but \"needs\" does not name \"events\"; add \"events\" to \"needs\"",
        )),
        (None, true) => Err(ExtError::refused(
            "field \"needs\" names \"events\" but the manifest declares no \"events\"; add \"events\": {\"on\": [...]}",
        )),
        _ => Ok(declared),
    }
}

fn declared(decl: &Map<String, Value>) -> Result<Declared, ExtError> {
    if let Some(key) = decl.keys().find(|k| *k != "on" && *k != "timeout") {
        return Err(ExtError::refused(format!(
            "field \"events.{}\" is not known (an events declaration has \"on\" and \"timeout\")",
            printable(key.as_bytes())
        )));
    }
    let items = match decl.get("on") {
        Some(Value::Array(items)) => items,
        None | Some(Value::Null) => {
            return Err(ExtError::refused("field \"events.on\" is required"))
        }
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"events.on\" must be an array of event names, not {}",
                type_name(other)
            )))
        }
    };
    if items.is_empty() {
        return Err(ExtError::refused(
            "field \"events.on\" must name at least one event",
        ));
    }
    let mut on = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Value::String(word) = item else {
            return Err(ExtError::refused(format!(
                "field \"events.on[{i}]\" must be a string, not {}",
                type_name(item)
            )));
        };
        let Some(event) = Event::from_word(word) else {
            return Err(ExtError::refused(format!(
                "field \"events.on\": unknown event \"{}\" (this roost knows: {})",
                printable(word.as_bytes()),
                Event::words().join(", ")
            )));
        };
        if on.contains(&event) {
            return Err(ExtError::refused(format!(
                "field \"events.on\": \"{event}\" appears twice"
            )));
        }
        on.push(event);
    }
    let timeout = match decl.get("timeout") {
        None | Some(Value::Null) => DEFAULT_TIMEOUT,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(t) if (1..=u64::from(MAX_TIMEOUT)).contains(&t) => t as u32,
            _ => {
                return Err(ExtError::refused(format!(
                    "field \"events.timeout\" is {n}; it must be a whole number of seconds from 1 to {MAX_TIMEOUT}"
                )))
            }
        },
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"events.timeout\" must be a number of seconds, not {}",
                type_name(other)
            )))
        }
    };
    Ok(Declared { on, timeout })
}

/// The moments as their words, joined with ", ".
pub fn words(on: &[Event]) -> String {
    on.iter().map(|e| e.word()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(events: &str, needs: &[&str]) -> Result<Option<Declared>, String> {
        let v: Value = serde_json::from_str(&format!("{{\"events\": {events}}}")).unwrap();
        let needs: Vec<String> = needs.iter().map(|n| n.to_string()).collect();
        parse(v.as_object().unwrap(), &needs).map_err(|e| e.to_string())
    }

    #[test]
    fn a_declaration_is_read_with_its_default_timeout() {
        let d = parse_str(r#"{"on": ["agent.done", "agent.blocked"]}"#, &["events"])
            .unwrap()
            .unwrap();
        assert_eq!(d.on, [Event::Done, Event::Blocked]);
        assert_eq!(d.timeout, DEFAULT_TIMEOUT);
        let d = parse_str(r#"{"on": ["server.start"], "timeout": 300}"#, &["events"]);
        assert_eq!(d.unwrap().unwrap().timeout, 300);
        assert_eq!(parse_str("null", &[]).unwrap(), None);
    }

    #[test]
    fn bad_declarations_are_refused_naming_what_is_wrong() {
        let cases = [
            (
                r#"{"on": ["agent.finished"]}"#,
                "unknown event \"agent.finished\"",
            ),
            (r#"{"on": []}"#, "at least one event"),
            (r#"{"on": ["agent.done", "agent.done"]}"#, "appears twice"),
            (r#"{"on": ["agent.done"], "timeout": 0}"#, "from 1 to 300"),
            (r#"{"on": ["agent.done"], "timeout": 301}"#, "from 1 to 300"),
            (r#"{"on": ["agent.done"], "timeout": 1.5}"#, "from 1 to 300"),
            (r#"{"on": ["agent.done"], "timeout": "5"}"#, "not a string"),
            (
                r#"{"on": ["agent.done"], "every": 1}"#,
                "\"events.every\" is not known",
            ),
            (r#"{"timeout": 5}"#, "\"events.on\" is required"),
            (r#"["agent.done"]"#, "must be an object"),
        ];
        for (text, want) in cases {
            let got = parse_str(text, &["events"]).unwrap_err();
            assert!(got.contains(want), "{text}: {got}");
        }
    }

    #[test]
    fn the_declaration_and_the_authority_go_together() {
        let got = parse_str(r#"{"on": ["agent.done"]}"#, &["fleet"]).unwrap_err();
        assert!(got.contains("add \"events\" to \"needs\""), "{got}");
        let got = parse_str("null", &["events"]).unwrap_err();
        assert!(got.contains("declares no \"events\""), "{got}");
    }
}
