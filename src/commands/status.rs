//! `status [--json]`: the server, its sessions, and every pane with its state.

use super::Ctx;
use crate::cli::model::JsonArgs;
use crate::error::Result;
use crate::tmux::{Pane, Session};
use serde_json::json;

pub fn run(ctx: &Ctx, a: JsonArgs) -> Result<u8> {
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
    Ok(0)
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

fn to_json(socket: &str, fleet: Option<&(Vec<Session>, Vec<Pane>)>) -> serde_json::Value {
    let Some((sessions, panes)) = fleet else {
        return json!({ "running": false, "socket": socket });
    };
    let sessions: Vec<_> = sessions
        .iter()
        .map(|s| {
            let panes: Vec<_> = panes
                .iter()
                .filter(|p| p.session == s.name)
                .map(|p| {
                    json!({
                        "id": p.id,
                        "target": p.address(),
                        "window": p.window_name,
                        "window_id": p.window_id,
                        "state": if p.state.is_empty() { None } else { Some(&p.state) },
                        "dead": p.dead,
                        "exit_status": p.dead_status,
                    })
                })
                .collect();
            json!({ "name": s.name, "windows": s.windows, "attached": s.attached, "panes": panes })
        })
        .collect();
    json!({ "running": true, "socket": socket, "sessions": sessions })
}
