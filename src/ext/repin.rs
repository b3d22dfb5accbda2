//! Moving an installed extension to another commit, written once for the
//! three verbs that do it, each naming its `Target`: update (what its
//! recorded ref points to now), rollback (the pin recorded before the last
//! update) and repair (its own pin, fetched again). The steps: read the
//! entry and hold what ext.lock says to the checks typed input passes;
//! fetch the target commit fresh from the recorded source and run every
//! install gate on it; for update and rollback, show the change and the
//! consent block and ask (what authority grew called out); then put it in
//! place and record it (`swap`). `sync` names a fourth target: the pin a
//! set file lists. The story goes to the `Output` it is
//! given. Install shares the consent block and the question.

use super::consent::{self, Answer, Offer, Purpose};
use super::display;
use super::error::{ExtError, Result};
use super::fetch::{self, Fetched};
use super::git::hash::hash_dir;
use super::git::{self, entries};
use super::lock::{Entry, Pin, Source};
use super::manifest::Manifest;
use super::output::Output;
use super::{consent_events, diff, integrity, new_entry, origin, signature, store, swap};
use crate::paths::Paths;

/// Where a re-pin takes the extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// What the recorded ref points to now, at the recorded source.
    Ref,
    /// The pin ext.lock recorded before the last update, fetched by its
    /// commit id and held to its recorded tree.
    Previous,
    /// The pin it has, fetched again by its commit id and held to its
    /// recorded tree: nothing new is agreed to, so nothing is asked.
    Pinned,
    /// The pin a set file lists (`sync`): fetched by its commit id from
    /// its source, with the reachability rule of `install --ref SHA`, and
    /// held to its tree. Its repository, ref and URL are recorded with it.
    Given(&'a Pin),
}

impl Target<'_> {
    /// The verb, as a command line says it.
    fn verb(self) -> &'static str {
        match self {
            Target::Ref => "update",
            Target::Previous => "rollback",
            Target::Pinned => "repair",
            Target::Given(_) => "sync",
        }
    }

    /// Which commit it is, as the refusals say it.
    fn which(self) -> &'static str {
        match self {
            Target::Ref => "new",
            Target::Previous => "earlier",
            Target::Pinned => "pinned",
            Target::Given(_) => "listed",
        }
    }
}

/// One re-pin: of which extension, to where, and what the user said on
/// the command line. The pins it learns are kept for a summary, whatever
/// the outcome.
pub struct Repin<'a> {
    pub name: &'a str,
    pub target: Target<'a>,
    /// `--yes`: the question is answered; grown authority still needs
    /// `grants`.
    pub yes: bool,
    /// `--grant AUTHORITY`: the authority `--yes` may add.
    pub grants: &'a [String],
    /// `--accept-signer ID`: the new signers `--yes` may agree to.
    pub accept_signers: &'a [String],
    /// `--diff`: show the whole change, and change nothing.
    pub diff_only: bool,
    /// An offline bundle the target is taken from (`sync --from`): no
    /// network, no git program.
    pub offline: Option<&'a git::bundle::Unpacked>,
    /// The commit it was pinned to, once read.
    pub from: Option<String>,
    /// The commit it was to move to, once known.
    pub to: Option<String>,
}

/// How a re-pin ended well.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    /// Moved (or, for repair, put back) and recorded.
    Moved {
        from: String,
        to: String,
        /// Where it was fetched from.
        url: String,
        /// It stays disabled.
        disabled: bool,
    },
    /// Nothing to do: the ref still points at the pin (update), or the
    /// files still hold the pinned tree (repair).
    Unchanged { reference: String, commit: String },
    /// Linked to a checkout: nothing is pinned. Its entry, as recorded.
    Linked(Box<Entry>),
    /// `--diff`: the change was shown; nothing else was done.
    Shown,
}

/// Where `prepare` left a re-pin.
pub enum Step {
    /// Fetched, checked and shown: waiting for the answer.
    Ready(Box<Ready>),
    /// Nothing more to do (or --diff shown).
    Done(Outcome),
}

/// A re-pin fetched, checked and shown, waiting for the answer: its
/// temporary clone is removed if it is dropped unfinished.
pub struct Ready {
    entry: Entry,
    current: Pin,
    url: String,
    reference: String,
    fetched: Fetched,
}

