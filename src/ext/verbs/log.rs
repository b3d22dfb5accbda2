//! `roost ext log [NAME] [-n N] [--failed] [--follow] [--json]`: the run
//! log of extensions' event handlers, oldest first; what a handler printed
//! is shown neutralised, as all text from outside.

use crate::cli::model::LogArgs;
use crate::error::{Exit, Result};
use crate::events::log::{self, Record};
use crate::ext::dirs;
use crate::ext::error::At;
use crate::ext::installed;
use crate::ext::store;
use crate::paths::Paths;
use crate::untrusted::printable_lines;
use std::io::Write;

const CMD: &str = "ext log";

/// How often `--follow` looks for new runs.
const FOLLOW_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

pub fn run(a: LogArgs) -> Result<Exit> {
    let paths = dirs::paths().at(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let names = installed::chosen(&lock, a.name.clone()).at(CMD)?;
    let mut shown: Vec<(String, Record)> = gather(&paths, &names, a.n, a.failed);
    if shown.is_empty() && !a.json && !a.follow {
        println!("no handler runs logged");
    }
    for (name, r) in &shown {
        print(name, r, a.json);
    }
    if !a.follow {
        return Ok(Exit::Ok);
    }
    loop {
        std::thread::sleep(FOLLOW_EVERY);
        let now = gather(&paths, &names, usize::MAX, a.failed);
        let new: Vec<(String, Record)> = now
            .into_iter()
            .filter(|item| !shown.contains(item))
            .collect();
        for (name, r) in &new {
            print(name, r, a.json);
        }
        let _ = std::io::stdout().flush();
        shown.extend(new);
    }
}

/// The last `n` records of each of `names`, in the order they were logged
/// (by start, then name).
fn gather(paths: &Paths, names: &[String], n: usize, failed: bool) -> Vec<(String, Record)> {
    let mut all: Vec<(String, Record)> = names
        .iter()
        .flat_map(|name| {
            log::last(paths, name, n, failed)
                .into_iter()
                .map(move |r| (name.clone(), r))
        })
        .collect();
    all.sort_by(|a, b| a.1.start.cmp(&b.1.start));
    let from = all.len().saturating_sub(n);
    all.split_off(from)
}

fn print(name: &str, r: &Record, json: bool) {
    if json {
        #[derive(serde::Serialize)]
        struct Line<'a> {
            name: &'a str,
            #[serde(flatten)]
            record: &'a Record,
        }
        println!("{}", crate::untrusted::json_line(&Line { name, record: r }));
        return;
    }
    let pane = if r.pane.is_empty() { "-" } else { &r.pane };
    println!(
        "{} {name} {} {pane} {} ({} ms, #{}, {})",
        printable_lines(r.start.as_bytes()),
        printable_lines(r.event.as_bytes()),
        printable_lines(r.outcome.as_bytes()),
        r.duration_ms,
        r.seq,
        crate::ext::display::short(&r.commit),
    );
    for part in [&r.head, &r.tail] {
        for line in printable_lines(part.as_bytes()).lines() {
            println!("  | {line}");
        }
        if part == &r.head && r.cut > 0 {
            println!("  | … {} bytes cut …", r.cut);
        }
    }
}
