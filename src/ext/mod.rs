//! `roost ext`: installing third-party repositories as pinned extensions,
//! and living with them. One verb per file, in `verbs/`; `names`,
//! `manifest` and `lock` are pure; `git` does every git operation; `store`
//! owns ext.lock + ext.index on disk; `checks` the install gates; `consent`
//! what the user is shown and asked.

pub mod author;
mod base;
#[path = "verbs/check.rs"]
mod check;
pub mod checks;
pub mod consent;
mod diff;
#[path = "verbs/disable.rs"]
mod disable;
#[path = "verbs/enable.rs"]
mod enable;
#[path = "verbs/exec.rs"]
mod exec;
mod fetch;
pub mod git;
mod granted;
mod hash;
#[path = "verbs/info.rs"]
mod info;
#[path = "verbs/install.rs"]
mod install;
#[path = "verbs/list.rs"]
pub mod list;
pub mod lock;
pub mod manifest;
pub mod names;
#[path = "verbs/new.rs"]
mod new;
#[path = "verbs/outdated.rs"]
mod outdated;
#[path = "verbs/remove.rs"]
mod remove;
#[path = "verbs/repair.rs"]
mod repair;
#[path = "verbs/rollback.rs"]
mod rollback;
pub mod store;
mod swap;
#[path = "verbs/update.rs"]
mod update;
#[path = "verbs/verify.rs"]
pub mod verify;

use crate::cli::model::ExtVerb;
use crate::error::{Error, Exit, Result};
use crate::paths::Paths;

/// `roost ext [VERB ARGS...]`: without a verb, the list of verbs.
pub fn run(verb: Option<ExtVerb>) -> Result<Exit> {
    let Some(verb) = verb else {
        let mut root = crate::cli::built();
        let ext = root
            .find_subcommand_mut("ext")
            .expect("ext is in the model");
        print!("{}", ext.render_help());
        return Ok(Exit::Ok);
    };
    // What a verb creates (the clone, its files, the state directory) is
    // never group- or other-writable, whatever the umask; an extension run
    // through `ext exec` keeps the user's.
    if !matches!(verb, ExtVerb::Exec(_)) {
        crate::fsutil::narrow_umask();
    }
    if matches!(
        verb,
        ExtVerb::Install(_)
            | ExtVerb::Update(_)
            | ExtVerb::Rollback(_)
            | ExtVerb::Repair(_)
            | ExtVerb::Disable(_)
            | ExtVerb::Enable(_)
            | ExtVerb::Remove(_)
    ) {
        store::recover_leftovers(&paths("ext")?).map_err(|e| Error::fail("ext", e))?;
        let (cmd, about) = match &verb {
            ExtVerb::Install(_) => ("ext install", None),
            // Updating or rolling back the entry itself is refused by
            // the verb (its entry cannot be read), in its own words.
            ExtVerb::Update(a) => ("ext update", a.name.as_deref()),
            ExtVerb::Rollback(a) => ("ext rollback", Some(a.name.as_str())),
            // It rewrites ext.index: an unreadable entry it still runs
            // stops it, whatever NAME is.
            ExtVerb::Repair(_) => ("ext repair", None),
            ExtVerb::Disable(_) => ("ext disable", None),
            ExtVerb::Enable(_) => ("ext enable", None),
            ExtVerb::Remove(a) => ("ext remove", Some(a.name.as_str())),
            _ => ("ext", None),
        };
        let p = paths(cmd)?;
        // A lock that cannot be read at all is each verb's own refusal.
        if let Ok(lock) = store::read_lock(&p) {
            granted::check_nothing_dropped(&p, &lock, about)
                .map_err(|(what, hint)| Error::fail(cmd, what).hint(hint))?;
        }
    }
    let result = match verb {
        ExtVerb::Install(a) => install::run(a),
        ExtVerb::List(a) => list::run(a),
        ExtVerb::Info(a) => info::run(a),
        ExtVerb::Verify(a) => verify::run(a),
        ExtVerb::Outdated(a) => outdated::run(a),
        ExtVerb::Update(a) => update::run(a),
        ExtVerb::Rollback(a) => rollback::run(a),
        ExtVerb::Repair(a) => repair::run(a),
        ExtVerb::Disable(a) => disable::run(a),
        ExtVerb::Enable(a) => enable::run(a),
        ExtVerb::Remove(a) => remove::run(a),
        ExtVerb::New(a) => new::run(a),
        ExtVerb::Check(a) => check::run(a),
        ExtVerb::Exec(a) => exec::run(a),
    };
    // Ctrl-C (at a question or during a fetch) ends a verb as an interrupt
    // ends any command: 130, after what was begun has been undone.
    if git::INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        return match result {
            Ok(Exit::Ok) => Ok(Exit::Ok),
            Ok(_) => Ok(Exit::Interrupted),
            Err(e) => Err(e.code(Exit::Interrupted)),
        };
    }
    result
}

