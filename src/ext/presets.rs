//! A manifest's `agents`: presets that teach roost an agent CLI as data
//! (no program of the extension runs for them). Parsed and validated here,
//! whole or refused: a preset that lacks what its style needs would be an
//! agent roost starts and then cannot talk to, so it never installs. Also
//! the consent line that says literally what will run, and the screen
//! rules' matcher `ext check` runs against an extension's fixtures.

use super::error::ExtError;
use super::json_type::type_name;
use crate::index::valid_name;
use crate::untrusted::printable;
use serde_json::{Map, Value};

/// Presets one extension may declare.
pub const MAX_AGENTS: usize = 16;
/// Fixed arguments of one preset, and words of its resume template.
pub const MAX_ARGS: usize = 32;
/// Longest argument, program name, option or rule text.
pub const MAX_WORD: usize = 256;
/// Screen rules of one preset.
pub const MAX_RULES: usize = 32;
/// The most screen lines (counted from the bottom) a rule looks at.
pub const MAX_SCREEN_LINES: u64 = 40;
/// The longest settle time, in milliseconds.
pub const MAX_SETTLE_MS: u64 = 10_000;

/// The word a resume template must hold where the session id goes.
pub const ID: &str = "{id}";

/// The name `roost hook` takes for agents roost does not know.
const GENERIC: &str = "generic";

/// One preset as validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preset {
    /// The word typed at spawn (`roost spawn x qwen`).
    pub name: String,
    /// The program on PATH.
    pub program: String,
    /// Fixed arguments, after the program.
    pub args: Vec<String>,
    pub first_message: FirstMessage,
    /// The words after the fixed arguments that resume a session; exactly
    /// one holds `{id}`.
    pub resume: Vec<String>,
    /// Its own hooks call `roost hook NAME EVENT` with the generic payload.
    pub hooks: bool,
    /// Literal screen rules, read only where no hook has reported.
    pub screen: Option<Screen>,
    /// Whether a message is sent to it as a bracketed paste.
    pub bracketed_paste: bool,
    /// How long roost waits after pasting, before it presses Enter.
    pub settle_ms: u64,
    /// What `roost close` types and submits to end it as a person would
    /// (`/quit`); none: close refuses it, and kill ends it.
    pub exit: Option<String>,
}

/// How a preset's first message reaches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstMessage {
    /// The last argument of its command line.
    Argument,
    /// After this option (`-i MESSAGE`).
    Option(String),
    /// Sent into the pane once it is ready, as `roost send` does.
    Send,
}

/// Screen rules, scoped to the last `lines` lines of the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screen {
    pub lines: u64,
    pub rules: Vec<Rule>,
}

/// A literal text (no pattern language) and the state it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub state: ScreenState,
    pub text: String,
}

/// The states a screen rule can say, in their precedence: where rules of
/// several states match, the first here wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScreenState {
    Blocked,
    Working,
    Idle,
}

impl ScreenState {
    pub const ALL: [ScreenState; 3] = [
        ScreenState::Blocked,
        ScreenState::Working,
        ScreenState::Idle,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ScreenState::Blocked => "blocked",
            ScreenState::Working => "working",
            ScreenState::Idle => "idle",
        }
    }

    fn from_name(name: &str) -> Option<ScreenState> {
        ScreenState::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The keys a preset may have; any other is refused (a misspelt key would
/// otherwise leave a part of the agent silently unset).
const KEYS: [&str; 8] = [
    "name",
    "program",
    "args",
    "first_message",
    "resume",
    "state",
    "send",
    "exit",
];

/// The manifest's `agents` (absent or `null`: none).
pub fn parse(fields: &Map<String, Value>) -> Result<Vec<Preset>, ExtError> {
    parse_as(fields, Shadow::Refused)
}

/// Whether a preset may bear the name of an agent roost knows: never in a
/// manifest; in what ext.lock recorded, yes, since a later roost may have
/// made the name built in (the built-in then wins, and doctor says so).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shadow {
    Refused,
    Kept,
}

fn parse_as(fields: &Map<String, Value>, shadow: Shadow) -> Result<Vec<Preset>, ExtError> {
    let items = match fields.get("agents") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"agents\" must be an array of objects, not {}",
                type_name(other)
            )))
        }
    };
    if items.len() > MAX_AGENTS {
        return Err(ExtError::refused(format!(
            "field \"agents\" declares {} agents; the limit for one extension is {MAX_AGENTS}",
            items.len()
        )));
    }
    let mut presets: Vec<Preset> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("agents[{i}]");
        let Value::Object(obj) = item else {
            return Err(ExtError::refused(format!(
                "field \"{at}\" must be an object, not {}",
                type_name(item)
            )));
        };
        let preset = one(obj, &at, shadow)?;
        if presets.iter().any(|p| p.name == preset.name) {
            return Err(ExtError::refused(format!(
                "agent \"{}\" appears twice in \"agents\"",
                preset.name
            )));
        }
        presets.push(preset);
    }
    Ok(presets)
}

