//! What roost's server holds: its sessions and panes as `list-sessions`
//! and `list-panes` describe them, and the pane a command runs in.

use super::agent_state::{self, AgentState};
use super::client::{Tmux, TmuxError, TmuxResult};
use super::dialog::{self, Dialog};
use super::options::SESSION_ID;
use super::socket::{enclosing_socket, same_file};
use crate::untrusted::Outside;

/// One pane of the roost server, as `list-panes -a` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pane {
    pub id: String,
    pub window_id: String,
    /// Names and the program are what the pane made them.
    pub session: Outside,
    pub window_index: String,
    pub pane_index: String,
    pub active: bool,
    pub dead: bool,
    /// The exit status of a dead pane's program, when tmux knows it.
    pub dead_status: Option<i32>,
    /// The process tmux started in the pane.
    pub pid: Option<i32>,
    /// The agent's state; `None` when unstamped, or stamped with anything
    /// but a known state's word. `Blocked` for a pane that shows a dialog
    /// roost knows, once looked at (`Tmux::panes_with_dialogs`).
    pub state: Option<AgentState>,
    /// The program running in the pane now (`pane_current_command`).
    pub command: Outside,
    pub window_name: Outside,
    /// An agent that may hold a dialog roost knows runs there, and no hook
    /// has reported from it yet (`dialog::may_ask_format`).
    pub may_ask: bool,
    /// The dialog it shows, once looked at.
    pub dialog: Option<&'static Dialog>,
}

impl Pane {
    /// `SESSION:WINDOW.PANE`
    pub fn address(&self) -> Outside {
        Outside::new(format!(
            "{}:{}.{}",
            self.session.raw(),
            self.window_index,
            self.pane_index
        ))
    }
}

/// One session of the roost server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub name: Outside,
    pub windows: u32,
    pub attached: bool,
}

/// The fields of a pane as `list-panes` gives them, each followed by `sep`
/// (`parse_panes` reads them back). No field's content can make a pane or
/// shift a field: tmux escapes control characters in names, but not in the
/// name of the program in the pane (`pane_current_command`, which the
/// program chooses itself with `exec -a`, newlines and TABs included), so
/// the fields are not told apart by TABs and lines but by a separator made
/// afresh for each call, which nothing in a pane knows. The state, an
/// option anything in the pane can set to any bytes, is never printed
/// itself: the format prints one of the known words it equals, or nothing.
fn pane_format(sep: &str) -> String {
    let fields = [
        "#{pane_id}".to_string(),
        "#{window_id}".into(),
        "#{session_name}".into(),
        "#{window_index}".into(),
        "#{pane_index}".into(),
        "#{pane_active}".into(),
        "#{pane_dead}".into(),
        "#{pane_dead_status}".into(),
        "#{pane_pid}".into(),
        agent_state::known_format(),
        "#{pane_current_command}".into(),
        "#{window_name}".into(),
        dialog::may_ask_format(),
    ];
    fields.iter().map(|f| format!("{f}{sep}")).collect()
}

/// How many fields `pane_format` gives each pane.
const PANE_FIELDS: usize = 13;

/// A separator for one `list-panes` call: 128 bits no pane can know,
/// between TABs (the keys of std's hasher are random for each process,
/// and each `RandomState` is a new key).
fn fresh_separator() -> String {
    use std::hash::BuildHasher;
    let half = || std::collections::hash_map::RandomState::new().hash_one(std::process::id());
    format!("\t{:016x}{:016x}\t", half(), half())
}

/// What an agent's hook reads of its pane, in one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookView {
    /// The agent's session id recorded on the pane (empty when none).
    pub session_id: String,
    pub session: String,
    pub window: String,
}

/// What the event runner reads of a pane, in one call: names as tmux
/// gives them (they reach a handler's environment and JSON only), and the
/// state as a known word or nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventView {
    pub window: String,
    pub session: String,
    pub agent: String,
    pub state: String,
}

