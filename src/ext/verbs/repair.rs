//! `roost ext repair [NAME | --all]`: put back the files ext.lock pins where
//! they were changed or are gone, fetched again by commit id from the
//! recorded source and held to the recorded tree (`repin`, as rollback
//! is), then write ext.index again from ext.lock. Nothing new is agreed to,
//! so nothing is asked; never runs git inside the installed clone.

use crate::cli::model::RepairArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::error::At;
use crate::ext::installed;
use crate::ext::output::Output;
use crate::ext::repin::{Outcome, Repin, Target};
use crate::ext::store::{self, Store};
use crate::paths::Paths;
use crate::untrusted::printable;

const CMD: &str = "ext repair";

pub fn run(a: RepairArgs) -> Result<Exit> {
    let paths = dirs::writable_paths().at(CMD)?;
    let lock = store::read_lock(&paths).at(CMD)?;
    let names = installed::chosen(&lock, a.name).at(CMD)?;
    let mut out = Output::stdout();
    let mut failed = 0;
    for name in &names {
        let said = match Repin::new(name, Target::Pinned).run(&paths, &mut out) {
            Ok(Outcome::Moved { from, url, .. }) => format!(
                "put back the files pinned at {} (fetched again from {})",
                display::short(&from),
                printable(url.as_bytes())
            ),
            Ok(Outcome::Unchanged { commit, .. }) => format!(
                "its files match the tree pinned at {}; nothing to put back",
                display::short(&commit)
            ),
            Ok(Outcome::Linked(entry)) => format!(
                "linked to {}: nothing is pinned, so nothing is put back",
                printable(entry.linked().unwrap_or_default().as_bytes())
            ),
            Ok(Outcome::Shown) => unreachable!("repair shows no change"),
            Err(e) => {
                failed += 1;
                e.within(name).at(CMD).report();
                continue;
            }
        };
        println!("{name}: {said}");
    }
    if names.is_empty() {
        println!("no extensions installed");
    }
    println!("{}", rewrite_index(&paths).at(CMD)?);
    match failed {
        0 => Ok(Exit::Ok),
        _ if names.len() == 1 => Ok(Exit::Failed),
        n => Err(Error::fail(
            CMD,
            format!("{n} of {} extensions could not be repaired", names.len()),
        )),
    }
}

/// Writes ext.index again from ext.lock (both files, as every write does),
/// and says whether that changed it.
fn rewrite_index(paths: &Paths) -> crate::ext::error::Result<String> {
    let store = Store::open(paths)?;
    let lock = store.load()?;
    let before = std::fs::read(paths.ext_index()).ok();
    store.save(&lock)?;
    let after = std::fs::read(paths.ext_index()).ok();
    Ok(if before == after {
        "ext.index agrees with ext.lock".into()
    } else {
        "ext.index written again from ext.lock".into()
    })
}
