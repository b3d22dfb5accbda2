//! ext.lock, the record of what is installed: parsed into typed entries
//! (`entry`) and kept by name (`file`: what cannot be read is kept as
//! found, edited, serialized); the ext.index lines derived from it are in
//! `lines`. Pure: reading and writing the files, and locking them, belong
//! to the caller.

mod entry;
mod file;
mod lines;
mod time;

pub use entry::{Contract, Entry, Pin, Previous, Source};
pub use file::{Lock, Slot, Unreadable};
pub use lines::{render_index, IndexLine};
pub use time::utc_timestamp;
