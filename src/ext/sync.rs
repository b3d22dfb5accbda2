//! A set file against ext.lock: what `sync` would install, move, switch or
//! remove, every difference `--frozen` lists, and installing one listed
//! extension by its commit id. Moving an installed one is `repin`'s, with
//! the listed pin as its target.

use super::error::{ExtError, Result};
use super::fetch::{self, Fetched};
use super::git;
use super::lock::{Entry, Lock, Pin, Source};
use super::set::{self, Line, Set};
use super::store::{self, Store};
use super::{display, new_entry, origin, place};
use crate::paths::Paths;

/// What the set asks of the installed extensions.
#[derive(Debug, Default)]
pub struct Plan {
    /// Listed, not installed.
    pub new: Vec<Line>,
    /// Installed at another pin: the listed line and the installed entry.
    pub moved: Vec<(Line, Entry)>,
    /// At the listed pin, with the other disabled mark.
    pub switched: Vec<Line>,
    /// At the listed pin and mark, with other settings.
    pub configured: Vec<Line>,
    /// Installed and pinned, not listed.
    pub extra: Vec<String>,
    /// Installed and linked, not listed: not part of any set.
    pub linked: Vec<String>,
    /// What sync cannot make agree (each a line of the listing): a line it
    /// cannot read, an entry ext.lock cannot read, a listed extension that
    /// is linked here, authority or a signer the listed pin does not match.
    pub stuck: Vec<String>,
    /// Every difference, as `--frozen` lists it.
    pub differences: Vec<String>,
}

impl Plan {
    /// Whether the set asks for nothing (but the extras' removal).
    pub fn nothing_to_do(&self) -> bool {
        self.new.is_empty()
            && self.moved.is_empty()
            && self.switched.is_empty()
            && self.configured.is_empty()
    }
}

/// The set file at `path`, read as a file roost did not write.
pub fn read(path: &std::path::Path) -> Result<Set> {
    let shown = crate::untrusted::path(path);
    let bytes = match crate::fsutil::read_regular(path, set::MAX_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return Err(ExtError::refused(format!("{shown}: there is no such file"))
                .hint("`roost ext export --output FILE` writes a set file"))
        }
        Err(e) => {
            return Err(ExtError::refused(format!("cannot read {shown}: {e}"))
                .hint("give the set file `roost ext export` wrote"))
        }
    };
    set::parse(&bytes).map_err(|e| e.within(shown))
}

/// Compares `set` with `lock` (and each extension's settings, from
/// `settings_of`).
pub fn plan(set: &Set, lock: &Lock, settings_of: set::SettingsOf) -> Plan {
    let mut p = Plan::default();
    for u in &set.unreadable {
        let said = format!("line {}: {}", u.number, u.why);
        p.stuck.push(said.clone());
        p.differences.push(said);
    }
    // A name install could never have written never becomes a path: it is
    // listed, and sync stops.
    for name in lock.invalid_names() {
        let said = format!(
            "{}: an ext.lock entry under a name install never writes",
            crate::untrusted::printable(name.as_bytes())
        );
        p.stuck.push(said.clone());
        p.differences.push(said);
    }
    for name in lock.valid_names() {
        let Some(slot) = lock.get(name) else { continue };
        let listed = set.lines.get(name);
        match slot.typed() {
            Err(u) => {
                let said = format!("{name}: its ext.lock entry cannot be read: {}", u.why);
                p.stuck.push(said.clone());
                p.differences.push(said);
            }
            Ok(entry) => match (&entry.source, listed) {
                (Source::Linked { .. }, None) => p.linked.push(name.to_string()),
                (Source::Linked { .. }, Some(_)) => {
                    let said = format!("{name}: listed, but linked to a checkout here");
                    p.stuck.push(said.clone());
                    p.differences.push(said);
                }
                (Source::Pinned(_), None) => {
                    p.differences
                        .push(format!("{name}: installed, but not in the file"));
                    p.extra.push(name.to_string());
                }
                (Source::Pinned(pin), Some(line)) => {
                    let here = settings_of(name, entry);
                    compare(&mut p, line, entry, pin, &here)
                }
            },
        }
    }
    for (name, line) in &set.lines {
        if lock.get(name).is_none() {
            p.differences.push(format!(
                "{name}: not installed; the file lists it at {}",
                line.pin.commit
            ));
            p.new.push(line.clone());
        }
    }
    p
}

