//! The only place that talks to tmux: every tmux command roost sends is a
//! method of `Tmux` named for what it does, split by job into the files below.

mod agent_state;
mod client;
mod conf;
mod keys;
pub mod listening;
pub mod literal;
pub mod options;
mod pane_option;
mod panes;
mod screen;
mod server;
mod socket;
pub mod socket_dir;
pub mod state;
pub mod switch_keeper;
pub mod terminal;
mod windows;

pub use agent_state::AgentState;
pub use client::{installed, version, Tmux, TmuxError, TmuxResult, Version, MISSING};
pub use keys::TypingView;
pub use panes::HookView;
pub use panes::{Pane, Session};
pub use server::{check_conf, ServerStart, StartHooks};
pub use socket::Socket;