fn one(obj: &Map<String, Value>, at: &str, shadow: Shadow) -> Result<Preset, ExtError> {
    if let Some(key) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(ExtError::refused(format!(
            "field \"{at}\": unknown key \"{}\" (a preset has: {})",
            printable(key.as_bytes()),
            KEYS.join(", ")
        )));
    }
    let name = string(obj, at, "name")?;
    if !valid_name(name.as_bytes()) {
        return Err(ExtError::refused(format!(
            "field \"{at}.name\": \"{}\" is not a valid name (a lowercase letter, then a-z, 0-9 or '-', at most 32 characters)",
            printable(name.as_bytes())
        )));
    }
    if let Some(what) = shadows_builtin(&name).filter(|_| shadow == Shadow::Refused) {
        return Err(ExtError::refused(format!(
            "agent \"{name}\" is {what}; a preset cannot shadow it"
        )));
    }
    let at = format!("{at} (agent \"{name}\")");
    let program = string(obj, &at, "program")?;
    if program.is_empty() || program.contains('/') || program.starts_with('-') {
        return Err(ExtError::refused(format!(
            "field \"program\" of {at}: \"{}\" must be a program's name on PATH (no '/', not starting with '-')",
            printable(program.as_bytes())
        )));
    }
    if program.chars().any(char::is_whitespace) || program.len() > MAX_WORD {
        return Err(ExtError::refused(format!(
            "field \"program\" of {at} must be one word of at most {MAX_WORD} bytes"
        )));
    }
    let args = words(obj, &at, "args", false)?;
    if args.iter().any(|a| a.contains(ID)) {
        return Err(ExtError::refused(format!(
            "field \"args\" of {at} holds {ID}: the session id belongs in \"resume\" only"
        )));
    }
    let resume = resume(obj, &at)?;
    let (hooks, screen) = state(obj, &at)?;
    let first_message = first_message(obj, &at)?;
    if first_message == FirstMessage::Send
        && !hooks
        && !screen
            .as_ref()
            .is_some_and(|s| s.rules.iter().any(|r| r.state == ScreenState::Idle))
    {
        return Err(ExtError::refused(format!(
            "{at}: a first message sent into the pane needs to know when the agent is ready: \
             set \"state\".\"hooks\" to true or add an \"idle\" screen rule"
        )));
    }
    let (bracketed_paste, settle_ms) = send(obj, &at)?;
    let exit = exit(obj, &at)?;
    Ok(Preset {
        name,
        program,
        args,
        first_message,
        resume,
        hooks,
        screen,
        bracketed_paste,
        settle_ms,
        exit,
    })
}

/// The optional `exit`: one line of text, typed and submitted.
fn exit(obj: &Map<String, Value>, at: &str) -> Result<Option<String>, ExtError> {
    let text = match obj.get("exit") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(text)) => text,
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"exit\" of {at} must be a string, not {}",
                type_name(other)
            )))
        }
    };
    if text.trim().is_empty() || text.len() > MAX_WORD || text.chars().any(char::is_control) {
        return Err(ExtError::refused(format!(
            "field \"exit\" of {at} must be the text that ends the agent, typed at its prompt: 1 to {MAX_WORD} bytes on one line, no control characters"
        )));
    }
    Ok(Some(text.clone()))
}

/// What a name is when roost already knows it: a built-in agent, or the
/// name `roost hook` takes for any CLI.
pub fn shadows_builtin(name: &str) -> Option<&'static str> {
    if crate::agents::Agent::from_name(name).is_some() {
        Some("an agent roost knows")
    } else if name == GENERIC {
        Some("the name roost gives any other agent")
    } else {
        None
    }
}

