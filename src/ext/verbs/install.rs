//! `roost ext install SOURCE [--ref REF] [--yes]`: validate, resolve the
//! ref to a commit, fetch exactly that commit into a temporary directory, run
//! every gate, show the consent block, ask, then move it into place and
//! record it. Nothing of the extension runs.

use super::consent::{self, Answer, Offer};
use super::fetch::{fetch, FetchError};
use super::lock::{utc_timestamp, Contract, Entry, Lock, Pin, Source};
use super::manifest::Manifest;
use super::store::{self, Action, Store};
use super::{checks, names};
use crate::cli::model::InstallArgs;
use crate::error::{Error, Exit, Result};
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
            fail(e).hint(format!(
                "to run a local checkout in place: roost ext install --link {}",
                crate::untrusted::printable(given.as_bytes())
            ))
        } else {
            fail(e)
        }
    })?;
    if let Some(r) = &reference {
        names::check_ref(r).map_err(fail)?;
    }
    let paths = super::writable_paths(CMD)?;
    let url = match url {
        Some(url) => url,
        None => super::url_for(&repo).map_err(|e| fail(e).hint(super::base::HINT))?,
    };
    let shown_ref = reference.clone().unwrap_or_else(|| "HEAD".to_string());
    let fetched = fetch(&paths, &url, reference.as_deref()).map_err(|e| match e {
        FetchError::Remote(failure) => failure.error(CMD),
        other => fail(other.to_string()),
    })?;
    let manifest = &fetched.manifest;
    let offer = Offer {
        source: source(&url),
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
    let state = commit(&store, &mut lock, &fetched.dir, manifest, entry).map_err(fail)?;
    println!(
        "installed {} at {}: {}",
        manifest.name,
        fetched.commit,
        claimed(manifest)
    );
    println!("its data directory: {}", state.display());
    Ok(Exit::Ok)
}

/// Checks the offer against what is installed, shows the consent block and
/// asks (anything but yes refuses the install), then takes the lock and
/// checks again, since another install may have landed meanwhile. Returns
/// the store, still locked, and the lock file as read under it. `clone` as
/// for `conflicts`.
fn agreed(offer: &Offer, paths: &Paths, yes: bool, clone: bool) -> Result<(Store, Lock)> {
    let fail = |msg: String| Error::fail(CMD, msg);
    let manifest = offer.manifest;
    conflicts(
        &store::read_lock(paths).map_err(fail)?,
        manifest,
        paths,
        clone,
    )?;
    print!("{}", consent::render(offer, crate::colour::Paint::stdout()));
    if let Some(note) = inherited(paths, &offer.manifest.name) {
        print!("\n{note}");
    }
    println!();
    let refused = |msg: &str| Error::fail(CMD, msg.to_string());
    match consent::ask("Install?", yes, &mut std::io::stdout()) {
        Answer::Yes => {}
        Answer::No => return Err(refused("not installed")),
        Answer::NoTerminal => {
            return Err(refused("not installed: stdin is not a terminal")
                .hint("read the block above, then pass --yes to install from a script"))
        }
    }
    let store = Store::open(paths).map_err(fail)?;
    let lock = store.load().map_err(fail)?;
    conflicts(&lock, manifest, paths, clone)?;
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
    let paths = super::writable_paths(CMD)?;
    let dir = std::fs::canonicalize(dir)
        .map_err(|e| fail(format!("cannot link {}: {e}", dir.display())))?;
    let Some(shown) = dir.to_str().filter(|d| !d.chars().any(char::is_control)) else {
        return Err(fail(format!(
            "cannot link {}: roost records a directory path only when it is UTF-8 without control characters",
            crate::untrusted::printable(std::os::unix::ffi::OsStrExt::as_bytes(dir.as_os_str()))
        )));
    };
    let manifest = checks::check_dir(&dir).map_err(|e| fail(format!("refusing {shown}: {e}")))?;
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
        .map_err(|e| format!("cannot create {}: {e}", state.display()))
        .and_then(|()| {
            lock.insert(&manifest.name, entry);
            store.save(&lock)
        });
    if let Err(e) = result {
        if !state_existed {
            let _ = std::fs::remove_dir_all(&state);
        }
        return Err(fail(format!("{e}; nothing was installed")));
    }
    println!(
        "linked {} to {shown}: {}",
        manifest.name,
        claimed(&manifest)
    );
    println!(
        "edits there take effect at once; its data directory: {}",
        state.display()
    );
    Ok(Exit::Ok)
}

/// What install refuses because of what is already there. `clone`: the
/// install makes a clone directory, which must not exist yet.
pub fn conflicts(lock: &Lock, manifest: &Manifest, paths: &Paths, clone: bool) -> Result<()> {
    let name = &manifest.name;
    if let Some(slot) = lock.get(name) {
        let at = match slot.typed().map(|e| &e.source) {
            Ok(Source::Linked { .. }) => "linked",
            Ok(Source::Pinned(pin)) => super::short(&pin.commit),
            Err(_) => "?",
        };
        return Err(Error::fail(CMD, format!("{name} is already installed (at {at})")).hint(format!(
            "update it with `roost ext update {name}`, or remove it first with `roost ext remove {name}`"
        )));
    }
    let claims = lock.claims();
    for command in &manifest.commands {
        if let Some(owner) = claims.get(command.as_str()) {
            return Err(Error::fail(
                CMD,
                format!("command {command} is already claimed by the installed extension {owner}"),
            )
            .hint(format!(
                "remove {owner} first (roost ext remove {owner}) to install this one"
            )));
        }
    }
    let dest = paths.ext_clone(name);
    if clone && (dest.exists() || dest.is_symlink()) {
        return Err(Error::fail(
            CMD,
            format!(
                "{} exists, but ext.lock has no entry for {name}",
                dest.display()
            ),
        )
        .hint("move that directory aside or delete it, then install again"));
    }
    Ok(())
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
) -> std::result::Result<PathBuf, String> {
    let paths = &store.paths;
    let dest = paths.ext_clone(&manifest.name);
    let _pending = store.begin(&manifest.name, Action::Install, "")?;
    std::fs::rename(dir, &dest)
        .map_err(|e| format!("cannot move the clone to {}: {e}", dest.display()))?;
    let state = paths.ext_state(&manifest.name);
    let state_existed = state.exists();
    let result = std::fs::create_dir_all(&state)
        .map_err(|e| format!("cannot create {}: {e}", state.display()))
        .and_then(|()| {
            lock.insert(&manifest.name, entry);
            store.save(lock)
        });
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&dest);
        if !state_existed {
            let _ = std::fs::remove_dir_all(&state);
        }
        return Err(format!("{e}; nothing was installed"));
    }
    Ok(state)
}

/// The ext.lock entry for an install of `manifest` from `source`, now.
pub fn entry_for(manifest: &Manifest, source: Source) -> Entry {
    Entry {
        commands: manifest.commands.clone(),
        needs: manifest.needs.clone(),
        contract: Contract::new(manifest.contract.into()),
        installed: utc_timestamp(std::time::SystemTime::now()),
        source,
        disabled: false,
        previous: None,
        extra: Default::default(),
    }
}

/// `https://github.com/o/r` → `github.com/o/r`; other URLs as they are.
pub fn source(url: &str) -> String {
    url.strip_prefix("https://").unwrap_or(url).to_string()
}
