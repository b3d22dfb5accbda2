//! The stand-in model server the agent tests point the real agent CLIs at:
//! HTTP/1.1 on 127.0.0.1 (std::net, a thread per connection), answering every
//! chat turn with `ACK: <the user's last prompt>` in the dialect the caller
//! speaks: Anthropic Messages, OpenAI Responses and chat completions (each
//! streamed as SSE when asked), and Gemini's generateContent and
//! streamGenerateContent (a reply in several pieces, as the real API streams
//! it). It logs every request, so a test can assert which
//! prompts reached it and how often.
//!
//! Two prompt forms ask for something else. `TOOL: COMMAND` is answered
//! with a call of the agent's shell tool running COMMAND (Anthropic
//! Messages, OpenAI Responses and chat completions), and the request that
//! brings the tool's result back with the `ACK:` text. `FAIL: STATUS` is
//! answered with that HTTP status and an error body every dialect reads.

mod answers;
mod reading;

use answers::{answer, chat_tool_call, failure, function_call, tool_call};
use reading::{asked, brings_tool_result, find_prompt, is_side, Asked};
use serde_json::Value;
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
            Asked::Tool(command) if req.path.contains("/chat/completions") => {
                chat_tool_call(&body, &command)
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