fn resume(obj: &Map<String, Value>, at: &str) -> Result<Vec<String>, ExtError> {
    let resume = words(obj, at, "resume", true)?;
    let holding = resume.iter().filter(|w| w.contains(ID)).count();
    let in_one = resume.iter().all(|w| w.matches(ID).count() <= 1);
    if holding != 1 || !in_one {
        return Err(ExtError::refused(format!(
            "field \"resume\" of {at} must hold {ID} exactly once: roost resumes an agent by its exact session id, never \"the most recent\" one"
        )));
    }
    Ok(resume)
}

fn state(obj: &Map<String, Value>, at: &str) -> Result<(bool, Option<Screen>), ExtError> {
    let state = object(obj, at, "state")?;
    let at = format!("{at}.state");
    let hooks = match state.get("hooks") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"hooks\" of {at} must be true or false, not {}",
                type_name(other)
            )))
        }
    };
    let screen = match state.get("rules") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(rules(state, items, &at)?),
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"rules\" of {at} must be an array of objects, not {}",
                type_name(other)
            )))
        }
    };
    if let Some(key) = state
        .keys()
        .find(|k| !["hooks", "rules", "screen_lines"].contains(&k.as_str()))
    {
        return Err(ExtError::refused(format!(
            "field \"{at}\": unknown key \"{}\" (it has: hooks, screen_lines, rules)",
            printable(key.as_bytes())
        )));
    }
    if !hooks && screen.is_none() {
        return Err(ExtError::refused(format!(
            "{at} gives roost no way to know the agent's state: set \"hooks\" to true or add screen \"rules\""
        )));
    }
    if screen.is_none() && state.get("screen_lines").is_some() {
        return Err(ExtError::refused(format!(
            "field \"screen_lines\" of {at} is given without \"rules\""
        )));
    }
    Ok((hooks, screen))
}

fn rules(state: &Map<String, Value>, items: &[Value], at: &str) -> Result<Screen, ExtError> {
    if items.is_empty() || items.len() > MAX_RULES {
        return Err(ExtError::refused(format!(
            "field \"rules\" of {at} must hold 1 to {MAX_RULES} rules, not {}",
            items.len()
        )));
    }
    let lines = match state.get("screen_lines") {
        Some(Value::Number(n)) => n.as_u64().filter(|n| (1..=MAX_SCREEN_LINES).contains(n)),
        None | Some(Value::Null) => {
            return Err(ExtError::refused(format!(
                "field \"screen_lines\" of {at} is required with \"rules\": how many lines at the bottom of the screen they read"
            )))
        }
        Some(_) => None,
    }
    .ok_or_else(|| {
        ExtError::refused(format!(
            "field \"screen_lines\" of {at} must be a whole number from 1 to {MAX_SCREEN_LINES}"
        ))
    })?;
    let mut rules = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let here = format!("{at}.rules[{i}]");
        let Value::Object(rule) = item else {
            return Err(ExtError::refused(format!(
                "field \"{here}\" must be an object, not {}",
                type_name(item)
            )));
        };
        let said = string(rule, &here, "state")?;
        let state = ScreenState::from_name(&said).ok_or_else(|| {
            ExtError::refused(format!(
                "field \"state\" of {here}: \"{}\" is not a state a rule can say (blocked, working or idle)",
                printable(said.as_bytes())
            ))
        })?;
        let text = string(rule, &here, "text")?;
        if text.trim().is_empty() || text.len() > MAX_WORD {
            return Err(ExtError::refused(format!(
                "field \"text\" of {here} must be literal text of 1 to {MAX_WORD} bytes, not only spaces"
            )));
        }
        if let Some(key) = rule.keys().find(|k| *k != "state" && *k != "text") {
            return Err(ExtError::refused(format!(
                "field \"{here}\": unknown key \"{}\" (a rule has: state, text)",
                printable(key.as_bytes())
            )));
        }
        rules.push(Rule { state, text });
    }
    Ok(Screen { lines, rules })
}

