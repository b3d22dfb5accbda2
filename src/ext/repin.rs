//! Moving an extension to another commit, the step install, update and
//! rollback share: check what the new commit claims, show the change and
//! the consent block, ask (with what authority grew called out), and the
//! entry to record.

use super::consent::{self, Answer, Offer, Purpose};
use super::fetch::Fetched;
use super::git::hash::hash_dir;
use super::lock::{Entry, Lock, Pin, Source};
use super::manifest::Manifest;
use super::output::Out;
use super::{diff, git, integrity, new_entry};
use crate::error::{Error, Result};
use crate::paths::Paths;

/// Why the workflow stopped: a check or the answer refused, or showing the
/// change failed. Nothing was changed either way.
#[derive(Debug)]
pub enum Halt {
    Refused { why: String, hint: Option<String> },
    Failed(String),
}

impl Halt {
    fn refused(why: impl Into<String>) -> Halt {
        Halt::Refused {
            why: why.into(),
            hint: None,
        }
    }

    fn hint(self, text: impl Into<String>) -> Halt {
        match self {
            Halt::Refused { why, .. } => Halt::Refused {
                why,
                hint: Some(text.into()),
            },
            failed => failed,
        }
    }

    /// What it says, and what to do.
    pub fn parts(&self) -> (&str, Option<&str>) {
        match self {
            Halt::Refused { why, hint } => (why, hint.as_deref()),
            Halt::Failed(why) => (why, None),
        }
    }

    /// Command `cmd`'s error for it: `why`, and the hint.
    pub fn error(&self, cmd: &'static str) -> Error {
        let (why, hint) = self.parts();
        let e = Error::fail(cmd, why.to_string());
        match hint {
            Some(hint) => e.hint(hint.to_string()),
            None => e,
        }
    }

    /// The same, about extension `name`: `NAME: why`.
    pub fn error_about(&self, cmd: &'static str, name: &str) -> Error {
        let (why, hint) = self.parts();
        let e = Error::fail(cmd, format!("{name}: {why}"));
        match hint {
            Some(hint) => e.hint(hint.to_string()),
            None => e,
        }
    }
}