impl Ready {
    /// What the fetched commit's manifest declares.
    pub fn manifest(&self) -> &Manifest {
        &self.fetched.manifest
    }
}

/// What the plan came to: a commit to fetch, or nothing to do.
enum Planned {
    Fetch(Box<Plan>),
    Nothing(Outcome),
}

/// The commit to fetch, where from, and what to record once it is in place.
struct Plan {
    url: String,
    commit: entries::ObjectId,
    remote: git::Remote,
    /// The ref the consent block names.
    reference: String,
    /// The tree the commit must hold (rollback and repair).
    tree: Option<String>,
    /// What the user is told stays as it is when the fetch fails.
    stays: Option<String>,
}

impl<'a> Repin<'a> {
    pub fn new(name: &'a str, target: Target<'a>) -> Repin<'a> {
        Repin {
            name,
            target,
            yes: false,
            grants: &[],
            accept_signers: &[],
            diff_only: false,
            offline: None,
            from: None,
            to: None,
        }
    }

    /// The whole workflow. Errors are in the workflow's words, without the
    /// extension's name; nothing was changed when one is returned.
    pub fn run(&mut self, paths: &Paths, out: &mut Output) -> Result<Outcome> {
        let ready = match self.prepare(paths, out)? {
            Step::Ready(ready) => ready,
            Step::Done(outcome) => return Ok(outcome),
        };
        if self.target != Target::Pinned {
            let Ready {
                entry,
                url,
                reference,
                fetched,
                ..
            } = &*ready;
            self.agree(out, entry, url, reference, fetched)?;
        }
        self.finish(paths, *ready)
    }

    /// The workflow up to the question: the target fetched, every gate run
    /// on it, and (but for repair) the change shown. With --diff, or with
    /// nothing to do, it ends here. `sync` asks one question for many
    /// re-pins, then `finish`es each.
    pub fn prepare(&mut self, paths: &Paths, out: &mut Output) -> Result<Step> {
        let name = self.name;
        let again = format!("roost ext remove {name}, then install it again");
        let lock = store::read_lock(paths)?;
        let entry = lock
            .get(name)
            .ok_or_else(|| ExtError::failed("it is no longer installed"))?
            .typed()
            .map_err(|u| {
                ExtError::failed(format!("its ext.lock entry cannot be read: {}", u.why))
                    .hint(again.clone())
            })?;
        let current = match &entry.source {
            Source::Pinned(pin) => pin,
            Source::Linked { .. } => {
                return Ok(Step::Done(Outcome::Linked(Box::new(entry.clone()))))
            }
        };
        self.from = Some(current.commit.clone());
        origin::recorded_ids(current).map_err(|e| e.hint(again))?;
        let plan = match self.plan(paths, entry, current)? {
            Planned::Fetch(plan) => plan,
            Planned::Nothing(unchanged) => return Ok(Step::Done(unchanged)),
        };
        self.to = Some(plan.commit.to_string());
        let url = plan.url.clone();
        let reference = plan.reference.clone();
        let fetched = self.fetch(paths, *plan)?;
        if self.target != Target::Pinned {
            self.check_claims(&lock, &fetched.manifest)?;
            self.show_change(out, paths, current, &fetched)?;
            if self.diff_only {
                return Ok(Step::Done(Outcome::Shown));
            }
        }
        Ok(Step::Ready(Box::new(Ready {
            entry: entry.clone(),
            current: current.clone(),
            url,
            reference,
            fetched,
        })))
    }

    /// Puts a prepared re-pin in place and records it (the answer given).
    pub fn finish(&self, paths: &Paths, ready: Ready) -> Result<Outcome> {
        let Ready {
            entry,
            current,
            url,
            fetched,
            ..
        } = ready;
        let disabled = self.record(paths, &entry, &current, &url, &fetched)?;
        Ok(Outcome::Moved {
            from: current.commit.clone(),
            to: fetched.commit.clone(),
            url,
            disabled,
        })
    }

    /// The planned commit, fetched fresh and held to every gate, and to the
    /// tree ext.lock records for it when there is one.
    fn fetch(&self, paths: &Paths, plan: Plan) -> Result<Fetched> {
        let gone = "the repository may no longer hold that commit";
        let stays = plan.stays;
        let fetched = match self.offline {
            Some(bundle) => fetch::from_bundle(paths, bundle, &plan.url, plan.commit),
            None => fetch::fetch_commit(paths, plan.remote, &plan.url, plan.commit),
        };
        let fetched = fetched.map_err(|e| match &stays {
            Some(stays) => {
                let hint = format!("{}; {stays}", e.what_to_do().unwrap_or(gone));
                e.hint(hint)
            }
            None => e,
        })?;
        if let Some(tree) = plan.tree.filter(|t| *t != fetched.tree) {
            return Err(ExtError::refused(format!(
                "commit {} has tree {}, but ext.lock recorded tree {tree} for it; \
                 refusing to put other files in place than the ones agreed to",
                fetched.commit, fetched.tree
            ))
            .hint(format!(
                "{}; `roost ext info {}` shows what ext.lock records",
                stays.unwrap_or_default(),
                self.name
            )));
        }
        Ok(fetched)
    }

    /// The change from the pinned commit to the fetched one; with --diff,
    /// all of it and the word that nothing changed.
    fn show_change(
        &self,
        out: &mut Output,
        paths: &Paths,
        current: &Pin,
        fetched: &Fetched,
    ) -> Result<()> {
        let (name, verb) = (self.name, self.target.verb());
        let whole = format!("`roost ext {verb} {name} --diff` prints the whole diff");
        let cut = match self.diff_only {
            true => diff::Shown::Whole,
            false => diff::Shown::Capped { whole: &whole },
        };
        show_change(
            out,
            paths,
            name,
            &current.commit,
            &current.tree,
            fetched,
            cut,
        )?;
        if self.diff_only {
            out.say(&format!(
                "{name}: nothing was changed (--diff); roost ext {verb} {name} asks before it does\n"
            ));
        }
        Ok(())
    }

    /// The consent block for the fetched commit, and the question.
    fn agree(
        &self,
        out: &mut Output,
        entry: &Entry,
        url: &str,
        reference: &str,
        fetched: &Fetched,
    ) -> Result<()> {
        let purpose = match self.target {
            Target::Previous => Purpose::Rollback,
            _ => Purpose::Update,
        };
        let offer = Offer {
            source: display::source(url),
            reference,
            commit: Some(&fetched.commit),
            signer: Some(fetched.signer.describe()),
            manifest: &fetched.manifest,
            purpose,
        };
        show_offer(out, &offer);
        out.say("\n");
        let pin = entry.pin();
        let recorded = pin.and_then(|p| p.signer.as_deref());
        let accepted = pin.map_or(&[][..], |p| &p.signers[..]);
        let change = signature::change::compare(recorded, accepted, &fetched.signer);
        let line = change.line(&fetched.signer);
        let line = match change.needs_accepting() {
            true => out.paint().paint(crate::colour::Colour::Yellow, &line),
            false => line,
        };
        out.say(&format!("{line}\n"));
        let id = fetched.signer.id();
        if change.needs_accepting() && !self.accept_signers.contains(&id) {
            signer_accepted(self.yes, &id, purpose)?;
        }
        let m = &fetched.manifest;
        out.say(&super::settings::changes::block(
            &super::settings::recorded::of(entry),
            &m.settings,
        ));
        agree_events(out, entry, m, self.yes, self.grants, purpose)?;
        agree(out, &entry.needs, m, self.yes, self.grants, purpose)
    }

    /// Puts the fetched clone in place and records its pin (the recorded
    /// entry as it is, for repair). Returns whether it stays disabled.
    fn record(
        &self,
        paths: &Paths,
        entry: &Entry,
        current: &Pin,
        url: &str,
        fetched: &Fetched,
    ) -> Result<bool> {
        // The earlier pin for a rollback (so a second one returns to where
        // this one started), else the recorded one, at the fetched commit.
        let previous = entry.previous.as_deref();
        let base = match (self.target, previous) {
            (Target::Previous, Some(earlier)) => &earlier.pin,
            (Target::Given(listed), _) => listed,
            _ => current,
        };
        // The signer joins the set the user agreed to (repair agrees to
        // nothing new: it records the signer only where none was).
        let id = fetched.signer.id();
        let signers = signature::change::accepted_after(
            current.signer.as_deref(),
            &current.signers,
            &fetched.signer,
        );
        let pin = Pin {
            commit: fetched.commit.clone(),
            tree: fetched.tree.clone(),
            url: Some(url.to_string()),
            signer: Some(id.clone()),
            signers: signers.clone(),
            ..base.clone()
        };
        let target = self.target;
        swap::swap(paths, self.name, &current.commit, fetched, |now| {
            let mut entry = repinned(&fetched.manifest, pin, now);
            match (target, previous) {
                (Target::Pinned, _) => {
                    let mut same = now.clone();
                    if let Source::Pinned(p) = &mut same.source {
                        if p.signer.is_none() && p.commit == fetched.commit {
                            p.signer = Some(id);
                            p.signers = signers;
                        }
                    }
                    return same;
                }
                // What this roost did not know of the earlier entry comes
                // back with it.
                (Target::Previous, Some(earlier)) => entry.extra = earlier.extra.clone(),
                _ => {}
            }
            entry
        })
    }

    /// Where the target is, or that there is nothing to do.
    fn plan(&self, paths: &Paths, entry: &Entry, current: &Pin) -> Result<Planned> {
        let name = self.name;
        let unchanged = || {
            Planned::Nothing(Outcome::Unchanged {
                reference: current.git_ref.clone(),
                commit: current.commit.clone(),
            })
        };
        let by_id = |pin: &Pin, url: String, stays: String| {
            Ok(Planned::Fetch(Box::new(Plan {
                commit: entries::object_id(&pin.commit)?,
                remote: git::Remote::new(&url),
                url,
                reference: pin.git_ref.clone(),
                tree: Some(pin.tree.clone()),
                stays: Some(stays),
            })))
        };
        match self.target {
            // The source it was installed from; ROOST_EXT_GIT_BASE only
            // shapes new installs (an entry from before sources were
            // recorded has none, and is fetched from the base + its
            // OWNER/REPO).
            Target::Ref => {
                let url = origin::recorded_url(current)?;
                let reference = origin::recorded_ref(current)?;
                let mut remote = git::Remote::new(&url);
                let commit = remote.resolve(reference).map_err(|e| {
                    let doing = format!("cannot resolve {} at", current.git_ref);
                    git::failure::explain(&doing, &url, &e)
                })?;
                // At the same commit, events never agreed to (an entry
                // from before they were recorded) are still shown and asked.
                let review = super::events_review::unreviewed(paths, name, entry).is_some();
                if commit == current.commit.as_str() && !review {
                    // Hung up, and the progress line gone, before a word.
                    return Ok(unchanged());
                }
                Ok(Planned::Fetch(Box::new(Plan {
                    url,
                    commit,
                    remote,
                    reference: current.git_ref.clone(),
                    tree: None,
                    stays: None,
                })))
            }
            // By its id alone: it is the commit the user agreed to before,
            // whether or not a branch or tag still leads to it.
            Target::Previous => {
                let Some(previous) = entry.previous.as_deref() else {
                    return Err(ExtError::refused(
                        "nothing to roll back to: ext.lock records no pin before its last update",
                    )
                    .hint(format!(
                        "only `roost ext update {name}` records the pin it replaces; \
                         `roost ext info {name}` shows the current one"
                    )));
                };
                let earlier = |e: ExtError| e.within("the pin before the last update");
                let pin = &previous.pin;
                origin::recorded_ids(pin).map_err(earlier)?;
                let url = origin::recorded_url(pin).map_err(earlier)?;
                origin::recorded_ref(pin).map_err(earlier)?;
                if pin.commit == current.commit {
                    return Err(ExtError::refused(format!(
                        "the pin ext.lock records before the last update is {}, the commit it is \
                         pinned to now; nothing to roll back",
                        current.commit
                    )));
                }
                let stays = format!(
                    "nothing was changed, and {name} stays at {}",
                    display::short(&current.commit)
                );
                by_id(pin, url, stays)
            }
            // By its id, published by the listed source as `install --ref
            // SHA` requires, and held to the listed tree.
            Target::Given(listed) => {
                let url = origin::recorded_url(listed)?;
                origin::recorded_ref(listed)?;
                let mut remote = git::Remote::new(&url);
                let commit = match self.offline {
                    // The bundle holds it, verified; nothing is asked of
                    // its source.
                    Some(_) => entries::object_id(&listed.commit)?,
                    None => remote.resolve(Some(&listed.commit)).map_err(|e| {
                        let doing = format!("cannot find commit {} at", listed.commit);
                        git::failure::explain(&doing, &url, &e)
                    })?,
                };
                Ok(Planned::Fetch(Box::new(Plan {
                    url,
                    commit,
                    remote,
                    reference: listed.git_ref.clone(),
                    tree: Some(listed.tree.clone()),
                    stays: Some(format!(
                        "nothing was changed, and {name} stays at {}",
                        display::short(&current.commit)
                    )),
                })))
            }
            Target::Pinned => {
                let clone = paths.ext_clone(name);
                if integrity::check(&clone, &current.tree).ok {
                    return Ok(unchanged());
                }
                let url = origin::recorded_url(current)?;
                let stays = format!("nothing was changed; {} is as it was", clone.display());
                by_id(current, url, stays)
            }
        }
    }

    /// The new commit under the same name, claiming no command another
    /// extension holds (`swap` checks again under the lock).
    fn check_claims(&self, lock: &super::lock::Lock, manifest: &Manifest) -> Result<()> {
        let (name, which) = (self.name, self.target.which());
        if manifest.name != name {
            return Err(ExtError::refused(format!(
                "the {which} commit's manifest names it '{}'; refusing a renamed extension",
                manifest.name
            ))
            .hint(format!(
                "remove {name}, then install the repository under its new name"
            )));
        }
        if let Some((command, owner)) = swap::claimed_elsewhere(lock, name, manifest) {
            return Err(ExtError::refused(format!(
                "the {which} commit claims {command}, which the installed extension {owner} holds; nothing was changed"
            ))
            .hint(format!(
                "remove {owner} first (roost ext remove {owner}), then {} {name} again",
                self.target.verb()
            )));
        }
        Ok(())
    }
}