fn first_message(obj: &Map<String, Value>, at: &str) -> Result<FirstMessage, ExtError> {
    let first = object(obj, at, "first_message")?;
    let here = format!("{at}.first_message");
    let by = string(first, &here, "by")?;
    let message = match by.as_str() {
        "argument" => FirstMessage::Argument,
        "send" => FirstMessage::Send,
        "option" => {
            let option = string(first, &here, "option").map_err(|e| {
                e.reword(|m| format!("{m}: a first message given by option needs the option"))
            })?;
            if !option.starts_with('-') || option.len() > MAX_WORD || option.contains(' ') {
                return Err(ExtError::refused(format!(
                    "field \"option\" of {here}: \"{}\" must be one option word starting with '-'",
                    printable(option.as_bytes())
                )));
            }
            FirstMessage::Option(option)
        }
        other => {
            return Err(ExtError::refused(format!(
                "field \"by\" of {here}: \"{}\" is not a way roost delivers a first message (argument, option or send)",
                printable(other.as_bytes())
            )))
        }
    };
    let allowed: &[&str] = match message {
        FirstMessage::Option(_) => &["by", "option"],
        _ => &["by"],
    };
    if let Some(key) = first.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(ExtError::refused(format!(
            "field \"{here}\": key \"{}\" does not go with \"by\": \"{by}\"",
            printable(key.as_bytes())
        )));
    }
    Ok(message)
}

fn send(obj: &Map<String, Value>, at: &str) -> Result<(bool, u64), ExtError> {
    let send = object(obj, at, "send")?;
    let here = format!("{at}.send");
    let paste = match send.get("bracketed_paste") {
        Some(Value::Bool(b)) => *b,
        None | Some(Value::Null) => {
            return Err(ExtError::refused(format!(
                "field \"bracketed_paste\" of {here} is required (true or false)"
            )))
        }
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"bracketed_paste\" of {here} must be true or false, not {}",
                type_name(other)
            )))
        }
    };
    let settle = match send.get("settle_ms") {
        None | Some(Value::Null) => {
            return Err(ExtError::refused(format!(
                "field \"settle_ms\" of {here} is required (milliseconds between the message and Enter)"
            )))
        }
        Some(Value::Number(n)) => n.as_u64().filter(|n| *n <= MAX_SETTLE_MS),
        Some(_) => None,
    }
    .ok_or_else(|| {
        ExtError::refused(format!(
            "field \"settle_ms\" of {here} must be a whole number from 0 to {MAX_SETTLE_MS}"
        ))
    })?;
    if let Some(key) = send
        .keys()
        .find(|k| *k != "bracketed_paste" && *k != "settle_ms")
    {
        return Err(ExtError::refused(format!(
            "field \"{here}\": unknown key \"{}\" (it has: bracketed_paste, settle_ms)",
            printable(key.as_bytes())
        )));
    }
    Ok((paste, settle))
}

fn object<'a>(
    obj: &'a Map<String, Value>,
    at: &str,
    key: &str,
) -> Result<&'a Map<String, Value>, ExtError> {
    match obj.get(key) {
        Some(Value::Object(inner)) => Ok(inner),
        None | Some(Value::Null) => Err(ExtError::refused(format!(
            "field \"{key}\" of {at} is required"
        ))),
        Some(other) => Err(ExtError::refused(format!(
            "field \"{key}\" of {at} must be an object, not {}",
            type_name(other)
        ))),
    }
}

fn string(obj: &Map<String, Value>, at: &str, key: &str) -> Result<String, ExtError> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        None | Some(Value::Null) => Err(ExtError::refused(format!(
            "field \"{key}\" of {at} is required"
        ))),
        Some(other) => Err(ExtError::refused(format!(
            "field \"{key}\" of {at} must be a string, not {}",
            type_name(other)
        ))),
    }
}

