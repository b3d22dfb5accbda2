//! `roost ext repair [NAME | --all]`: put back the files ext.lock pins where
//! they were changed or are gone, fetched again by commit id from the
//! recorded source and held to the recorded tree (as rollback is), then
//! write ext.index again from ext.lock. Nothing new is agreed to, so nothing
//! is asked; never runs git inside the installed clone.

use crate::cli::model::RepairArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::fetch::{self, FetchError};
use crate::ext::git::{self, entries};
use crate::ext::installed;
use crate::ext::integrity;
use crate::ext::lock::{Lock, Source};
use crate::ext::origin;
use crate::ext::store::{self, Store};
use crate::ext::swap;
use crate::paths::Paths;
use crate::untrusted::printable;

const CMD: &str = "ext repair";

pub fn run(a: RepairArgs) -> Result<Exit> {
    let paths = dirs::writable_paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let names = installed::chosen(CMD, &lock, a.name)?;
    let mut failed = 0;
    for name in &names {
        match repair_one(&paths, &lock, name) {
            Ok(said) => println!("{name}: {said}"),
            Err(e) => {
                failed += 1;
                e.report();
            }
        }
    }
    if names.is_empty() {
        println!("no extensions installed");
    }
    println!("{}", rewrite_index(&paths)?);
    match failed {
        0 => Ok(Exit::Ok),
        _ if names.len() == 1 => Ok(Exit::Failed),
        n => Err(Error::fail(
            CMD,
            format!("{n} of {} extensions could not be repaired", names.len()),
        )),
    }
}

/// Puts NAME's pinned tree back when its clone no longer holds it.
/// Returns what was done, in words.
fn repair_one(paths: &Paths, lock: &Lock, name: &str) -> Result<String> {
    let fail = |e: String| Error::fail(CMD, format!("{name}: {e}"));
    let again = format!("roost ext remove {name}, then install it again");
    let slot = lock
        .get(name)
        .ok_or_else(|| installed::no_such(CMD, name))?;
    let entry = slot.typed().map_err(|u| {
        fail(format!("its ext.lock entry cannot be read: {}", u.why)).hint(again.clone())
    })?;
    let pin = match &entry.source {
        Source::Pinned(pin) => pin,
        Source::Linked { dir } => {
            return Ok(format!(
                "linked to {}: nothing is pinned, so nothing is put back",
                printable(dir.as_bytes())
            ))
        }
    };
    origin::recorded_ids(pin).map_err(|e| fail(e.to_string()).hint(again.clone()))?;
    let clone = paths.ext_clone(name);
    if integrity::check(&clone, &pin.tree).ok {
        return Ok(format!(
            "its files match the tree pinned at {}; nothing to put back",
            display::short(&pin.commit)
        ));
    }
    let url = origin::recorded_url(pin).map_err(|e| fail(e.to_string()))?;
    let commit =
        entries::object_id(&pin.commit).map_err(|e| fail(format!("ext.lock's commit: {e}")))?;
    let stays = format!("nothing was changed; {} is as it was", clone.display());
    let gone = "the repository may no longer hold that commit";
    // By its id alone: the commit agreed to, whether or not a ref still
    // leads to it.
    let fetched =
        fetch::fetch_commit(paths, git::Remote::new(&url), &url, commit).map_err(|e| match e {
            FetchError::Remote(f) => fail(f.what)
                .detail(f.detail)
                .hint(format!("{}; {stays}", f.hint.as_deref().unwrap_or(gone))),
            other => fail(format!("cannot fetch {} again: {other}", pin.commit))
                .hint(format!("{gone}; {stays}")),
        })?;
    if fetched.tree != pin.tree {
        return Err(fail(format!(
            "commit {} has tree {}, but ext.lock recorded tree {}; refusing to put other files in place than the ones agreed to",
            pin.commit, fetched.tree, pin.tree
        ))
        .hint(stays));
    }
    swap::swap(paths, name, &pin.commit, &fetched, |current| {
        current.clone()
    })
    .map_err(|e| fail(e.to_string()))?;
    Ok(format!(
        "put back the files pinned at {} (fetched again from {})",
        display::short(&pin.commit),
        printable(url.as_bytes())
    ))
}

/// Writes ext.index again from ext.lock (both files, as every write does),
/// and says whether that changed it.
fn rewrite_index(paths: &Paths) -> Result<String> {
    let fail = |e: String| Error::fail(CMD, e);
    let store = Store::open(paths).map_err(|e| fail(e.to_string()))?;
    let lock = store.load().map_err(|e| fail(e.to_string()))?;
    let before = std::fs::read(paths.ext_index()).ok();
    store.save(&lock).map_err(|e| fail(e.to_string()))?;
    let after = std::fs::read(paths.ext_index()).ok();
    Ok(if before == after {
        "ext.index agrees with ext.lock".into()
    } else {
        "ext.index written again from ext.lock".into()
    })
}
