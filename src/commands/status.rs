//! `status [--json]`: the server, its sessions, and every pane with its state.

use super::ctx::Ctx;
use crate::cli::model::JsonArgs;
use crate::colour::{Colour, Paint};
use crate::error::{Exit, Result};
use crate::tmux::{AgentState, Pane, Session};
use crate::untrusted::Outside;
use serde::Serialize;

pub fn run(ctx: &Ctx, a: JsonArgs) -> Result<Exit> {
    let socket = ctx.tmux.socket.value().to_string_lossy().into_owned();
    let fleet = if ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        ctx.tmux
            .sessions()
            .ok()
            .zip(ctx.tmux.panes_with_dialogs().ok())
    } else {
        None
    };
    if fleet.is_none() {
        ctx.require_tmux()?;
    }
    // A preset's pane no hook has reported from: its screen rules say.
    let mut fleet = fleet;
    if let Some((_, panes)) = fleet.as_mut() {
        crate::agents::screen_state::read_into(&ctx.tmux, ctx.paths().ok(), panes);
    }
    if a.json {
        println!(
            "{}",
            crate::untrusted::json(&to_json(&socket, fleet.as_ref()))
        );
    } else {
        print!(
            "{}",
            render(
                &socket,
                fleet.as_ref(),
                crate::locale::is_utf8(),
                crate::colour::Paint::stdout()
            )
        );
    }
    Ok(Exit::Ok)
}

/// The documented text form: exact, because scripts and the extension
/// conformance test compare it. It is for people, so everything in it that
/// tmux holds (names, commands) is shown printable (`untrusted`), whether
/// stdout is a terminal or not, and outside a UTF-8 locale it is ASCII.
/// `paint` colours the state a person acts on: blocked yellow, done
/// green, error red.
pub fn render(
    socket: &str,
    fleet: Option<&(Vec<Session>, Vec<Pane>)>,
    utf8: bool,
    paint: Paint,
) -> String {
    let Some((sessions, panes)) = fleet else {
        return "roost: not running\n".to_string();
    };
    let shown = |text: &Outside| {
        let bytes = text.raw().as_bytes();
        if utf8 {
            crate::untrusted::printable(bytes)
        } else {
            crate::untrusted::printable_ascii(bytes)
        }
    };
    let dash = if utf8 { "\u{2014}" } else { "-" };
    // The columns of every pane line, then their widths.
    let rows: Vec<(&Pane, [String; 4])> = panes
        .iter()
        .map(|p| {
            let cells = [
                p.id.clone(),
                shown(&p.address()),
                quoted(shown(&p.window_name)),
                if p.command.is_empty() {
                    "-".to_string()
                } else {
                    quoted(shown(&p.command))
                },
            ];
            (p, cells)
        })
        .collect();
    let mut widths = [0; 4];
    for (_, cells) in &rows {
        for (w, cell) in widths.iter_mut().zip(cells) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = format!("roost: running (socket={})\n", shown(&Outside::new(socket)));
    for s in sessions {
        let attached = if s.attached { " [attached]" } else { "" };
        let windows = if s.windows == 1 { "window" } else { "windows" };
        out.push_str(&format!(
            "  session {} {dash} {} {windows}{attached}\n",
            quoted(shown(&s.name)),
            s.windows
        ));
        for (p, cells) in rows.iter().filter(|(p, _)| p.session == s.name) {
            out.push_str("    ");
            for (cell, w) in cells.iter().zip(widths) {
                let pad = w - cell.chars().count();
                out.push_str(&format!("{cell}{:pad$}  ", ""));
            }
            let state = shown(&Outside::new(shown_state(p)));
            let state = match (p.dead, p.state) {
                (false, Some(AgentState::Blocked)) => paint.paint(Colour::Yellow, &state),
                (false, Some(AgentState::Done)) => paint.paint(Colour::Green, &state),
                (false, Some(AgentState::Error)) => paint.paint(Colour::Red, &state),
                _ => state,
            };
            out.push_str(&format!("[{state}]\n"));
        }
    }
    out
}

/// A name as one field: in single quotes when it is empty or holds a blank
/// or a quote, so it cannot run into the next column.
fn quoted(name: String) -> String {
    if name.is_empty() || name.contains([' ', '\'']) {
        format!("'{}'", name.replace('\'', "\\'"))
    } else {
        name
    }
}

/// A pane's state as status shows it: `exited` (with the program's exit
/// status when tmux knows it) once its program has stopped, whatever it
/// stamped last; else its state, or `-`.
fn shown_state(p: &Pane) -> String {
    match (p.dead, p.dead_status) {
        (true, Some(code)) => format!("exited {code}"),
        (true, None) => "exited".to_string(),
        (false, _) => p.state.map_or("-", AgentState::word).to_string(),
    }
}

/// What `status --json` prints.
#[derive(Serialize)]
struct Status<'a> {
    /// The format's version: raised when a field changes meaning or goes.
    version: u32,
    running: bool,
    socket: &'a str,
    /// Empty when the server is not running.
    sessions: Vec<SessionJson<'a>>,
}

#[derive(Serialize)]
struct SessionJson<'a> {
    name: &'a Outside,
    windows: u32,
    attached: bool,
    panes: Vec<PaneJson<'a>>,
}

#[derive(Serialize)]
struct PaneJson<'a> {
    id: &'a str,
    /// `SESSION:WINDOW.PANE`
    target: Outside,
    window: &'a Outside,
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
                        state: p.state.map(AgentState::word),
                        dead: p.dead,
                        exit_status: p.dead_status,
                    })
                    .collect(),
            })
            .collect()
    });
    Status {
        version: 1,
        running: fleet.is_some(),
        socket,
        sessions: sessions.unwrap_or_default(),
    }
}
