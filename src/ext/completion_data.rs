//! A manifest's `completion` field: per command, its subcommands, options
//! and the kinds of their values, as data. Checked strictly at install,
//! kept in ext.lock, and turned into the lines of ext.complete, which
//! completion reads on TAB so that no extension code ever runs there.
//!
//! The kinds are data, not authority: they name what roost itself offers
//! on TAB (files, panes, ...) and nothing of the extension runs for them.
//!
//! ```json
//! "completion": {
//!   "note": {
//!     "options": {"--tag": ["todo", "done"], "--file": "file", "--all": "flag"},
//!     "args": ["pane", "file"],
//!     "subcommands": {"add": {"args": ["agent"]}}
//!   }
//! }
//! ```

use super::error::ExtError;
use crate::untrusted::printable;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Deepest nesting: a command, its subcommands, and theirs.
pub const MAX_DEPTH: usize = 3;
/// Options, subcommands, positional kinds, or words of one list, in one place.
pub const MAX_ITEMS: usize = 64;
/// Longest option name, subcommand name or listed word.
pub const MAX_WORD: usize = 64;
/// Lines of ext.complete one extension may add.
pub const MAX_LINES: usize = 4096;

/// What may fill a word: the kinds a manifest may name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// An option that takes no value (options only).
    Flag,
    File,
    Dir,
    Pane,
    Agent,
    Session,
    /// One of a fixed list of words.
    OneOf(Vec<String>),
}

/// The kind names a manifest may give, for messages and the docs.
pub const KINDS: &str = "file, dir, pane, agent, session, flag (options only), or a list of words";

impl Kind {
    /// The field of an ext.complete line.
    pub fn word(&self) -> String {
        match self {
            Kind::Flag => "flag".into(),
            Kind::File => "file".into(),
            Kind::Dir => "dir".into(),
            Kind::Pane => "pane".into(),
            Kind::Agent => "agent".into(),
            Kind::Session => "session".into(),
            Kind::OneOf(words) => format!("one-of {}", words.join(" ")),
        }
    }

    /// Reads back what `word` wrote (None for anything else).
    pub fn from_word(text: &str) -> Option<Kind> {
        Some(match text {
            "flag" => Kind::Flag,
            "file" => Kind::File,
            "dir" => Kind::Dir,
            "pane" => Kind::Pane,
            "agent" => Kind::Agent,
            "session" => Kind::Session,
            _ => Kind::OneOf(
                text.strip_prefix("one-of ")?
                    .split(' ')
                    .map(String::from)
                    .collect(),
            ),
        })
    }
}

/// One command's (or subcommand's) declared grammar.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Spec {
    pub options: BTreeMap<String, Kind>,
    pub args: Vec<Kind>,
    pub subcommands: BTreeMap<String, Spec>,
}

/// The validated `completion` field: command name to its grammar.
pub type Completion = BTreeMap<String, Spec>;

/// Reads and checks the `completion` field of a manifest whose commands are
/// `commands`. Absent is empty; anything unknown, misspelled or too big is
/// refused naming where it is.
pub fn parse(fields: &Map<String, Value>, commands: &[String]) -> Result<Completion, ExtError> {
    let Some(value) = fields.get("completion") else {
        return Ok(Completion::new());
    };
    let table = object(value, "completion")?;
    let mut out = Completion::new();
    for (command, spec) in table {
        let at = format!("completion.{}", printable(command.as_bytes()));
        if !commands.iter().any(|c| c == command) {
            return Err(refused(&at, "is not one of the manifest's commands"));
        }
        out.insert(command.clone(), spec_at(spec, &at, 1)?);
    }
    let lines = lines_of(&out).len();
    if lines > MAX_LINES {
        return Err(ExtError::refused(format!(
            "field \"completion\" makes {lines} completion lines; the limit is {MAX_LINES}"
        )));
    }
    Ok(out)
}

/// The validated field back as JSON, for ext.lock.
pub fn to_value(completion: &Completion) -> Value {
    fn spec(s: &Spec) -> Value {
        let kind = |k: &Kind| match k {
            Kind::OneOf(words) => Value::from(words.clone()),
            other => Value::from(other.word()),
        };
        let mut m = Map::new();
        if !s.options.is_empty() {
            let o = s.options.iter().map(|(n, k)| (n.clone(), kind(k)));
            m.insert("options".into(), Value::Object(o.collect()));
        }
        if !s.args.is_empty() {
            m.insert("args".into(), s.args.iter().map(kind).collect());
        }
        if !s.subcommands.is_empty() {
            let subs = s.subcommands.iter().map(|(n, s)| (n.clone(), spec(s)));
            m.insert("subcommands".into(), Value::Object(subs.collect()));
        }
        Value::Object(m)
    }
    Value::Object(
        completion
            .iter()
            .map(|(c, s)| (c.clone(), spec(s)))
            .collect(),
    )
}

