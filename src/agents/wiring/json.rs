//! The hooks of the agents whose configuration is JSON with Claude Code's
//! shape (Claude Code's settings, codex's hooks.json, Gemini CLI's
//! settings): `{"hooks": {EVENT: [{"hooks": [{"type": "command",
//! "command": …}]}]}}`. Every command roost writes ends in a mark of its
//! own, a shell comment (`… # written by roost hooks install`): that mark,
//! never what a command runs, is how roost knows what it wrote. (A field of
//! roost's own on the hook would not do: Claude Code rewrites its settings
//! without the fields it does not know.) Every change is spliced into the
//! file's text (jsontext.rs), so the rest keeps its bytes.

use super::jsontext::{self, push_item, push_member, remove_item, remove_member, JsonError, Value};
use serde::Serialize;
use std::fmt;

/// The mark at the end of every command roost writes: a shell comment, so
/// the agent's shell runs the command as if it were not there.
pub const MARK: &str = "# written by roost hooks install";

/// `command` with roost's mark.
pub fn marked(command: &str) -> String {
    format!("{command} {MARK}")
}

/// The command a marked one runs, or None when it is not marked.
pub fn unmarked(command: &str) -> Option<&str> {
    command.strip_suffix(MARK)?.strip_suffix(' ')
}

/// What roost adds to one file.
pub struct Wanted<'a> {
    pub agent: &'a str,
    /// The events, each with roost's command for it (unmarked).
    pub hooks: Vec<(&'a str, String)>,
    /// The hook's timeout, in the agent's unit.
    pub timeout: u64,
    /// A `name` field on the hook (Gemini CLI shows it).
    pub name: Option<&'a str>,
    /// Paths to add to a list (Claude Code's
    /// `sandbox.network.allowUnixSockets`): the keys to it, and the path.
    pub allow: Option<(&'a [&'a str], String)>,
}

/// Why roost cannot merge into a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    Json(JsonError),
    /// A key roost must write under holds something else: the keys to it,
    /// and what it should be.
    Shape {
        at: String,
        wanted: &'static str,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MergeError::Json(e) => e.fmt(f),
            MergeError::Shape { at, wanted } => write!(f, "its {at} is not {wanted}"),
        }
    }
}

impl From<JsonError> for MergeError {
    fn from(e: JsonError) -> MergeError {
        MergeError::Json(e)
    }
}

#[derive(Serialize)]
struct Hook<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(rename = "type")]
    kind: &'static str,
    command: &'a str,
    timeout: u64,
}

#[derive(Serialize)]
struct Group<'a> {
    hooks: [Hook<'a>; 1],
}

/// Who wrote a group of hooks.
#[derive(Debug, PartialEq, Eq)]
enum Owner {
    /// roost's mark ends every command in it.
    Roost,
    /// Exactly what a roost from before the mark wrote: one hook, the
    /// fields it wrote and nothing else, running `roost hook AGENT EVENT`
    /// for the event it is listed under.
    OldRoost,
    Other,
}

/// The words after the program of a command `…/roost hook AGENT …`.
fn hook_words(command: &str) -> Option<Vec<String>> {
    let words = shell_words::split(command).ok()?;
    let (program, rest) = words.split_first()?;
    (program.rsplit('/').next() == Some("roost")
        && rest.first().map(String::as_str) == Some("hook"))
    .then(|| rest[1..].to_vec())
}

fn owner(group: &Value, agent: &str, event: &str) -> Owner {
    let Some(hooks) = group.get("hooks").filter(|h| h.is_array()) else {
        return Owner::Other;
    };
    let marked = |h: &Value| {
        h.get("command")
            .and_then(Value::as_str)
            .and_then(unmarked)
            .and_then(hook_words)
            .is_some_and(|w| w.first().map(String::as_str) == Some(agent))
    };
    let items = hooks.items();
    if !items.is_empty() && items.iter().all(marked) {
        return Owner::Roost;
    }
    let [hook] = items else {
        return Owner::Other;
    };
    let group_keys: Vec<&str> = group.members().iter().map(|m| m.key.as_str()).collect();
    let keys: Vec<&str> = hook.members().iter().map(|m| m.key.as_str()).collect();
    let fields_as_written = keys
        .iter()
        .all(|k| matches!(*k, "name" | "type" | "command" | "timeout"))
        && ["type", "command", "timeout"]
            .iter()
            .all(|k| keys.contains(k));
    let old = group_keys == ["hooks"]
        && fields_as_written
        && hook.get("type").and_then(Value::as_str) == Some("command")
        && hook.get("name").is_none_or(|n| n.as_str() == Some("roost"))
        && hook
            .get("command")
            .and_then(Value::as_str)
            .and_then(hook_words)
            .is_some_and(|w| w == [agent, event]);
    if old {
        Owner::OldRoost
    } else {
        Owner::Other
    }
}

