//! `roost ext update [NAME | --all] [--yes] [--json]`: re-resolve the
//! recorded ref; when it moved, fetch the new commit fresh, re-run every
//! install gate, show the change and ask again; for every extension in
//! turn, ending with a summary. Never runs git inside the installed clone.

use super::consent::{self, Answer, Offer};
use super::install::{self, FetchError, Fetched};
use super::lock::{Entry, Pin, Source};
use super::store::{self, Action, Store};
use super::{diff, git, hash};
use crate::cli::model::UpdateArgs;
use crate::error::{Error, Exit, Result};
use crate::paths::Paths;
use serde::Serialize;
use std::io::{IsTerminal, Write};

const CMD: &str = "ext update";

pub fn run(a: UpdateArgs) -> Result<Exit> {
    let yes = a.yes;
    // `--grant AUTHORITY` (repeatable): the authority a scripted update
    // may add. Without it, --yes never grants more than before.
    let mut grants = Vec::new();
    for grant in a.grant {
        if !crate::contract::AUTHORITIES.contains(&grant.as_str()) {
            return Err(Error::usage(
                CMD,
                format!(
                    "--grant {}: not an authority this roost knows ({})",
                    crate::untrusted::printable(grant.as_bytes()),
                    crate::contract::AUTHORITIES.join(", ")
                ),
            ));
        }
        grants.push(grant);
    }
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

/// Where the story of each update goes: stdout, or stderr when stdout
/// carries the JSON summary.
#[derive(Clone, Copy)]
struct Out {
    json: bool,
}

impl Out {
    fn say(self, text: &str) {
        if self.json {
            eprint!("{text}");
        } else {
            print!("{text}");
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
}

/// How one update ended well.
enum Done {
    Updated { from: String, to: String },
    Unchanged { reference: String, commit: String },
    Linked { dir: String },
}

/// How one update ended otherwise: refused (a check or the answer said
/// no), or failed (the record, the source or the disk stood in the way).
/// Nothing was changed either way.
struct Stop {
    refused: bool,
    why: String,
    hint: Option<String>,
}

impl Stop {
    fn failed(why: impl Into<String>) -> Stop {
        Stop {
            refused: false,
            why: why.into(),
            hint: None,
        }
    }

    fn refused(why: impl Into<String>) -> Stop {
        Stop {
            refused: true,
            why: why.into(),
            hint: None,
        }
    }

    fn hint(mut self, hint: impl Into<String>) -> Stop {
        self.hint = Some(hint.into());
        self
    }

    /// roost's error for it: `roost ext update: NAME: why`, and the hint.
    fn error(&self, name: &str) -> Error {
        let e = Error::fail(CMD, format!("{name}: {}", self.why));
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

impl From<FetchError> for Stop {
    fn from(e: FetchError) -> Stop {
        match e {
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
    let url = super::recorded_url(pin).map_err(Stop::failed)?;
    let reference = super::recorded_ref(pin).map_err(Stop::failed)?;
    let recorded_ref = pin.git_ref.clone();
    let old_commit = pin.commit.clone();
    let old_needs = entry.needs.clone();
    let mut remote = git::Remote::new(&url);
    let commit = remote
        .resolve(reference)
        .map_err(|e| Stop::failed(format!("cannot resolve {recorded_ref} at {url}: {e}")))?;
    if commit == old_commit.as_str() {
        out.say(&format!(
            "{name}: up to date ({recorded_ref} is still {old_commit})\n"
        ));
        return Ok(Done::Unchanged {
            reference: recorded_ref,
            commit: old_commit,
        });
    }
    let fetched = install::fetch_commit(paths, remote, &url, commit)?;
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
    show_change(out, paths, name, &old_commit, &fetched).map_err(Stop::failed)?;
    out.say(&consent::render(&Offer {
        source: install::source(&url),
        reference: &recorded_ref,
        commit: Some(&fetched.commit),
        manifest,
        update: true,
    }));
    let grown: Vec<&String> = manifest
        .needs
        .iter()
        .filter(|n| !old_needs.contains(n))
        .collect();
    out.say("\n");
    if !grown.is_empty() {
        let list: Vec<&str> = grown.iter().map(|s| s.as_str()).collect();
        let means = if list.contains(&"fleet") {
            format!("; with fleet {}", consent::FLEET_MEANS)
        } else {
            String::new()
        };
        out.say(&format!(
            "NOTE: it now asks for more than before: {} (it had: {}){means}\n",
            list.join(", "),
            describe(&old_needs)
        ));
        let ungranted: Vec<&str> = list
            .iter()
            .copied()
            .filter(|n| !ctx.grants.iter().any(|g| g == n))
            .collect();
        if ctx.yes && !ungranted.is_empty() {
            return Err(Stop::refused(format!(
                "not updated: it asks for {} now, and --yes does not grant new authority",
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
    match consent::ask("Update?", ctx.yes, &mut out.writer()) {
        Answer::Yes => {}
        Answer::No => return Err(Stop::refused("not updated")),
        Answer::NoTerminal => {
            return Err(Stop::refused("not updated: stdin is not a terminal")
                .hint("read the change above, then pass --yes to update from a script"))
        }
    }
    swap(
        paths,
        name,
        &old_commit,
        &repo,
        &recorded_ref,
        &url,
        &fetched,
    )
    .map_err(Stop::failed)?;
    out.say(&format!(
        "updated {name}: {} -> {}\n",
        old_commit, fetched.commit
    ));
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
fn show_change(
    out: Out,
    paths: &Paths,
    name: &str,
    old_commit: &str,
    fetched: &Fetched,
) -> std::result::Result<(), String> {
    let installed = paths.ext_clone(name);
    // A clone that went missing is put back by the update: all of it is new.
    let missing = !installed.is_dir();
    let old = if missing {
        git::Leaves::new()
    } else {
        hash::hash_dir(&installed, &git::Leaves::new())?.1
    };
    let (_, new) = hash::hash_dir(&fetched.dir, &git::Leaves::new())?;
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
    page(out, &text);
    Ok(())
}

/// Through `$PAGER` (split with shell-words) when stdout is a terminal and
/// carries the story (not the JSON summary).
fn page(out: Out, text: &str) {
    if out.json {
        return out.say(text);
    }
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

/// Puts the new clone in place of the old one and rewrites the record; on
/// any failure the old clone and record are restored.
fn swap(
    paths: &Paths,
    name: &str,
    old_commit: &str,
    repo: &str,
    git_ref: &str,
    url: &str,
    fetched: &Fetched,
) -> std::result::Result<(), String> {
    let store = Store::open(paths)?;
    let mut lock = store.load()?;
    if lock
        .entry(name)
        .and_then(Entry::pin)
        .map(|pin| pin.commit.as_str())
        != Some(old_commit)
    {
        return Err("it changed while this update ran; run the update again".to_string());
    }
    // Another extension may have been installed since the first check.
    let claims = lock.claims();
    for command in &fetched.manifest.commands {
        if let Some(owner) = claims.get(command.as_str()).filter(|o| **o != name) {
            return Err(format!(
                "the new commit claims {command}, which the installed extension {owner} holds; nothing was changed"
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
        format!("{why}; it was left as it was")
    };
    let before = lock.clone();
    lock.insert(
        name,
        install::entry_for(
            &fetched.manifest,
            Source::Pinned(Pin {
                repo: repo.to_string(),
                git_ref: git_ref.to_string(),
                commit: fetched.commit.clone(),
                tree: fetched.tree.clone(),
                url: Some(url.to_string()),
            }),
        ),
    );
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
    Ok(())
}
