//! The stand-in model server's answers: `ACK:` text in each dialect (SSE
//! when streamed), a call of the agent's shell tool (Anthropic Messages,
//! OpenAI Responses and chat completions), an HTTP error.

use super::Request;
use serde_json::{json, Value};

/// An HTTP error: `{"type":"error","error":{"type":…,"message":…}}` is the
/// Anthropic form, and OpenAI's clients read its `error.message` too.
pub(super) fn failure(status: String) -> (String, &'static str, Vec<u8>) {
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
pub(super) fn tool_call(body: &Value, command: &str) -> (String, &'static str, Vec<u8>) {
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
pub(super) fn function_call(body: &Value, command: &str) -> (String, &'static str, Vec<u8>) {
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

/// An OpenAI chat completions answer, streamed, calling the first function
/// tool whose parameters take a `command` (a shell line) to run `command`.
pub(super) fn chat_tool_call(body: &Value, command: &str) -> (String, &'static str, Vec<u8>) {
    let name = body
        .get("tools")
        .and_then(Value::as_array)
        .and_then(|t| {
            t.iter().find_map(|tool| {
                let f = tool.get("function")?;
                f.pointer("/parameters/properties/command")?;
                Some(f.get("name")?.as_str()?.to_string())
            })
        })
        .unwrap_or_else(|| "bash".to_string());
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("stand-in");
    let args = json!({"command": command, "description": "Run the stand-in's command"});
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-stand-in-tool", "object": "chat.completion.chunk", "created": 0,
               "model": model,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let call = json!([{"index": 0, "id": "call_stand_in", "type": "function",
                       "function": {"name": name, "arguments": args.to_string()}}]);
    let mut last = chunk(json!({}), json!("tool_calls"));
    last["usage"] = json!({"prompt_tokens": 12, "completion_tokens": 8, "total_tokens": 20});
    let mut out = sse(&[
        (
            "",
            chunk(
                json!({"role": "assistant", "content": null, "tool_calls": call}),
                Value::Null,
            ),
        ),
        ("", last),
    ]);
    out.extend_from_slice(b"data: [DONE]\n\n");
    ("200 OK".into(), "text/event-stream", out)
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

pub(super) fn answer(
    req: &Request,
    body: &Value,
    text: &str,
) -> (&'static str, &'static str, Vec<u8>) {
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
        let chunk = |text: &str, last: bool| {
            let mut c = json!({
                "candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                "index": 0}],
                "modelVersion": model,
            });
            if last {
                c["candidates"][0]["finishReason"] = json!("STOP");
                c["usageMetadata"] = json!({"promptTokenCount": 12,
                    "candidatesTokenCount": words, "totalTokenCount": 12 + words});
            }
            c
        };
        if !path.contains(":streamGenerateContent") {
            return ("200 OK", JSON, chunk(&reply, true).to_string().into());
        }
        // Streamed as the real API streams a reply: in several pieces, each
        // its own event (the JSON that picks the next speaker in one).
        let pieces = if structured {
            vec![reply.as_str()]
        } else {
            pieces(&reply)
        };
        let events: Vec<(&str, Value)> = pieces
            .iter()
            .enumerate()
            .map(|(i, p)| ("", chunk(p, i + 1 == pieces.len())))
            .collect();
        return ("200 OK", SSE, sse(&events));
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

/// `text` cut after every second blank: `ACK: Say hello` streams as `ACK: Say `
/// and `hello`. Text without two blanks is one piece.
fn pieces(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut blanks) = (0, 0);
    for (i, c) in text.char_indices() {
        if c == ' ' {
            blanks += 1;
            if blanks % 2 == 0 {
                out.push(&text[start..=i]);
                start = i + 1;
            }
        }
    }
    if start < text.len() || out.is_empty() {
        out.push(&text[start..]);
    }
    out
}