/// The lines of ext.complete for `completion`, each
/// `CMD<TAB>PATH<TAB>WHAT<TAB>NAME<TAB>KIND`: PATH the subcommand words
/// (space-separated, empty at the command itself); WHAT `sub` (NAME a
/// subcommand, KIND empty), `opt` (NAME an option) or `arg` (NAME the
/// position from 0).
pub fn lines_of(completion: &Completion) -> Vec<String> {
    fn walk(cmd: &str, path: &str, s: &Spec, out: &mut Vec<String>) {
        for name in s.subcommands.keys() {
            out.push(format!("{cmd}\t{path}\tsub\t{name}\t"));
        }
        for (name, kind) in &s.options {
            out.push(format!("{cmd}\t{path}\topt\t{name}\t{}", kind.word()));
        }
        for (i, kind) in s.args.iter().enumerate() {
            out.push(format!("{cmd}\t{path}\targ\t{i}\t{}", kind.word()));
        }
        for (name, sub) in &s.subcommands {
            let deeper = if path.is_empty() {
                name.clone()
            } else {
                format!("{path} {name}")
            };
            walk(cmd, &deeper, sub, out);
        }
    }
    let mut out = Vec::new();
    for (cmd, spec) in completion {
        walk(cmd, "", spec, &mut out);
    }
    out
}

/// One line, as every manifest refusal is (install adds where it was).
fn refused(at: &str, why: &str) -> ExtError {
    ExtError::refused(format!("field \"{at}\" {why}"))
}

fn object<'a>(value: &'a Value, at: &str) -> Result<&'a Map<String, Value>, ExtError> {
    match value {
        Value::Object(m) if m.len() > MAX_ITEMS => Err(refused(
            at,
            &format!("has {} entries; the limit is {MAX_ITEMS}", m.len()),
        )),
        Value::Object(m) => Ok(m),
        other => Err(refused(
            at,
            &format!("must be an object, not {}", type_name(other)),
        )),
    }
}

fn spec_at(value: &Value, at: &str, depth: usize) -> Result<Spec, ExtError> {
    let fields = object(value, at)?;
    let mut spec = Spec::default();
    for (key, item) in fields {
        let here = format!("{at}.{}", printable(key.as_bytes()));
        match key.as_str() {
            "options" => {
                for (name, kind) in object(item, &here)? {
                    let there = format!("{here}.{}", printable(name.as_bytes()));
                    if !option_name(name) {
                        return Err(refused(
                            &there,
                            "is not an option name (--word or -x, letters, digits and '-')",
                        ));
                    }
                    spec.options
                        .insert(name.clone(), kind_at(kind, &there, true)?);
                }
            }
            "args" => {
                let Value::Array(kinds) = item else {
                    return Err(refused(
                        &here,
                        &format!("must be an array of kinds, not {}", type_name(item)),
                    ));
                };
                if kinds.len() > MAX_ITEMS {
                    return Err(refused(
                        &here,
                        &format!("has {} kinds; the limit is {MAX_ITEMS}", kinds.len()),
                    ));
                }
                for (i, kind) in kinds.iter().enumerate() {
                    spec.args
                        .push(kind_at(kind, &format!("{here}[{i}]"), false)?);
                }
            }
            "subcommands" => {
                if depth >= MAX_DEPTH {
                    return Err(refused(
                        &here,
                        &format!("nests deeper than {MAX_DEPTH} levels"),
                    ));
                }
                for (name, sub) in object(item, &here)? {
                    let there = format!("{here}.{}", printable(name.as_bytes()));
                    if !plain_word(name) || name.starts_with('-') {
                        return Err(refused(&there, "is not a subcommand name"));
                    }
                    spec.subcommands
                        .insert(name.clone(), spec_at(sub, &there, depth + 1)?);
                }
            }
            _ => {
                return Err(refused(
                    &here,
                    "is not known (a command's completion has options, args and subcommands)",
                ))
            }
        }
    }
    Ok(spec)
}

