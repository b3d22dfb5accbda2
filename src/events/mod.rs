//! Events: the moments of the fleet (a pane's state changing, a spawn, a
//! kill, a delivery, the server's start and end) handed to the extensions
//! that subscribe to them. By job:
//! - `event`: the moments, by name; `index`: who subscribes (ext.events);
//!   `place`: where an extension's queue and log live;
//! - `emit`: how a moment reaches the runner, trusted words only;
//! - `envelope`: what a handler is told; `spool`: each extension's queue;
//! - `log`: the run log and its reader; `pause`: handlers that keep failing;
//! - `capture`: a handler's output, its head and tail;
//! - `runner` and `handler`: the hidden `roost __event` and one handler run.

mod capture;
pub mod emit;
mod envelope;
mod event;
pub mod handler;
pub mod index;
pub mod log;
pub mod pause;
pub mod place;
pub mod runner;
mod spool;

pub use capture::{mask, Capture};
pub use emit::{stamp, Emitter};
pub use envelope::Envelope;
pub use event::Event;
