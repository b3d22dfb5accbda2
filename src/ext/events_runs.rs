//! An extension's handler runs as `ext list` and `ext info` show them: one
//! line from its run log, every word passed through the printer (the log
//! lives in the user's state directory, where anything may have written).

use crate::events::log::{self, Record};
use crate::paths::Paths;
use crate::untrusted::printable;

/// How many runs `ext info` shows.
pub const INFO_RUNS: usize = 5;

/// `START EVENT [PANE] OUTCOME`.
pub fn line(r: &Record) -> String {
    let pane = match r.pane.is_empty() {
        true => String::new(),
        false => format!(" {}", printable(r.pane.as_bytes())),
    };
    format!(
        "{} {}{pane} {}",
        printable(r.start.as_bytes()),
        printable(r.event.as_bytes()),
        printable(r.outcome.as_bytes())
    )
}

/// The last run of `name`, if its log has one.
pub fn last(paths: &Paths, name: &str) -> Option<String> {
    log::last(paths, name, 1, false).first().map(line)
}

/// Its last `INFO_RUNS` runs, oldest first.
pub fn recent(paths: &Paths, name: &str) -> Vec<String> {
    log::last(paths, name, INFO_RUNS, false)
        .iter()
        .map(line)
        .collect()
}
