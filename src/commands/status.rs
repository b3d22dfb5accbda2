//! `status [--json]`: the server, its sessions, and every pane with its state.

use super::Ctx;
use crate::cli::model::JsonArgs;
use crate::error::{Exit, Result};
use crate::tmux::{Pane, Session};
use serde::Serialize;

pub fn run(ctx: &Ctx, a: JsonArgs) -> Result<Exit> {
    let socket = ctx.tmux.socket.value().to_string_lossy().into_owned();
    let fleet = if ctx.tmux.socket_exists() {
        ctx.tmux.sessions().ok().zip(ctx.tmux.panes().ok())
    } else {
        None
    };
    if fleet.is_none() {
        ctx.require_tmux()?;
    }
    if a.json {
        println!(
            "{}",
            crate::untrusted::json(&to_json(&socket, fleet.as_ref()))
        );
    } else {
        print!("{}", render(&socket, fleet.as_ref()));
    }
    Ok(Exit::Ok)
}

/// The documented text form: exact, because scripts and the
/// extension conformance test compare it byte for byte.
pub fn render(socket: &str, fleet: Option<&(Vec<Session>, Vec<Pane>)>) -> String {
    let Some((sessions, panes)) = fleet else {
        return "roost: not running\n".to_string();
    };
    let mut out = format!("roost: running (socket={socket})\n");
    for s in sessions {
        let attached = if s.attached { " [attached]" } else { "" };
        out.push_str(&format!(
            "  session {} \u{2014} {} windows{attached}\n",
            s.name, s.windows
        ));
        for p in panes.iter().filter(|p| p.session == s.name) {
            let state = shown_state(p);
            out.push_str(&format!(
                "    {}  {} {}  [{state}]\n",
                p.id,
                p.address(),
                p.window_name
            ));
        }
    }
    out
}

/// A pane's state as status shows it: `exited` (with the program's exit
/// status when tmux knows it) once its program has stopped, whatever it
/// stamped last; else its stamp, or `-`.
fn shown_state(p: &Pane) -> String {
    match (p.dead, p.dead_status) {
        (true, Some(code)) => format!("exited {code}"),
        (true, None) => "exited".to_string(),
        (false, _) if p.state.is_empty() => "-".to_string(),
        (false, _) => p.state.clone(),
    }
}

/// What `status --json` prints.
#[derive(Serialize)]
struct Status<'a> {
    running: bool,
    socket: &'a str,
    /// Absent when the server is not running.
    #[serde(skip_serializing_if = "Option::is_none")]
    sessions: Option<Vec<SessionJson<'a>>>,
}

#[derive(Serialize)]
struct SessionJson<'a> {
    name: &'a str,
    windows: u32,
    attached: bool,
    panes: Vec<PaneJson<'a>>,
}

#[derive(Serialize)]
struct PaneJson<'a> {
    id: &'a str,
    /// `SESSION:WINDOW.PANE`
    target: String,
    window: &'a str,
    window_id: &'a str,
    /// `@agent_state`; null when unstamped.
    state: Option<&'a str>,
    dead: bool,
    exit_status: Option<i32>,
}

fn to_json<'a>(socket: &'a str, fleet: Option<&'a (Vec<Session>, Vec<Pane>)>) -> Status<'a> {
    let sessions = fleet.map(|(sessions, panes)| {
        sessions
            .iter()
            .map(|s| SessionJson {
                name: &s.name,
                windows: s.windows,
                attached: s.attached,
                panes: panes
                    .iter()
                    .filter(|p| p.session == s.name)
                    .map(|p| PaneJson {
                        id: &p.id,
                        target: p.address(),
                        window: &p.window_name,
                        window_id: &p.window_id,
                        state: Some(p.state.as_str()).filter(|s| !s.is_empty()),
                        dead: p.dead,
                        exit_status: p.dead_status,
                    })
                    .collect(),
            })
            .collect()
    });
    Status {
        running: fleet.is_some(),
        socket,
        sessions,
    }
}
