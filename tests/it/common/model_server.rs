//! The stand-in model server the agent tests point the real agent CLIs at:
//! HTTP/1.1 on 127.0.0.1 (std::net, a thread per connection), answering every
//! chat turn with `ACK: <the user's last prompt>` in the dialect the caller
//! speaks: Anthropic Messages, OpenAI Responses and chat completions (each
//! streamed as SSE when asked), and Gemini's generateContent and
//! streamGenerateContent. It logs every request, so a test can assert which
//! prompts reached it and how often.
//!
//! Two prompt forms ask for something else. `TOOL: COMMAND` is answered
//! with a call of the agent's shell tool running COMMAND (Anthropic
//! Messages and OpenAI Responses), and the request that brings the tool's
//! result back with the `ACK:` text. `FAIL: STATUS` is answered with that HTTP status and an
//! error body every dialect reads.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request the server answered.
#[derive(Clone, Debug)]
#[allow(dead_code)]
pub struct Logged {
    pub method: String,
    /// The path and query, as the client sent them.
    pub path: String,
    /// The last user prompt found in the body, if any.
    pub prompt: Option<String>,
    /// A request an agent makes beside the user's turn: a title, a summary,
    /// a quota probe, a check of who speaks next.
    pub side: bool,
    /// The first characters of the system prompt, for diagnosing `side`.
    pub system: String,
    /// The whole request body, as text (a resumed session's history is in it).
    pub body: String,
    /// The request brings back a tool call's result: the same turn, going on.
    pub tool_result: bool,
    pub at: Instant,
}

pub struct ModelServer {
    pub port: u16,
    log: Arc<Mutex<Vec<Logged>>>,
}

/// How long a user turn's answer is held back, so that a test sees the
/// agent working before it is done.
const TURN_DELAY: Duration = Duration::from_millis(1200);

impl ModelServer {
    /// Binds 127.0.0.1:0 and serves until the test process ends.
    pub fn start() -> ModelServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let shared = log.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = shared.clone();
                std::thread::spawn(move || serve(stream, &log));
            }
        });
        ModelServer { port, log }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn log(&self) -> Vec<Logged> {
        self.log.lock().unwrap().clone()
    }

    /// How many user turns (side requests and a turn's tool results left
    /// out) carried exactly `prompt`.
    pub fn turns_with(&self, prompt: &str) -> usize {
        self.log()
            .iter()
            .filter(|l| !l.side && !l.tool_result && l.prompt.as_deref() == Some(prompt))
            .count()
    }

    /// What reached the server as a proxy (a CONNECT, or a request for
    /// another host): traffic an agent meant for the network. The agents'
    /// environment names this server as their proxy, so it is refused here
    /// and never leaves the machine.
    pub fn escapes(&self) -> Vec<String> {
        self.log()
            .iter()
            .filter(|l| l.method == "CONNECT" || !l.path.starts_with('/'))
            .map(|l| format!("{} {}", l.method, l.path))
            .collect()
    }

    /// The log, one request a line, for failure messages.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for l in self.log() {
            s.push_str(&format!(
                "{} {} side={} tool_result={} prompt={:?} system={:?}\n",
                l.method, l.path, l.side, l.tool_result, l.prompt, l.system
            ));
        }
        s
    }
}

struct Request {
    method: String,
    path: String,
    body: Vec<u8>,
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Logged>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(300)));
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut out = stream;
    while let Some(req) = read_request(&mut reader) {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let (prompt, system) = find_prompt(&req.path, &body);
        let side = is_side(&req.path, &body, prompt.as_deref(), &system);
        let tool_result = brings_tool_result(&body);
        log.lock().unwrap().push(Logged {
            method: req.method.clone(),
            path: req.path.clone(),
            prompt: prompt.clone(),
            side,
            system: system.chars().take(160).collect(),
            body: String::from_utf8_lossy(&req.body).into_owned(),
            tool_result,
            at: Instant::now(),
        });
        if !side {
            std::thread::sleep(TURN_DELAY);
        }
        let text = if side {
            "Stand-in title".to_string()
        } else {
            format!("ACK: {}", prompt.as_deref().unwrap_or(""))
        };
        let asked = match prompt.as_deref() {
            _ if side || tool_result => Asked::Text,
            Some(p) => asked(p),
            None => Asked::Text,
        };
        let (status, ctype, payload) = match asked {
            Asked::Fail(status) => failure(status),
            Asked::Tool(command)
                if req
                    .path
                    .split('?')
                    .next()
                    .unwrap_or("")
                    .ends_with("/messages") =>
            {
                tool_call(&body, &command)
            }
            Asked::Tool(command) if req.path.contains("/responses") => {
                function_call(&body, &command)
            }
            _ => {
                let (status, ctype, payload) = answer(&req, &body, &text);
                (status.to_string(), ctype, payload)
            }
        };
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {ctype}\r\ncontent-length: {}\r\n\
             cache-control: no-cache\r\nrequest-id: req_stand_in\r\n\r\n",
            payload.len()
        );
        if out.write_all(head.as_bytes()).is_err() || out.write_all(&payload).is_err() {
            break;
        }
        let _ = out.flush();
    }
    let _ = out.shutdown(Shutdown::Both);
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let path = parts.next()?.to_string();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let mut body = Vec::new();
    if let Some(len) = headers.get("content-length") {
        let len: usize = len.parse().ok()?;
        body.resize(len, 0);
        reader.read_exact(&mut body).ok()?;
    } else if headers
        .get("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
    Some(Request { method, path, body })
}