/// What update and rollback add when the extension they moved is disabled.
pub fn still_disabled(name: &str) -> String {
    format!("{name} stays disabled: roost ext enable {name} turns it on")
}

/// The consent block for `offer`, where the story goes.
pub fn show_offer(out: &mut Output, offer: &Offer) {
    let block = consent::render(offer, out.paint());
    out.say(&block);
}

/// The entry that moves `current` to `pin`: what the new commit's manifest
/// declares, with the pin it replaces kept (so a rollback returns to it)
/// and its switch as it was.
fn repinned(manifest: &Manifest, pin: Pin, current: &Entry) -> Entry {
    let mut entry = new_entry::entry_for(manifest, Source::Pinned(pin));
    entry.previous = current.as_previous().map(Box::new);
    entry.disabled = current.disabled;
    entry
}

/// The change's lines about events, and a note when the update makes the
/// extension run on its own on moments it did not before (what was
/// consented to is the lock entry's, none for an entry from before events
/// were recorded): with --yes that needs `--grant events`, as fleet does.
fn agree_events(
    out: &mut Output,
    entry: &Entry,
    manifest: &Manifest,
    yes: bool,
    grants: &[String],
    purpose: Purpose,
) -> Result<()> {
    let old = crate::ext::lock::events::consented(entry);
    let new = manifest.events.as_ref();
    for line in consent_events::change_lines(old.as_ref(), new) {
        out.say(&format!("{line}\n"));
    }
    if consent_events::added(old.as_ref(), new).is_empty() {
        return Ok(());
    }
    let note = out.paint().paint(crate::colour::Colour::Yellow, "NOTE:");
    out.say(&format!(
        "{note} it now runs code on its own on more moments than you agreed to\n"
    ));
    granted(yes, &["events"], grants, purpose, |add| {
        format!("to accept it from a script, add {add}")
    })
}

