//! `roost ext remove NAME [--purge]`: drop the record (ext.lock + ext.index
//! first), then the clone; keep the extension's data, run log and queue
//! unless `--purge`.

use crate::cli::model::RemoveArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::error::{At, ExtError};
use crate::ext::lock::Source;
use crate::ext::store::{Action, Store};

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
    let clone = paths.ext_clone(&name);
    // A linked extension's directory is the author's checkout: never deleted.
    let entry = lock.entry(&name);
    let linked = entry.and_then(|e| e.linked()).map(String::from);
    let source = entry.map(|e| match &e.source {
        Source::Pinned(pin) => pin.repo.clone(),
        Source::Linked { dir } => dir.clone(),
    });
    let left_by = paths.ext_state_left_by(&name);
    if !lock.remove(&name) {
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
    }
    let _pending = store
        .begin(&name, Action::Remove, "")
        .map_err(|e| e.at(CMD))?;
    store.save(&lock).map_err(|e| e.at(CMD))?;
    if linked.is_none() {
        if let Err(e) = remove_tree(&clone) {
            eprintln!(
                "roost ext remove: {name} is no longer installed, but {} could not be deleted: {e}",
                crate::untrusted::path(&clone)
            );
        }
    }
    println!("removed {name}");
    if let Some(dir) = &linked {
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
        // So that a later install of another repository under this name
        // can say whose data it would inherit. Best effort: the data is
        // kept either way.
        if let Some(source) = &source {
            let _ = crate::fsutil::write_atomic(&left_by, format!("{source}\n").as_bytes(), 0o644);
        }
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

fn remove_tree(path: &std::path::Path) -> std::io::Result<()> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}
