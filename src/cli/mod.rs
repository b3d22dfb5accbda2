//! roost's command line: the static table the hot path reads (table.rs),
//! the clap model of every built-in command and ext verb (model.rs), the
//! usage lines drawn from it (synopsis.rs), and parsing into a command or a
//! usage error (parse.rs).

pub mod model;
mod parse;
pub mod synopsis;
mod table;

pub use parse::{built, command_usage, parse, Parsed};
pub use table::*;
