//! `roost ext update [NAME] [--yes]`: re-resolve the recorded ref; when it
//! moved, fetch the new commit fresh, re-run every install gate, show the
//! change and ask again. Never runs git inside the installed clone.

use super::consent::{self, Answer, Offer, Purpose};
use super::install::{self, Fetched};
use super::lock::{Entry, Lock, Pin, Source};
use super::store::{self, Action, Store};
use super::{diff, git, hash, names};
use crate::cli::model::UpdateArgs;
use crate::error::{Error, Exit, Result};
use crate::paths::Paths;
use std::io::{IsTerminal, Write};

const CMD: &str = "ext update";

pub fn run(a: UpdateArgs) -> Result<Exit> {
    let yes = a.yes;
    let grants = grants(CMD, a.grant)?;
    let paths = super::writable_paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| Error::fail(CMD, e))?;
    let names = super::chosen(CMD, &lock, a.name)?;
    if names.is_empty() {
        println!("no extensions installed");
        return Ok(Exit::Ok);
    }
    let mut failed = None;
    for name in &names {
        if let Err(e) = update_one(&paths, name, yes, &grants) {
            failed = Some(e);
            if names.len() > 1 {
                if let Some(e) = failed.take() {
                    e.report();
                    failed = Some(Error::fail(
                        CMD,
                        format!("not every extension was updated ({name} was not)"),
                    ));
                }
            }
        }
    }
    failed.map_or(Ok(Exit::Ok), Err)
}

/// `--grant AUTHORITY` (repeatable): the authority a scripted update or
/// rollback may add. Without it, --yes never grants more than before.
pub(super) fn grants(cmd: &'static str, given: Vec<String>) -> Result<Vec<String>> {
    for grant in &given {
        if !crate::contract::AUTHORITIES.contains(&grant.as_str()) {
            return Err(Error::usage(
                cmd,
                format!(
                    "--grant {}: not an authority this roost knows ({})",
                    crate::untrusted::printable(grant.as_bytes()),
                    crate::contract::AUTHORITIES.join(", ")
                ),
            ));
        }
    }
    Ok(given)
}

/// NAME's entry, which must be installed and readable.
pub(super) fn readable<'a>(cmd: &'static str, lock: &'a Lock, name: &str) -> Result<&'a Entry> {
    if !crate::index::valid_name(name.as_bytes()) {
        return Err(super::no_such(cmd, name));
    }
    let slot = lock.get(name).ok_or_else(|| super::no_such(cmd, name))?;
    slot.typed().map_err(|u| {
        Error::fail(
            cmd,
            format!("{name}: its ext.lock entry cannot be read: {}", u.why),
        )
        .hint(format!("roost ext remove {name}, then install it again"))
    })
}

fn update_one(paths: &Paths, name: &str, yes: bool, grants: &[String]) -> Result<()> {
    let fail = |e: String| Error::fail(CMD, e);
    let lock = store::read_lock(paths).map_err(fail)?;
    let entry = readable(CMD, &lock, name)?;
    let pin = match &entry.source {
        Source::Pinned(pin) => pin,
        Source::Linked { dir } => {
            linked(name, dir, entry);
            return Ok(());
        }
    };
    // ext.lock is untrusted: its values pass the same checks as typed ones.
    let repo = pin.repo.clone();
    names::parse_repo(&repo).map_err(|e| fail(format!("{name}: ext.lock's repo: {e}")))?;
    let recorded_ref = pin.git_ref.clone();
    let reference = (recorded_ref != "HEAD").then_some(recorded_ref.as_str());
    if let Some(r) = reference {
        names::check_ref(r).map_err(|e| fail(format!("{name}: ext.lock's ref: {e}")))?;
    }
    let old_commit = pin.commit.clone();
    let old_needs = entry.needs.clone();
    // The source it was installed from; ROOST_EXT_GIT_BASE only shapes new
    // installs (an entry from before sources were recorded has none).
    let url = pin.url.clone().unwrap_or_else(|| super::url_for(&repo));
    let mut remote = git::Remote::new(&url);
    let commit = remote.resolve(reference).map_err(|e| {
        fail(format!(
            "{name}: cannot resolve {recorded_ref} at {url}: {e}"
        ))
    })?;
    if commit == old_commit.as_str() {
        println!(
            "{name}: up to date ({} is still {})",
            recorded_ref, old_commit
        );
        return Ok(());
    }
    let fetched = install::fetch_commit(paths, remote, &url, commit)
        .map_err(|e| fail(format!("{name}: {e}")))?;
    let manifest = &fetched.manifest;
    if manifest.name != name {
        return Err(fail(format!(
            "{name}: the new commit's manifest names it '{}'; refusing a renamed extension",
            manifest.name
        ))
        .hint(format!(
            "remove {name}, then install the repository under its new name"
        )));
    }
    let claims = lock.claims();
    for command in &manifest.commands {
        if let Some(owner) = claims.get(command.as_str()).filter(|o| **o != name) {
            return Err(fail(format!(
                "{name}: the new commit claims {command}, which the installed extension {owner} holds; nothing was changed"
            )));
        }
    }
    show_change(CMD, paths, name, &old_commit, &fetched)?;
    print!(
        "{}",
        consent::render(&Offer {
            source: install::source(&url),
            reference: &recorded_ref,
            commit: Some(&fetched.commit),
            manifest,
            purpose: Purpose::Update,
        })
    );
    agreed(
        CMD,
        name,
        &old_needs,
        manifest,
        yes,
        grants,
        Purpose::Update,
    )?;
    let new_pin = Pin {
        repo,
        git_ref: recorded_ref,
        commit: fetched.commit.clone(),
        tree: fetched.tree.clone(),
        url: Some(url),
    };
    let disabled = swap(paths, name, &old_commit, &fetched, |current| {
        let mut entry = install::entry_for(&fetched.manifest, Source::Pinned(new_pin));
        entry.previous = current.as_previous().map(Box::new);
        entry.disabled = current.disabled;
        entry
    })
    .map_err(fail)?;
    println!("updated {name}: {} -> {}", old_commit, fetched.commit);
    if disabled {
        println!("{}", still_disabled(name));
    }
    Ok(())
}

