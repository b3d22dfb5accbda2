//! `roost ext install SOURCE [--ref REF] [--yes]`: validate, resolve the
//! ref to a commit, fetch exactly that commit into a temporary directory, run
//! every gate, show the consent block, ask, then move it into place and
//! record it. Nothing of the extension runs.

use crate::cli::model::InstallArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::checks;
use crate::ext::consent::{self, Offer};
use crate::ext::error::ExtError;
use crate::ext::fetch::{fetch, FetchError};
use crate::ext::lock::{Entry, Lock, Pin, Source};
use crate::ext::manifest::Manifest;
use crate::ext::names;
use crate::ext::origin;
use crate::ext::places;
use crate::ext::record::{conflicts, entry_for};
use crate::ext::repin;
use crate::ext::shown;
use crate::ext::store::{self, Action, Store};
use crate::ext::story::Out;
use crate::paths::Paths;
use std::path::{Path, PathBuf};

const CMD: &str = "ext install";

pub fn run(a: InstallArgs) -> Result<Exit> {
    let (yes, reference) = (a.yes, a.git_ref);
    if let Some(dir) = a.link {
        return link(&dir, yes);
    }
    let Some(given) = a.repo else {
        return Err(Error::usage(CMD, "missing SOURCE"));
    };
    let fail = |msg: String| Error::fail(CMD, msg);
    let names::Source { repo, url } = names::parse_source(&given).map_err(|e| {
        // A checkout on disk is run in place with --link, never installed.
        let dir = std::path::Path::new(&given);
        if dir.is_dir() {
            e.at(CMD).hint(format!(
                "to run a local checkout in place: roost ext install --link {}",
                crate::untrusted::printable(given.as_bytes())
            ))
        } else {
            e.at(CMD)
        }
    })?;
    if let Some(r) = &reference {
        names::check_ref(r).map_err(|e| e.at(CMD))?;
    }
    let paths = places::writable_paths(CMD)?;
    let url = match url {
        Some(url) => url,
        None => {
            origin::url_for(&repo).map_err(|e| fail(e.to_string()).hint(crate::ext::base::HINT))?
        }
    };
    let shown_ref = reference.clone().unwrap_or_else(|| "HEAD".to_string());
    let fetched = fetch(&paths, &url, reference.as_deref()).map_err(|e| match e {
        FetchError::Remote(failure) => failure.error(CMD),
        other => fail(other.to_string()),
    })?;
    let manifest = &fetched.manifest;
    let offer = Offer {
        source: shown::source(&url),
        reference: &shown_ref,
        commit: Some(&fetched.commit),
        manifest,
        purpose: consent::Purpose::Install,
    };
    let (store, mut lock) = agreed(&offer, &paths, yes, true)?;
    let entry = entry_for(
        manifest,
        Source::Pinned(Pin {
            repo: repo.clone(),
            git_ref: shown_ref,
            commit: fetched.commit.clone(),
            tree: fetched.tree.clone(),
            url: Some(url.clone()),
        }),
    );
    let state = commit(&store, &mut lock, &fetched.dir, manifest, entry)?;
    println!(
        "installed {} at {}: {}",
        manifest.name,
        fetched.commit,
        claimed(manifest)
    );
    println!("its data directory: {}", crate::untrusted::path(&state));
    Ok(Exit::Ok)
}

/// Checks the offer against what is installed, shows the consent block and
/// asks (anything but yes refuses the install), then takes the lock and
/// checks again, since another install may have landed meanwhile. Returns
/// the store, still locked, and the lock file as read under it. `clone` as
/// for `conflicts`.
fn agreed(offer: &Offer, paths: &Paths, yes: bool, clone: bool) -> Result<(Store, Lock)> {
    let manifest = offer.manifest;
    conflicts(
        CMD,
        &store::read_lock(paths).map_err(|e| e.at(CMD))?,
        manifest,
        paths,
        clone,
    )?;
    repin::show_offer(Out::stdout(), offer);
    if let Some(note) = inherited(paths, &offer.manifest.name) {
        print!("\n{note}");
    }
    println!();
    repin::ask(Out::stdout(), yes, consent::Purpose::Install).map_err(|h| h.error(CMD))?;
    let store = Store::open(paths).map_err(|e| e.at(CMD))?;
    let lock = store.load().map_err(|e| e.at(CMD))?;
    conflicts(CMD, &lock, manifest, paths, clone)?;
    Ok((store, lock))
}

