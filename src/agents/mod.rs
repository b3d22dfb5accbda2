//! The agents domain: the agent CLIs roost knows (`agent.rs`), an agent by
//! name whether built in or taught by a preset (`known.rs`), the one
//! handler every agent's hooks run (`hook.rs`) and the transcripts it reads
//! replies from (`transcript.rs`), the record of a server's agents for
//! `resume` (`roster.rs`), what spawn, resume and kill do for an agent
//! (`launch.rs`), the agents on PATH (`programs.rs`), a preset's state read from its
//! screen (`screen_state.rs`), and the wiring of
//! their configuration (`wiring/`). The commands over it are in
//! src/commands/ (hook, hooks, resume, next).

pub mod agent;
pub mod hook;
pub mod known;
pub mod launch;
pub mod programs;
pub mod roster;
pub mod screen_state;
pub mod transcript;
pub mod wiring;

pub use agent::{valid_session_id, Agent, HookAgent, HookWord};

/// Records pane `pane`'s session id (set by its agent's hook) for
/// `resume`: run by the event runner, off the hook's path.
pub fn record_session(tmux: &crate::tmux::Tmux, pane: &str) {
    if let Ok(view) = tmux.hook_view(pane) {
        if valid_session_id(&view.session_id) {
            roster::note_session(tmux, &view.session, &view.window, &view.session_id);
        }
    }
}
