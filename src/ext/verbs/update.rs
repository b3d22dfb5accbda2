//! `roost ext update [NAME | --all] [--yes] [--json]`: re-resolve the
//! recorded ref; when it moved, fetch the new commit fresh, re-run every
//! install gate, show the change and ask again; for every extension in
//! turn, ending with a summary. Never runs git inside the installed clone.

use crate::cli::model::UpdateArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::checks;
use crate::ext::consent::{Offer, Purpose};
use crate::ext::diff;
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::fetch::{self, FetchError};
use crate::ext::git;
use crate::ext::installed;
use crate::ext::integrity;
use crate::ext::lock::{Entry, Pin, Source};
use crate::ext::origin;
use crate::ext::output::Out;
use crate::ext::repin::{self, Halt};
use crate::ext::store;
use crate::ext::swap::{self, SwapError};
use crate::paths::Paths;
use serde::Serialize;

const CMD: &str = "ext update";

pub fn run(a: UpdateArgs) -> Result<Exit> {
    let yes = a.yes;
    let grants = repin::grants(CMD, a.grant)?;
    let paths = dirs::writable_paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let one = a.name.is_some();
    let names = installed::chosen(CMD, &lock, a.name)?;
    let out = Out::beside_json(a.json);
    let ctx = Ctx {
        paths: &paths,
        yes,
        grants: &grants,
        out,
        diff: a.diff,
    };
    if one && !a.json {
        // One extension by name: its own messages, and its error as roost's.
        let name = &names[0];
        return match update_one(&ctx, name) {
            Ok(_) => Ok(Exit::Ok),
            Err(stop) => Err(stop.error(name)),
        };
    }
    if names.is_empty() && !a.json {
        println!("no extensions installed");
        return Ok(Exit::Ok);
    }
    let mut lines = Vec::new();
    for name in &names {
        // Interrupted: the rest are not tried, and the summary says so.
        if git::INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
            let stop = Stop::failed("interrupted before it was tried");
            lines.push(stop.line(name));
            continue;
        }
        let line = match update_one(&ctx, name) {
            Ok(done) => done.line(name),
            Err(stop) => {
                stop.error(name).report();
                stop.line(name)
            }
        };
        lines.push(line);
    }
    if a.json {
        println!("{}", crate::untrusted::json(&lines));
    } else {
        print!("{}", summary(&lines));
    }
    let not: Vec<&str> = lines
        .iter()
        .filter(|l| matches!(l.status, Status::Refused | Status::Failed))
        .map(|l| l.name.as_str())
        .collect();
    match not.as_slice() {
        [] => Ok(Exit::Ok),
        // Its error is on stderr already.
        _ if names.len() == 1 => Ok(Exit::Failed),
        [name] => Err(Error::fail(
            CMD,
            format!("not every extension was updated ({name} was not)"),
        )),
        many => Err(Error::fail(
            CMD,
            format!(
                "not every extension was updated ({} were not)",
                many.join(", ")
            ),
        )),
    }
}

/// What every extension's update shares.
struct Ctx<'a> {
    paths: &'a Paths,
    yes: bool,
    grants: &'a [String],
    out: Out,
    /// `--diff`: the whole diff, and nothing changed.
    diff: bool,
}

/// How one update ended well.
enum Done {
    Updated {
        from: String,
        to: String,
    },
    Unchanged {
        reference: String,
        commit: String,
    },
    Linked {
        dir: String,
    },
    /// `--diff`: the change was shown, nothing else done.
    Shown,
}

/// How one update ended otherwise: refused (a check or the answer said
/// no), or failed (the record, the source or the disk stood in the way).
/// Nothing was changed either way.
struct Stop {
    refused: bool,
    why: String,
    hint: Option<String>,
    /// The whole chain of causes, for -v.
    detail: Option<String>,
}

impl Stop {
    fn failed(why: impl Into<String>) -> Stop {
        Stop {
            refused: false,
            why: why.into(),
            hint: None,
            detail: None,
        }
    }

    fn refused(why: impl Into<String>) -> Stop {
        Stop {
            refused: true,
            why: why.into(),
            hint: None,
            detail: None,
        }
    }

    fn hint(mut self, hint: impl Into<String>) -> Stop {
        self.hint = Some(hint.into());
        self
    }

    /// roost's error for it: `roost ext update: NAME: why`, and the hint.
    fn error(&self, name: &str) -> Error {
        let mut e = Error::fail(CMD, format!("{name}: {}", self.why));
        if let Some(detail) = &self.detail {
            e = e.detail(detail.clone());
        }
        match &self.hint {
            Some(hint) => e.hint(hint.clone()),
            None => e,
        }
    }