/// roost's paths, or the error every verb gives without them.
fn paths(cmd: &'static str) -> Result<Paths> {
    Paths::from_env().map_err(|e| Error::fail(cmd, e))
}

/// roost's places for a verb that writes them: checked before anything is
/// fetched or any consent is asked.
fn writable_paths(cmd: &'static str) -> Result<Paths> {
    let paths = paths(cmd)?;
    paths
        .check_writable()
        .map_err(|(msg, hint)| Error::fail(cmd, msg).hint(hint))?;
    Ok(paths)
}

/// Where OWNER/REPO is fetched from: `${ROOST_EXT_GIT_BASE:-https://github.com/}`
/// (see `base`), or why that base cannot be used.
pub fn url_for(repo: &str) -> std::result::Result<String, String> {
    Ok(format!("{}{repo}", base::get()?))
}

/// Where a pinned entry is fetched from: its recorded source, or for an
/// entry from before sources were recorded, the base + its OWNER/REPO.
/// ext.lock is untrusted: what it holds passes the checks typed input does.
fn recorded_url(pin: &lock::Pin) -> std::result::Result<String, String> {
    names::check_recorded_repo(&pin.repo).map_err(|e| format!("ext.lock's repo: {e}"))?;
    match &pin.url {
        Some(url) => {
            names::check_recorded_url(url).map_err(|e| format!("ext.lock's url: {e}"))?;
            Ok(url.clone())
        }
        None => {
            names::parse_repo(&pin.repo).map_err(|e| format!("ext.lock's repo: {e}"))?;
            url_for(&pin.repo)
        }
    }
}

/// A pin's commit and tree as ext.lock holds them: 40 lowercase hex digits
/// each (ext.lock is untrusted, and both are printed and compared).
fn recorded_ids(pin: &lock::Pin) -> std::result::Result<(), String> {
    for (what, id) in [("commit", &pin.commit), ("tree", &pin.tree)] {
        if !names::is_full_sha(id) || id.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(format!(
                "ext.lock's {what} '{}' is not 40 lowercase hex digits",
                crate::untrusted::printable(id.as_bytes())
            ));
        }
    }
    Ok(())
}

/// The ref a pinned entry follows: `None` for the remote's HEAD.
fn recorded_ref(pin: &lock::Pin) -> std::result::Result<Option<&str>, String> {
    if pin.git_ref == "HEAD" {
        return Ok(None);
    }
    names::check_ref(&pin.git_ref).map_err(|e| format!("ext.lock's ref: {e}"))?;
    Ok(Some(&pin.git_ref))
}

/// A name from the command line or ext.lock that is not a valid extension
/// name never becomes a path: it is simply not installed.
fn no_such(cmd: &'static str, name: &str) -> Error {
    Error::fail(
        cmd,
        format!(
            "no such extension: {}",
            crate::untrusted::printable(name.as_bytes())
        ),
    )
    .hint("roost ext list shows what is installed")
}

/// Where extension `name` lives: its clone, or the author's checkout when
/// it is linked.
fn ext_dir(paths: &Paths, name: &str, entry: Option<&lock::Entry>) -> std::path::PathBuf {
    match entry.and_then(|e| e.linked()) {
        Some(dir) => std::path::PathBuf::from(dir),
        None => paths.ext_clone(name),
    }
}

/// The one extension NAME names (which must be installed), or all of them.
fn chosen(cmd: &'static str, lock: &lock::Lock, name: Option<String>) -> Result<Vec<String>> {
    match name {
        Some(name) if crate::index::valid_name(name.as_bytes()) && lock.get(&name).is_some() => {
            Ok(vec![name])
        }
        Some(name) => Err(no_such(cmd, &name)),
        None => Ok(lock.valid_names().map(String::from).collect()),
    }
}

/// The first 7 hex digits of a commit, for people.
fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}
