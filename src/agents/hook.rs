//! `roost hook AGENT [EVENT]`: the one handler every agent's hooks run. It
//! reads the agent's JSON payload (stdin, or for codex's `notify` the last
//! argument), and turns it into what roost keeps on the pane: the state
//! (stamped the way `roost state` stamps it, so waiters wake), the reply,
//! the agent's name and session id, and the key of a prompt it took.
//! Outside a roost pane it does nothing. It never exits 2 (Claude Code
//! reads 2 as "block"): a payload it cannot read exits 1 with one line on
//! stderr, and nothing is stamped.

use super::{transcript, Agent, HookAgent};
use crate::events::{self, Emitter};
use crate::tmux::options;
use crate::tmux::{AgentState, Batch, Tmux, TmuxError};
use serde_json::Value;
use std::ffi::OsString;
use std::io::Read;

/// The most of a payload read from stdin.
pub const MAX_PAYLOAD: u64 = 4 << 20;
/// How long copilot's stop hook waits for the turn to be in its transcript
/// (copilot writes it a moment after the hook starts; on a loaded machine,
/// seconds after): inside the 10 s copilot allows the hook.
const COPILOT_TRANSCRIPT_WAIT: std::time::Duration = std::time::Duration::from_secs(8);
/// The most of a reply kept.
const MAX_REPLY: usize = 256 << 10;

/// What one event means for the pane.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Effect {
    pub state: Option<AgentState>,
    pub reply: Option<String>,
    pub session_id: Option<String>,
    pub prompt: Option<String>,
    /// Where the reply can be read when the payload does not carry it.
    pub transcript: Option<String>,
    /// copilot's stop: when its hook started, which names the turn in the
    /// transcript.
    pub stopped_at: Option<String>,
    /// The transcript's reply wins over the payload's: Gemini CLI's
    /// `prompt_response` repeats each streamed piece after the first, while
    /// its session transcript holds the reply as it was streamed.
    pub transcript_first: bool,
    /// The event comes from wiring that reports every prompt the agent
    /// takes, so `send` may wait for that report.
    pub prompt_hook: bool,
}

/// Runs the handler for `agent`, recorded on the pane as `name` (a preset's
/// name for the generic form its hooks send), with its words after it (the
/// event, and for codex's notify the payload); returns the exit code (0 or
/// 1, never 2).
pub fn run(agent: HookAgent, name: &str, words: &[OsString]) -> u8 {
    let words: Vec<String> = words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let tmux = Tmux::from_env();
    let Some(pane) = tmux.caller_pane() else {
        return 0;
    };
    // codex's notify puts the JSON last; every other agent writes stdin.
    let mut rest: Vec<&str> = words.iter().map(String::as_str).collect();
    let argv_payload = match rest.last() {
        Some(w) if w.trim_start().starts_with('{') => rest.pop(),
        _ => None,
    };
    let event = rest.first().copied().unwrap_or("");
    let payload = match argv_payload {
        Some(text) => parse(text.as_bytes()),
        None => read_stdin().and_then(|bytes| parse(&bytes)),
    };
    let payload = match payload {
        Ok(p) => p,
        Err(why) => return fail(&format!("{name} payload: {why}; nothing was stamped")),
    };
    let effect = effect(agent, event, &payload);
    match apply(&tmux, &pane, name, effect) {
        Ok(()) => 0,
        Err(why) => fail(&why.0),
    }
}

/// One line on stderr (what an agent names in it is shown escaped), and
/// exit 1.
fn fail(what: &str) -> u8 {
    eprintln!(
        "roost hook: {}",
        crate::untrusted::printable(what.as_bytes())
    );
    1
}

/// Why a payload was not taken.
#[derive(Debug)]
pub enum PayloadError {
    Stdin(std::io::Error),
    TooBig,
    NotJson(serde_json::Error),
    NotObject,
}

impl std::fmt::Display for PayloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            PayloadError::Stdin(e) => write!(f, "cannot read stdin ({e})"),
            PayloadError::TooBig => write!(f, "more than {MAX_PAYLOAD} bytes on stdin"),
            PayloadError::NotJson(e) => write!(f, "not JSON ({e})"),
            PayloadError::NotObject => f.write_str("not a JSON object"),
        }
    }
}