    fn line(&self, name: &str) -> Line {
        Line {
            name: name.to_string(),
            status: if self.refused {
                Status::Refused
            } else {
                Status::Failed
            },
            from: None,
            to: None,
            reason: Some(crate::untrusted::printable(self.why.as_bytes())),
        }
    }
}

impl From<git::failure::Failure> for Stop {
    fn from(f: git::failure::Failure) -> Stop {
        let mut stop = Stop::failed(f.what);
        stop.hint = f.hint;
        stop.detail = Some(f.detail);
        stop
    }
}

impl From<Halt> for Stop {
    fn from(h: Halt) -> Stop {
        match h {
            Halt::Refused { why, hint } => Stop {
                hint,
                ..Stop::refused(why)
            },
            Halt::Failed(why) => Stop::failed(why),
        }
    }
}

impl From<SwapError> for Stop {
    fn from(e: SwapError) -> Stop {
        Stop::failed(e.to_string())
    }
}

impl From<FetchError> for Stop {
    fn from(e: FetchError) -> Stop {
        match e {
            FetchError::Remote(failure) => Stop::from(failure),
            FetchError::Failed(why) => Stop::failed(why),
            FetchError::Refused(why) => Stop::refused(why),
        }
    }
}

impl Done {
    fn line(&self, name: &str) -> Line {
        let (status, from, to, reason) = match self {
            Done::Updated { from, to } => (Status::Updated, Some(from), Some(to), None),
            Done::Unchanged { reference, commit } => (
                Status::Unchanged,
                Some(commit),
                Some(commit),
                Some(format!(
                    "{} is still {}",
                    crate::untrusted::printable(reference.as_bytes()),
                    display::short(commit)
                )),
            ),
            Done::Shown => (
                Status::Unchanged,
                None,
                None,
                Some("the diff was shown".to_string()),
            ),
            Done::Linked { dir } => (
                Status::Linked,
                None,
                None,
                Some(format!(
                    "not pinned; edit it in {}",
                    crate::untrusted::printable(dir.as_bytes())
                )),
            ),
        };
        Line {
            name: name.to_string(),
            status,
            from: from.cloned(),
            to: to.cloned(),
            reason,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Updated,
    Unchanged,
    Linked,
    Refused,
    Failed,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Updated => "updated",
            Status::Unchanged => "unchanged",
            Status::Linked => "linked",
            Status::Refused => "refused",
            Status::Failed => "failed",
        }
    }
}

/// One extension in the summary (`update --json` prints a list of them).
#[derive(Serialize)]
struct Line {
    name: String,
    status: Status,
    /// The pinned commit before, in full (updated and unchanged only).
    from: Option<String>,
    /// The pinned commit after, in full (updated and unchanged only).
    to: Option<String>,
    /// Why it was not updated, or what stayed as it was.
    reason: Option<String>,
}

/// The text summary: one line per extension, its status and the reason.
fn summary(lines: &[Line]) -> String {
    let mut out = String::from("\nsummary:\n");
    for l in lines {
        let what = match (l.status, &l.from, &l.to, &l.reason) {
            (Status::Updated, Some(from), Some(to), _) => {
                format!("{} -> {}", display::short(from), display::short(to))
            }
            (_, _, _, Some(reason)) => reason.clone(),
            _ => String::new(),
        };
        out.push_str(&format!("  {}: {}: {what}\n", l.name, l.status.word()));
    }
    out
}

