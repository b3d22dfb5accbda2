//! What a caller adds to the server's start (the extension switch's
//! keeper): tmux commands around the first session, and files that belong
//! to an earlier server.

use std::path::PathBuf;

/// tmux commands a caller hands the server's start, and files that belong
/// to an earlier server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartHooks {
    /// Run after roost.conf and before the first `new-session`: tmux words,
    /// commands separated by `;`, the last one without it.
    pub at_start: Vec<String>,
    /// Run right after the first `new-session` (tmux runs no hook before
    /// the server has a session): words as in `at_start`.
    pub after_session: Vec<String>,
    /// Removed when roost starts the server: what an earlier one kept.
    pub stale: Vec<PathBuf>,
}
