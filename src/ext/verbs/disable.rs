//! `roost ext disable NAME`: keep an extension's pin, clone and data, but
//! take its commands out of ext.index, so they get the usage error a word
//! that was never installed gets. `enable` turns it back on.

use crate::cli::model::ExtNameArgs;
use crate::error::{Exit, Result};
use crate::ext::dirs;
use crate::ext::disabled::{commands, run_or_runs, switch};
use crate::ext::error::At;

const CMD: &str = "ext disable";

pub fn run(a: ExtNameArgs) -> Result<Exit> {
    let name = a.name;
    let paths = dirs::writable_paths().at(CMD)?;
    match switch(&paths, &name, true, |_, _| Ok(())).at(CMD)? {
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