/// Reads stdin, bounded; a terminal (nothing piped) is an empty payload.
fn read_stdin() -> Result<Vec<u8>, PayloadError> {
    let stdin = std::io::stdin();
    if nix::unistd::isatty(&stdin).unwrap_or(false) {
        return Ok(Vec::new());
    }
    let mut buf = Vec::new();
    stdin
        .lock()
        .take(MAX_PAYLOAD + 1)
        .read_to_end(&mut buf)
        .map_err(PayloadError::Stdin)?;
    if buf.len() as u64 > MAX_PAYLOAD {
        return Err(PayloadError::TooBig);
    }
    Ok(buf)
}

/// An empty payload is an empty object; anything else must be one.
pub fn parse(bytes: &[u8]) -> Result<Value, PayloadError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(Default::default()));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(PayloadError::NotObject),
        Err(e) => Err(PayloadError::NotJson(e)),
    }
}

fn text(payload: &Value, key: &str) -> Option<String> {
    payload.get(key)?.as_str().map(str::to_string)
}

/// What `event` of `agent` means. EVENT on the command line wins over the
/// payload's own event name.
pub fn effect(agent: HookAgent, event: &str, p: &Value) -> Effect {
    use Agent::{Aider, Claude, Codex, Copilot, Gemini, Opencode, Pi};
    use HookAgent::{Generic, Known};
    let named = if event.is_empty() {
        text(p, "hook_event_name")
            .or_else(|| text(p, "type"))
            .unwrap_or_default()
    } else {
        event.to_string()
    };
    let mut e = Effect {
        session_id: text(p, "session_id").or_else(|| text(p, "thread-id")),
        ..Effect::default()
    };
    e.prompt_hook = match agent {
        Known(Claude | Codex | Copilot) => {
            matches!(named.as_str(), "SessionStart" | "UserPromptSubmit")
        }
        Known(Gemini) => matches!(named.as_str(), "SessionStart" | "BeforeAgent"),
        Known(Opencode) => named == "prompt",
        Known(Pi) => matches!(named.as_str(), "start" | "prompt"),
        Known(Aider) | Generic => false,
    };
    match (agent, named.as_str()) {
        // Claude Code and codex hooks share their event names and fields.
        (_, "UserPromptSubmit") | (Known(Gemini), "BeforeAgent") => {
            e.state = Some(AgentState::Working);
            e.prompt = text(p, "prompt").map(|t| unwrapped(&t));
        }
        (Known(Claude), "Notification") => {
            let kind = text(p, "notification_type").unwrap_or_default();
            if kind == "permission_prompt" || kind.starts_with("elicitation") {
                e.state = Some(AgentState::Blocked);
            }
        }
        (Known(Gemini), "Notification")
            if text(p, "notification_type").as_deref() == Some("ToolPermission") =>
        {
            e.state = Some(AgentState::Blocked);
        }
        // copilot notifies a permission question and a question to the
        // user alike; its other notifications are about background work.
        (Known(Copilot), "Notification")
            if matches!(
                text(p, "notification_type").as_deref(),
                Some("permission_prompt" | "elicitation_dialog")
            ) =>
        {
            e.state = Some(AgentState::Blocked);
        }
        // A model call failed. copilot reports each attempt it retries the
        // same way, with no word of whether another follows, and no stop
        // after the last: so every one reads as error (a retry that then
        // answers ends done). A tool's failure is not the turn's.
        (Known(Copilot), "ErrorOccurred")
            if text(p, "error_context").as_deref() == Some("model_call") =>
        {
            e.state = Some(AgentState::Error);
            e.reply = p
                .pointer("/error/message")
                .and_then(Value::as_str)
                .map(|m| inner_message(m).unwrap_or_else(|| m.to_string()));
        }
        (_, "PermissionRequest") => e.state = Some(AgentState::Blocked),
        // A tool ran: whatever asked for permission was answered.
        (_, "PostToolUse") | (Known(Gemini), "AfterTool") => e.state = Some(AgentState::Working),
        (Known(Copilot), "Stop") => {
            e.state = Some(AgentState::Done);
            e.transcript = text(p, "transcript_path");
            e.stopped_at = text(p, "timestamp");
        }
        (_, "Stop") => {
            e.state = Some(AgentState::Done);
            e.reply = text(p, "last_assistant_message");
            e.transcript = text(p, "transcript_path");
        }
        (Known(Gemini), "AfterAgent") => {
            e.state = Some(AgentState::Done);
            e.reply = text(p, "prompt_response");
            e.transcript = text(p, "transcript_path");
            e.transcript_first = true;
        }
        (Known(Claude), "StopFailure") => {
            e.state = Some(AgentState::Error);
            e.reply = text(p, "last_assistant_message").or_else(|| {
                p.get("error").map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
            });
        }
        // codex's notify: only a turn's end counts; its other kinds (a
        // task title, a summary) are side requests.
        (Known(Codex), "agent-turn-complete") => {
            e.state = Some(AgentState::Done);
            e.reply = text(p, "last-assistant-message");
        }
        // opencode's plugin and pi's extension (written by `roost hooks
        // install`) and the generic form name the state itself; pi's
        // `start` reports its session id alone.
        (Known(Opencode | Aider | Pi) | Generic, word) => {
            let state = match word {
                "prompt" => Some(AgentState::Working),
                word => AgentState::from_word(word).filter(|s| *s != AgentState::Idle),
            };
            match state {
                Some(AgentState::Working) => e.prompt = text(p, "prompt"),
                // `last_assistant_message` too: the Claude Code form
                // other agents' hooks copy (Qwen Code's) says it so.
                Some(AgentState::Done | AgentState::Error) => {
                    e.reply = text(p, "reply").or_else(|| text(p, "last_assistant_message"))
                }
                _ => {}
            }
            e.state = state;
        }
        _ => {}
    }
    e
}