/// The top-level object of a text roost has made or checked.
fn root(text: &str) -> Result<Value, MergeError> {
    jsontext::parse(text)?.ok_or(MergeError::Json(JsonError::NotObject))
}

fn shape(at: &[&str], wanted: &'static str) -> MergeError {
    let at = at
        .iter()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(".");
    MergeError::Shape { at, wanted }
}

/// The first of roost's groups (this roost's or an older one's) in
/// `root`: its event, the event's index among the hooks, and its own index.
fn first_roost_group(root: &Value, agent: &str) -> Option<(String, usize, usize)> {
    let hooks = root.get("hooks")?;
    hooks.members().iter().enumerate().find_map(|(j, m)| {
        m.value
            .items()
            .iter()
            .position(|g| owner(g, agent, &m.key) != Owner::Other)
            .map(|i| (m.key.clone(), j, i))
    })
}

/// Checks the document before an edit: an object whose `"hooks"`, when
/// there, is an object of lists.
pub fn check(text: &str) -> Result<Option<Value>, MergeError> {
    let Some(r) = jsontext::parse(text)? else {
        return Ok(None);
    };
    if let Some(hooks) = r.get("hooks") {
        if !hooks.is_object() {
            return Err(shape(&["hooks"], "an object"));
        }
    }
    Ok(Some(r))
}

/// The text with roost's hooks in it, every earlier group of roost's
/// taken out first.
pub fn install(old: &str, w: &Wanted) -> Result<String, MergeError> {
    let mut text = match check(old)? {
        Some(_) => old.to_string(),
        None => "{\n}\n".to_string(),
    };
    while let Some((event, _, i)) = first_roost_group(&root(&text)?, w.agent) {
        let r = root(&text)?;
        let list = r.at(&["hooks", &event]).expect("found there");
        text = remove_item(&text, list, i);
    }
    for (event, command) in &w.hooks {
        let r = root(&text)?;
        let Some(hooks) = r.get("hooks") else {
            text = push_member(&text, &r, &r, "hooks", &serde_json::json!({}));
            let r = root(&text)?;
            text = push_member(
                &text,
                &r,
                r.get("hooks").expect("made"),
                event,
                &serde_json::json!([]),
            );
            text = push_group(&text, w, event, command)?;
            continue;
        };
        match hooks.get(event) {
            None => text = push_member(&text, &r, hooks, event, &serde_json::json!([])),
            Some(list) if !list.is_array() => return Err(shape(&["hooks", event], "a list")),
            Some(_) => {}
        }
        text = push_group(&text, w, event, command)?;
    }
    if let Some((keys, path)) = &w.allow {
        for depth in 1..=keys.len() {
            let r = root(&text)?;
            let last = depth == keys.len();
            match r.at(&keys[..depth]) {
                None => {
                    let parent = r.at(&keys[..depth - 1]).expect("made above");
                    text = if last {
                        push_member(&text, &r, parent, keys[depth - 1], &serde_json::json!([]))
                    } else {
                        push_member(&text, &r, parent, keys[depth - 1], &serde_json::json!({}))
                    };
                }
                Some(v) if last && !v.is_array() => return Err(shape(keys, "a list")),
                Some(v) if !last && !v.is_object() => {
                    return Err(shape(&keys[..depth], "an object"))
                }
                Some(_) => {}
            }
        }
        let r = root(&text)?;
        let list = r.at(keys).expect("made above");
        if !list.items().iter().any(|v| v.as_str() == Some(path)) {
            text = push_item(&text, &r, list, path);
        }
    }
    Ok(text)
}

