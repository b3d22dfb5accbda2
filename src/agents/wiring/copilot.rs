//! GitHub Copilot CLI's wiring: a hooks file of roost's own, `roost.json`,
//! in copilot's user hooks directory (`~/.copilot/hooks/`, or
//! `$COPILOT_HOME/hooks/`) or in a project's `.github/hooks/`. copilot
//! loads every `*.json` there and runs each hook's `bash` line. roost names
//! the events in their PascalCase form, whose payloads carry Claude Code's
//! fields (`hook_event_name`, `session_id`, `prompt`, `transcript_path`).
//! Every command ends in roost's mark, as in the files roost merges into:
//! a file of that name is roost's only when each of its hooks carries it.

use super::command::hook_command;
use super::json::{marked, unmarked};
use serde_json::Value;
use std::path::Path;

/// The file's name.
pub const FILE: &str = "roost.json";

/// The events roost wires. Not `PermissionRequest`: copilot runs it before
/// its own rules decide, for every tool call it then allows by itself too,
/// so it does not say that a person is asked; the notification does.
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "Notification",
    "PostToolUse",
    "Stop",
    "ErrorOccurred",
];

/// The notifications that mean a person is asked something (copilot
/// matches the pattern against the whole notification type).
const ASKED: &str = "permission_prompt|elicitation_dialog";

/// How long copilot lets each hook run, in seconds.
const TIMEOUT: u64 = 10;

/// The file, every hook running this `roost`.
pub fn hooks(roost: &Path) -> String {
    let string = |s: &str| serde_json::to_string(s).expect("a string serializes");
    let mut out = String::from("{\n  \"version\": 1,\n  \"hooks\": {\n");
    for (i, event) in EVENTS.iter().enumerate() {
        let command = marked(&hook_command(roost, "copilot", event));
        let matcher = if *event == "Notification" {
            format!(", \"matcher\": {}", string(ASKED))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "    {}: [\n      {{\"type\": \"command\", \"bash\": {}{matcher}, \"timeoutSec\": {TIMEOUT}}}\n    ]{}\n",
            string(event),
            string(&command),
            if i + 1 < EVENTS.len() { "," } else { "" }
        ));
    }
    out.push_str("  }\n}\n");
    out
}

/// Whether `bytes` are a hooks file roost wrote: JSON whose every hook
/// runs a command that ends in roost's mark.
pub fn is_roost(bytes: &[u8]) -> bool {
    let Ok(root) = serde_json::from_slice::<Value>(bytes) else {
        return false;
    };
    let Some(hooks) = root.get("hooks").and_then(Value::as_object) else {
        return false;
    };
    let mut entries = hooks.values().map(Value::as_array);
    !hooks.is_empty()
        && entries.all(|list| {
            list.is_some_and(|l| {
                !l.is_empty()
                    && l.iter().all(|h| {
                        h.get("bash")
                            .and_then(Value::as_str)
                            .is_some_and(|c| unmarked(c).is_some())
                    })
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_json_every_hook_marked_and_known_as_roosts() {
        let text = hooks(Path::new("/opt/my roost/roost"));
        let root: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(root["version"], 1);
        let hooks = root["hooks"].as_object().unwrap();
        assert_eq!(hooks.len(), EVENTS.len());
        assert_eq!(
            root["hooks"]["Stop"][0]["bash"],
            "'/opt/my roost/roost' hook copilot Stop # written by roost hooks install"
        );
        assert_eq!(root["hooks"]["Notification"][0]["matcher"], ASKED);
        assert!(is_roost(text.as_bytes()));
        let mine =
            r#"{"version": 1, "hooks": {"Stop": [{"type": "command", "bash": "say done"}]}}"#;
        assert!(!is_roost(mine.as_bytes()));
        let added = text.replace(
            "\"Stop\": [\n",
            "\"Stop\": [\n      {\"type\": \"command\", \"bash\": \"say done\"},\n",
        );
        assert!(serde_json::from_str::<Value>(&added).is_ok());
        assert!(!is_roost(added.as_bytes()));
        assert!(!is_roost(b"{oops"));
        assert!(!is_roost(b"{\"version\": 1, \"hooks\": {}}"));
    }
}