/// With --yes, the authority in `asked` must each be named with --grant: a
/// script never grants authority by accident. Refused in `purpose`'s words
/// otherwise, the hint saying how (`how`: the grants to add, as a command
/// line or its tail).
pub fn granted(
    yes: bool,
    asked: &[&str],
    grants: &[String],
    purpose: Purpose,
    how: impl FnOnce(&str) -> String,
) -> Result<()> {
    let ungranted: Vec<&str> = asked
        .iter()
        .copied()
        .filter(|n| !grants.iter().any(|g| g == n))
        .collect();
    if !yes || ungranted.is_empty() {
        return Ok(());
    }
    let q = question(purpose);
    let add = ungranted
        .iter()
        .map(|g| format!("--grant {g}"))
        .collect::<Vec<_>>()
        .join(" ");
    let (new, now) = match purpose {
        Purpose::Install => ("", ""),
        _ => ("new ", " now"),
    };
    Err(ExtError::refused(format!(
        "{}: it asks for {}{now}, and --yes does not grant {new}authority",
        q.not_done,
        ungranted.join(", ")
    ))
    .hint(format!("read the {} above; {}", q.shown, how(&add))))
}

/// With --yes, a signer change or a downgrade to unsigned must be named
/// with --accept-signer: a script never agrees to another key by accident.
/// Without --yes the question that follows asks the user.
fn signer_accepted(yes: bool, id: &str, purpose: Purpose) -> Result<()> {
    if !yes {
        return Ok(());
    }
    let q = question(purpose);
    Err(ExtError::refused(format!(
        "{}: its signer is now {id}, and --yes does not accept a new signer",
        q.not_done
    ))
    .hint(format!(
        "read the {} and the signer line above; to accept it from a script, add --accept-signer {id}",
        q.shown
    )))
}

