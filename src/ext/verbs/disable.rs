//! `roost ext disable NAME`: keep an extension's pin, clone and data, but
//! take its commands out of ext.index, so they get the usage error a word
//! that was never installed gets. Also the switch `enable` turns back.

use super::lock::{Entry, Lock};
use super::store::{self, Store};
use super::update;
use crate::cli::model::ExtNameArgs;
use crate::error::{Error, Exit, Result};
use crate::paths::Paths;

const CMD: &str = "ext disable";

pub fn run(a: ExtNameArgs) -> Result<Exit> {
    let name = a.name;
    let paths = super::writable_paths(CMD)?;
    match switch(CMD, &paths, &name, true, |_, _| Ok(()))? {
        None => println!("{name} is already disabled"),
        Some(entry) => {
            println!(
                "disabled {name}: {} no longer {}",
                commands(&entry),
                run_or_runs(&entry)
            );
            println!(
                "its pin, clone and data are kept; `roost ext enable {name}` turns it back on"
            );
        }
    }
    Ok(Exit::Ok)
}

/// Sets NAME's `disabled` to `disabled` and writes ext.lock and ext.index
/// together, after `check` agrees (under the lock). `None` when it already
/// was: then nothing is written.
pub(super) fn switch(
    cmd: &'static str,
    paths: &Paths,
    name: &str,
    disabled: bool,
    check: impl Fn(&Lock, &Entry) -> Result<()>,
) -> Result<Option<Entry>> {
    let fail = |e: String| Error::fail(cmd, e);
    // Decided first without the lock, so a refusal or a no-op writes nothing.
    let lock = store::read_lock(paths).map_err(fail)?;
    let entry = update::readable(cmd, &lock, name)?;
    if entry.disabled == disabled {
        return Ok(None);
    }
    check(&lock, entry)?;
    let store = Store::open(paths).map_err(fail)?;
    let mut lock = store.load().map_err(fail)?;
    let mut entry = update::readable(cmd, &lock, name)?.clone();
    if entry.disabled == disabled {
        return Ok(None);
    }
    check(&lock, &entry)?;
    entry.disabled = disabled;
    lock.insert(name, entry.clone());
    store
        .save(&lock)
        .map_err(|e| fail(format!("{e}; {name} was left as it was")))?;
    Ok(Some(entry))
}

/// The verb after `commands`: one runs, several run.
pub(super) fn run_or_runs(entry: &Entry) -> &'static str {
    if entry.commands.len() == 1 {
        "runs"
    } else {
        "run"
    }
}

/// `roost note, roost notes`.
pub(super) fn commands(entry: &Entry) -> String {
    let words: Vec<String> = entry
        .commands
        .iter()
        .map(|c| format!("roost {}", crate::untrusted::printable(c.as_bytes())))
        .collect();
    words.join(", ")
}