impl Tmux {
    /// The server a `run-shell` job of roost's server runs in (tmux hands
    /// its jobs `$TMUX`); elsewhere, as `from_env`.
    pub fn of_job() -> Tmux {
        let mut tmux = Tmux::from_env();
        if std::env::var_os("ROOST_SOCKET").is_none() {
            if let Some(path) = std::env::var_os("TMUX")
                .as_deref()
                .and_then(enclosing_socket)
            {
                tmux.socket = super::socket::Socket::Path(path);
            }
        }
        tmux
    }

    /// What the event runner tells a handler of pane `pane_id`.
    pub fn event_view(&self, pane_id: &str) -> TmuxResult<EventView> {
        let sep = fresh_separator();
        let format = [
            "#{window_name}".to_string(),
            "#{session_name}".into(),
            format!("#{{{}}}", super::options::AGENT),
            agent_state::known_format(),
        ]
        .join(&sep);
        let out = self.pane_format(pane_id, &format)?;
        let mut fields = out.splitn(4, sep.as_str());
        let mut next = || fields.next().unwrap_or("").to_string();
        Ok(EventView {
            window: next(),
            session: next(),
            agent: next(),
            state: next(),
        })
    }

    /// The name of the session pane `pane_id` is in.
    pub fn session_of(&self, pane_id: &str) -> TmuxResult<String> {
        Ok(self
            .run(&["display-message", "-p", "-t", pane_id, "#{session_name}"])?
            .trim_end()
            .to_string())
    }

    /// What an agent's hook reads of pane `pane_id` before it records.
    pub fn hook_view(&self, pane_id: &str) -> TmuxResult<HookView> {
        let known = self.pane_format(
            pane_id,
            &format!("#{{{SESSION_ID}}}\t#{{session_name}}\t#{{window_name}}"),
        )?;
        let mut fields = known.splitn(3, '\t');
        let mut next = || fields.next().unwrap_or("").to_string();
        Ok(HookView {
            session_id: next(),
            session: next(),
            window: next(),
        })
    }

    pub fn sessions(&self) -> TmuxResult<Vec<Session>> {
        let out = self.run(&[
            "list-sessions",
            "-F",
            "#{session_windows}\t#{session_attached}\t#{session_name}",
        ])?;
        Ok(out
            .lines()
            .filter_map(|line| {
                let mut f = line.splitn(3, '\t');
                let windows = f.next()?.parse().ok()?;
                let attached = f.next()? != "0";
                let name = Outside::new(f.next()?);
                Some(Session {
                    name,
                    windows,
                    attached,
                })
            })
            .collect())
    }

    /// Every pane of every session, in tmux's order.
    pub fn panes(&self) -> TmuxResult<Vec<Pane>> {
        let sep = fresh_separator();
        let out = self.run(&["list-panes", "-a", "-F", &pane_format(&sep)])?;
        Ok(parse_panes(&out, &sep))
    }

    /// Every pane, as a person acts on them: one that shows a dialog roost
    /// knows (codex asking to trust its hooks) reads as blocked, with that
    /// dialog. Only a pane that may hold one and has no state is looked at.
    pub fn panes_with_dialogs(&self) -> TmuxResult<Vec<Pane>> {
        let mut panes = self.panes()?;
        for p in panes
            .iter_mut()
            .filter(|p| p.may_ask && !p.dead && p.state.is_none())
        {
            // A pane closed since the listing shows nothing.
            if let Ok(Some(d)) = self.dialog(&p.id) {
                p.dialog = Some(d);
                p.state = Some(AgentState::Blocked);
            }
        }
        Ok(panes)
    }

    /// The process id of the server itself.
    pub fn server_pid(&self) -> TmuxResult<u32> {
        let out = self.run(&["display-message", "-p", "#{pid}"])?;
        out.trim()
            .parse()
            .map_err(|_| TmuxError(format!("tmux gave {:?} for its process id", out.trim())))
    }

    /// The pane id of the caller when it runs inside a pane of this server.
    pub fn caller_pane(&self) -> Option<String> {
        let pane = std::env::var("TMUX_PANE")
            .ok()
            .filter(|p| p.starts_with('%'))?;
        let theirs = enclosing_socket(&std::env::var_os("TMUX")?)?;
        same_file(&theirs, &self.socket.file()).then_some(pane)
    }
}

