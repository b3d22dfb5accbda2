//! What a pane shows: its screen and history as text, for `read`, `screen`
//! and `send`'s looks.

use super::client::{Tmux, TmuxResult};

impl Tmux {
    /// What `pane` shows now, wrapped lines as they are shown.
    pub fn visible_screen(&self, pane_id: &str) -> TmuxResult<String> {
        self.run(&["capture-pane", "-p", "-t", pane_id])
    }

    /// The lines of a pane's screen and history, trailing blanks trimmed.
    pub fn capture(&self, pane_id: &str) -> TmuxResult<String> {
        self.run(&["capture-pane", "-p", "-J", "-S", "-", "-t", pane_id])
    }

    /// The last screenfuls of `pane`, wrapped lines joined.
    pub fn recent_screen(&self, pane: &str) -> TmuxResult<String> {
        self.run(&["capture-pane", "-p", "-J", "-S", "-200", "-t", pane])
    }

    /// What `pane` shows now, with the cursor's place (so typing that moves
    /// only the cursor counts as a change).
    pub fn screen_now(&self, pane: &str) -> TmuxResult<String> {
        let mut words = vec![
            "display-message",
            "-p",
            "-t",
            pane,
            "#{cursor_x},#{cursor_y}",
            ";",
        ];
        words.extend(["capture-pane", "-p", "-e", "-t", pane]);
        self.run(&words)
    }
}
