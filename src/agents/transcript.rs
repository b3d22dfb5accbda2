//! The reply an agent's stop hook does not carry, read from the agent's
//! JSON-lines transcript: the last assistant text (Claude Code, codex),
//! or the text of the turn that just ended (GitHub Copilot CLI, which
//! writes the turn to its transcript a moment after its stop hook starts,
//! so the hook waits for it, bounded). The agent names the file: it is
//! read as a regular file only (a FIFO or a device there would block or
//! never end), its last megabyte alone.

use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// The most of a transcript's tail read for a reply.
pub const MAX_TAIL: u64 = 1 << 20;

/// The transcript's last `MAX_TAIL` bytes, as text.
fn tail(path: &Path) -> Option<String> {
    let buf = crate::fsutil::read_regular_tail(path, MAX_TAIL)
        .ok()
        .flatten()?;
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// The text of the last assistant message in a transcript of Claude Code's
/// or codex's.
pub fn last_assistant_text(path: &Path) -> Option<String> {
    tail(path)?.lines().rev().find_map(|line| {
        let v: Value = serde_json::from_str(line).ok()?;
        assistant_text(&v)
    })
}

/// An assistant message's text: `{"type":"assistant","message":{"role":
/// "assistant","content":[{"type":"text","text":…}]}}` (Claude Code) or
/// `{"type":"response_item","payload":{"role":"assistant","content":[{"type":
/// "output_text","text":…}]}}` (codex).
fn assistant_text(v: &Value) -> Option<String> {
    let message = v.get("message").or_else(|| v.get("payload"))?;
    if message.get("role")?.as_str()? != "assistant" {
        return None;
    }
    let parts: Vec<&str> = match message.get("content")? {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items
            .iter()
            .filter(|i| {
                matches!(
                    i.get("type").and_then(Value::as_str),
                    Some("text" | "output_text")
                )
            })
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect(),
        _ => return None,
    };
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// What a transcript of copilot's (`events.jsonl`) says of the turn whose
/// stop hook started at `stopped_at` (the payload's `timestamp`, which is
/// also the `timestamp` of the `hook.start` line copilot writes for it).
#[derive(Debug, PartialEq, Eq)]
enum Turn {
    /// That hook's line is not written yet.
    Unwritten,
    /// The turn's last assistant text (`None`: the turn had none).
    Ended(Option<String>),
}

/// A transcript line's `type`.
fn kind(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

fn copilot_turn(text: &str, stopped_at: &str) -> Turn {
    let lines: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let stop = lines.iter().rposition(|v| {
        kind(v) == "hook.start"
            && v.pointer("/data/hookType").and_then(Value::as_str) == Some("agentStop")
            && v.get("timestamp").and_then(Value::as_str) == Some(stopped_at)
    });
    let Some(stop) = stop else {
        return Turn::Unwritten;
    };
    // Back from the hook to the turn's own prompt: a message that only
    // calls tools has no text.
    let said = lines[..stop]
        .iter()
        .rev()
        .take_while(|v| kind(v) != "user.message")
        .filter(|v| kind(v) == "assistant.message")
        .filter_map(|v| v.pointer("/data/content").and_then(Value::as_str))
        .find(|t| !t.is_empty())
        .map(str::to_string);
    Turn::Ended(said)
}

/// The text of copilot's turn whose stop hook started at `stopped_at`,
/// once its transcript holds that turn: looked at again, less and less
/// often, for up to `wait`. `None` when the turn had no text, or did not
/// arrive in time (never an earlier turn's text).
pub fn copilot_turn_text(path: &Path, stopped_at: &str, wait: Duration) -> Option<String> {
    let end = Instant::now() + wait;
    let mut pause = Duration::from_millis(10);
    loop {
        if let Turn::Ended(said) = copilot_turn(&tail(path).unwrap_or_default(), stopped_at) {
            return said;
        }
        let left = end.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        std::thread::sleep(pause.min(left));
        pause = (pause * 2).min(Duration::from_millis(200));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_assistant_text_of_a_transcript_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        std::fs::write(
            &path,
            concat!(
                r#"{"type":"user","message":{"role":"user","content":"hi"}}"#,
                "\n",
                r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"first"}]}}"#,
                "\n",
                r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use"},{"type":"text","text":"last"}]}}"#,
                "\n",
                r#"{"type":"system","subtype":"x"}"#,
                "\n"
            ),
        )
        .unwrap();
        assert_eq!(last_assistant_text(&path).as_deref(), Some("last"));
        let codex = dir.path().join("c.jsonl");
        std::fs::write(
            &codex,
            r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done it"}]}}"#,
        )
        .unwrap();
        assert_eq!(last_assistant_text(&codex).as_deref(), Some("done it"));
    }

    const FIRST: &str = concat!(
        r#"{"type":"user.message","data":{"content":"one"},"timestamp":"T0"}"#,
        "\n",
        r#"{"type":"assistant.message","data":{"content":"first answer"},"timestamp":"T1"}"#,
        "\n",
        r#"{"type":"hook.start","data":{"hookType":"agentStop"},"timestamp":"T2"}"#,
        "\n",
    );

    const SECOND: &str = concat!(
        r#"{"type":"user.message","data":{"content":"two"},"timestamp":"T3"}"#,
        "\n",
        r#"{"type":"assistant.message","data":{"content":"looking","toolRequests":[{"name":"bash"}]},"timestamp":"T4"}"#,
        "\n",
        r#"{"type":"assistant.message","data":{"content":"","toolRequests":[{"name":"bash"}]},"timestamp":"T5"}"#,
        "\n",
        r#"{"type":"assistant.turn_end","data":{"turnId":"1"},"timestamp":"T6"}"#,
        "\n",
        r#"{"type":"hook.start","data":{"hookType":"agentStop"},"timestamp":"T7"}"#,
        "\n",
    );

    #[test]
    fn copilots_turn_is_the_one_its_stop_hook_names_never_an_earlier_one() {
        assert_eq!(
            copilot_turn(FIRST, "T2"),
            Turn::Ended(Some("first answer".into()))
        );
        // The second turn's stop hook has started, its line not written.
        assert_eq!(copilot_turn(FIRST, "T7"), Turn::Unwritten);
        let both = format!("{FIRST}{SECOND}");
        assert_eq!(
            copilot_turn(&both, "T7"),
            Turn::Ended(Some("looking".into()))
        );
        let silent = both.replace("looking", "");
        assert_eq!(copilot_turn(&silent, "T7"), Turn::Ended(None));
    }

    #[test]
    fn copilots_turn_is_waited_for_and_not_beyond_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        std::fs::write(&path, FIRST).unwrap();
        let t = Instant::now();
        assert_eq!(
            copilot_turn_text(&path, "T7", Duration::from_millis(300)),
            None
        );
        assert!(t.elapsed() >= Duration::from_millis(300));
        let later = path.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            std::fs::write(&later, format!("{FIRST}{SECOND}")).unwrap();
        });
        let said = copilot_turn_text(&path, "T7", Duration::from_secs(5));
        writer.join().unwrap();
        assert_eq!(said.as_deref(), Some("looking"));
    }
}