/// The panes of `list-panes` output in `pane_format(sep)`: tmux ends each
/// pane's fields with a newline, so every pane but the first starts with
/// one. A pane whose fields are not what tmux gives is left out.
fn parse_panes(out: &str, sep: &str) -> Vec<Pane> {
    let mut fields = out.split(sep);
    let mut panes = Vec::new();
    for n in 0.. {
        let mut record: Vec<&str> = fields.by_ref().take(PANE_FIELDS).collect();
        if record.len() < PANE_FIELDS {
            break;
        }
        if n > 0 {
            let Some(id) = record[0].strip_prefix('\n') else {
                continue;
            };
            record[0] = id;
        }
        panes.extend(parse_pane(&record));
    }
    panes
}

/// One pane's fields, in `pane_format`'s order; None for anything else.
fn parse_pane(f: &[&str]) -> Option<Pane> {
    let id = |prefix: char, s: &str| {
        let digits = s.strip_prefix(prefix)?;
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| s.to_string())
    };
    let number =
        |s: &str| (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.to_string());
    let [pane_id, window_id, session, window_index, pane_index, active, dead, dead_status, pid, state, command, window_name, may_ask] =
        f
    else {
        return None;
    };
    Some(Pane {
        id: id('%', pane_id)?,
        window_id: id('@', window_id)?,
        session: Outside::new(*session),
        window_index: number(window_index)?,
        pane_index: number(pane_index)?,
        active: *active == "1",
        dead: *dead == "1",
        dead_status: dead_status.parse().ok(),
        pid: pid.parse().ok(),
        // The format prints nothing but a known word there.
        state: match *state {
            "" => None,
            word => Some(AgentState::from_word(word)?),
        },
        command: Outside::new(*command),
        window_name: Outside::new(*window_name),
        may_ask: *may_ask == "1",
        dialog: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panes_are_read_by_the_separator_alone() {
        let sep = fresh_separator();
        assert_ne!(sep, fresh_separator());
        let pane =
            |fields: &[&str]| -> String { fields.iter().map(|f| format!("{f}{sep}")).collect() };
        let alice = pane(&[
            "%3",
            "@2",
            "main",
            "1",
            "0",
            "1",
            "0",
            "",
            "4242",
            "working",
            "x\n%4\t@9",
            "name\twith tab",
            "1",
        ]);
        let bob = pane(&[
            "%4", "@3", "main", "2", "0", "1", "1", "3", "4243", "", "", "bob", "0",
        ]);
        let panes = parse_panes(&format!("{alice}\n{bob}\n"), &sep);
        assert_eq!(panes.len(), 2, "{panes:?}");
        let (a, b) = (&panes[0], &panes[1]);
        assert_eq!(a.window_name, "name\twith tab");
        assert_eq!(a.command, "x\n%4\t@9");
        assert_eq!(a.address(), "main:1.0");
        assert!(a.active && !a.dead);
        assert_eq!((a.pid, a.state), (Some(4242), Some(AgentState::Working)));
        assert!(a.may_ask && !b.may_ask);
        assert!(b.dead);
        assert_eq!((b.id.as_str(), b.dead_status), ("%4", Some(3)));
        for forged in [
            pane(&[
                "x%4", "@3", "main", "2", "0", "1", "1", "3", "4243", "", "", "bob", "0",
            ]),
            pane(&[
                "%4", "@3", "main", "2", "0", "1", "1", "3", "4243", "done!", "", "bob", "0",
            ]),
            pane(&[
                "%4", "3", "main", "2", "0", "1", "1", "3", "4243", "", "", "bob", "0",
            ]),
        ] {
            assert_eq!(
                parse_panes(&format!("{forged}\n"), &sep),
                vec![],
                "{forged:?}"
            );
        }
        // A line break where tmux puts none, or none where it puts one.
        assert_eq!(parse_panes(&format!("\n{alice}\n"), &sep), vec![]);
        assert_eq!(parse_panes(&format!("{alice}{bob}\n"), &sep).len(), 1);
    }
}
