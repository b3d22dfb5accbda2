//! What roost and agents' hooks leave on a pane besides its state, read
//! back: which agent runs there, what `send` last did to it, and the prompt
//! its hook last reported.

use super::client::{Tmux, TmuxResult};
use super::options::{AGENT, PROMPT_SEEN, SENT, TYPED};

/// What `send` last did to a pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Text was typed into it, its Enter never pressed.
    Typed,
    /// A prompt was submitted (Enter pressed).
    Submitted,
}

impl Tmux {
    /// The agent CLI roost knows runs in `pane` (`None` when none).
    pub fn agent_of(&self, pane: &str) -> TmuxResult<Option<String>> {
        self.pane_option(pane, AGENT)
    }

    /// What `send` last did to `pane` (`None` when it never sent to it).
    pub fn sent_mark(&self, pane: &str) -> TmuxResult<Option<Sent>> {
        Ok(self.pane_option(pane, SENT)?.map(|mark| {
            if mark == TYPED {
                Sent::Typed
            } else {
                Sent::Submitted
            }
        }))
    }

    /// The key (`options::prompt_key`) of the prompt `pane`'s prompt hook
    /// reported last.
    pub fn prompt_seen(&self, pane: &str) -> TmuxResult<Option<String>> {
        self.pane_option(pane, PROMPT_SEEN)
    }
}