/// What update and rollback add when the extension they moved is disabled.
pub(super) fn still_disabled(name: &str) -> String {
    format!("{name} stays disabled: roost ext enable {name} turns it on")
}

/// Calls out any authority that grew, on its own line just above the
/// question, and asks. With --yes, grown authority must be granted by name.
pub(super) fn agreed(
    cmd: &'static str,
    name: &str,
    old_needs: &[String],
    manifest: &super::manifest::Manifest,
    yes: bool,
    grants: &[String],
    purpose: Purpose,
) -> Result<()> {
    let fail = |e: String| Error::fail(cmd, e);
    let (not_done, question, flag) = match purpose {
        Purpose::Rollback => ("not rolled back", "Roll back?", "roll back"),
        _ => ("not updated", "Update?", "update"),
    };
    let grown: Vec<&str> = manifest
        .needs
        .iter()
        .filter(|n| !old_needs.contains(n))
        .map(String::as_str)
        .collect();
    println!();
    if !grown.is_empty() {
        let means = if grown.contains(&"fleet") {
            format!("; with fleet {}", consent::FLEET_MEANS)
        } else {
            String::new()
        };
        println!(
            "NOTE: it now asks for more than before: {} (it had: {}){means}",
            grown.join(", "),
            describe(old_needs)
        );
        let ungranted: Vec<&str> = grown
            .iter()
            .copied()
            .filter(|n| !grants.iter().any(|g| g == n))
            .collect();
        if yes && !ungranted.is_empty() {
            return Err(fail(format!(
                "{name}: {not_done}: it asks for {} now, and --yes does not grant new authority",
                ungranted.join(", ")
            ))
            .hint(format!(
                "read the change above; to accept it from a script, add {}",
                ungranted
                    .iter()
                    .map(|g| format!("--grant {g}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )));
        }
    }
    match consent::ask(question, yes) {
        Answer::Yes => Ok(()),
        Answer::No => Err(fail(format!("{name}: {not_done}"))),
        Answer::NoTerminal => Err(fail(format!("{name}: {not_done}: stdin is not a terminal"))
            .hint(format!(
                "read the change above, then pass --yes to {flag} from a script"
            ))),
    }
}

/// A linked extension is updated by editing its checkout. Its code is read
/// at every run, but what it claims and needs was recorded when it was
/// linked: say so when its manifest now declares otherwise.
fn linked(name: &str, dir: &str, entry: &Entry) {
    let shown = crate::untrusted::printable(dir.as_bytes());
    println!("{name}: linked to {shown}; a linked extension is updated by editing it there");
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    if let Ok(m) = super::checks::read_manifest(std::path::Path::new(dir)) {
        if sorted(&m.commands) != sorted(&entry.commands)
            || sorted(&m.needs) != sorted(&entry.needs)
        {
            println!("  its roost-ext.json now declares other commands or needs than were linked;");
            println!(
                "  they take effect when it is linked again: roost ext remove {name}, then roost ext install --link {shown}"
            );
        }
    }
}

fn describe(needs: &[String]) -> String {
    if needs.is_empty() {
        "none".into()
    } else {
        needs.join(", ")
    }
}

/// Old and new commit, the changed files and the diff (paged on a terminal).
pub(super) fn show_change(
    cmd: &'static str,
    paths: &Paths,
    name: &str,
    old_commit: &str,
    fetched: &Fetched,
) -> Result<()> {
    let fail = |e: String| Error::fail(cmd, format!("{name}: {e}"));
    let installed = paths.ext_clone(name);
    // A clone that went missing is put back by the update: all of it is new.
    let missing = !installed.is_dir();
    let old = if missing {
        git::Leaves::new()
    } else {
        hash::hash_dir(&installed, &git::Leaves::new())
            .map_err(fail)?
            .1
    };
    let (_, new) = hash::hash_dir(&fetched.dir, &git::Leaves::new()).map_err(fail)?;
    let mut text = format!("{name}: {} -> {}\n", old_commit, fetched.commit);
    if missing {
        text.push_str(&format!(
            "({} is missing: every file shows as added)\n",
            installed.display()
        ));
    }
    text.push_str("\nchanged files:\n");
    for line in diff::changed_files(&old, &new) {
        text.push_str(&format!("  {line}\n"));
    }
    text.push('\n');
    text.push_str(&diff::unified(&installed, &old, &fetched.dir, &new));
    text.push('\n');
    page(&text);
    Ok(())
}

/// Through `$PAGER` (split with shell-words) when stdout is a terminal.
fn page(text: &str) {
    let pager = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty());
    if let (true, Some(pager)) = (std::io::stdout().is_terminal(), pager) {
        if let Ok(words) = shell_words::split(&pager) {
            if let Some((program, args)) = words.split_first() {
                let child = std::process::Command::new(program)
                    .args(args)
                    .stdin(std::process::Stdio::piped())
                    .spawn();
                if let Ok(mut child) = child {
                    if let Some(mut stdin) = child.stdin.take() {
                        let _ = stdin.write_all(text.as_bytes());
                    }
                    let _ = child.wait();
                    return;
                }
            }
        }
    }
    print!("{text}");
}

/// Puts the new clone in place of the old one and records the entry
/// `entry_for` makes of the current one (read under the lock); on any
/// failure the old clone and record are restored. Returns whether the
/// extension is disabled.
pub(super) fn swap(
    paths: &Paths,
    name: &str,
    old_commit: &str,
    fetched: &Fetched,
    entry_for: impl FnOnce(&Entry) -> Entry,
) -> std::result::Result<bool, String> {
    let store = Store::open(paths)?;
    let mut lock = store.load()?;
    let current = match lock.entry(name) {
        Some(e) if e.pin().map(|pin| pin.commit.as_str()) == Some(old_commit) => e.clone(),
        _ => {
            return Err(format!(
                "{name} changed while this command ran; run it again"
            ))
        }
    };
    // Another extension may have been installed since the first check.
    let claims = lock.claims();
    for command in &fetched.manifest.commands {
        if let Some(owner) = claims.get(command.as_str()).filter(|o| **o != name) {
            return Err(format!(
                "{name}: the new commit claims {command}, which the installed extension {owner} holds; nothing was changed"
            ));
        }
    }
    // The order keeps anything half-updated from ever being dispatched: the
    // old clone goes aside (its commands stop resolving), the record is
    // written, and only then does the new clone take its place. A kill at
    // any point is finished or undone by the next `roost ext` command.
    let dest = paths.ext_clone(name);
    let journal = format!("{old_commit} {}", fetched.dir.display());
    let _pending = store.begin(name, Action::Update, &journal)?;
    let aside = paths
        .data
        .join("ext")
        .join(format!(".old-{}-{name}", std::process::id()));
    let had_clone = dest.exists();
    if had_clone {
        std::fs::rename(&dest, &aside)
            .map_err(|e| format!("cannot move {} aside: {e}", dest.display()))?;
    }
    let put_back = |why: String| {
        if had_clone {
            let _ = std::fs::rename(&aside, &dest);
        }
        format!("{why}; {name} was left as it was")
    };
    let before = lock.clone();
    let entry = entry_for(&current);
    let disabled = entry.disabled;
    lock.insert(name, entry);
    let state = paths.ext_state(name);
    std::fs::create_dir_all(&state)
        .map_err(|e| put_back(format!("cannot create {}: {e}", state.display())))?;
    store.save(&lock).map_err(put_back)?;
    if let Err(e) = std::fs::rename(&fetched.dir, &dest) {
        let _ = store.save(&before);
        return Err(put_back(format!(
            "cannot move the new clone into place: {e}"
        )));
    }
    if had_clone {
        let _ = std::fs::remove_dir_all(&aside);
    }
    Ok(disabled)
}
