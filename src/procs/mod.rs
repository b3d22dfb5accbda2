//! Processes as Linux's /proc shows them: `table`, what /proc lists (read
//! only). Elsewhere than Linux nothing is found.

mod table;

pub use table::{all, Stat};