/// The text of a message's content: a string, or the text parts of a list.
fn texts(content: &Value) -> Vec<String> {
    match content {
        Value::String(s) => vec![s.clone()],
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str).map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// The user's last prompt, and the system prompt, in any of the dialects.
/// Agents put context of their own into user messages (Claude Code's
/// `<system-reminder>`, codex's `<environment_context>`); those parts are
/// skipped, and the prompt is the last part left.
fn find_prompt(path: &str, body: &Value) -> (Option<String>, String) {
    let own = |t: &str| {
        let t = t.trim_start();
        t.starts_with("<system-reminder>")
            || t.starts_with("<environment_context>")
            || t.starts_with("<user_instructions>")
            || t.starts_with("# AGENTS.md")
            || t.starts_with("<permissions")
            || t.starts_with("<command-")
            || t.starts_with("<local-command")
    };
    let last_text = |msgs: &[Value], role_key: &str, user: &str, content_key: &str| {
        msgs.iter()
            .rev()
            .filter(|m| m.get(role_key).and_then(Value::as_str) == Some(user))
            .find_map(|m| {
                let content = m.get(content_key).unwrap_or(&Value::Null);
                texts(content).into_iter().rev().find(|t| !own(t))
            })
    };
    let system = match body.get("system") {
        Some(s) => texts(s).join("\n"),
        None => body
            .get("instructions")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| {
                body.get("systemInstruction")
                    .and_then(|s| s.get("parts"))
                    .map(|p| texts(p).join("\n"))
            })
            .unwrap_or_default(),
    };
    let empty = Vec::new();
    let prompt = if path.contains("/responses") {
        let input = body.get("input");
        match input {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Array(items)) => last_text(items, "role", "user", "content"),
            _ => None,
        }
    } else if path.contains("generateContent") || path.contains("GenerateContent") {
        let contents = body
            .get("contents")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        last_text(contents, "role", "user", "parts")
    } else {
        let msgs = body
            .get("messages")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        let system = if system.is_empty() {
            msgs.iter()
                .filter(|m| m.get("role").and_then(Value::as_str) == Some("system"))
                .flat_map(|m| texts(m.get("content").unwrap_or(&Value::Null)))
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            system
        };
        return (
            last_text(msgs, "role", "user", "content").map(as_typed),
            system,
        );
    };
    (prompt.map(as_typed), system)
}

