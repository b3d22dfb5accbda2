//! `roost ext update [NAME | --all] [--yes] [--json]`: re-resolve the
//! recorded ref; when it moved, fetch the new commit fresh, re-run every
//! install gate, show the change and ask again; for every extension in
//! turn, ending with a summary. Never runs git inside the installed clone.

use super::consent::{self, Answer, Offer, Purpose};
use super::fetch::{self, FetchError, Fetched};
use super::install;
use super::lock::{Entry, Lock, Pin, Source};
use super::store;
use super::{diff, git, hash, swap};
use crate::cli::model::UpdateArgs;
use crate::error::{Error, Exit, Result};
use crate::paths::Paths;
use serde::Serialize;
use std::io::{IsTerminal, Write};

const CMD: &str = "ext update";

pub fn run(a: UpdateArgs) -> Result<Exit> {
    let yes = a.yes;
    let grants = grants(CMD, a.grant)?;
    let paths = super::writable_paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| Error::fail(CMD, e))?;
    let one = a.name.is_some();
    let names = super::chosen(CMD, &lock, a.name)?;
    let out = Out { json: a.json };
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

/// Where the story of each update goes: stdout, or stderr when stdout
/// carries the JSON summary.
#[derive(Clone, Copy)]
pub(super) struct Out {
    json: bool,
}

impl Out {
    /// Everything on stdout (one extension, no JSON).
    pub(super) fn stdout() -> Out {
        Out { json: false }
    }

    fn say(self, text: &str) {
        if self.json {
            eprint!("{text}");
        } else {
            print!("{text}");
        }
    }

    /// Colour for the stream the story goes to.
    fn paint(self) -> crate::colour::Paint {
        if self.json {
            crate::colour::Paint::stderr()
        } else {
            crate::colour::Paint::stdout()
        }
    }

    fn writer(self) -> Box<dyn Write> {
        if self.json {
            Box::new(std::io::stderr())
        } else {
            Box::new(std::io::stdout())
        }
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
        self.error_in(CMD, name)
    }

    /// The same, as command `cmd`'s error.
    fn error_in(&self, cmd: &'static str, name: &str) -> Error {
        let mut e = Error::fail(cmd, format!("{name}: {}", self.why));
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
                    super::short(commit)
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
                format!("{} -> {}", super::short(from), super::short(to))
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
    let lock = store::read_lock(paths).map_err(Stop::failed)?;
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
    super::recorded_ids(pin).map_err(|e| {
        Stop::failed(e).hint(format!("roost ext remove {name}, then install it again"))
    })?;
    let url = super::recorded_url(pin).map_err(Stop::failed)?;
    let reference = super::recorded_ref(pin).map_err(Stop::failed)?;
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
        if !super::verify::check(&paths.ext_clone(name), &old_tree).ok {
            out.say(&format!(
                "{name}: its files differ from the tree pinned at install (roost ext verify {name} names them); {}\n",
                super::verify::repair_hint(name)
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
    let claims = lock.claims();
    for command in &manifest.commands {
        if let Some(owner) = claims.get(command.as_str()).filter(|o| **o != name) {
            return Err(Stop::refused(format!(
                "the new commit claims {command}, which the installed extension {owner} holds; nothing was changed"
            )));
        }
    }
    let whole = format!("`roost ext update {name} --diff` prints the whole diff");
    let shown = match ctx.diff {
        true => diff::Shown::Whole,
        false => diff::Shown::Capped { whole: &whole },
    };
    show_change(out, paths, name, &old_commit, &old_tree, &fetched, shown).map_err(Stop::failed)?;
    if ctx.diff {
        out.say(&format!(
            "{name}: nothing was changed (--diff); roost ext update {name} asks before it does\n"
        ));
        return Ok(Done::Shown);
    }
    out.say(&consent::render(
        &Offer {
            source: install::source(&url),
            reference: &recorded_ref,
            commit: Some(&fetched.commit),
            manifest,
            purpose: Purpose::Update,
        },
        out.paint(),
    ));
    out.say("\n");
    agree(
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
        let mut entry = install::entry_for(&fetched.manifest, Source::Pinned(new_pin));
        entry.previous = current.as_previous().map(Box::new);
        entry.disabled = current.disabled;
        entry
    })
    .map_err(Stop::failed)?;
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

/// Calls out any authority that grew, on its own line just above the
/// question, and asks. With --yes, grown authority must be granted by name.
fn agree(
    out: Out,
    old_needs: &[String],
    manifest: &super::manifest::Manifest,
    yes: bool,
    grants: &[String],
    purpose: Purpose,
) -> std::result::Result<(), Stop> {
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
            return Err(Stop::refused(format!(
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
    match consent::ask(question, yes, &mut out.writer()) {
        Answer::Yes => Ok(()),
        Answer::No => Err(Stop::refused(not_done)),
        Answer::NoTerminal => Err(
            Stop::refused(format!("{not_done}: stdin is not a terminal")).hint(format!(
                "read the change above, then pass --yes to {flag} from a script"
            )),
        ),
    }
}

/// `agree` for a command of its own (rollback), on stdout.
pub(super) fn agreed(
    cmd: &'static str,
    name: &str,
    old_needs: &[String],
    manifest: &super::manifest::Manifest,
    yes: bool,
    grants: &[String],
    purpose: Purpose,
) -> Result<()> {
    agree(Out::stdout(), old_needs, manifest, yes, grants, purpose)
        .map_err(|stop| stop.error_in(cmd, name))
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
    if let Ok(m) = super::checks::read_manifest(std::path::Path::new(dir)) {
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
pub(super) fn show_change(
    out: Out,
    paths: &Paths,
    name: &str,
    old_commit: &str,
    old_tree: &str,
    fetched: &Fetched,
    cut: diff::Shown,
) -> std::result::Result<(), String> {
    let installed = paths.ext_clone(name);
    let shown = installed.display();
    let whole = if !installed.is_dir() {
        Some(format!("({shown} is missing: every file shows as added)\n"))
    } else if !super::verify::check(&installed, old_tree).ok {
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
            hash::hash_dir(&installed, &git::Leaves::new())?.1,
        ),
    };
    let (_, new) = hash::hash_dir(&fetched.dir, &git::Leaves::new())?;
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
    page(out, &text);
    Ok(())
}

/// Through `$PAGER` (split with shell-words) when stdout is a terminal and
/// carries the story (not the JSON summary); LESS=FRX unless LESS is set.
fn page(out: Out, text: &str) {
    if out.json {
        return out.say(text);
    }
    let pager = std::env::var("PAGER").ok().filter(|p| !p.trim().is_empty());
    if let (true, Some(pager)) = (std::io::stdout().is_terminal(), pager) {
        if let Ok(words) = shell_words::split(&pager) {
            if let Some((program, args)) = words.split_first() {
                let mut command = std::process::Command::new(program);
                command.args(args).stdin(std::process::Stdio::piped());
                // As git does: less ends at once when it all fits, leaves
                // the text on the screen and passes colours through, so the
                // diff is still there when the question is asked.
                if std::env::var_os("LESS").is_none() {
                    command.env("LESS", "FRX");
                }
                let child = command.spawn();
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
