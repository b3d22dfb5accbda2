//! `roost ext enable NAME`: put a disabled extension's commands back into
//! ext.index, unless another extension has claimed one of them meanwhile.

use crate::cli::model::ExtNameArgs;
use crate::error::{Exit, Result};
use crate::ext::dirs;
use crate::ext::disabled::{commands, run_or_runs, switch};
use crate::ext::error::At;
use crate::ext::error::ExtError;
use crate::ext::lock::{Entry, Lock};

const CMD: &str = "ext enable";

pub fn run(a: ExtNameArgs) -> Result<Exit> {
    let name = a.name;
    let paths = dirs::writable_paths().at(CMD)?;
    let taken = |lock: &Lock, entry: &Entry| {
        // A disabled extension claims nothing (lock::claims), so another
        // install may have taken one of its commands while it was off.
        let claims = lock.claims();
        for command in &entry.commands {
            if let Some(owner) = claims.get(command.as_str()).filter(|o| **o != name) {
                return Err(ExtError::refused(format!(
                    "cannot enable {name}: its command {command} is now claimed by the installed extension {owner}"
                ))
                .hint(format!(
                    "take {owner} off first (roost ext disable {owner}, or roost ext remove {owner}), then enable {name}"
                )));
            }
        }
        Ok(())
    };
    // A handler paused after failing in a row runs again.
    if crate::index::valid_name(name.as_bytes())
        && crate::events::pause::resume(&paths, &name).unwrap_or(false)
    {
        println!("resumed {name}'s event handler (it was paused after failing)");
    }
    match switch(&paths, &name, false, taken).at(CMD)? {
        None => println!("{name} is already enabled"),
        Some(entry) => println!(
            "enabled {name}: {} {} again",
            commands(&entry),
            run_or_runs(&entry)
        ),
    }
    Ok(Exit::Ok)
}
