//! The hooks of the agents whose configuration is JSON with Claude Code's
//! shape (Claude Code's settings, codex's hooks.json, Gemini CLI's
//! settings): `{"hooks": {EVENT: [{"hooks": [{"type": "command",
//! "command": …}]}]}}`. roost's groups are the ones whose every command is
//! `…/roost hook AGENT …`; merging adds them at the end of each event's
//! list and leaves every other key, group and value as it was, in order.

use super::ordered::{Node, Obj};

/// What roost adds to one file.
pub struct Wanted<'a> {
    pub agent: &'a str,
    /// The events, each with roost's command for it.
    pub hooks: Vec<(&'a str, String)>,
    /// The hook's timeout, in the agent's unit.
    pub timeout: u64,
    /// A `name` field on the hook (Gemini CLI shows it).
    pub name: Option<&'a str>,
    /// Paths to add to a list (Claude Code's
    /// `sandbox.network.allowUnixSockets`): the keys to it, and the path.
    pub allow: Option<(&'a [&'a str], String)>,
}

/// Whether `command` is a roost hook command for `agent`.
pub fn is_roost_command(command: &str, agent: &str) -> bool {
    let Ok(words) = shell_words::split(command) else {
        return false;
    };
    words.len() >= 3
        && words[0].rsplit('/').next() == Some("roost")
        && words[1] == "hook"
        && words[2] == agent
}

fn is_roost_group(group: &Node, agent: &str) -> bool {
    let Some(hooks) = group.get("hooks").and_then(Node::as_list) else {
        return false;
    };
    !hooks.is_empty()
        && hooks.iter().all(|h| {
            h.get("command")
                .and_then(Node::as_str)
                .is_some_and(|c| is_roost_command(c, agent))
        })
}

/// The file's document, or why it cannot be merged into.
pub fn parse(bytes: &[u8]) -> Result<Obj, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Obj::default());
    }
    match serde_json::from_slice(bytes) {
        Ok(Node::Obj(map)) => Ok(map),
        Ok(_) => Err("it is JSON but not an object".into()),
        Err(e) => Err(format!("it is not JSON ({e})")),
    }
}

/// The document with roost's hooks in it (any earlier ones replaced).
pub fn install(doc: &Obj, w: &Wanted) -> Result<Obj, String> {
    let mut doc = doc.clone();
    let hooks = doc.entry("hooks", || Node::Obj(Obj::default()));
    let Node::Obj(hooks) = hooks else {
        return Err("its \"hooks\" is not an object".into());
    };
    // Earlier roost groups go, in place; their lists stay where they are.
    for (_, list) in hooks.0.iter_mut() {
        if let Node::List(list) = list {
            list.retain(|g| !is_roost_group(g, w.agent));
        }
    }
    for (event, command) in &w.hooks {
        let list = hooks.entry(event, || Node::List(Vec::new()));
        let Node::List(list) = list else {
            return Err(format!("its \"hooks\".\"{event}\" is not a list"));
        };
        let mut hook = Obj::default();
        if let Some(name) = w.name {
            hook.0.push(("name".into(), Node::str(name)));
        }
        hook.0.push(("type".into(), Node::str("command")));
        hook.0.push(("command".into(), Node::str(command)));
        hook.0
            .push(("timeout".into(), Node::Leaf(w.timeout.into())));
        let group = Obj(vec![("hooks".into(), Node::List(vec![Node::Obj(hook)]))]);
        list.push(Node::Obj(group));
    }
    if let Some((keys, path)) = &w.allow {
        let mut at = &mut doc;
        for key in &keys[..keys.len() - 1] {
            let next = at.entry(key, || Node::Obj(Obj::default()));
            at = next
                .as_obj_mut()
                .ok_or_else(|| format!("its \"{key}\" is not an object"))?;
        }
        let last = keys[keys.len() - 1];
        let list = at.entry(last, || Node::List(Vec::new()));
        let list = list
            .as_list_mut()
            .ok_or_else(|| format!("its \"{last}\" is not a list"))?;
        if !list.iter().any(|v| v.as_str() == Some(path)) {
            list.push(Node::str(path));
        }
    }
    Ok(doc)
}

/// The document without roost's hooks for `agent`. `allow` (keys and path)
/// is taken out too unless `before` (the file before roost's first
/// change) had it; containers left empty go unless `before` had them.
pub fn strip(doc: &Obj, agent: &str, allow: Option<(&[&str], &str, Option<&Obj>)>) -> Obj {
    let mut doc = doc.clone();
    let had = |path: &[&str], before: Option<&Obj>| -> bool {
        let Some(mut at) = before.map(|b| b as &Obj) else {
            return false;
        };
        for (i, key) in path.iter().enumerate() {
            match at.get(key) {
                Some(Node::Obj(m)) => at = m,
                Some(_) => return i == path.len() - 1,
                None => return false,
            }
        }
        true
    };
    let before = allow.and_then(|(_, _, b)| b);
    if let Some(Node::Obj(hooks)) = doc.get_mut("hooks") {
        let events: Vec<String> = hooks.0.iter().map(|(k, _)| k.clone()).collect();
        for event in events {
            if let Some(Node::List(list)) = hooks.get_mut(&event) {
                let n = list.len();
                list.retain(|g| !is_roost_group(g, agent));
                if list.is_empty() && n > 0 && !had(&["hooks", &event], before) {
                    hooks.remove(&event);
                }
            }
        }
        if hooks.is_empty() && !had(&["hooks"], before) {
            doc.remove("hooks");
        }
    }
    if let Some((keys, path, before)) = allow {
        let in_before = before
            .and_then(|b| dig(b, keys))
            .and_then(Node::as_list)
            .is_some_and(|l| l.iter().any(|v| v.as_str() == Some(path)));
        if !in_before {
            if let Some(list) = dig_mut(&mut doc, keys).and_then(Node::as_list_mut) {
                list.retain(|v| v.as_str() != Some(path));
            }
            // Empty containers roost made go, innermost first.
            for depth in (1..=keys.len()).rev() {
                let path = &keys[..depth];
                let empty = match dig(&doc, path) {
                    Some(Node::List(l)) => l.is_empty(),
                    Some(Node::Obj(m)) => m.is_empty(),
                    _ => false,
                };
                if empty && !had(path, before) {
                    remove_at(&mut doc, path);
                }
            }
        }
    }
    doc
}