fn update_one(ctx: &Ctx, name: &str) -> std::result::Result<Done, Stop> {
    let (paths, out) = (ctx.paths, ctx.out);
    let lock = store::read_lock(paths).map_err(|e| Stop::failed(e.to_string()))?;
    let slot = lock
        .get(name)
        .ok_or_else(|| Stop::failed("it is no longer installed"))?;
    let entry = slot.typed().map_err(|u| {
        Stop::failed(format!("its ext.lock entry cannot be read: {}", u.why))
            .hint(format!("roost ext remove {name}, then install it again"))
    })?;
    let pin = match &entry.source {
        Source::Pinned(pin) => pin,
        Source::Linked { dir } => {
            linked(out, name, dir, entry);
            return Ok(Done::Linked { dir: dir.clone() });
        }
    };
    // ext.lock is untrusted: its values pass the same checks as typed ones.
    // The source is the one it was installed from; ROOST_EXT_GIT_BASE only
    // shapes new installs (an entry from before sources were recorded has
    // none, and is fetched from the base + its OWNER/REPO).
    let repo = pin.repo.clone();
    origin::recorded_ids(pin).map_err(|e| {
        Stop::failed(e.to_string()).hint(format!("roost ext remove {name}, then install it again"))
    })?;
    let url = origin::recorded_url(pin).map_err(|e| Stop::failed(e.to_string()))?;
    let reference = origin::recorded_ref(pin).map_err(|e| Stop::failed(e.to_string()))?;
    let recorded_ref = pin.git_ref.clone();
    let old_commit = pin.commit.clone();
    let old_tree = pin.tree.clone();
    let old_needs = entry.needs.clone();
    let mut remote = git::Remote::new(&url);
    let commit = remote.resolve(reference).map_err(|e| {
        Stop::from(git::failure::explain(
            &format!("cannot resolve {recorded_ref} at"),
            &url,
            &e,
        ))
    })?;
    if commit == old_commit.as_str() {
        // Hung up, and the progress line taken away, before the answer.
        drop(remote);
        out.say(&format!(
            "{name}: up to date ({recorded_ref} is still {old_commit})\n"
        ));
        // Nothing to fetch, but the files running may not be the pinned ones.
        if !integrity::check(&paths.ext_clone(name), &old_tree).ok {
            out.say(&format!(
                "{name}: its files differ from the tree pinned at install (roost ext verify {name} names them); {}\n",
                integrity::repair_hint(name)
            ));
        }
        return Ok(Done::Unchanged {
            reference: recorded_ref,
            commit: old_commit,
        });
    }
    let fetched = fetch::fetch_commit(paths, remote, &url, commit)?;
    let manifest = &fetched.manifest;
    if manifest.name != name {
        return Err(Stop::refused(format!(
            "the new commit's manifest names it '{}'; refusing a renamed extension",
            manifest.name
        ))
        .hint(format!(
            "remove {name}, then install the repository under its new name"
        )));
    }
    if let Some((command, owner)) = repin::claimed_elsewhere(&lock, name, manifest) {
        return Err(Stop::refused(format!(
            "the new commit claims {command}, which the installed extension {owner} holds; nothing was changed"
        )));
    }
    let whole = format!("`roost ext update {name} --diff` prints the whole diff");
    let cut = match ctx.diff {
        true => diff::Shown::Whole,
        false => diff::Shown::Capped { whole: &whole },
    };
    repin::show_change(out, paths, name, &old_commit, &old_tree, &fetched, cut)?;
    if ctx.diff {
        out.say(&format!(
            "{name}: nothing was changed (--diff); roost ext update {name} asks before it does\n"
        ));
        return Ok(Done::Shown);
    }
    repin::show_offer(
        out,
        &Offer {
            source: display::source(&url),
            reference: &recorded_ref,
            commit: Some(&fetched.commit),
            manifest,
            purpose: Purpose::Update,
        },
    );
    out.say("\n");
    repin::agree(
        out,
        &old_needs,
        manifest,
        ctx.yes,
        ctx.grants,
        Purpose::Update,
    )?;
    let new_pin = Pin {
        repo,
        git_ref: recorded_ref,
        commit: fetched.commit.clone(),
        tree: fetched.tree.clone(),
        url: Some(url),
    };
    let disabled = swap::swap(paths, name, &old_commit, &fetched, |current| {
        repin::repinned(&fetched.manifest, new_pin, current)
    })?;
    out.say(&format!(
        "updated {name}: {} -> {}\n",
        old_commit, fetched.commit
    ));
    if disabled {
        out.say(&format!("{}\n", swap::still_disabled(name)));
    }
    Ok(Done::Updated {
        from: old_commit,
        to: fetched.commit.clone(),
    })
}

/// A linked extension is updated by editing its checkout. Its code is read
/// at every run, but what it claims and needs was recorded when it was
/// linked: say so when its manifest now declares otherwise.
fn linked(out: Out, name: &str, dir: &str, entry: &Entry) {
    let shown = crate::untrusted::printable(dir.as_bytes());
    out.say(&format!(
        "{name}: linked to {shown}; a linked extension is updated by editing it there\n"
    ));
    let sorted = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    if let Ok(m) = checks::read_manifest(std::path::Path::new(dir)) {
        if sorted(&m.commands) != sorted(&entry.commands)
            || sorted(&m.needs) != sorted(&entry.needs)
        {
            out.say(&format!(
                "  its roost-ext.json now declares other commands or needs than were linked;\n\
                 \x20 they take effect when it is linked again: roost ext remove {name}, then roost ext install --link {shown}\n"
            ));
        }
    }
}
