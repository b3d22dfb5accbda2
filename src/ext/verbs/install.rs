//! `roost ext install SOURCE [--ref REF] [--yes [--grant AUTHORITY]]`: validate, resolve the
//! ref to a commit, fetch exactly that commit into a temporary directory, run
//! every gate, show the consent block, ask, then move it into place and
//! record it. Nothing of the extension runs.

use crate::cli::model::InstallArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::checks;
use crate::ext::consent::{self, Offer};
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::error::{At, ExtError};
use crate::ext::fetch::fetch;
use crate::ext::lock::{Lock, Pin, Source};
use crate::ext::manifest::Manifest;
use crate::ext::names;
use crate::ext::new_entry::{conflicts, entry_for};
use crate::ext::origin;
use crate::ext::output::Output;
use crate::ext::place;
use crate::ext::repin;
use crate::ext::store::{self, Store};
use crate::paths::Paths;

const CMD: &str = "ext install";

pub fn run(a: InstallArgs) -> Result<Exit> {
    let (reference, grants) = (a.git_ref, a.grant);
    let answered = |again: String| Consent {
        yes: a.yes,
        grants: &grants,
        again,
    };
    if let Some(dir) = a.link {
        let again = format!("--link {}", quoted(&dir.to_string_lossy()));
        return link(&dir, &answered(again));
    }
    let Some(given) = a.repo else {
        return Err(Error::usage(CMD, "missing SOURCE"));
    };
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
    let paths = dirs::writable_paths().at(CMD)?;
    let url = match url {
        Some(url) => url,
        None => origin::url_for(&repo).at(CMD)?,
    };
    let shown_ref = reference.clone().unwrap_or_else(|| "HEAD".to_string());
    let fetched = fetch(&paths, &url, reference.as_deref()).at(CMD)?;
    let manifest = &fetched.manifest;
    let offer = Offer {
        source: display::source(&url),
        reference: &shown_ref,
        commit: Some(&fetched.commit),
        signer: Some(fetched.signer.describe()),
        manifest,
        purpose: consent::Purpose::Install,
    };
    let mut again = quoted(&given);
    if let Some(r) = &reference {
        again.push_str(&format!(" --ref {}", quoted(r)));
    }
    let (store, mut lock) = agreed(&offer, &paths, &answered(again), true)?;
    let entry = entry_for(
        manifest,
        Source::Pinned(Pin {
            repo: repo.clone(),
            git_ref: shown_ref,
            commit: fetched.commit.clone(),
            tree: fetched.tree.clone(),
            url: Some(url.clone()),
            signers: vec![fetched.signer.id()],
            signer: Some(fetched.signer.id()),
        }),
    );
    let state = place::install(&store, &mut lock, &fetched.dir, &manifest.name, entry).at(CMD)?;
    println!(
        "installed {} at {}: {}",
        manifest.name,
        fetched.commit,
        claimed(manifest)
    );
    println!("its data directory: {}", crate::untrusted::path(&state));
    crate::ext::settings::files::installed(&paths, &manifest.name, &manifest.settings);
    Ok(Exit::Ok)
}

/// What the user said to the question on the command line.
struct Consent<'a> {
    /// `--yes`.
    yes: bool,
    /// `--grant`: the authority `--yes` accepts.
    grants: &'a [String],
    /// What was given after `roost ext install`, but for `--yes` and the
    /// grants: the command line a refusal tells a script to run.
    again: String,
}

/// A word of a command line as a shell reads it, and printable.
fn quoted(word: &str) -> String {
    crate::untrusted::printable(shell_words::quote(word).as_bytes())
}

/// Checks the offer against what is installed, shows the consent block and
/// asks (anything but yes refuses the install; with --yes, the authority it
/// asks for must be granted by name), then takes the lock and checks again,
/// since another install may have landed meanwhile. Returns the store, still
/// locked, and the lock file as read under it. `clone` as for `conflicts`.
fn agreed(offer: &Offer, paths: &Paths, consent: &Consent, clone: bool) -> Result<(Store, Lock)> {
    let manifest = offer.manifest;
    conflicts(&store::read_lock(paths).at(CMD)?, manifest, paths, clone).at(CMD)?;
    let mut out = Output::stdout();
    repin::show_offer(&mut out, offer);
    if let Some(note) = inherited(paths, &offer.manifest.name) {
        out.say(&format!("\n{note}"));
    }
    out.say("\n");
    let asked: Vec<&str> = manifest.needs.iter().map(String::as_str).collect();
    let purpose = consent::Purpose::Install;
    repin::granted(consent.yes, &asked, consent.grants, purpose, |add| {
        format!(
            "to accept it from a script: roost ext install {} --yes {add}",
            consent.again
        )
    })
    .at(CMD)?;
    repin::ask(&mut out, consent.yes, purpose).at(CMD)?;
    let store = Store::open(paths).at(CMD)?;
    let lock = store.load().at(CMD)?;
    conflicts(&lock, manifest, paths, clone).at(CMD)?;
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
fn link(dir: &std::path::Path, consent: &Consent) -> Result<Exit> {
    let fail = |msg: String| Error::fail(CMD, msg);
    let paths = dirs::writable_paths().at(CMD)?;
    let dir = std::fs::canonicalize(dir).map_err(|e| {
        let shown = dir.display();
        match e.kind() {
            std::io::ErrorKind::NotFound => Error::refuse(
                CMD,
                format!("cannot link {shown}: there is no such directory"),
            )
            .hint("give the directory of an extension's checkout (roost ext new NAME makes one)"),
            _ => fail(format!(
                "cannot link {shown}: {}",
                crate::fsutil::io_words(&e)
            )),
        }
    })?;
    let Some(shown) = dir.to_str().filter(|d| !d.chars().any(char::is_control)) else {
        return Err(Error::refuse(CMD, format!(
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
        signer: None,
        manifest: &manifest,
        purpose: consent::Purpose::Install,
    };
    let (store, mut lock) = agreed(&offer, &paths, consent, false)?;
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
    crate::ext::settings::files::installed(&paths, &manifest.name, &manifest.settings);
    Ok(Exit::Ok)
}
