//! Processes as Linux's /proc shows them: `table`, what /proc lists and
//! which processes belong to a pane (read only); `end`, ending them for
//! good. Elsewhere than Linux nothing is found, and nothing is signalled.

mod end;
mod table;

pub use end::Ending;
pub use table::{all, leads_a_pane, Stat};