/// Calls out any authority that grew, on its own line just above the
/// question, and asks. With --yes, grown authority must be granted by name.
pub fn agree(
    out: &mut Output,
    old_needs: &[String],
    manifest: &Manifest,
    yes: bool,
    grants: &[String],
    purpose: Purpose,
) -> Result<()> {
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
        let note = out.paint().paint(crate::colour::Colour::Yellow, "NOTE:");
        out.say(&format!(
            "{note} it now asks for more than before: {} (it had: {}){means}\n",
            grown.join(", "),
            describe(old_needs)
        ));
        granted(yes, &grown, grants, purpose, |add| {
            format!("to accept it from a script, add {add}")
        })?;
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
pub fn ask(out: &mut Output, yes: bool, purpose: Purpose) -> Result<()> {
    let q = question(purpose);
    match consent::ask(q.ask, yes, out.writer()) {
        Answer::Yes => Ok(()),
        Answer::No => Err(ExtError::refused(q.not_done)),
        Answer::NoTerminal => Err(ExtError::refused(format!(
            "{}: stdin is not a terminal",
            q.not_done
        ))
        .hint(format!(
            "read the {} above, then pass --yes to {} from a script",
            q.shown, q.verb
        ))),
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
fn show_change(
    out: &mut Output,
    paths: &Paths,
    name: &str,
    old_commit: &str,
    old_tree: &str,
    fetched: &Fetched,
    cut: diff::Shown,
) -> Result<()> {
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
            hash_dir(&installed, &git::Leaves::new())?.1,
        ),
    };
    let (_, new) = hash_dir(&fetched.dir, &git::Leaves::new())?;
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

/// The workflow against a store in a temporary directory and repositories
/// made there (file:// sources, fetched by the real git layer), its story
/// read back from a buffer.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Kind;
    use crate::ext::git::author::commit_dir;
    use crate::ext::lock::{Contract, Lock, Previous};
    use crate::ext::store::Store;
    use std::os::unix::fs::PermissionsExt;
    use std::path::PathBuf;

    struct Fixture {
        dir: tempfile::TempDir,
        paths: Paths,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let paths = Paths::under(
            &root.join("data"),
            &root.join("state"),
            &root.join("config"),
        );
        Fixture { dir, paths }
    }

    impl Fixture {
        /// A repository named `repo` whose one commit holds extension
        /// `note` printing `says` and declaring `needs`; its pin.
        fn source(&self, repo: &str, says: &str, needs: &[&str]) -> Pin {
            let src: PathBuf = self.dir.path().join(repo);
            let _ = std::fs::remove_dir_all(&src);
            std::fs::create_dir_all(src.join("bin")).unwrap();
            let manifest = serde_json::json!({"name": "note", "contract": 1,
                                              "commands": ["note"], "needs": needs});
            std::fs::write(src.join("roost-ext.json"), manifest.to_string()).unwrap();
            let bin = src.join("bin/roost-note");
            std::fs::write(&bin, format!("#!/bin/sh\necho {says}\n")).unwrap();
            std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
            let commit = commit_dir(&src, says).unwrap();
            let (tree, _) = hash_dir(&src, &git::Leaves::new()).unwrap();
            Pin {
                repo: format!("owner/{repo}"),
                git_ref: "HEAD".into(),
                commit: commit.to_string(),
                tree: tree.to_string(),
                url: Some(format!("file://{}", src.display())),
                signer: Some("unsigned".into()),
                signers: vec!["unsigned".into()],
            }
        }

        /// Records `note` at `pin` (its clone not made), with `previous`.
        fn record(&self, pin: &Pin, needs: &[&str], previous: Option<&Pin>) {
            let entry = |pin: &Pin| Entry {
                commands: vec!["note".into()],
                needs: needs.iter().map(|s| s.to_string()).collect(),
                contract: Contract::new(1),
                installed: "2026-01-01T00:00:00Z".into(),
                source: Source::Pinned(pin.clone()),
                disabled: false,
                previous: None,
                extra: Default::default(),
            };
            let mut recorded = entry(pin);
            recorded.previous = previous.map(|p| {
                let before = entry(p);
                Box::new(Previous {
                    commands: before.commands,
                    needs: before.needs,
                    contract: before.contract,
                    installed: before.installed,
                    pin: p.clone(),
                    extra: Default::default(),
                })
            });
            let mut lock = Lock::default();
            lock.insert("note", recorded);
            Store::open(&self.paths).unwrap().save(&lock).unwrap();
        }

        fn pin(&self) -> Pin {
            let lock = store::read_lock(&self.paths).unwrap();
            lock.entry("note").unwrap().pin().unwrap().clone()
        }

        fn lock_bytes(&self) -> Vec<u8> {
            std::fs::read(self.paths.ext_lock()).unwrap()
        }

        /// Runs `r`; what it said, and how it ended.
        fn run(&self, r: &mut Repin) -> (String, Result<Outcome>) {
            let mut said = Vec::new();
            let result = r.run(&self.paths, &mut Output::buffer(&mut said));
            (String::from_utf8(said).unwrap(), result)
        }
    }

    fn yes(target: Target<'static>) -> Repin<'static> {
        Repin {
            yes: true,
            ..Repin::new("note", target)
        }
    }

    #[test]
    fn repair_puts_back_a_missing_clone_and_records_nothing_new() {
        let f = fixture();
        let pin = f.source("a", "one", &[]);
        f.record(&pin, &[], None);
        let before = f.lock_bytes();
        let (said, result) = f.run(&mut Repin::new("note", Target::Pinned));
        assert_eq!(
            result.unwrap(),
            Outcome::Moved {
                from: pin.commit.clone(),
                to: pin.commit.clone(),
                url: pin.url.clone().unwrap(),
                disabled: false
            }
        );
        assert_eq!(said, "", "repair asks nothing");
        assert!(integrity::check(&f.paths.ext_clone("note"), &pin.tree).ok);
        assert_eq!(f.lock_bytes(), before);
        let (_, again) = f.run(&mut Repin::new("note", Target::Pinned));
        assert!(matches!(again.unwrap(), Outcome::Unchanged { .. }));
    }

    #[test]
    fn update_moves_to_the_ref_shows_the_change_and_keeps_the_pin_it_replaced() {
        let f = fixture();
        let one = f.source("a", "one", &[]);
        f.record(&one, &[], None);
        f.run(&mut Repin::new("note", Target::Pinned)).1.unwrap();
        let two = f.source("a", "two", &[]);
        let mut r = yes(Target::Ref);
        let (said, result) = f.run(&mut r);
        assert!(matches!(result.unwrap(), Outcome::Moved { .. }));
        assert!(
            said.starts_with(&format!("note: {} -> {}\n", one.commit, two.commit)),
            "{said}"
        );
        assert!(said.contains("-echo one\n+echo two\n"), "{said}");
        assert!(said.ends_with("Update? [y/N] yes (--yes)\n"), "{said}");
        assert_eq!(
            (r.from, r.to),
            (Some(one.commit.clone()), Some(two.commit.clone()))
        );
        assert_eq!(f.pin(), two);
        let lock = store::read_lock(&f.paths).unwrap();
        let previous = lock.entry("note").unwrap().previous.clone().unwrap();
        assert_eq!(previous.pin, one);
        assert!(integrity::check(&f.paths.ext_clone("note"), &two.tree).ok);
        let (said, again) = f.run(&mut yes(Target::Ref));
        assert!(matches!(again.unwrap(), Outcome::Unchanged { .. }));
        assert_eq!(said, "");
    }

    #[test]
    fn grown_authority_under_yes_is_refused_unless_granted_and_nothing_changes() {
        let f = fixture();
        let one = f.source("a", "one", &[]);
        f.record(&one, &[], None);
        f.run(&mut Repin::new("note", Target::Pinned)).1.unwrap();
        let before = f.lock_bytes();
        let two = f.source("a", "two", &["fleet"]);
        let mut r = yes(Target::Ref);
        let (said, result) = f.run(&mut r);
        let e = result.unwrap_err();
        assert_eq!(e.kind(), Kind::Refused);
        assert_eq!(
            e.message(),
            "not updated: it asks for fleet now, and --yes does not grant new authority"
        );
        assert!(
            said.contains("NOTE: it now asks for more than before: fleet"),
            "{said}"
        );
        // What it would have moved between is known all the same.
        assert_eq!(
            (r.from, r.to),
            (Some(one.commit.clone()), Some(two.commit.clone()))
        );
        assert_eq!(f.lock_bytes(), before);
        assert!(integrity::check(&f.paths.ext_clone("note"), &one.tree).ok);
        let grants = ["fleet".to_string()];
        let mut r = Repin {
            grants: &grants,
            ..yes(Target::Ref)
        };
        assert!(matches!(f.run(&mut r).1.unwrap(), Outcome::Moved { .. }));
        assert_eq!(f.pin(), two);
    }

    #[test]
    fn rollback_returns_to_the_earlier_pin_from_its_own_source() {
        let f = fixture();
        let one = f.source("a", "one", &[]);
        let two = f.source("b", "two", &[]);
        f.record(&two, &[], Some(&one));
        f.run(&mut Repin::new("note", Target::Pinned)).1.unwrap();
        let (said, result) = f.run(&mut yes(Target::Previous));
        assert!(matches!(result.unwrap(), Outcome::Moved { .. }));
        assert!(said.ends_with("Roll back? [y/N] yes (--yes)\n"), "{said}");
        assert_eq!(f.pin(), one);
        let lock = store::read_lock(&f.paths).unwrap();
        assert_eq!(
            lock.entry("note").unwrap().previous.clone().unwrap().pin,
            two
        );
        assert!(integrity::check(&f.paths.ext_clone("note"), &one.tree).ok);
    }

    #[test]
    fn a_refusal_before_the_fetch_changes_nothing() {
        let f = fixture();
        let one = f.source("a", "one", &[]);
        f.record(&one, &[], None);
        let before = f.lock_bytes();
        let e = f.run(&mut yes(Target::Previous)).1.unwrap_err();
        assert_eq!(e.kind(), Kind::Refused);
        assert!(e.message().starts_with("nothing to roll back to"), "{e}");
        // A recorded tree the commit does not have: refused after the fetch.
        let wrong = Pin {
            tree: "0".repeat(40),
            ..one.clone()
        };
        f.record(&wrong, &[], None);
        let e = f
            .run(&mut Repin::new("note", Target::Pinned))
            .1
            .unwrap_err();
        assert_eq!(e.kind(), Kind::Refused);
        assert!(
            e.message().contains("refusing to put other files in place"),
            "{e}"
        );
        assert!(!f.paths.ext_clone("note").exists());
        f.record(&one, &[], None);
        assert_eq!(f.lock_bytes(), before);
    }
}
