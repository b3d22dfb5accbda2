//! `roost ext install SOURCE [--ref REF] [--yes]`: validate, resolve the
//! ref to a commit, fetch exactly that commit into a temporary directory, run
//! every gate, show the consent block, ask, then move it into place and
//! record it. Nothing of the extension runs.

use super::consent::{self, Answer, Offer};
use super::lock::{utc_timestamp, Contract, Entry, Lock, Pin, Source};
use super::manifest::Manifest;
use super::store::{self, Action, Store};
use super::{checks, git, hash, names};
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
    print!("{}", consent::render(offer));
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

/// A pinned commit fetched and checked, waiting in a temporary directory
/// (removed on drop unless it was moved into place).
pub struct Fetched {
    _tmp: tempfile::TempDir,
    /// Dropped after `_tmp`: the directories made to hold it.
    _made: Made,
    pub dir: PathBuf,
    pub commit: String,
    pub tree: String,
    pub manifest: Manifest,
    /// Dropped last: while a temporary clone exists, an interrupt unwinds
    /// (and removes it) instead of killing roost, and the move into place
    /// and the record are not cut in half.
    _interrupts: git::Interrupts,
}

/// Why a fetch came to nothing.
#[derive(Debug)]
pub enum FetchError {
    /// The source could not be reached or read, explained.
    Remote(git::failure::Failure),
    /// The source, the network or the disk failed.
    Failed(String),
    /// What arrived was refused by an install gate.
    Refused(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::Remote(failure) => f.write_str(&failure.what),
            FetchError::Failed(why) | FetchError::Refused(why) => f.write_str(why),
        }
    }
}

/// Resolves, fetches and runs every gate on one commit of `url`.
pub fn fetch(
    paths: &Paths,
    url: &str,
    reference: Option<&str>,
) -> std::result::Result<Fetched, FetchError> {
    let shown = reference.unwrap_or("HEAD");
    let mut remote = git::Remote::new(url);
    let commit = remote.resolve(reference).map_err(|e| {
        FetchError::Remote(git::failure::explain(
            &format!("cannot resolve {shown} at"),
            url,
            &e,
        ))
    })?;
    fetch_commit(paths, remote, url, commit)
}

/// Fetches `commit` from `remote` (at `url`), over the connection that
/// resolved it if there was one (closed once the fetch is done, before
/// anything is shown or asked), and runs every gate on it.
pub fn fetch_commit(
    paths: &Paths,
    remote: git::Remote,
    url: &str,
    commit: gix::ObjectId,
) -> std::result::Result<Fetched, FetchError> {
    let interrupts = git::Interrupts::catch();
    let root = paths.data.join("ext");
    let made = Made::new(&root);
    let tmp = temp_dir_in(&root).map_err(FetchError::Failed)?;
    let dir = tmp.path().join("clone");
    let tree = remote.fetch_pinned(commit, &dir).map_err(|e| {
        FetchError::Remote(git::failure::explain(
            &format!("cannot fetch {commit} from"),
            url,
            &e,
        ))
    })?;
    let manifest = checks::check_dir(&dir).map_err(|e| {
        FetchError::Refused(format!(
            "refusing {url} at {}: {e}",
            super::short(&commit.to_string())
        ))
    })?;
    let recorded = git::tree_leaves(&dir.join(".git"), tree).map_err(FetchError::Failed)?;
    let gitlinks = recorded
        .into_iter()
        .filter(|(_, leaf)| leaf.kind == gix::objs::tree::EntryKind::Commit)
        .collect();
    let (on_disk, _) = hash::hash_dir(&dir, &gitlinks).map_err(FetchError::Failed)?;
    if on_disk != tree {
        return Err(FetchError::Refused(format!(
            "the files checked out do not hash to the tree of {commit}; refusing rather than installing something else"
        )));
    }
    Ok(Fetched {
        _tmp: tmp,
        _made: made,
        dir,
        commit: commit.to_string(),
        tree: tree.to_string(),
        manifest,
        _interrupts: interrupts,
    })
}

/// A fresh temporary directory in `root`, creating `root` if needed. Tried
/// twice: a concurrent refused install may remove an empty `root` between
/// the two steps (see `Made`).
fn temp_dir_in(root: &Path) -> std::result::Result<tempfile::TempDir, String> {
    let mut tries = 0;
    loop {
        tries += 1;
        std::fs::create_dir_all(root)
            .map_err(|e| format!("cannot create {}: {e}", root.display()))?;
        match tempfile::Builder::new()
            .prefix(&format!(".fetch-{}-", std::process::id()))
            .tempdir_in(root)
        {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && tries < 2 => continue,
            result => {
                return result.map_err(|e| {
                    format!(
                        "cannot create a temporary directory in {}: {e}",
                        root.display()
                    )
                })
            }
        }
    }
}

/// The directories that did not exist yet on the way to the temporary
/// clone. On drop each is removed if it is still empty, so a refused or
/// failed install leaves the disk as it found it; an installed clone keeps
/// them in use.
struct Made(Vec<PathBuf>);

impl Made {
    fn new(dir: &Path) -> Made {
        Made(
            dir.ancestors()
                .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
                .map(Path::to_path_buf)
                .collect(),
        )
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        for dir in &self.0 {
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
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