/// One listed extension against its installed entry.
fn compare(
    p: &mut Plan,
    line: &Line,
    entry: &Entry,
    pin: &Pin,
    settings: &std::collections::BTreeMap<String, String>,
) {
    let name = &line.name;
    let mut moved = false;
    let none = "-".to_string();
    let fields = [
        ("commit", &pin.commit, &line.pin.commit),
        ("tree", &pin.tree, &line.pin.tree),
        ("ref", &pin.git_ref, &line.pin.git_ref),
        ("repository", &pin.repo, &line.pin.repo),
        (
            "URL",
            pin.url.as_ref().unwrap_or(&none),
            line.pin.url.as_ref().unwrap_or(&none),
        ),
    ];
    for (what, here, there) in fields {
        if here != there {
            moved = true;
            p.differences
                .push(format!("{name}: {what} {here} here, {there} in the file"));
        }
    }
    if entry.disabled != line.disabled {
        let word = |d: bool| if d { "disabled" } else { "enabled" };
        p.differences.push(format!(
            "{name}: {} here, {} in the file",
            word(entry.disabled),
            word(line.disabled)
        ));
    }
    let here_signer = set::recorded_signer(entry);
    if here_signer != line.signer {
        let said = format!(
            "{name}: signer {} here, {} in the file",
            shown_signer(here_signer.as_deref()),
            shown_signer(line.signer.as_deref())
        );
        p.differences.push(said.clone());
        if !moved {
            p.stuck.push(said);
        }
    }
    let mut needs = entry.needs.clone();
    needs.sort();
    needs.dedup();
    if needs != line.authority {
        let said = format!(
            "{name}: authority {} here, {} in the file",
            words(&needs),
            words(&line.authority)
        );
        p.differences.push(said.clone());
        // The authority is what the commit's manifest declares: at the
        // same pin, nothing sync does can make them agree.
        if !moved {
            p.stuck.push(said);
        }
    }
    let unset = "(not set)".to_string();
    let keys: std::collections::BTreeSet<&String> =
        settings.keys().chain(line.settings.keys()).collect();
    let mut configured = false;
    for key in keys {
        let (here, there) = (settings.get(key), line.settings.get(key));
        if here != there {
            configured = true;
            p.differences.push(format!(
                "{name}: setting {key} {} here, {} in the file",
                shown_value(here.unwrap_or(&unset)),
                shown_value(there.unwrap_or(&unset))
            ));
        }
    }
    if moved {
        p.moved.push((line.clone(), entry.clone()));
    } else if entry.disabled != line.disabled {
        p.switched.push(line.clone());
    } else if configured {
        p.configured.push(line.clone());
    }
}

/// Makes the settings of the installed `line.name` the ones `line` lists;
/// the keys set or unset.
pub fn make_settings(paths: &Paths, line: &Line) -> Result<Vec<String>> {
    let lock = store::read_lock(paths)?;
    let entry = super::installed::readable(&lock, &line.name)?.clone();
    super::settings::edit::make(paths, &line.name, &entry, &line.settings)
}

/// Every installed extension with secrets it declares and has no value
/// for, with their keys.
pub fn secrets_to_set(paths: &Paths) -> Vec<(String, Vec<String>)> {
    let Ok(lock) = store::read_lock(paths) else {
        return Vec::new();
    };
    lock.valid_names()
        .filter_map(|name| {
            let entry = lock.get(name)?.typed().ok()?;
            let keys = super::settings::edit::secrets_unset(paths, entry, name);
            (!keys.is_empty()).then(|| (name.to_string(), keys))
        })
        .collect()
}

/// A setting's value as the listing prints it.
fn shown_value(value: &str) -> String {
    crate::untrusted::printable(value.as_bytes())
}

/// A signer as the listing and the table print it (it came from a file
/// roost did not write, or from a commit).
pub fn shown_signer(signer: Option<&str>) -> String {
    match signer {
        Some(s) => crate::untrusted::printable(s.as_bytes()),
        None => "(none recorded)".into(),
    }
}

