//! What an agent preset says of sending to its program: whether it takes a
//! bracketed paste, and how long to let it settle before Enter. Read only
//! for a pane whose agent is no built-in one.

use super::super::ctx::Ctx;
use crate::agents::Agent;
use crate::ext::{presets, taught};
use crate::tmux::options;
use std::time::Duration;

/// How `send` types into a preset's pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Manner {
    /// false: the text is typed without the paste brackets, even where the
    /// program asked for them.
    pub bracketed: bool,
    /// How long to wait between the text and Enter.
    pub settle: Duration,
}

/// The manner of the enabled preset `pane`'s agent is, if it is one.
pub fn of(ctx: &Ctx, pane: &str) -> Option<Manner> {
    // Anything in the pane can set its agent's name: it only picks a preset.
    let agent = ctx.tmux.pane_option(pane, options::AGENT).ok().flatten()?;
    if agent.is_empty()
        || Agent::from_name(&agent).is_some()
        || presets::shadows_builtin(&agent).is_some()
    {
        return None;
    }
    let taught = taught::find(ctx.paths().ok()?, &agent).filter(|t| t.enabled)?;
    Some(Manner {
        bracketed: taught.preset.bracketed_paste,
        settle: Duration::from_millis(taught.preset.settle_ms.min(presets::MAX_SETTLE_MS)),
    })
}