/// `--grant AUTHORITY` (repeatable): the authority a scripted update or
/// rollback may add. Without it, --yes never grants more than before.
pub fn grants(cmd: &'static str, given: Vec<String>) -> Result<Vec<String>> {
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

/// A command the new commit of `name` claims that another installed
/// extension holds, and that extension.
pub fn claimed_elsewhere(lock: &Lock, name: &str, manifest: &Manifest) -> Option<(String, String)> {
    let claims = lock.claims();
    manifest.commands.iter().find_map(|command| {
        claims
            .get(command.as_str())
            .filter(|o| **o != name)
            .map(|owner| (command.clone(), owner.to_string()))
    })
}

/// The consent block for `offer`, where the story goes.
pub fn show_offer(out: Out, offer: &Offer) {
    out.say(&consent::render(offer, out.paint()));
}

/// The entry that moves `current` to `pin`: what the new commit's manifest
/// declares, with the pin it replaces kept (so a rollback returns to it)
/// and its switch as it was.
pub fn repinned(manifest: &Manifest, pin: Pin, current: &Entry) -> Entry {
    let mut entry = new_entry::entry_for(manifest, Source::Pinned(pin));
    entry.previous = current.as_previous().map(Box::new);
    entry.disabled = current.disabled;
    entry
}

/// Calls out any authority that grew, on its own line just above the
/// question, and asks. With --yes, grown authority must be granted by name.
pub fn agree(
    out: Out,
    old_needs: &[String],
    manifest: &Manifest,
    yes: bool,
    grants: &[String],
    purpose: Purpose,
) -> std::result::Result<(), Halt> {
    let not_done = question(purpose).not_done;
    let grown: Vec<&str> = manifest
        .needs
        .iter()
        .filter(|n| !old_needs.contains(n))
        .map(String::as_str)
        .collect();
    if !grown.is_empty() {
        let means = if grown.contains(&"fleet") {
            format!("; with fleet {}", consent::FLEET_MEANS)
        } else {
            String::new()
        };
        out.say(&format!(
            "{} it now asks for more than before: {} (it had: {}){means}\n",
            out.paint().paint(crate::colour::Colour::Yellow, "NOTE:"),
            grown.join(", "),
            describe(old_needs)
        ));
        let ungranted: Vec<&str> = grown
            .iter()
            .copied()
            .filter(|n| !grants.iter().any(|g| g == n))
            .collect();
        if yes && !ungranted.is_empty() {
            return Err(Halt::refused(format!(
                "{not_done}: it asks for {} now, and --yes does not grant new authority",
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
    ask(out, yes, purpose)
}

/// How the question for `purpose` is put, and refused.
struct Question {
    ask: &'static str,
    not_done: &'static str,
    /// What was shown above it.
    shown: &'static str,
    /// The verb, as `--yes to VERB from a script` says it.
    verb: &'static str,
}

fn question(purpose: Purpose) -> Question {
    match purpose {
        Purpose::Install => Question {
            ask: "Install?",
            not_done: "not installed",
            shown: "block",
            verb: "install",
        },
        Purpose::Rollback => Question {
            ask: "Roll back?",
            not_done: "not rolled back",
            shown: "change",
            verb: "roll back",
        },
        Purpose::Update => Question {
            ask: "Update?",
            not_done: "not updated",
            shown: "change",
            verb: "update",
        },
    }
}

/// Asks the question for `purpose`; anything but yes refuses.
pub fn ask(out: Out, yes: bool, purpose: Purpose) -> std::result::Result<(), Halt> {
    let q = question(purpose);
    match consent::ask(q.ask, yes, &mut out.writer()) {
        Answer::Yes => Ok(()),
        Answer::No => Err(Halt::refused(q.not_done)),
        Answer::NoTerminal => {
            Err(
                Halt::refused(format!("{}: stdin is not a terminal", q.not_done)).hint(format!(
                    "read the {} above, then pass --yes to {} from a script",
                    q.shown, q.verb
                )),
            )
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
/// The old side is the installed clone only while it still holds the tree
/// pinned with `old_tree`: a clone that is missing or was changed since
/// (by the extension itself, say) could hide a change, so then every file
/// shows as added.
pub fn show_change(
    out: Out,
    paths: &Paths,
    name: &str,
    old_commit: &str,
    old_tree: &str,
    fetched: &Fetched,
    cut: diff::Shown,
) -> std::result::Result<(), Halt> {
    let failed = |e: String| Halt::Failed(e);
    let installed = paths.ext_clone(name);
    let shown = installed.display();
    let whole = if !installed.is_dir() {
        Some(format!("({shown} is missing: every file shows as added)\n"))
    } else if !integrity::check(&installed, old_tree).ok {
        Some(format!(
            "({shown} no longer holds the files pinned at install (roost ext verify {name} \
             names them), so nothing is compared with it: every file shows as added)\n"
        ))
    } else {
        None
    };
    let (old_dir, old) = match whole {
        Some(_) => (fetched.dir.as_path(), git::Leaves::new()),
        None => (
            installed.as_path(),
            hash_dir(&installed, &git::Leaves::new())
                .map_err(|e| failed(e.to_string()))?
                .1,
        ),
    };
    let (_, new) =
        hash_dir(&fetched.dir, &git::Leaves::new()).map_err(|e| failed(e.to_string()))?;
    let mut text = format!("{name}: {} -> {}\n", old_commit, fetched.commit);
    if let Some(whole) = whole {
        text.push_str(&whole);
    }
    text.push_str("\nchanged files:\n");
    for line in diff::changed_files(&old, &new) {
        text.push_str(&format!("  {line}\n"));
    }
    text.push('\n');
    text.push_str(&diff::unified(
        old_dir,
        &old,
        &fetched.dir,
        &new,
        cut,
        out.paint(),
    ));
    text.push('\n');
    out.page(&text);
    Ok(())
}