/// A list of authority as the listing says it.
pub fn words(list: &[String]) -> String {
    match list.is_empty() {
        true => "none".to_string(),
        false => list.join(","),
    }
}

/// The listed extension `line`, not installed yet: its commit fetched by id
/// from its source (published by it, as `install --ref SHA` requires), or
/// checked out of the offline bundle `offline`, every install check run,
/// and held to the listed tree, name and authority. Nothing is recorded.
pub fn fetch_listed(
    paths: &Paths,
    line: &Line,
    offline: Option<&git::bundle::Unpacked>,
) -> Result<Fetched> {
    let url = origin::recorded_url(&line.pin)?;
    let fetched = match offline {
        Some(bundle) => {
            let commit = git::entries::object_id(&line.pin.commit)?;
            fetch::from_bundle(paths, bundle, &url, commit)?
        }
        None => fetch::fetch(paths, &url, Some(&line.pin.commit))?,
    };
    if fetched.tree != line.pin.tree {
        return Err(ExtError::refused(format!(
            "commit {} has tree {}, but the file lists tree {}; nothing was installed",
            fetched.commit, fetched.tree, line.pin.tree
        )));
    }
    let m = &fetched.manifest;
    if m.name != line.name {
        return Err(ExtError::refused(format!(
            "the manifest at {} names it '{}', not {}; nothing was installed",
            display::short(&fetched.commit),
            m.name,
            line.name
        )));
    }
    held_to_authority(&m.needs, line)?;
    let signer = fetched.signer.id();
    if line.signer.as_ref().is_some_and(|listed| *listed != signer) {
        return Err(ExtError::refused(format!(
            "commit {} is signed by {}, but the file lists {}; nothing was installed",
            display::short(&fetched.commit),
            shown_signer(Some(&signer)),
            shown_signer(line.signer.as_deref())
        )));
    }
    Ok(fetched)
}

/// The authority a fetched commit asks for must be the listed one.
pub fn held_to_authority(needs: &[String], line: &Line) -> Result<()> {
    let mut needs = needs.to_vec();
    needs.sort();
    needs.dedup();
    if needs != line.authority {
        return Err(ExtError::refused(format!(
            "its commit asks for {}, but the file lists {}; nothing was changed",
            words(&needs),
            words(&line.authority)
        ))
        .hint("export the set again where it was made, and read what changed"));
    }
    Ok(())
}

/// Installs what `fetch_listed` fetched for `line`, with the listed
/// disabled mark.
pub fn put(paths: &Paths, line: &Line, fetched: &Fetched) -> Result<()> {
    let store = Store::open(paths)?;
    let mut lock = store.load()?;
    let m = &fetched.manifest;
    new_entry::conflicts(&lock, m, paths, true)?;
    let url = origin::recorded_url(&line.pin)?;
    let mut entry = new_entry::entry_for(
        m,
        Source::Pinned(Pin {
            url: Some(url),
            signer: Some(fetched.signer.id()),
            signers: vec![fetched.signer.id()],
            ..line.pin.clone()
        }),
    );
    entry.disabled = line.disabled;
    place::install(&store, &mut lock, &fetched.dir, &line.name, entry)?;
    Ok(())
}

/// Removes the pinned extension NAME the file does not list (`--prune`):
/// its record, then its clone; its data directory is kept, as `remove`
/// keeps it.
pub fn prune(paths: &Paths, name: &str) -> Result<()> {
    let store = Store::open(paths)?;
    let mut lock = store.load()?;
    if !matches!(lock.entry(name).map(|e| &e.source), Some(Source::Pinned(_))) {
        return Err(ExtError::refused("it changed while sync ran; run it again"));
    }
    let removed = super::uninstall::take_out(paths, &store, &mut lock, name, true)?;
    match removed.and_then(|r| r.clone_left) {
        Some(e) => Err(ExtError::failed(format!(
            "it is no longer installed, but {} could not be deleted: {e}",
            crate::untrusted::path(&paths.ext_clone(name))
        ))),
        None => Ok(()),
    }
}
