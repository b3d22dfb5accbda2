//! roost: a fleet of coding agents on its own tmux server, extended by
//! pinned third-party commands. `run` is the whole program; `route` decides
//! what a command line is, and `dispatch` is the hot path to an extension.

mod agents;
#[cfg(test)]
mod built_from;
mod child;
pub mod cli;
mod colour;
mod commands;
mod complete;
pub mod contract;
mod dispatch;
pub mod error;
pub mod events;
pub mod exit;
mod ext;
mod fsutil;
mod home;
pub mod index;
mod launch;
mod locale;
pub mod man;
pub mod paths;
mod procs;
mod route;
mod sample;
mod switch;
pub mod tmux;
mod untrusted;
mod words;

/// The pure parsers and validators of `roost ext`, and the generator the
/// tests draw cases with, reachable from the integration tests (not an API).
#[doc(hidden)]
pub mod testing {
    pub use crate::ext::{lock, manifest, names};
    pub use crate::sample::Rng;
}

/// The product version (semver, from Cargo.toml).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What `--version` prints: `roost 0.1.0 (480250f)`, with the commit roost
/// was built from (found by build.rs, when there is one).
pub const LONG_VERSION: &str = env!("ROOST_LONG_VERSION");

/// The extension contract this roost speaks (`ROOST_CONTRACT`).
pub const CONTRACT: u32 = contract::NUMBER;

/// Runs roost with the process's arguments; returns the exit code.
pub fn run() -> u8 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    route::main(&args)
}
