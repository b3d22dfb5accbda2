//! `--when-idle`: before anything is typed, waiting until the agent is
//! neither working nor waiting for a person, and saying which it still was
//! when the time ran out.

use super::Send;
use crate::error::{Exit, Result};
use crate::tmux::AgentState;
use std::time::{Duration, Instant};

impl Send<'_> {
    /// Waits until the agent is neither working nor waiting for a person
    /// (its hooks say so, or its screen shows a dialog roost knows),
    /// sleeping until its state changes. `force` sends to a blocked agent,
    /// never into a dialog.
    pub(super) fn until_idle(&self, force: bool) -> Result<()> {
        loop {
            let now = self
                .tmux
                .agent_state(&self.pane.id)
                .map_err(|e| self.untyped(e))?;
            let dialog = self
                .tmux
                .dialog(&self.pane.id)
                .map_err(|e| self.untyped(e))?;
            let busy = match now {
                _ if dialog.is_some() => true,
                Some(AgentState::Working) => true,
                Some(AgentState::Blocked) => !force,
                _ => false,
            };
            if !busy {
                return Ok(());
            }
            let left = self.deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                if let Some(dialog) = dialog {
                    return Err(self.in_dialog(dialog, Some(self.wait)));
                }
                if now == Some(AgentState::Blocked) {
                    return Err(self
                        .fail(format!(
                            "{} was still blocked after {}s: it is waiting for a person; nothing was typed",
                            self.who, self.wait
                        ))
                        .code(Exit::Blocked)
                        .hint(format!(
                            "answer it there first (roost screen {} shows it), or send anyway with --force",
                            self.again
                        )));
                }
                return Err(self
                    .fail(format!(
                        "{} was still {} after {}s; nothing was typed",
                        self.who,
                        now.map_or("", AgentState::word),
                        self.wait
                    ))
                    .code(Exit::NotReady)
                    .hint("give it longer with --wait SECONDS"));
            }
            self.tmux
                .sleep_while_unfinished(&self.pane.id, None, left.min(Duration::from_secs(1)))
                .map_err(|e| self.untyped(e))?;
        }
    }
}
