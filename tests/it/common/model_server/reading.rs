//! What a request to the stand-in model server asks: the user's last prompt
//! and the system prompt in every dialect, whether it is a side request, a
//! tool's result coming back, or a `TOOL:` or `FAIL:` prompt.

use serde_json::Value;

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
pub(super) fn find_prompt(path: &str, body: &Value) -> (Option<String>, String) {
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
/// `<pasted_content id="…">` lines of its own, GitHub Copilot CLI puts a
/// `<current_datetime>…</current_datetime>` element before it, and agents
/// keep blanks at the ends that the user never typed.
fn as_typed(prompt: String) -> String {
    let prompt = match prompt.trim_start().strip_prefix("<current_datetime>") {
        Some(rest) => rest
            .split_once("</current_datetime>")
            .map_or(prompt.as_str(), |(_, typed)| typed),
        None => prompt.as_str(),
    };
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
pub(super) fn is_side(path: &str, body: &Value, prompt: Option<&str>, system: &str) -> bool {
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
pub(super) enum Asked {
    Text,
    /// `TOOL: COMMAND`: a shell tool call running COMMAND.
    Tool(String),
    /// `FAIL: STATUS`: that HTTP status, with an error body.
    Fail(String),
}

pub(super) fn asked(prompt: &str) -> Asked {
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
/// (Responses: a `function_call_output` item; Messages: a `tool_result`
/// part; chat completions: a message of role `tool`).
pub(super) fn brings_tool_result(body: &Value) -> bool {
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
    if last.and_then(|m| m.get("role")).and_then(Value::as_str) == Some("tool") {
        return true;
    }
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
