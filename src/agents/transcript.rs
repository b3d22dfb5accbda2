//! The reply of a turn as an agent's own transcript holds it, for the hook
//! handler: the JSON-lines session files of Claude Code, codex, Gemini CLI
//! and GitHub Copilot CLI, at the path the agent's payload names. Only the
//! tail is read, as a regular file (a FIFO or a device there would block or
//! never end). copilot writes a turn to its transcript a moment after its
//! stop hook starts, so that turn is waited for, bounded.

use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// The most of a transcript read: its last megabyte.
const MAX_TAIL: u64 = 1 << 20;

/// Which agent wrote a transcript, so which form it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Claude Code's and codex's: a record per event, the assistant's
    /// messages among them.
    Assistant,
    /// Gemini CLI's session file.
    Gemini,
}

/// The reply of the turn that just ended in the transcript at `path`, or
/// None when it cannot be read or holds none.
pub fn reply(form: Form, path: &Path) -> Option<String> {
    let text = tail(path)?;
    match form {
        Form::Assistant => last_assistant_text(&text),
        Form::Gemini => gemini_reply(&text),
    }
}

/// The last lines of the file at `path`: at most its last megabyte, read
/// from a regular file only.
fn tail(path: &Path) -> Option<String> {
    let buf = crate::fsutil::read_regular_tail(path, MAX_TAIL)
        .ok()
        .flatten()?;
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// The text of the last assistant message in JSON lines.
fn last_assistant_text(text: &str) -> Option<String> {
    text.lines().rev().find_map(|line| {
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

/// The reply in Gemini CLI's session file: the last `gemini` message with
/// text after the last `user` one. The file is JSON lines, appended to: a
/// record per message (`{"id":…,"type":"user"|"gemini","content":…}`, a
/// message written again under its id as it grows), `{"$set":{…}}` records
/// of which one with `messages` sets the whole list anew, and
/// `{"$rewindTo":ID}` records that take messages back. None when the turn
/// left no text there, or a rewind makes the last lines unsure.
fn gemini_reply(text: &str) -> Option<String> {
    for line in text.lines().rev() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v.get("$rewindTo").is_some() {
            return None;
        }
        let list = v
            .pointer("/$set/messages")
            .or_else(|| v.get("messages"))
            .and_then(Value::as_array);
        let messages: Vec<&Value> = match list {
            Some(list) => list.iter().rev().collect(),
            None => vec![&v],
        };
        for m in messages {
            match m.get("type").and_then(Value::as_str) {
                // A tool's result comes back as a user message too: the
                // model's text after it is the turn's last word.
                Some("user") => return None,
                Some("gemini") => {
                    let said = match m.get("content") {
                        Some(Value::String(s)) => s.clone(),
                        Some(Value::Array(parts)) => parts
                            .iter()
                            .filter_map(|p| p.get("text").and_then(Value::as_str))
                            .collect(),
                        _ => String::new(),
                    };
                    if !said.is_empty() {
                        return Some(said);
                    }
                }
                _ => {}
            }
        }
        // A `$set` with a list is the whole conversation: nothing before
        // it counts.
        if list.is_some() {
            return None;
        }
    }
    None
}

/// What a transcript of copilot's (`events.jsonl`) says of the turn whose
/// stop hook started at `stopped_at` (the payload's `timestamp`, which is
/// also, but for a loaded machine, the `timestamp` of the `hook.start`
/// line copilot writes for it).
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
    let stop_start = |v: &Value| {
        kind(v) == "hook.start"
            && v.pointer("/data/hookType").and_then(Value::as_str) == Some("agentStop")
    };
    let invocation = |v: &Value| {
        v.pointer("/data/hookInvocationId")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    // The line stamped as the payload was; else, as copilot stamps the
    // two apart (under load they can differ), the stop whose hooks are
    // still running: its invocation has no `hook.end` yet. An earlier
    // turn's stop has ended, so it is never taken for this one.
    let stamped = lines.iter().rposition(|v| {
        stop_start(v) && v.get("timestamp").and_then(Value::as_str) == Some(stopped_at)
    });
    let running = || {
        lines.iter().enumerate().rev().find_map(|(i, v)| {
            let id = invocation(v).filter(|_| stop_start(v))?;
            let ended = lines[i..]
                .iter()
                .any(|e| kind(e) == "hook.end" && invocation(e).as_deref() == Some(id.as_str()));
            (!ended).then_some(i)
        })
    };
    let Some(stop) = stamped.or_else(running) else {
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
    use serde_json::json;

    #[test]
    fn gemini_reply_is_the_last_text_of_the_turn_in_its_transcript() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session.jsonl");
        let turn = |id: &str, reply: &str| {
            format!(
                "{}\n{}\n{}\n{}\n",
                json!({"id":format!("u{id}"),"type":"user","content":[{"text":"say it"}]}),
                json!({"$set":{"lastUpdated":"2026-12-05T14:16:36.232Z"}}),
                json!({"id":format!("g{id}"),"type":"gemini","content":reply,"thoughts":[],"model":"m"}),
                json!({"$set":{"lastUpdated":"2026-12-05T14:16:37.480Z"}}),
            )
        };
        let context = json!({"$set":{"messages":[
            {"id":"c","type":"user","content":[{"text":"<session_context>"}]}]}});
        let head = format!("{}\n{context}\n", json!({"sessionId":"s","kind":"main"}));
        let gemini = |text: &str| {
            std::fs::write(&path, text).unwrap();
            reply(Form::Gemini, &path)
        };
        let two = head.clone() + &turn("1", "ACK: one") + &turn("2", "ACK: two words");
        assert_eq!(gemini(&two).as_deref(), Some("ACK: two words"));
        // A message written again as it grows: the last writing counts.
        let grown = json!({"id":"g2","type":"gemini","content":"ACK: two words, grown"});
        assert_eq!(
            gemini(&format!("{two}{grown}\n")).as_deref(),
            Some("ACK: two words, grown")
        );
        // A turn that left no text of its own is not given the last one's.
        let next = json!({"id":"u3","type":"user","content":[{"text":"next"}]});
        assert_eq!(gemini(&format!("{two}{next}\n")), None);
        // A rewind: not guessed at.
        let rewind = json!({"$rewindTo":"g2"});
        assert_eq!(gemini(&format!("{two}{rewind}\n")), None);
        // Content as parts, and messages set anew by a `$set`; what came
        // before that list does not count.
        let set = json!({"$set":{"messages":[
            {"type":"user","content":[{"text":"q"}]},
            {"type":"gemini","content":[{"text":"ACK: "},{"text":"parts"}]},
            {"type":"gemini","content":""}]}});
        assert_eq!(
            gemini(&format!("{head}{set}\n")).as_deref(),
            Some("ACK: parts")
        );
        let empty = json!({"$set":{"messages":[]}});
        assert_eq!(gemini(&format!("{two}{empty}\n")), None);
        // A whole-file record with the messages in it.
        let whole = json!({"sessionId":"s","messages":[
            {"id":"u","type":"user","content":"q"},
            {"id":"g","type":"gemini","content":"ACK: whole"}]});
        assert_eq!(gemini(&format!("{whole}\n")).as_deref(), Some("ACK: whole"));
    }

    #[test]
    fn a_transcript_that_is_not_a_regular_file_is_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.jsonl");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let t = std::time::Instant::now();
        assert_eq!(reply(Form::Gemini, &fifo), None);
        assert_eq!(reply(Form::Assistant, &fifo), None);
        assert_eq!(reply(Form::Assistant, Path::new("/dev/zero")), None);
        let bound = Duration::from_millis(200);
        assert_eq!(copilot_turn_text(&fifo, "T", bound), None);
        assert_eq!(copilot_turn_text(Path::new("/dev/zero"), "T", bound), None);
        assert!(t.elapsed() < std::time::Duration::from_secs(2));
    }

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
        assert_eq!(reply(Form::Assistant, &path).as_deref(), Some("last"));
        let codex = dir.path().join("c.jsonl");
        std::fs::write(
            &codex,
            r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done it"}]}}"#,
        )
        .unwrap();
        assert_eq!(reply(Form::Assistant, &codex).as_deref(), Some("done it"));
    }

    const FIRST: &str = concat!(
        r#"{"type":"user.message","data":{"content":"one"},"timestamp":"T0"}"#,
        "\n",
        r#"{"type":"assistant.message","data":{"content":"first answer"},"timestamp":"T1"}"#,
        "\n",
        r#"{"type":"hook.start","data":{"hookType":"agentStop","hookInvocationId":"h1"},"timestamp":"T2"}"#,
        "\n",
        r#"{"type":"hook.end","data":{"hookType":"agentStop","hookInvocationId":"h1"},"timestamp":"T2e"}"#,
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
        r#"{"type":"hook.start","data":{"hookType":"agentStop","hookInvocationId":"h2"},"timestamp":"T7"}"#,
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
        // Stamped apart from the payload: the stop still running is this
        // turn's; the first turn's stop has ended and is never taken.
        let apart = both.replace("\"T7\"", "\"T7+1ms\"");
        assert_eq!(
            copilot_turn(&apart, "T7"),
            Turn::Ended(Some("looking".into()))
        );
        assert_eq!(copilot_turn(FIRST, "T2+1ms"), Turn::Unwritten);
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
