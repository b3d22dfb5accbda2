//! `roost ext remove NAME [--purge]`: drop the record (ext.lock + ext.index
//! first), then the clone; keep the extension's data, run log and queue
//! unless `--purge`.

use crate::cli::model::RemoveArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::error::{At, ExtError};
use crate::ext::store::Store;
use crate::ext::uninstall::{self, remove_tree};

const CMD: &str = "ext remove";

pub fn run(a: RemoveArgs) -> Result<Exit> {
    let (purge, name) = (a.purge, a.name);
    if !crate::index::valid_name(name.as_bytes()) {
        return Err(crate::ext::installed::no_such(&name).at(CMD));
    }
    let fail = |e: String| Error::fail(CMD, e);
    let paths = crate::ext::dirs::paths().at(CMD)?;
    let state = paths.ext_state(&name);
    // Decided before the lock is taken: a name that is not installed (and
    // has no kept data to purge) is that, whatever stands in the way of
    // taking the lock.
    let recorded = crate::ext::store::read_lock(&paths).map(|l| l.get(&name).is_some());
    let kept = state.exists()
        || paths.ext_config(&name).exists()
        || crate::events::place::dir(&paths, &name).exists();
    if matches!(recorded, Ok(false)) && !(purge && kept) {
        return Err(crate::ext::installed::no_such(&name).at(CMD));
    }
    let store = Store::open(&paths).map_err(|e| e.at(CMD))?;
    let mut lock = store.load().map_err(|e| e.at(CMD))?;
    let left_by = paths.ext_state_left_by(&name);
    let Some(removed) =
        uninstall::take_out(&paths, &store, &mut lock, &name, !purge).map_err(|e| e.at(CMD))?
    else {
        // Removed before with its data kept: --purge still deletes the data.
        if purge && kept {
            remove_tree(&state)
                .map_err(|e| fail(format!("cannot delete {}: {e}", state.display())))?;
            purge_events(&paths, &name).at(CMD)?;
            let _ = std::fs::remove_file(&left_by);
            println!(
                "deleted the kept data of {name}: {}",
                crate::untrusted::path(&state)
            );
            crate::ext::settings::files::removed(&paths, &name, true).at(CMD)?;
            return Ok(Exit::Ok);
        }
        return Err(crate::ext::installed::no_such(&name).at(CMD));
    };
    if let Some(e) = &removed.clone_left {
        eprintln!(
            "roost ext remove: {name} is no longer installed, but {} could not be deleted: {e}",
            crate::untrusted::path(&paths.ext_clone(&name))
        );
    }
    println!("removed {name}");
    if let Some(dir) = &removed.linked {
        println!(
            "(its checkout {} is yours and stays as it is)",
            crate::untrusted::printable(dir.as_bytes())
        );
    }
    if purge {
        remove_tree(&state).map_err(|e| fail(format!("cannot delete {}: {e}", state.display())))?;
        let _ = std::fs::remove_file(&left_by);
        purge_events(&paths, &name).at(CMD)?;
        println!("deleted its data: {}", crate::untrusted::path(&state));
    } else if state.exists() {
        println!("kept its data: {}", crate::untrusted::path(&state));
        println!("(roost ext remove {name} --purge deletes it)");
    }
    crate::ext::settings::files::removed(&paths, &name, purge).at(CMD)?;
    Ok(Exit::Ok)
}

/// Its run log and queue (`events/NAME/`): kept by a plain remove, like
/// its data, so that what its handlers did can still be read.
fn purge_events(paths: &crate::paths::Paths, name: &str) -> std::result::Result<(), ExtError> {
    let dir = crate::events::place::dir(paths, name);
    remove_tree(&dir).map_err(|e| ExtError::failed(format!("cannot delete {}: {e}", dir.display())))
}
