//! roost's command line: the static table the hot path reads (table.rs),
//! the clap model of every built-in command and ext verb (model/), the
//! usage lines drawn from it (synopsis.rs), help text filled to a width
//! (fill.rs), the model made ready with them (build.rs), and parsing into a
//! command or a usage error (parse.rs).

pub mod build;
pub(crate) mod fill;
pub mod model;
mod parse;
pub mod synopsis;
pub mod table;

pub use build::{built, command_usage};
pub use parse::{parse, Parsed};
pub use table::*;