fn dig<'a>(doc: &'a Obj, keys: &[&str]) -> Option<&'a Node> {
    let (first, rest) = keys.split_first()?;
    let mut at = doc.get(first)?;
    for key in rest {
        at = at.get(key)?;
    }
    Some(at)
}

fn dig_mut<'a>(doc: &'a mut Obj, keys: &[&str]) -> Option<&'a mut Node> {
    let (first, rest) = keys.split_first()?;
    let mut at = doc.get_mut(first)?;
    for key in rest {
        at = at.get_mut(key)?;
    }
    Some(at)
}

fn remove_at(doc: &mut Obj, keys: &[&str]) {
    let (last, parents) = keys.split_last().expect("a key");
    if parents.is_empty() {
        doc.remove(last);
    } else if let Some(Node::Obj(m)) = dig_mut(doc, parents) {
        m.remove(last);
    }
}

/// The events of `agent` that roost's hooks cover in `doc`, and the
/// commands they run.
pub fn wired(doc: &Obj, agent: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    if let Some(Node::Obj(hooks)) = doc.get("hooks") {
        for (event, list) in &hooks.0 {
            for group in list.as_list().into_iter().flatten() {
                if is_roost_group(group, agent) {
                    for h in group
                        .get("hooks")
                        .and_then(Node::as_list)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(c) = h.get("command").and_then(Node::as_str) {
                            found.push((event.clone(), c.to_string()));
                        }
                    }
                }
            }
        }
    }
    found
}

/// The document as roost writes it: two-space indents, a final newline.
pub fn render(doc: &Obj) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(doc).expect("a JSON map always serializes");
    bytes.push(b'\n');
    bytes
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
        let doc = parse(b"").unwrap();
        let done = install(&doc, &wanted()).unwrap();
        assert_eq!(wired(&done, "claude").len(), 2);
        assert_eq!(
            serde_json::to_string(&done).unwrap(),
            serde_json::to_string(&install(&doc, &wanted()).unwrap()).unwrap()
        );
        assert!(serde_json::to_string(&done)
            .unwrap()
            .ends_with(r#""sandbox":{"network":{"allowUnixSockets":["/tmp/tmux-0"]}}}"#));
        let back = strip(&done, "claude", Some((KEYS, "/tmp/tmux-0", None)));
        assert!(back.is_empty(), "{back:?}");
    }

    #[test]
    fn other_hooks_and_settings_keep_their_place_and_roost_installs_once() {
        let text = br#"{"model":"x","hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]},"sandbox":{"network":{"allowUnixSockets":["/var/run/docker.sock"]}},"z":1}"#;
        let doc = parse(text).unwrap();
        let once = install(&doc, &wanted()).unwrap();
        let twice = install(&once, &wanted()).unwrap();
        assert_eq!(once, twice);
        let stop = twice
            .get("hooks")
            .unwrap()
            .get("Stop")
            .unwrap()
            .as_list()
            .unwrap();
        assert_eq!(stop.len(), 2);
        assert!(!is_roost_group(&stop[0], "claude"));
        let keys: Vec<&String> = twice.0.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["model", "hooks", "sandbox", "z"]);
        let back = strip(&twice, "claude", Some((KEYS, "/tmp/tmux-0", Some(&doc))));
        assert_eq!(back, doc);
        assert_eq!(serde_json::to_string(&back).unwrap().as_bytes(), &text[..]);
    }

    #[test]
    fn a_path_the_user_had_allowed_stays_after_remove() {
        let doc =
            parse(br#"{"sandbox":{"network":{"allowUnixSockets":["/tmp/tmux-0"]}}}"#).unwrap();
        let done = install(&doc, &wanted()).unwrap();
        let list = dig(&done, KEYS).unwrap().as_list().unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(
            strip(&done, "claude", Some((KEYS, "/tmp/tmux-0", Some(&doc)))),
            doc
        );
    }

    #[test]
    fn roost_commands_are_known_by_program_and_agent() {
        assert!(!is_roost_command("/a b/roost hook claude Stop", "claude"));
        assert!(is_roost_command("'/a b/roost' hook claude Stop", "claude"));
        assert!(is_roost_command("roost hook codex", "codex"));
        assert!(!is_roost_command("roost hook codex", "claude"));
        assert!(!is_roost_command("roost state done", "claude"));
        assert!(!is_roost_command("myroost hook claude", "claude"));
    }

    #[test]
    fn a_file_that_is_not_an_object_is_refused() {
        assert!(parse(b"[]").is_err());
        assert!(parse(b"{,}").is_err());
        let bad = parse(br#"{"hooks":[]}"#).unwrap();
        assert!(install(&bad, &wanted()).is_err());
    }
}