fn kind_at(value: &Value, at: &str, option: bool) -> Result<Kind, ExtError> {
    match value {
        Value::String(s) => match Kind::from_word(s) {
            Some(Kind::Flag) if !option => {
                Err(refused(at, "is \"flag\", which only an option can be"))
            }
            Some(
                kind @ (Kind::Flag
                | Kind::File
                | Kind::Dir
                | Kind::Pane
                | Kind::Agent
                | Kind::Session),
            ) => Ok(kind),
            _ => Err(refused(
                at,
                &format!(
                    "names the unknown kind \"{}\" (kinds: {KINDS})",
                    printable(s.as_bytes())
                ),
            )),
        },
        Value::Array(words) => {
            if words.is_empty() || words.len() > MAX_ITEMS {
                return Err(refused(
                    at,
                    &format!("lists {} words; give 1 to {MAX_ITEMS}", words.len()),
                ));
            }
            let mut out = Vec::new();
            for (i, w) in words.iter().enumerate() {
                match w {
                    Value::String(s) if plain_word(s) => out.push(s.clone()),
                    _ => {
                        return Err(refused(
                            &format!("{at}[{i}]"),
                            "is not a plain word (letters, digits and . _ : / @ + , = -)",
                        ))
                    }
                }
            }
            Ok(Kind::OneOf(out))
        }
        other => Err(refused(
            at,
            &format!(
                "must be a kind name or a list of words, not {}",
                type_name(other)
            ),
        )),
    }
}

/// What a JSON value is, for messages.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `--long-name` or `-x`.
fn option_name(name: &str) -> bool {
    let word = |w: &str| {
        w.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
            && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    name.len() <= MAX_WORD
        && match name.strip_prefix("--") {
            Some(long) => word(long),
            None => name.len() == 2 && name.starts_with('-') && word(&name[1..]),
        }
}

/// A word a shell inserts as it is: no blank, quote or shell character.
fn plain_word(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= MAX_WORD
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:/@+,=-".contains(&b))
}

/// The completion recorded in an ext.lock entry's fields, checked again
/// (the file may have been edited by hand): nothing when it cannot be read.
pub fn from_lock(extra: &BTreeMap<String, Value>, commands: &[String]) -> Completion {
    let Some(value) = extra.get("completion") else {
        return Completion::new();
    };
    let mut fields = Map::new();
    fields.insert("completion".into(), value.clone());
    parse(&fields, commands).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: &str) -> Result<Completion, String> {
        let v: Value = serde_json::from_str(json).unwrap();
        let Value::Object(m) = v else { panic!() };
        parse(&m, &["note".to_string()]).map_err(|e| e.to_string())
    }

    #[test]
    fn a_full_declaration_becomes_lines_and_back() {
        let c = check(
            r#"{"completion": {"note": {"options": {"--tag": ["todo", "done"], "-f": "file", "--all": "flag"},
                "args": ["pane", "dir"], "subcommands": {"add": {"args": ["agent", "session"]}}}}}"#,
        )
        .unwrap();
        assert_eq!(
            lines_of(&c),
            [
                "note\t\tsub\tadd\t",
                "note\t\topt\t--all\tflag",
                "note\t\topt\t--tag\tone-of todo done",
                "note\t\topt\t-f\tfile",
                "note\t\targ\t0\tpane",
                "note\t\targ\t1\tdir",
                "note\tadd\targ\t0\tagent",
                "note\tadd\targ\t1\tsession",
            ]
        );
        let again = from_lock(
            &[("completion".to_string(), to_value(&c))].into(),
            &["note".to_string()],
        );
        assert_eq!(again, c);
    }

    #[test]
    fn unknown_kinds_fields_and_commands_are_refused_naming_them() {
        for (json, says) in [
            (
                r#"{"note": {"args": ["fiel"]}}"#,
                "completion.note.args[0]\" names the unknown kind \"fiel\"",
            ),
            (r#"{"note": {"args": ["flag"]}}"#, "only an option"),
            (
                r#"{"note": {"optoins": {}}}"#,
                "completion.note.optoins\" is not known",
            ),
            (
                r#"{"other": {}}"#,
                "completion.other\" is not one of the manifest's commands",
            ),
            (
                r#"{"note": {"options": {"tag": "file"}}}"#,
                "is not an option name",
            ),
            (
                r#"{"note": {"options": {"--t": ["a b"]}}}"#,
                "is not a plain word",
            ),
            (r#"{"note": {"options": {"--t": []}}}"#, "lists 0 words"),
            (
                r#"{"note": {"subcommands": {"a": {"subcommands": {"b": {"subcommands": {}}}}}}}"#,
                "nests deeper than 3",
            ),
            (r#"{"note": {"args": "file"}}"#, "must be an array"),
            (r#"[1]"#, "must be an object"),
        ] {
            let err = check(&format!("{{\"completion\": {json}}}")).unwrap_err();
            assert!(err.contains(says), "{json}: {err}");
        }
        let many: Vec<String> = (0..65).map(|i| format!("\"w{i}\"")).collect();
        let err = check(&format!(
            r#"{{"completion": {{"note": {{"args": [[{}]]}}}}}}"#,
            many.join(",")
        ))
        .unwrap_err();
        assert!(err.contains("lists 65 words"), "{err}");
    }
}