/// The `message` of an API's error body that copilot passes on whole as
/// its error's message (`{"message":"…","type":"…"}`).
fn inner_message(text: &str) -> Option<String> {
    let v: Value = serde_json::from_str(text).ok()?;
    v.get("message")?.as_str().map(str::to_string)
}

/// A prompt as it was typed: Claude Code reports pasted text inside
/// `<pasted_content id="…">` lines of its own.
fn unwrapped(prompt: &str) -> String {
    let mut out = String::with_capacity(prompt.len());
    for line in prompt.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        let tag = |open: &str| {
            bare.strip_prefix(open)
                .and_then(|r| r.strip_prefix(" id=\""))
                .is_some_and(|r| r.ends_with("\">") && !r[..r.len() - 2].contains('"'))
        };
        if tag("<pasted_content") || tag("</pasted_content") {
            continue;
        }
        out.push_str(line);
    }
    out
}

/// Stores what the event says on `pane`, in one tmux call: the options
/// first, the state last, so a waiter that wakes finds the reply already
/// there. In the same call, inside the server, a real change of state
/// starts the event runner and a new session id starts its recording for
/// `resume`: the hook waits for neither.
fn apply(tmux: &Tmux, pane: &str, agent: &str, mut e: Effect) -> Result<(), TmuxError> {
    let id = e.session_id.take().filter(|id| super::valid_session_id(id));
    // codex's notify from another thread (a side request) must not end
    // this pane's turn: the one case that reads the pane first (a second
    // tmux call, on that rare path only).
    if agent == "codex" && e.prompt.is_none() && e.state == Some(AgentState::Done) {
        if let Some(id) = &id {
            let recorded = tmux.pane_option(pane, options::SESSION_ID)?;
            if recorded.is_some_and(|r| !r.is_empty() && &r != id) {
                return Ok(());
            }
        }
    }
    if (e.reply.is_none() || e.transcript_first) && e.state == Some(AgentState::Done) {
        if let Some(path) = e.transcript.as_deref().filter(|p| !p.is_empty()) {
            let path = std::path::Path::new(path);
            let read = match (&e.stopped_at, agent) {
                (Some(at), _) => transcript::copilot_turn_text(path, at, COPILOT_TRANSCRIPT_WAIT),
                (None, "gemini") => transcript::reply(transcript::Form::Gemini, path),
                (None, _) => transcript::reply(transcript::Form::Assistant, path),
            };
            e.reply = read.or(e.reply);
        }
    }
    let mut batch = Batch::new();
    if let Some(mut reply) = e.reply.take() {
        if reply.len() > MAX_REPLY {
            let mut cut = MAX_REPLY;
            while !reply.is_char_boundary(cut) {
                cut -= 1;
            }
            reply.truncate(cut);
        }
        let reply = reply.trim_end_matches('\n');
        batch.set_text(pane, options::REPLY, reply.as_bytes());
    }
    let key = e.prompt.as_deref().map(options::prompt_key);
    let mut set = vec![(options::AGENT, agent)];
    if e.prompt_hook {
        set.push((options::HOOKED, agent));
    }
    if let Some(key) = &key {
        set.push((options::PROMPT_SEEN, key));
    }
    batch.set_options(pane, &set);
    if let Some(id) = &id {
        batch.set_options(pane, &[(options::SESSION_ID_NEW, id)]);
        if let Some(record) = Emitter::this().and_then(|em| em.session_command(pane)) {
            batch.run_if_options_differ(
                pane,
                options::SESSION_ID,
                options::SESSION_ID_NEW,
                &record,
            );
        }
        batch.set_options(pane, &[(options::SESSION_ID, id)]);
    }
    if let Some(state) = e.state {
        events::stamp(&mut batch, pane, state, Emitter::from_env().as_ref());
    }
    tmux.run_batch(&batch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_pasted_prompt_is_reported_as_it_was_typed_and_prompt_hooks_say_so() {
        let typed = "line one\nline two";
        let reported =
            "\n\n<pasted_content id=\"471c\">\nline one\nline two\n</pasted_content id=\"471c\">";
        let p = json!({"hook_event_name":"UserPromptSubmit","prompt": reported});
        let e = effect(HookAgent::Known(Agent::Claude), "", &p);
        assert!(e.prompt_hook);
        assert_eq!(
            options::prompt_key(e.prompt.as_deref().unwrap()),
            options::prompt_key(typed)
        );
        assert_eq!(
            unwrapped("<pasted_content is text>\n"),
            "<pasted_content is text>\n"
        );
        assert!(
            effect(
                HookAgent::Known(Agent::Claude),
                "",
                &json!({"hook_event_name":"SessionStart"})
            )
            .prompt_hook
        );
        assert!(
            !effect(
                HookAgent::Known(Agent::Claude),
                "",
                &json!({"hook_event_name":"Stop"})
            )
            .prompt_hook
        );
        assert!(!effect(HookAgent::Known(Agent::Aider), "done", &json!({})).prompt_hook);
        assert!(
            !effect(
                HookAgent::Known(Agent::Codex),
                "",
                &json!({"type":"agent-turn-complete"})
            )
            .prompt_hook
        );
    }

    #[test]
    fn claude_events_map_to_states() {
        let p = json!({"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"hi"});
        let e = effect(HookAgent::Known(Agent::Claude), "", &p);
        assert_eq!(e.state, Some(AgentState::Working));
        assert_eq!(e.prompt.as_deref(), Some("hi"));
        assert_eq!(e.session_id.as_deref(), Some("s1"));
        let p = json!({"hook_event_name":"Stop","last_assistant_message":"ACK: hi"});
        let e = effect(HookAgent::Known(Agent::Claude), "", &p);
        assert_eq!(
            (e.state, e.reply.as_deref()),
            (Some(AgentState::Done), Some("ACK: hi"))
        );
        let p = json!({"hook_event_name":"Notification","notification_type":"permission_prompt"});
        assert_eq!(
            effect(HookAgent::Known(Agent::Claude), "", &p).state,
            Some(AgentState::Blocked)
        );
        let p = json!({"hook_event_name":"Notification","notification_type":"idle_prompt"});
        assert_eq!(effect(HookAgent::Known(Agent::Claude), "", &p).state, None);
        let p = json!({"hook_event_name":"StopFailure","error":"rate_limit"});
        let e = effect(HookAgent::Known(Agent::Claude), "", &p);
        assert_eq!(
            (e.state, e.reply.as_deref()),
            (Some(AgentState::Error), Some("rate_limit"))
        );
    }

    #[test]
    fn codex_notify_counts_only_the_end_of_a_turn() {
        let p =
            json!({"type":"agent-turn-complete","thread-id":"t1","last-assistant-message":"ok"});
        let e = effect(HookAgent::Known(Agent::Codex), "", &p);
        assert_eq!(
            (e.state, e.reply.as_deref()),
            (Some(AgentState::Done), Some("ok"))
        );
        assert_eq!(e.session_id.as_deref(), Some("t1"));
        let p = json!({"type":"task-title","thread-id":"t1"});
        assert_eq!(effect(HookAgent::Known(Agent::Codex), "", &p).state, None);
    }

    #[test]
    fn gemini_events_map_to_states() {
        let p = json!({"hook_event_name":"AfterAgent","prompt":"x","prompt_response":"y",
                       "transcript_path":"/t.jsonl"});
        let e = effect(HookAgent::Known(Agent::Gemini), "", &p);
        assert_eq!(
            (e.state, e.reply.as_deref()),
            (Some(AgentState::Done), Some("y"))
        );
        assert_eq!(e.transcript.as_deref(), Some("/t.jsonl"));
        assert!(e.transcript_first);
        let p = json!({"hook_event_name":"BeforeAgent","prompt":"x"});
        assert_eq!(
            effect(HookAgent::Known(Agent::Gemini), "", &p)
                .prompt
                .as_deref(),
            Some("x")
        );
        let p = json!({"hook_event_name":"Notification","notification_type":"ToolPermission"});
        assert_eq!(
            effect(HookAgent::Known(Agent::Gemini), "", &p).state,
            Some(AgentState::Blocked)
        );
    }

    #[test]
    fn a_payload_must_be_an_object_and_empty_is_one() {
        assert!(parse(b"").is_ok());
        assert!(parse(b" \n").is_ok());
        assert!(parse(b"[1]").is_err());
        assert!(parse(b"{nope").is_err());
    }

    #[test]
    fn copilot_events_map_to_states() {
        let copilot = HookAgent::Known(Agent::Copilot);
        let p = json!({"hook_event_name":"SessionStart","session_id":"c1","source":"new"});
        let e = effect(copilot, "SessionStart", &p);
        assert!(e.prompt_hook);
        assert_eq!((e.state, e.session_id.as_deref()), (None, Some("c1")));
        let p = json!({"hook_event_name":"UserPromptSubmit","session_id":"c1","prompt":"hi"});
        let e = effect(copilot, "UserPromptSubmit", &p);
        assert_eq!(
            (e.state, e.prompt.as_deref()),
            (Some(AgentState::Working), Some("hi"))
        );
        let p = json!({"hook_event_name":"Stop","transcript_path":"/t/events.jsonl",
                       "timestamp":"2026-12-05T15:23:53.973Z"});
        let e = effect(copilot, "Stop", &p);
        assert_eq!(e.state, Some(AgentState::Done));
        assert_eq!(e.transcript.as_deref(), Some("/t/events.jsonl"));
        assert_eq!(e.stopped_at.as_deref(), Some("2026-12-05T15:23:53.973Z"));
        for (kind, state) in [
            ("permission_prompt", Some(AgentState::Blocked)),
            ("elicitation_dialog", Some(AgentState::Blocked)),
            ("shell_completed", None),
        ] {
            let p = json!({"hook_event_name":"Notification","notification_type":kind});
            assert_eq!(effect(copilot, "Notification", &p).state, state, "{kind}");
        }
        let p = json!({"error":{"message":"quota","name":"E"},"error_context":"model_call",
                       "recoverable":true});
        let e = effect(copilot, "ErrorOccurred", &p);
        assert_eq!(
            (e.state, e.reply.as_deref()),
            (Some(AgentState::Error), Some("quota"))
        );
        let body = r#"{"message":"the stand-in refuses this prompt with 400","type":"x"}"#;
        let p = json!({"error":{"message":body},"error_context":"model_call"});
        let e = effect(copilot, "ErrorOccurred", &p);
        assert_eq!(
            e.reply.as_deref(),
            Some("the stand-in refuses this prompt with 400")
        );
        let p = json!({"error":{"message":"exit 1"},"error_context":"tool_execution"});
        assert_eq!(effect(copilot, "ErrorOccurred", &p).state, None);
    }

    #[test]
    fn pi_events_name_their_state_and_start_reports_the_session() {
        let pi = HookAgent::Known(Agent::Pi);
        let e = effect(pi, "start", &json!({"session_id":"0199-a"}));
        assert!(e.prompt_hook);
        assert_eq!((e.state, e.session_id.as_deref()), (None, Some("0199-a")));
        let e = effect(pi, "prompt", &json!({"prompt":"a\nb"}));
        assert!(e.prompt_hook);
        assert_eq!(
            (e.state, e.prompt.as_deref()),
            (Some(AgentState::Working), Some("a\nb"))
        );
        let e = effect(pi, "done", &json!({"reply":"ACK"}));
        assert_eq!(
            (e.state, e.reply.as_deref()),
            (Some(AgentState::Done), Some("ACK"))
        );
        let e = effect(pi, "error", &json!({"reply":"401"}));
        assert_eq!(
            (e.state, e.reply.as_deref()),
            (Some(AgentState::Error), Some("401"))
        );
        assert!(!effect(pi, "done", &json!({})).prompt_hook);
    }

    #[test]
    fn the_generic_reply_is_reply_else_the_claude_form_s_last_message() {
        let g = HookAgent::Generic;
        let p = json!({"reply":"mine","last_assistant_message":"theirs"});
        assert_eq!(effect(g, "done", &p).reply.as_deref(), Some("mine"));
        let p = json!({"hook_event_name":"Stop","session_id":"q1","last_assistant_message":"ACK"});
        let e = effect(g, "done", &p);
        assert_eq!(
            (e.state, e.reply.as_deref(), e.session_id.as_deref()),
            (Some(AgentState::Done), Some("ACK"), Some("q1"))
        );
        assert_eq!(effect(g, "working", &p).reply, None);
    }
}