fn push_group(text: &str, w: &Wanted, event: &str, command: &str) -> Result<String, MergeError> {
    let r = root(text)?;
    let list = r.at(&["hooks", event]).expect("made by the caller");
    let command = marked(command);
    let group = Group {
        hooks: [Hook {
            name: w.name,
            kind: "command",
            command: &command,
            timeout: w.timeout,
        }],
    };
    Ok(push_item(text, &r, list, &group))
}

/// The text without roost's hooks for `agent`. `allow` (keys and path) is
/// taken out too unless `before` (the file before roost's first change)
/// had it; lists and objects left empty go unless `before` had them.
pub fn strip(
    text: &str,
    agent: &str,
    allow: Option<(&[&str], &str)>,
    before: Option<&str>,
) -> Result<String, MergeError> {
    let before = before.and_then(|b| jsontext::parse(b).ok().flatten());
    let had = |path: &[&str]| before.as_ref().is_some_and(|b| b.at(path).is_some());
    let mut text = text.to_string();
    if check(&text)?.is_none() {
        return Ok(text);
    }
    while let Some((event, j, i)) = first_roost_group(&root(&text)?, agent) {
        let r = root(&text)?;
        let list = r.at(&["hooks", &event]).expect("found there");
        let emptied = list.items().len() == 1;
        text = remove_item(&text, list, i);
        if emptied && !had(&["hooks", &event]) {
            let r = root(&text)?;
            text = remove_member(&text, r.get("hooks").expect("there"), j);
        }
        let r = root(&text)?;
        if r.get("hooks").is_some_and(|h| h.members().is_empty()) && !had(&["hooks"]) {
            let at = r
                .members()
                .iter()
                .position(|m| m.key == "hooks")
                .expect("there");
            text = remove_member(&text, &r, at);
        }
    }
    if let Some((keys, path)) = allow {
        let in_before = before
            .as_ref()
            .and_then(|b| b.at(keys))
            .is_some_and(|l| l.items().iter().any(|v| v.as_str() == Some(path)));
        if !in_before {
            let r = root(&text)?;
            if let Some(list) = r.at(keys) {
                if let Some(i) = list.items().iter().position(|v| v.as_str() == Some(path)) {
                    text = remove_item(&text, list, i);
                }
            }
            // Empty containers roost made go, innermost first.
            for depth in (1..=keys.len()).rev() {
                let r = root(&text)?;
                let path = &keys[..depth];
                let Some(v) = r.at(path) else { continue };
                let empty = (v.is_array() && v.items().is_empty())
                    || (v.is_object() && v.members().is_empty());
                if empty && !had(path) {
                    let parent = r.at(&path[..depth - 1]).expect("above it");
                    let at = parent
                        .members()
                        .iter()
                        .position(|m| m.key == path[depth - 1])
                        .expect("there");
                    text = remove_member(&text, parent, at);
                }
            }
        }
    }
    Ok(text)
}

/// How roost's hooks stand in a document: roost's groups (event, and the
/// command without its mark), and how many groups an older roost wrote.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub marked: Vec<(String, String)>,
    pub old: usize,
}

pub fn found(root: &Value, agent: &str) -> Found {
    let mut out = Found::default();
    let Some(hooks) = root.get("hooks") else {
        return out;
    };
    for m in hooks.members() {
        for group in m.value.items() {
            match owner(group, agent, &m.key) {
                Owner::Roost => {
                    for h in group.get("hooks").map(Value::items).unwrap_or_default() {
                        if let Some(c) = h.get("command").and_then(Value::as_str).and_then(unmarked)
                        {
                            out.marked.push((m.key.clone(), c.to_string()));
                        }
                    }
                }
                Owner::OldRoost => out.old += 1,
                Owner::Other => {}
            }
        }
    }
    out
}

