//! What an agent preset says of sending to its program: whether it takes a
//! bracketed paste, and how long to let it settle before Enter. Read only
//! for a pane whose agent is no built-in one.

use super::super::ctx::Ctx;
use crate::agents::known::Known;
use crate::ext::presets;
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
    // Built-in agents: only a name that is none of theirs reads ext.agents.
    match Known::named(ctx.paths().ok(), &agent)? {
        Known::Builtin(_) => None,
        Known::Preset(t) => Some(Manner {
            bracketed: t.preset.bracketed_paste,
            settle: Duration::from_millis(t.preset.settle_ms.min(presets::MAX_SETTLE_MS)),
        }),
    }
}