/// `roost CMD, roost CMD2`: what the manifest claims, as users type it.
fn claimed(manifest: &Manifest) -> String {
    let claims: Vec<String> = manifest
        .commands
        .iter()
        .map(|c| format!("roost {c}"))
        .collect();
    claims.join(", ")
}

/// When NAME's data directory is already there (kept by an earlier
/// `remove`): what the block must add, since whatever installs under NAME
/// reads it. Says who left it when roost knows.
fn inherited(paths: &Paths, name: &str) -> Option<String> {
    let state = paths.ext_state(name);
    if !state.is_dir() {
        return None;
    }
    let from = match std::fs::read(paths.ext_state_left_by(name)) {
        Ok(b) => format!(
            "left by {}",
            crate::untrusted::printable(b.strip_suffix(b"\n").unwrap_or(&b))
        ),
        Err(_) => "left by an earlier install".to_string(),
    };
    Some(format!(
        "Note: {name}'s data directory already exists, {from}:\n\
         \x20 {}\n\
         This extension will be able to read what is in it. To start clean,\n\
         answer no and run `roost ext remove {name} --purge` first.\n",
        state.display()
    ))
}

/// `install --link DIR`, for authors: the index points into DIR itself.
/// Nothing is copied or pinned; the consent block says so. The same gates
/// and conflicts apply, and `remove` never deletes DIR.
fn link(dir: &std::path::Path, yes: bool) -> Result<Exit> {
    let fail = |msg: String| Error::fail(CMD, msg);
    let paths = places::writable_paths(CMD)?;
    let dir = std::fs::canonicalize(dir)
        .map_err(|e| fail(format!("cannot link {}: {e}", dir.display())))?;
    let Some(shown) = dir.to_str().filter(|d| !d.chars().any(char::is_control)) else {
        return Err(fail(format!(
            "cannot link {}: roost records a directory path only when it is UTF-8 without control characters",
            crate::untrusted::printable(std::os::unix::ffi::OsStrExt::as_bytes(dir.as_os_str()))
        )));
    };
    let manifest = checks::check_dir(&dir)
        .map_err(|e| e.reword(|m| format!("refusing {shown}: {m}")).at(CMD))?;
    let offer = Offer {
        source: shown.to_string(),
        reference: "",
        commit: None,
        manifest: &manifest,
        purpose: consent::Purpose::Install,
    };
    let (store, mut lock) = agreed(&offer, &paths, yes, false)?;
    let state = paths.ext_state(&manifest.name);
    let state_existed = state.exists();
    let entry = entry_for(
        &manifest,
        Source::Linked {
            dir: shown.to_string(),
        },
    );
    let result = std::fs::create_dir_all(&state)
        .map_err(|e| ExtError::failed(format!("cannot create {}: {e}", state.display())))
        .and_then(|()| {
            lock.insert(&manifest.name, entry);
            store.save(&lock)
        });
    if let Err(e) = result {
        if !state_existed {
            let _ = std::fs::remove_dir_all(&state);
        }
        return Err(e.reword(|m| format!("{m}; nothing was installed")).at(CMD));
    }
    println!(
        "linked {} to {shown}: {}",
        manifest.name,
        claimed(&manifest)
    );
    println!(
        "edits there take effect at once; its data directory: {}",
        crate::untrusted::path(&state)
    );
    Ok(Exit::Ok)
}

/// Moves the clone into place, creates the state directory and writes
/// ext.lock + ext.index. On failure undoes all of it, except state data that
/// existed before. Returns the state directory.
fn commit(
    store: &Store,
    lock: &mut Lock,
    dir: &Path,
    manifest: &Manifest,
    entry: Entry,
) -> Result<PathBuf> {
    let fail = |msg: String| Error::fail(CMD, msg);
    let paths = &store.paths;
    let dest = paths.ext_clone(&manifest.name);
    let _pending = store
        .begin(&manifest.name, Action::Install, "")
        .map_err(|e| fail(e.to_string()))?;
    std::fs::rename(dir, &dest)
        .map_err(|e| fail(format!("cannot move the clone to {}: {e}", dest.display())))?;
    let state = paths.ext_state(&manifest.name);
    let state_existed = state.exists();
    let result = std::fs::create_dir_all(&state)
        .map_err(|e| ExtError::failed(format!("cannot create {}: {e}", state.display())))
        .and_then(|()| {
            lock.insert(&manifest.name, entry);
            store.save(lock)
        });
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&dest);
        if !state_existed {
            let _ = std::fs::remove_dir_all(&state);
        }
        return Err(fail(format!("{e}; nothing was installed")));
    }
    Ok(state)
}