/// Where each of roost's groups sits: the event and the group's index in
/// its list (codex keys its trust by them).
pub fn positions(root: &Value, agent: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    if let Some(hooks) = root.get("hooks") {
        for m in hooks.members() {
            for (i, g) in m.value.items().iter().enumerate() {
                if owner(g, agent, &m.key) == Owner::Roost {
                    out.push((m.key.clone(), i));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted() -> Wanted<'static> {
        Wanted {
            agent: "claude",
            hooks: vec![
                ("Stop", "/bin/roost hook claude Stop".into()),
                (
                    "UserPromptSubmit",
                    "/bin/roost hook claude UserPromptSubmit".into(),
                ),
            ],
            timeout: 10,
            name: None,
            allow: Some((
                &["sandbox", "network", "allowUnixSockets"],
                "/tmp/tmux-0".into(),
            )),
        }
    }

    const KEYS: &[&str] = &["sandbox", "network", "allowUnixSockets"];

    #[test]
    fn a_fresh_file_gets_roost_hooks_and_loses_them_again() {
        let done = install("", &wanted()).unwrap();
        assert_eq!(found(&root(&done).unwrap(), "claude").marked.len(), 2);
        assert_eq!(install(&done, &wanted()).unwrap(), done);
        assert!(
            done.contains("claude Stop # written by roost hooks install\""),
            "{done}"
        );
        let back = strip(&done, "claude", Some((KEYS, "/tmp/tmux-0")), None).unwrap();
        assert_eq!(back, "{}\n");
    }

    #[test]
    fn every_other_byte_stays_and_strip_gives_the_text_back() {
        let text = "{\"n\":12345678901234567890123,\"e\":1e2,\"z\":-0,\"s\":\"\\u00e9\",\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"roost hook claude Stop && notify-send done\"}]}],\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"roost hook claude PreToolUse --audit f\"}]}]},\"sandbox\":{\"network\":{\"allowUnixSockets\":[\"/var/run/docker.sock\"]}}}";
        let once = install(text, &wanted()).unwrap();
        for kept in [
            "12345678901234567890123",
            "1e2",
            "-0",
            "\\u00e9",
            "notify-send done",
            "--audit f",
        ] {
            assert!(once.contains(kept), "{kept}: {once}");
        }
        assert_eq!(install(&once, &wanted()).unwrap(), once);
        let r = root(&once).unwrap();
        assert_eq!(r.at(&["hooks", "Stop"]).unwrap().items().len(), 2);
        assert_eq!(r.at(&["hooks", "PreToolUse"]).unwrap().items().len(), 1);
        let back = strip(&once, "claude", Some((KEYS, "/tmp/tmux-0")), Some(text)).unwrap();
        assert_eq!(back, text);
    }

    #[test]
    fn what_an_older_roost_wrote_is_replaced_and_lookalikes_are_not() {
        let old = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/old/roost hook claude Stop","timeout":10}]},{"hooks":[{"type":"command","command":"/old/roost hook claude Stop","timeout":10,"x":1}]},{"hooks":[{"type":"command","command":"/old/roost hook claude Other","timeout":10}]}]}}"#;
        let r = root(old).unwrap();
        assert_eq!(
            found(&r, "claude"),
            Found {
                marked: vec![],
                old: 1
            }
        );
        let new = install(old, &wanted()).unwrap();
        let f = found(&root(&new).unwrap(), "claude");
        assert_eq!((f.marked.len(), f.old), (2, 0));
        assert_eq!(
            root(&new)
                .unwrap()
                .at(&["hooks", "Stop"])
                .unwrap()
                .items()
                .len(),
            3
        );
    }

    #[test]
    fn a_file_of_another_shape_is_refused() {
        let e = install(r#"{"hooks":[]}"#, &wanted()).unwrap_err();
        assert_eq!(e.to_string(), "its \"hooks\" is not an object");
        let e = install(r#"{"hooks":{"Stop":{}}}"#, &wanted()).unwrap_err();
        assert_eq!(e.to_string(), "its \"hooks\".\"Stop\" is not a list");
        let e = install(r#"{"sandbox":{"network":[]}}"#, &wanted()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "its \"sandbox\".\"network\" is not an object"
        );
        assert!(install("{,}", &wanted()).is_err());
    }

    #[test]
    fn a_path_the_user_had_allowed_stays_after_remove() {
        let text = r#"{"sandbox":{"network":{"allowUnixSockets":["/tmp/tmux-0"]}}}"#;
        let done = install(text, &wanted()).unwrap();
        let r = root(&done).unwrap();
        assert_eq!(r.at(KEYS).unwrap().items().len(), 1);
        let back = strip(&done, "claude", Some((KEYS, "/tmp/tmux-0")), Some(text)).unwrap();
        assert_eq!(back, text);
    }
}
