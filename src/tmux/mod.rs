//! The only place that talks to tmux: every tmux command roost sends is a
//! method of `Tmux` named for what it does, and every option roost keeps is
//! named in `options`. By job:
//! - `socket`: which server is roost's and how to address it;
//!   `client`: one call to it, its errors, which tmux is installed;
//! - `server`: starting it (with the hooks the caller hands in), checking a
//!   roost.conf; `start_hooks`: what a caller adds to the start;
//!   `switch_keeper`: the extension switch's hooks, and the comparison every
//!   call carries;
//! - `panes`: its sessions and panes; `windows`: windows and panes made,
//!   closed and shown; `screen`: what a pane shows;
//! - `pane_option`, `marks`: options read and written; `keys`: typing;
//!   `batch`: several commands in one call (an agent's hook);
//! - `agent_state`, `state`: agents' states, stamping and waiting on them;
//!   `dialog`: the dialogs an agent holds a person in, known by their look.

mod agent_state;
mod batch;
mod client;
mod conf;
pub mod dialog;
mod keys;
pub mod listening;
pub mod literal;
mod marks;
pub mod options;
mod pane_option;
mod panes;
mod screen;
mod server;
mod socket;
pub mod socket_dir;
mod start_hooks;
pub mod state;
pub mod switch_keeper;
pub mod terminal;
mod windows;

pub use agent_state::AgentState;
pub use batch::{event_hooks, run_now, Batch};
pub use client::{installed, version, Tmux, TmuxError, TmuxResult, Version, MISSING};
pub use dialog::Dialog;
pub use keys::TypingView;
pub use marks::Sent;
pub use panes::{EventView, HookView, Pane, Session};
pub use server::{check_conf, ServerStart};
pub use socket::Socket;
pub use start_hooks::StartHooks;