/// An array of words; `required` refuses it absent or empty.
fn words(
    obj: &Map<String, Value>,
    at: &str,
    key: &str,
    required: bool,
) -> Result<Vec<String>, ExtError> {
    let items = match obj.get(key) {
        Some(Value::Array(items)) => items,
        None | Some(Value::Null) if !required => return Ok(Vec::new()),
        None | Some(Value::Null) => {
            return Err(ExtError::refused(format!(
                "field \"{key}\" of {at} is required"
            )))
        }
        Some(other) => {
            return Err(ExtError::refused(format!(
                "field \"{key}\" of {at} must be an array of strings, not {}",
                type_name(other)
            )))
        }
    };
    if items.len() > MAX_ARGS {
        return Err(ExtError::refused(format!(
            "field \"{key}\" of {at} has {} words; the limit is {MAX_ARGS}",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) if s.len() <= MAX_WORD => Ok(s.clone()),
            Value::String(_) => Err(ExtError::refused(format!(
                "field \"{key}[{i}]\" of {at} is longer than {MAX_WORD} bytes"
            ))),
            other => Err(ExtError::refused(format!(
                "field \"{key}[{i}]\" of {at} must be a string, not {}",
                type_name(other)
            ))),
        })
        .collect()
}

impl Preset {
    /// The command line that starts it, as the consent block shows it.
    pub fn started_as(&self) -> String {
        shell_words(std::iter::once(&self.program).chain(&self.args))
    }

    /// The command line that resumes session ID.
    pub fn resumed_as(&self) -> String {
        let resume: Vec<String> = self.resume.iter().map(|w| w.replace(ID, "ID")).collect();
        shell_words(
            std::iter::once(&self.program)
                .chain(&self.args)
                .chain(&resume),
        )
    }

    /// "the agent `qwen`: started as `qwen`, resumed as `qwen --resume
    /// ID`, state from its hooks, else by 2 screen rules": what consent
    /// shows after "teaches roost".
    pub fn consent_line(&self) -> String {
        let rules = self.screen.as_ref().map_or(0, |s| s.rules.len());
        let by_rules = match rules {
            1 => "1 screen rule".to_string(),
            n => format!("{n} screen rules"),
        };
        let state = match (self.hooks, rules) {
            (true, 0) => "state from its hooks".to_string(),
            (true, _) => format!("state from its hooks, else by {by_rules}"),
            (false, _) => format!("state by {by_rules}"),
        };
        let closed = match &self.exit {
            Some(text) => format!(", closed by typing `{}`", printable(text.as_bytes())),
            None => String::new(),
        };
        format!(
            "the agent `{}`: started as `{}`, resumed as `{}`, {state}{closed}",
            self.name,
            self.started_as(),
            self.resumed_as()
        )
    }

    /// The state the screen rules give `screen` (its text, lines separated
    /// by '\n'), and the rule that gave it: of the rules matching within
    /// the last `lines` lines, the one whose state comes first in
    /// precedence (blocked, working, idle), the first declared among those.
    pub fn screen_state(&self, screen: &str) -> Option<(ScreenState, &Rule)> {
        let rules = self.screen.as_ref()?;
        let lines: Vec<&str> = screen.trim_end_matches('\n').lines().collect();
        let from = lines.len().saturating_sub(rules.lines as usize);
        let tail = lines[from..].join("\n");
        ScreenState::ALL.into_iter().find_map(|state| {
            rules
                .rules
                .iter()
                .find(|r| r.state == state && tail.contains(&r.text))
                .map(|r| (state, r))
        })
    }
}

/// The key under which ext.lock keeps an entry's presets, in the form the
/// manifest declared them (`to_value`), so that a rollback's `previous`
/// carries them back with the pin.
pub const LOCK_KEY: &str = "agents";

/// Presets in the manifest's own form: what ext.lock records.
pub fn to_value(presets: &[Preset]) -> Value {
    Value::Array(
        presets
            .iter()
            .map(|p| {
                let first = match &p.first_message {
                    FirstMessage::Argument => serde_json::json!({"by": "argument"}),
                    FirstMessage::Option(o) => serde_json::json!({"by": "option", "option": o}),
                    FirstMessage::Send => serde_json::json!({"by": "send"}),
                };
                let mut state = serde_json::json!({"hooks": p.hooks});
                if let Some(screen) = &p.screen {
                    state["screen_lines"] = screen.lines.into();
                    state["rules"] = screen
                        .rules
                        .iter()
                        .map(|r| serde_json::json!({"state": r.state.name(), "text": r.text}))
                        .collect();
                }
                let mut value = serde_json::json!({
                    "name": p.name,
                    "program": p.program,
                    "args": p.args,
                    "first_message": first,
                    "resume": p.resume,
                    "state": state,
                    "send": {"bracketed_paste": p.bracketed_paste, "settle_ms": p.settle_ms},
                });
                if let Some(exit) = &p.exit {
                    value["exit"] = exit.as_str().into();
                }
                value
            })
            .collect(),
    )
}

/// The presets an ext.lock entry records (`LOCK_KEY` among its fields),
/// read back through the same validation as a manifest's: a hand edit that
/// breaks one yields none rather than half an agent.
pub fn recorded(extra: &std::collections::BTreeMap<String, Value>) -> Vec<Preset> {
    let Some(value) = extra.get(LOCK_KEY) else {
        return Vec::new();
    };
    let mut fields = Map::new();
    fields.insert(LOCK_KEY.to_string(), value.clone());
    parse_as(&fields, Shadow::Kept).unwrap_or_default()
}

/// Words as a shell would need them to read back the same, each escaped
/// for the terminal (they came from the extension).
fn shell_words<'a>(words: impl Iterator<Item = &'a String>) -> String {
    words
        .map(|w| {
            let plain = !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_=.,:/@+%{}".contains(&b));
            if plain {
                printable(w.as_bytes())
            } else {
                format!("'{}'", printable(w.replace('\'', "'\\''").as_bytes()))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn qwen() -> Value {
        json!({
            "name": "qwen",
            "program": "qwen",
            "args": ["--approval-mode", "default"],
            "first_message": {"by": "option", "option": "-i"},
            "resume": ["--resume", "{id}"],
            "state": {
                "hooks": true,
                "screen_lines": 4,
                "rules": [
                    {"state": "blocked", "text": "Allow execution"},
                    {"state": "idle", "text": "Type your message"}
                ]
            },
            "send": {"bracketed_paste": true, "settle_ms": 300}
        })
    }

    fn parsed(agents: Value) -> Result<Vec<Preset>, String> {
        let mut fields = Map::new();
        fields.insert("agents".into(), agents);
        parse(&fields).map_err(|e| e.to_string())
    }

    /// The qwen preset with `path` (dotted) set to `value`, or removed
    /// when `value` is `None`.
    fn with(path: &str, value: Option<Value>) -> Value {
        let mut preset = qwen();
        let mut keys: Vec<&str> = path.split('.').collect();
        let last = keys.pop().unwrap();
        let mut at = &mut preset;
        for k in keys {
            at = at.get_mut(k).unwrap();
        }
        let obj = at.as_object_mut().unwrap();
        match value {
            Some(v) => obj.insert(last.into(), v),
            None => obj.remove(last),
        };
        json!([preset])
    }

    fn refusal(agents: Value) -> String {
        match parsed(agents) {
            Ok(p) => panic!("accepted: {p:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn a_full_preset_is_read_and_shown_literally() {
        let p = parsed(json!([qwen()])).unwrap().remove(0);
        assert_eq!(p.first_message, FirstMessage::Option("-i".into()));
        assert_eq!(p.screen.as_ref().unwrap().lines, 4);
        assert_eq!(
            p.consent_line(),
            "the agent `qwen`: started as `qwen --approval-mode default`, \
             resumed as `qwen --approval-mode default --resume ID`, \
             state from its hooks, else by 2 screen rules"
        );
        assert_eq!(parsed(Value::Null).unwrap(), Vec::new());
    }

    #[test]
    fn every_incomplete_form_is_refused_naming_what_is_missing() {
        for (path, value, want) in [
            ("name", None, "field \"name\" of agents[0] is required"),
            ("program", None, "field \"program\" of agents[0] (agent \"qwen\") is required"),
            ("first_message", None, "field \"first_message\" of agents[0] (agent \"qwen\") is required"),
            ("first_message.option", None, "a first message given by option needs the option"),
            ("resume", None, "field \"resume\" of agents[0] (agent \"qwen\") is required"),
            ("resume", Some(json!(["--continue"])), "must hold {id} exactly once"),
            ("resume", Some(json!(["--resume", "{id}", "{id}"])), "must hold {id} exactly once"),
            ("state", None, "field \"state\" of agents[0] (agent \"qwen\") is required"),
            ("state", Some(json!({"hooks": false})), "gives roost no way to know the agent's state"),
            ("state.screen_lines", None, "field \"screen_lines\" of agents[0] (agent \"qwen\").state is required with \"rules\""),
            ("state.rules", Some(json!([])), "must hold 1 to 32 rules"),
            ("send", None, "field \"send\" of agents[0] (agent \"qwen\") is required"),
            ("send.bracketed_paste", None, "field \"bracketed_paste\" of agents[0] (agent \"qwen\").send is required"),
            ("send.settle_ms", None, "field \"settle_ms\" of agents[0] (agent \"qwen\").send is required"),
            ("send.settle_ms", Some(json!(10_001)), "from 0 to 10000"),
            ("program", Some(json!("/bin/sh")), "must be a program's name on PATH"),
            ("args", Some(json!(["{id}"])), "the session id belongs in \"resume\" only"),
            ("resume_latest", Some(json!(true)), "unknown key \"resume_latest\""),
            ("exit", Some(json!(3)), "field \"exit\" of agents[0] (agent \"qwen\") must be a string"),
            ("exit", Some(json!(" ")), "the text that ends the agent"),
            ("exit", Some(json!("/quit\n")), "no control characters"),
        ] {
            let got = refusal(with(path, value));
            assert!(got.contains(want), "{path}: {got}");
        }
        // Sent into the pane with no way to know it is ready.
        let mut p = qwen();
        p["first_message"] = json!({"by": "send"});
        p["state"] =
            json!({"screen_lines": 3, "rules": [{"state": "working", "text": "esc to cancel"}]});
        assert!(refusal(json!([p])).contains("needs to know when the agent is ready"));
        p["state"]["hooks"] = json!(true);
        assert!(parsed(json!([p])).is_ok());
    }

    #[test]
    fn an_exit_text_is_kept_recorded_and_shown() {
        let p = parsed(with("exit", Some(json!("/quit"))))
            .unwrap()
            .remove(0);
        assert_eq!(p.exit.as_deref(), Some("/quit"));
        assert!(
            p.consent_line().ends_with(", closed by typing `/quit`"),
            "{}",
            p.consent_line()
        );
        let mut extra = std::collections::BTreeMap::new();
        extra.insert(LOCK_KEY.to_string(), to_value(std::slice::from_ref(&p)));
        assert_eq!(recorded(&extra), vec![p]);
        let none = parsed(json!([qwen()])).unwrap().remove(0);
        assert_eq!(none.exit, None);
        assert!(!none.consent_line().contains("closed"));
    }

    #[test]
    fn a_preset_never_shadows_a_builtin_or_itself() {
        for name in ["claude", "codex", "gemini", "opencode", "aider"] {
            let got = refusal(with("name", Some(json!(name))));
            assert_eq!(
                got,
                format!("agent \"{name}\" is an agent roost knows; a preset cannot shadow it")
            );
        }
        assert!(refusal(with("name", Some(json!("generic")))).contains("cannot shadow"));
        assert_eq!(
            refusal(json!([qwen(), qwen()])),
            "agent \"qwen\" appears twice in \"agents\""
        );
    }

    #[test]
    fn screen_rules_read_the_last_lines_by_precedence() {
        let p = parsed(json!([qwen()])).unwrap().remove(0);
        let idle = "header\nAllow execution (old)\n\n\n\n\n> Type your message\n";
        let (state, rule) = p.screen_state(idle).unwrap();
        assert_eq!(
            (state, rule.text.as_str()),
            (ScreenState::Idle, "Type your message")
        );
        let both = "Allow execution of ls?\n> Type your message\n";
        assert_eq!(p.screen_state(both).unwrap().0, ScreenState::Blocked);
        assert!(p.screen_state("nothing here\n").is_none());
    }

    #[test]
    fn what_the_lock_records_reads_back_the_same() {
        let presets = parsed(json!([qwen()])).unwrap();
        let mut extra = std::collections::BTreeMap::new();
        extra.insert(LOCK_KEY.to_string(), to_value(&presets));
        assert_eq!(recorded(&extra), presets);
        extra.insert(LOCK_KEY.to_string(), json!([{"name": "qwen"}]));
        assert_eq!(recorded(&extra), Vec::new());
    }

    #[test]
    fn odd_words_are_quoted_and_escaped_in_the_consent_line() {
        let p = parsed(with("args", Some(json!(["--x", "a b", "\u{202e}"])))).unwrap();
        let line = p[0].started_as();
        assert!(line.starts_with("qwen --x 'a b' '"), "{line}");
        assert!(!line.contains('\u{202e}'), "{line}");
    }
}
