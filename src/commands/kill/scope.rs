//! What one `kill` ends: a pane, a window, a session or the whole server;
//! the panes that go with it; whether it is in fact the whole server (the
//! last session, window or pane of it); and how each is named in a line.

use crate::tmux::{Pane, Session};
use crate::words::count;

/// What TARGET, `--session` or nothing at all named.
pub enum What {
    Pane,
    Window,
    Session(String),
    Server,
}

/// One kill's reach.
pub struct Scope {
    pub what: What,
    /// The panes it ends.
    pub panes: Vec<Pane>,
    /// How many panes and sessions the whole server has.
    all_panes: usize,
    all_sessions: usize,
}

impl Scope {
    pub fn new(what: What, all: &[Pane], sessions: &[Session], first: Option<&Pane>) -> Scope {
        let panes = all
            .iter()
            .filter(|p| match (&what, first) {
                (What::Pane, Some(f)) => p.id == f.id,
                (What::Window, Some(f)) => p.window_id == f.window_id,
                (What::Session(s), _) => &p.session == s,
                (What::Server, _) => true,
                _ => false,
            })
            .cloned()
            .collect();
        Scope {
            what,
            panes,
            all_panes: all.len(),
            all_sessions: sessions.len(),
        }
    }

    /// Whether ending it ends the whole server: it holds every pane there
    /// is (tmux ends a window with its last pane, a session with its last
    /// window, and itself with its last session).
    pub fn is_everything(&self) -> bool {
        matches!(self.what, What::Server) || self.panes.len() >= self.all_panes
    }

    /// The question asked before the whole server ends.
    pub fn question(&self) -> String {
        format!(
            "End the whole roost server: {} in {}?",
            count(self.all_panes, "pane"),
            count(self.all_sessions, "session")
        )
    }

    /// Why a kill of one thing is the whole server: `'main' is the last
    /// session`. Empty for the server itself.
    pub fn last_of_it(&self) -> String {
        let Some(first) = self.panes.first() else {
            return String::new();
        };
        match &self.what {
            What::Pane => format!("{} is the last pane", first.id),
            What::Window => format!("'{}' is the last window", first.window_name.raw()),
            What::Session(s) => format!("'{s}' is the last session"),
            What::Server => String::new(),
        }
    }

    /// What was ended, for the line `kill` prints (through the printer:
    /// the names in it are what the panes chose).
    pub fn ended(&self) -> String {
        if self.is_everything() {
            return format!(
                "the whole roost server ({} in {})",
                count(self.all_panes, "pane"),
                count(self.all_sessions, "session")
            );
        }
        let Some(first) = self.panes.first() else {
            return String::new();
        };
        match &self.what {
            What::Pane => format!(
                "pane {} of window '{}' in session '{}'",
                first.id,
                first.window_name.raw(),
                first.session.raw()
            ),
            What::Window if self.panes.len() > 1 => format!(
                "window '{}' in session '{}' ({}, {})",
                first.window_name.raw(),
                first.session.raw(),
                first.window_id,
                count(self.panes.len(), "pane")
            ),
            What::Window => format!(
                "window '{}' in session '{}' ({})",
                first.window_name.raw(),
                first.session.raw(),
                first.window_id
            ),
            What::Session(s) => {
                let mut windows: Vec<&str> =
                    self.panes.iter().map(|p| p.window_id.as_str()).collect();
                windows.sort_unstable();
                windows.dedup();
                format!(
                    "session '{s}' ({}, {})",
                    count(windows.len(), "window"),
                    count(self.panes.len(), "pane")
                )
            }
            What::Server => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(id: &str, window: &str, session: &str, name: &str) -> Pane {
        Pane {
            id: id.into(),
            window_id: window.into(),
            session: session.into(),
            window_index: "0".into(),
            pane_index: "0".into(),
            active: true,
            dead: false,
            dead_status: None,
            pid: None,
            state: None,
            command: Default::default(),
            window_name: name.into(),
            may_ask: false,
            dialog: None,
        }
    }

    fn session(name: &str) -> Session {
        Session {
            name: name.into(),
            windows: 1,
            attached: false,
        }
    }

    #[test]
    fn the_last_pane_window_or_session_is_the_whole_server() {
        let all = [
            pane("%0", "@0", "main", "sh"),
            pane("%1", "@1", "main", "alice"),
            pane("%2", "@1", "main", "alice"),
        ];
        let one = [session("main")];
        let window = Scope::new(What::Window, &all, &one, Some(&all[1]));
        assert!(!window.is_everything());
        assert_eq!(
            window.ended(),
            "window 'alice' in session 'main' (@1, 2 panes)"
        );
        let one_pane = Scope::new(What::Pane, &all, &one, Some(&all[2]));
        assert_eq!(
            one_pane.ended(),
            "pane %2 of window 'alice' in session 'main'"
        );
        let main = Scope::new(What::Session("main".into()), &all, &one, None);
        assert!(main.is_everything());
        assert_eq!(main.last_of_it(), "'main' is the last session");
        assert_eq!(
            main.ended(),
            "the whole roost server (3 panes in 1 session)"
        );
        assert_eq!(
            main.question(),
            "End the whole roost server: 3 panes in 1 session?"
        );
        let last = &all[..1];
        let window = Scope::new(What::Window, last, &one, Some(&last[0]));
        assert!(window.is_everything());
        assert_eq!(window.last_of_it(), "'sh' is the last window");
        let two = [session("main"), session("work")];
        let mut both = all.to_vec();
        both.push(pane("%3", "@2", "work", "sh"));
        let work = Scope::new(What::Session("work".into()), &both, &two, None);
        assert!(!work.is_everything());
        assert_eq!(work.ended(), "session 'work' (1 window, 1 pane)");
        assert!(Scope::new(What::Server, &both, &two, None).is_everything());
    }
}