/// A prompt as the user typed it: Claude Code sends pasted text between
/// `<pasted_content id="…">` lines of its own, and agents keep blanks at the
/// ends that the user never typed.
fn as_typed(prompt: String) -> String {
    prompt
        .lines()
        .filter(|l| {
            !(l.starts_with("<pasted_content id=\"") || l.starts_with("</pasted_content id=\""))
        })
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// Whether a request is one an agent makes beside the user's turn.
fn is_side(path: &str, body: &Value, prompt: Option<&str>, system: &str) -> bool {
    let lower = system.to_lowercase();
    let first_line = lower.lines().next().unwrap_or("");
    if path.contains("count_tokens") || path.contains("countTokens") || prompt.is_none() {
        return true;
    }
    if prompt == Some("quota") {
        return true;
    }
    // A prompt that asks for a title of the user's prompt (codex's task
    // title, which quotes the user's prompt below its first line).
    let asks = prompt
        .unwrap_or("")
        .lines()
        .next()
        .unwrap_or("")
        .to_lowercase();
    if asks.contains("title") && (asks.contains("generate") || asks.contains("concise")) {
        return true;
    }
    // Structured output (Gemini CLI's next-speaker and loop checks) and the
    // short title or summary prompts the agents write.
    let structured = body
        .pointer("/generationConfig/responseMimeType")
        .and_then(Value::as_str)
        == Some("application/json")
        || body
            .pointer("/generationConfig/responseJsonSchema")
            .is_some()
        || body.pointer("/text/format/type").and_then(Value::as_str) == Some("json_schema");
    structured
        || ["title", "summar", "topic", "commit message"]
            .iter()
            .any(|w| first_line.contains(w))
        || (lower.len() < 2000 && (lower.contains("title") || lower.contains("summarize")))
}

/// What a user's prompt asks of the server.
enum Asked {
    Text,
    /// `TOOL: COMMAND`: a shell tool call running COMMAND.
    Tool(String),
    /// `FAIL: STATUS`: that HTTP status, with an error body.
    Fail(String),
}

fn asked(prompt: &str) -> Asked {
    if let Some(command) = prompt.strip_prefix("TOOL: ") {
        return Asked::Tool(command.trim().to_string());
    }
    match prompt.strip_prefix("FAIL: ") {
        Some(status) => {
            let code = status.split_whitespace().next().unwrap_or("");
            match code.parse::<u16>() {
                Ok(c) if (400..600).contains(&c) => Asked::Fail(code.to_string()),
                _ => Asked::Text,
            }
        }
        None => Asked::Text,
    }
}

/// Whether the request's last message brings back a tool's result
/// (Responses: a `function_call_output` item; Messages: a `tool_result` part).
fn brings_tool_result(body: &Value) -> bool {
    let last_input = body
        .get("input")
        .and_then(Value::as_array)
        .and_then(|i| i.last());
    if last_input
        .and_then(|i| i.get("type"))
        .and_then(Value::as_str)
        == Some("function_call_output")
    {
        return true;
    }
    let last = body
        .get("messages")
        .and_then(Value::as_array)
        .and_then(|m| m.last());
    let Some(last) = last.filter(|m| m.get("role").and_then(Value::as_str) == Some("user")) else {
        return false;
    };
    last.get("content")
        .and_then(Value::as_array)
        .is_some_and(|parts| {
            parts
                .iter()
                .any(|p| p.get("type").and_then(Value::as_str) == Some("tool_result"))
        })
}

/// An HTTP error: `{"type":"error","error":{"type":…,"message":…}}` is the
/// Anthropic form, and OpenAI's clients read its `error.message` too.
fn failure(status: String) -> (String, &'static str, Vec<u8>) {
    let (reason, kind) = match status.as_str() {
        "400" => ("Bad Request", "invalid_request_error"),
        "401" => ("Unauthorized", "authentication_error"),
        "403" => ("Forbidden", "permission_error"),
        "429" => ("Too Many Requests", "rate_limit_error"),
        "529" => ("Overloaded", "overloaded_error"),
        _ => ("Error", "api_error"),
    };
    let body = json!({"type": "error", "error": {"type": kind,
        "message": format!("the stand-in refuses this prompt with {status}")}});
    (
        format!("{status} {reason}"),
        "application/json",
        body.to_string().into(),
    )
}

/// An Anthropic Messages answer calling the `Bash` tool (the first tool
/// the request offers whose input takes a `command`) to run `command`.
fn tool_call(body: &Value, command: &str) -> (String, &'static str, Vec<u8>) {
    let tools = body.get("tools").and_then(Value::as_array);
    let name = tools
        .and_then(|t| {
            t.iter().find_map(|tool| {
                let name = tool.get("name").and_then(Value::as_str)?;
                tool.pointer("/input_schema/properties/command")?;
                Some(name.to_string())
            })
        })
        .unwrap_or_else(|| "Bash".to_string());
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("stand-in");
    let input = json!({"command": command, "description": "Run the stand-in's command"});
    let block = json!({"type": "tool_use", "id": "toolu_stand_in", "name": name, "input": input});
    let message = json!({
        "id": "msg_stand_in_tool", "type": "message", "role": "assistant", "model": model,
        "content": [block], "stop_reason": "tool_use", "stop_sequence": null,
        "usage": {"input_tokens": 12, "output_tokens": 8},
    });
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        return (
            "200 OK".into(),
            "application/json",
            message.to_string().into(),
        );
    }
    let mut start = message.clone();
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    let opened = json!({"type": "tool_use", "id": "toolu_stand_in", "name": name, "input": {}});
    let events = sse(&[
        (
            "message_start",
            json!({"type": "message_start", "message": start}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": opened}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
                   "delta": {"type": "input_json_delta", "partial_json": input.to_string()}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta",
                   "delta": {"stop_reason": "tool_use", "stop_sequence": null},
                   "usage": {"output_tokens": 8}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ]);
    ("200 OK".into(), "text/event-stream", events)
}

/// An OpenAI Responses answer calling the first function tool whose
/// parameters take a command (`cmd` or `command`, a shell line or an argv
/// list) to run it, outside the sandbox where the tool can ask for that (so
/// an agent asks its user first).
fn function_call(body: &Value, command: &str) -> (String, &'static str, Vec<u8>) {
    let tools = body.get("tools").and_then(Value::as_array);
    let found = tools.and_then(|t| {
        t.iter().find_map(|tool| {
            let name = tool.get("name").and_then(Value::as_str)?;
            let props = tool.pointer("/parameters/properties")?;
            let key = ["cmd", "command"]
                .into_iter()
                .find(|k| props.get(k).is_some())?;
            let argv = props
                .pointer(&format!("/{key}/type"))
                .and_then(Value::as_str)
                == Some("array");
            Some((
                name.to_string(),
                key,
                argv,
                props.get("sandbox_permissions").is_some(),
            ))
        })
    });
    let (name, key, argv, escalate) =
        found.unwrap_or_else(|| ("shell".to_string(), "command", true, false));
    let mut args = json!({});
    args[key] = if argv {
        json!(["bash", "-lc", command])
    } else {
        json!(command)
    };
    if escalate {
        args["sandbox_permissions"] = json!("require_escalated");
        args["justification"] = json!("The stand-in's command runs outside the sandbox");
    }
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("stand-in");
    let item = json!({"type": "function_call", "id": "fc_stand_in", "call_id": "call_stand_in",
                      "status": "completed", "name": name, "arguments": args.to_string()});
    let done = json!({
        "id": "resp_stand_in_tool", "object": "response", "status": "completed", "model": model,
        "output": [item],
        "usage": {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": 8, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": 20},
    });
    let mut created = done.clone();
    created["status"] = json!("in_progress");
    created["output"] = json!([]);
    let events = sse(&[
        (
            "response.created",
            json!({"type": "response.created", "response": created}),
        ),
        (
            "response.output_item.added",
            json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
        ),
        (
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ),
        (
            "response.completed",
            json!({"type": "response.completed", "response": done}),
        ),
    ]);
    ("200 OK".into(), "text/event-stream", events)
}

fn sse(events: &[(&str, Value)]) -> Vec<u8> {
    let mut s = String::new();
    for (name, data) in events {
        if !name.is_empty() {
            s.push_str(&format!("event: {name}\n"));
        }
        s.push_str(&format!("data: {data}\n\n"));
    }
    s.into_bytes()
}

fn answer(req: &Request, body: &Value, text: &str) -> (&'static str, &'static str, Vec<u8>) {
    const JSON: &str = "application/json";
    if req.method == "CONNECT" || !req.path.starts_with('/') {
        return (
            "403 Forbidden",
            "text/plain",
            b"no network in tests\n".to_vec(),
        );
    }
    const SSE: &str = "text/event-stream";
    let path = req.path.split('?').next().unwrap_or("");
    let stream = body.get("stream").and_then(Value::as_bool) == Some(true);
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("stand-in");
    let words = text.split_whitespace().count() as u64;
    if path.ends_with("/count_tokens") {
        return (
            "200 OK",
            JSON,
            json!({"input_tokens": 12}).to_string().into(),
        );
    }
    if path.ends_with("/messages") {
        let message = json!({
            "id": "msg_stand_in", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn", "stop_sequence": null,
            "usage": {"input_tokens": 12, "output_tokens": words},
        });
        if !stream {
            return ("200 OK", JSON, message.to_string().into());
        }
        let mut start = message.clone();
        start["content"] = json!([]);
        start["stop_reason"] = Value::Null;
        start["usage"]["output_tokens"] = json!(1);
        return (
            "200 OK",
            SSE,
            sse(&[
                (
                    "message_start",
                    json!({"type": "message_start", "message": start}),
                ),
                (
                    "content_block_start",
                    json!({"type": "content_block_start", "index": 0,
                           "content_block": {"type": "text", "text": ""}}),
                ),
                (
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": 0,
                           "delta": {"type": "text_delta", "text": text}}),
                ),
                (
                    "content_block_stop",
                    json!({"type": "content_block_stop", "index": 0}),
                ),
                (
                    "message_delta",
                    json!({"type": "message_delta",
                           "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                           "usage": {"output_tokens": words}}),
                ),
                ("message_stop", json!({"type": "message_stop"})),
            ]),
        );
    }
    if path.ends_with("/responses") {
        let item = json!({
            "type": "message", "id": "msg_stand_in", "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        });
        let usage = json!({
            "input_tokens": 12, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": words, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 12 + words,
        });
        let done = json!({
            "id": "resp_stand_in", "object": "response", "status": "completed", "model": model,
            "output": [item], "usage": usage,
        });
        if !stream {
            return ("200 OK", JSON, done.to_string().into());
        }
        let mut created = done.clone();
        created["status"] = json!("in_progress");
        created["output"] = json!([]);
        return (
            "200 OK",
            SSE,
            sse(&[
                (
                    "response.created",
                    json!({"type": "response.created", "response": created}),
                ),
                (
                    "response.output_item.added",
                    json!({"type": "response.output_item.added", "output_index": 0,
                           "item": {"type": "message", "id": "msg_stand_in",
                                    "status": "in_progress", "role": "assistant", "content": []}}),
                ),
                (
                    "response.content_part.added",
                    json!({"type": "response.content_part.added", "item_id": "msg_stand_in",
                           "output_index": 0, "content_index": 0,
                           "part": {"type": "output_text", "text": "", "annotations": []}}),
                ),
                (
                    "response.output_text.delta",
                    json!({"type": "response.output_text.delta", "item_id": "msg_stand_in",
                           "output_index": 0, "content_index": 0, "delta": text}),
                ),
                (
                    "response.output_text.done",
                    json!({"type": "response.output_text.done", "item_id": "msg_stand_in",
                           "output_index": 0, "content_index": 0, "text": text}),
                ),
                (
                    "response.content_part.done",
                    json!({"type": "response.content_part.done", "item_id": "msg_stand_in",
                           "output_index": 0, "content_index": 0,
                           "part": {"type": "output_text", "text": text, "annotations": []}}),
                ),
                (
                    "response.output_item.done",
                    json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
                ),
                (
                    "response.completed",
                    json!({"type": "response.completed", "response": done}),
                ),
            ]),
        );
    }
    if path.ends_with("/chat/completions") {
        let usage = json!({"prompt_tokens": 12, "completion_tokens": words,
                           "total_tokens": 12 + words});
        if !stream {
            return (
                "200 OK",
                JSON,
                json!({"id": "chatcmpl-stand-in", "object": "chat.completion", "created": 0,
                       "model": model,
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": text}}],
                       "usage": usage})
                .to_string()
                .into(),
            );
        }
        let chunk = |delta: Value, finish: Value| {
            json!({"id": "chatcmpl-stand-in", "object": "chat.completion.chunk", "created": 0,
                   "model": model,
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        };
        let mut last = chunk(json!({}), json!("stop"));
        last["usage"] = usage;
        let mut out = sse(&[
            (
                "",
                chunk(json!({"role": "assistant", "content": ""}), Value::Null),
            ),
            ("", chunk(json!({"content": text}), Value::Null)),
            ("", last),
        ]);
        out.extend_from_slice(b"data: [DONE]\n\n");
        return ("200 OK", SSE, out);
    }
    if path.contains(":countTokens") {
        return (
            "200 OK",
            JSON,
            json!({"totalTokens": 12}).to_string().into(),
        );
    }
    if path.contains("enerateContent") {
        let structured = body
            .pointer("/generationConfig/responseMimeType")
            .and_then(Value::as_str)
            == Some("application/json");
        // Gemini CLI asks for JSON to decide who speaks next: the user.
        let reply = if structured {
            json!({"next_speaker": "user", "reasoning": "the answer is complete"}).to_string()
        } else {
            text.to_string()
        };
        let chunk = json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": reply}]},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": words,
                              "totalTokenCount": 12 + words},
            "modelVersion": model,
        });
        if path.contains(":streamGenerateContent") {
            return ("200 OK", SSE, sse(&[("", chunk)]));
        }
        return ("200 OK", JSON, chunk.to_string().into());
    }
    if path.ends_with("/models") {
        return (
            "200 OK",
            JSON,
            json!({"object": "list", "data": [
                {"id": "stand-in", "object": "model", "type": "model",
                 "display_name": "Stand-in", "created_at": "2026-01-01T00:00:00Z"}],
                "has_more": false, "first_id": "stand-in", "last_id": "stand-in"})
            .to_string()
            .into(),
        );
    }
    (
        "404 Not Found",
        JSON,
        json!({"error": {"type": "not_found_error", "message": format!("no {}", req.path)}})
            .to_string()
            .into(),
    )
}
