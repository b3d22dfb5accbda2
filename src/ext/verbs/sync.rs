//! `roost ext sync (FILE | --from BUNDLE) [--frozen | --prune] [--yes
//! [--grant AUTHORITY] [--accept-signer SIGNER]]`: make the installed set
//! the one a set file (or an offline bundle) lists. The file is only read. `--frozen` lists every difference and
//! changes nothing; otherwise one table of what is new or changed and one
//! question, then each new extension installed by its commit id, each
//! changed one moved through the re-pin workflow to the listed pin.

use crate::cli::model::SyncArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::bundle;
use crate::ext::consent::{self, Answer};
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::error::{At, ExtError};
use crate::ext::fetch::Fetched;
use crate::ext::git;
use crate::ext::git::bundle::Unpacked;
use crate::ext::output::Output;
use crate::ext::repin::{Outcome, Ready, Repin, Step, Target};
use crate::ext::set::Line;
use crate::ext::store;
use crate::ext::sync::{self, Plan};
use crate::paths::Paths;

const CMD: &str = "ext sync";

pub fn run(a: SyncArgs) -> Result<Exit> {
    let paths = match a.frozen {
        true => dirs::paths(),
        false => dirs::writable_paths(),
    }
    .at(CMD)?;
    let (shown, set, offline) = match (&a.file, &a.from) {
        (_, Some(from)) => {
            let b = bundle::read(from).at(CMD)?;
            (crate::untrusted::path(from), b.set, Some(b.objects))
        }
        (Some(file), None) => (
            crate::untrusted::path(file),
            sync::read(file).at(CMD)?,
            None,
        ),
        (None, None) => return Err(Error::usage(CMD, "missing FILE")),
    };
    let lock = store::read_lock(&paths).at(CMD)?;
    let plan = sync::plan(&set, &lock, &|n, e| {
        crate::ext::settings::edit::carried(&paths, n, e)
    });
    for name in &plan.linked {
        eprintln!("roost ext sync: {name} is linked to a checkout: no set lists it, and sync leaves it alone");
    }
    if a.frozen {
        return frozen(&plan, &shown);
    }
    if !plan.stuck.is_empty() {
        for said in &plan.stuck {
            println!("  {said}");
        }
        return Err(Error::refuse(
            CMD,
            format!(
                "{shown}: sync cannot make {} agree; nothing was changed",
                crate::words::count(plan.stuck.len(), "thing")
            ),
        )
        .hint("fix or export the set file again where it was made, then sync again"));
    }
    let pruned: Vec<String> = match a.prune {
        true => plan.extra.clone(),
        false => Vec::new(),
    };
    if !a.prune {
        for name in &plan.extra {
            println!("{name}: installed, not in {shown}: kept (--prune removes it)");
        }
    }
    if plan.nothing_to_do() && pruned.is_empty() {
        println!("the installed set matches {shown}; nothing to do");
        return Ok(Exit::Ok);
    }
    let mut out = Output::stdout();
    let mut failed: Vec<String> = Vec::new();
    let ready = prepared(&paths, &mut out, &plan, offline.as_ref(), &mut failed);
    if ready.is_empty() && pruned.is_empty() {
        return Err(not_synced(&failed));
    }
    out.say(&table(&ready, &pruned));
    agreed(&mut out, &ready, &a)?;
    apply(&paths, ready, &pruned, failed)
}

/// `--frozen`: every difference, whole, and exit 1 when there is one.
fn frozen(plan: &Plan, shown: &str) -> Result<Exit> {
    if plan.differences.is_empty() {
        println!("the installed set matches {shown}");
        return Ok(Exit::Ok);
    }
    for said in &plan.differences {
        println!("  {said}");
    }
    Err(Error::refuse(
        CMD,
        format!(
            "the installed set differs from {shown} in {}; nothing was changed (--frozen)",
            crate::words::count(plan.differences.len(), "way")
        ),
    )
    .hint(format!(
        "`roost ext sync {shown}` (without --frozen) shows what it would do and asks"
    )))
}

/// What one change came to before the question.
enum Change<'a> {
    /// A new extension, fetched and checked.
    New(&'a Line, Box<Fetched>),
    /// A changed pin, fetched, checked and its diff shown.
    /// (with the authority and the signers the entry had)
    Moved(&'a Line, Repin<'a>, Box<Ready>, Vec<String>, Vec<String>),
    /// Only the disabled mark (and perhaps settings).
    Switched(&'a Line),
    /// Only settings.
    Configured(&'a Line),
}

impl Change<'_> {
    fn line(&self) -> &Line {
        match self {
            Change::New(l, _)
            | Change::Moved(l, ..)
            | Change::Switched(l)
            | Change::Configured(l) => l,
        }
    }
}

/// Every new and changed extension fetched and held to every check (each
/// changed one's diff shown), before anything is asked; each that fails is
/// reported and named in `failed`, and the rest go on.
fn prepared<'a>(
    paths: &Paths,
    out: &mut Output,
    plan: &'a Plan,
    offline: Option<&'a Unpacked>,
    failed: &mut Vec<String>,
) -> Vec<Change<'a>> {
    let mut ready = Vec::new();
    let mut fail = |name: &str, e: ExtError| {
        e.within(name).at(CMD).report();
        failed.push(name.to_string());
    };
    let interrupted = || git::INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst);
    for l in &plan.new {
        if interrupted() {
            break;
        }
        match sync::fetch_listed(paths, l, offline) {
            Ok(fetched) => ready.push(Change::New(l, Box::new(fetched))),
            Err(e) => fail(&l.name, e),
        }
    }
    for (l, entry) in &plan.moved {
        if interrupted() {
            break;
        }
        let mut r = Repin::new(&l.name, Target::Given(&l.pin));
        r.offline = offline;
        let step = r.prepare(paths, out).and_then(|step| match step {
            Step::Ready(ready) => {
                sync::held_to_authority(&ready.manifest().needs, l)?;
                Ok(ready)
            }
            Step::Done(Outcome::Linked(_)) => {
                Err(ExtError::refused("it is linked here; nothing was changed"))
            }
            Step::Done(_) => Err(ExtError::failed("nothing was fetched; nothing was changed")),
        });
        match step {
            Ok(prepared) => {
                let signers = entry.pin().map(|p| p.signers.clone()).unwrap_or_default();
                ready.push(Change::Moved(l, r, prepared, entry.needs.clone(), signers))
            }
            Err(e) => fail(&l.name, e),
        }
    }
    ready.extend(plan.switched.iter().map(Change::Switched));
    ready.extend(plan.configured.iter().map(Change::Configured));
    ready
}

/// The table of what would change: one row per extension.
fn table(ready: &[Change], pruned: &[String]) -> String {
    let mut rows: Vec<[String; 4]> = Vec::new();
    for c in ready {
        let l = c.line();
        let what = match c {
            Change::New(..) => format!("new at {}", display::short(&l.pin.commit)),
            Change::Moved(_, r, ..) => format!(
                "{} -> {}",
                display::short(r.from.as_deref().unwrap_or("?")),
                display::short(&l.pin.commit)
            ),
            Change::Switched(l) => match l.disabled {
                true => "disable".into(),
                false => "enable".into(),
            },
            Change::Configured(_) => "settings".into(),
        };
        let signer = match &l.signer {
            Some(s) => crate::untrusted::printable(s.as_bytes()),
            None => "-".into(),
        };
        rows.push([l.name.clone(), what, sync::words(&l.authority), signer]);
    }
    for name in pruned {
        rows.push([
            name.clone(),
            "remove (--prune)".into(),
            "-".into(),
            "-".into(),
        ]);
    }
    rows.sort();
    let head = ["NAME", "CHANGE", "AUTHORITY", "SIGNER (as the file says)"].map(String::from);
    let all: Vec<&[String; 4]> = std::iter::once(&head).chain(rows.iter()).collect();
    let width = |i: usize| all.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2)];
    let mut text = String::from("\n");
    for r in all {
        text.push_str(
            format!(
                "{:w0$}  {:w1$}  {:w2$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2]
            )
            .trim_end(),
        );
        text.push('\n');
    }
    text.push_str(
        "\nEach new or changed commit above was fetched by its id, held to the listed\n\
         tree and authority, and passed every install check; nothing is in place yet.\n\
         A signer is what the file says.\n\n",
    );
    text
}

/// The one question; with --yes, every authority a new extension asks for,
/// or a changed one asks for anew, must be named with --grant, and every
/// listed signer not agreed to before with --accept-signer.
fn agreed(out: &mut Output, ready: &[Change], a: &SyncArgs) -> Result<()> {
    if a.yes {
        let mut ungranted: Vec<&str> = Vec::new();
        let mut unaccepted: Vec<&str> = Vec::new();
        for c in ready {
            let (had, known): (&[String], &[String]) = match c {
                Change::New(..) => (&[], &[]),
                Change::Moved(.., had, known) => (had, known),
                Change::Switched(_) | Change::Configured(_) => continue,
            };
            let l = c.line();
            for n in &l.authority {
                if !had.contains(n) && !a.grant.contains(n) && !ungranted.contains(&n.as_str()) {
                    ungranted.push(n);
                }
            }
            // A new extension's signer is named back, unless there is none
            // (install asks nothing of an unsigned commit either).
            let fresh_unsigned =
                matches!(c, Change::New(..)) && l.signer.as_deref() == Some("unsigned");
            if let Some(s) = l.signer.as_ref().filter(|_| !fresh_unsigned) {
                if !known.contains(s)
                    && !a.accept_signer.contains(s)
                    && !unaccepted.contains(&s.as_str())
                {
                    unaccepted.push(s);
                }
            }
        }
        let mut add: Vec<String> = ungranted.iter().map(|g| format!("--grant {g}")).collect();
        add.extend(
            unaccepted
                .iter()
                .map(|s| format!("--accept-signer {}", quoted(s))),
        );
        let how = format!(
            "read the table above; to accept it from a script, add {}",
            add.join(" ")
        );
        if !ungranted.is_empty() {
            return Err(Error::refuse(
                CMD,
                format!(
                    "not synced: the set asks for {}, and --yes does not grant authority",
                    ungranted.join(", ")
                ),
            )
            .hint(how));
        }
        if !unaccepted.is_empty() {
            return Err(Error::refuse(
                CMD,
                format!(
                    "not synced: the set names signer {}, and --yes does not accept a signer",
                    unaccepted
                        .iter()
                        .map(|s| quoted(s))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
            .hint(how));
        }
    }
    match consent::ask("Sync?", a.yes, out.writer()) {
        Answer::Yes => Ok(()),
        Answer::No => Err(Error::refuse(CMD, "not synced; nothing was changed")),
        Answer::NoTerminal => Err(Error::refuse(
            CMD,
            "not synced: stdin is not a terminal; nothing was changed",
        )
        .hint("read the table above, then pass --yes to sync from a script")),
    }
}

/// Each change put in place in turn; a failure does not stop the rest, and
/// a summary follows. The temporary clones not yet used are removed last
/// to first, as their interrupt guards were taken.
fn apply(
    paths: &Paths,
    ready: Vec<Change>,
    pruned: &[String],
    mut failed: Vec<String>,
) -> Result<Exit> {
    let mut done: Vec<String> = Vec::new();
    let mut note = |name: &str, result: std::result::Result<String, ExtError>| match result {
        Ok(said) => done.push(format!("{name}: {said}")),
        Err(e) => {
            e.within(name).at(CMD).report();
            failed.push(name.to_string());
        }
    };
    let mut ready = ready;
    ready.reverse();
    while let Some(c) = ready.pop() {
        let l = c.line().clone();
        let result = match c {
            Change::New(l, fetched) => {
                sync::put(paths, l, &fetched).map(|()| format!("installed at {}", l.pin.commit))
            }
            Change::Moved(l, r, prepared, ..) => r.finish(paths, *prepared).and_then(|o| match o {
                Outcome::Moved { from, to, .. } => {
                    switch(paths, l)?;
                    Ok(format!("{from} -> {to}"))
                }
                _ => Ok("unchanged".into()),
            }),
            Change::Switched(l) => switch(paths, l)
                .map(|()| if l.disabled { "disabled" } else { "enabled" }.to_string()),
            Change::Configured(_) => Ok(String::new()),
        };
        // Then its settings, as the file lists them.
        let result = result.and_then(|said| {
            let set = sync::make_settings(paths, &l)?;
            Ok(match (said.is_empty(), set.is_empty()) {
                (_, true) => said,
                (true, false) => format!("settings {} set", set.join(", ")),
                (false, false) => format!("{said}; settings {} set", set.join(", ")),
            })
        });
        note(&l.name, result);
    }
    for name in pruned {
        note(
            name,
            sync::prune(paths, name).map(|()| "removed (its data is kept)".into()),
        );
    }
    println!();
    for said in done.iter().filter(|s| !s.ends_with(": ")) {
        println!("{said}");
    }
    for (name, keys) in sync::secrets_to_set(paths) {
        for key in keys {
            println!(
                "{name}: the secret {key} is not set: `roost ext config {name} {key}` reads it from stdin"
            );
        }
    }
    match failed.is_empty() {
        true => Ok(Exit::Ok),
        false => Err(not_synced(&failed)),
    }
}

/// The error naming the extensions that were not synced.
fn not_synced(failed: &[String]) -> Error {
    Error::fail(
        CMD,
        format!(
            "{} not synced: {}",
            crate::words::count(failed.len(), "extension was"),
            failed.join(", ")
        ),
    )
}

/// A word of a command line as a shell reads it, and printable.
fn quoted(word: &str) -> String {
    crate::untrusted::printable(shell_words::quote(word).as_bytes())
}

/// Sets the listed disabled mark; an extension is not enabled while
/// another one holds one of its commands.
fn switch(paths: &Paths, l: &Line) -> std::result::Result<(), ExtError> {
    let name = l.name.as_str();
    let taken = |lock: &crate::ext::lock::Lock, entry: &crate::ext::lock::Entry| {
        let claims = lock.claims();
        match entry
            .commands
            .iter()
            .find_map(|c| claims.get(c.as_str()).filter(|o| **o != name).map(|o| (c, o)))
        {
            Some((command, owner)) => Err(ExtError::refused(format!(
                "cannot enable it: its command {command} is claimed by the installed extension {owner}"
            ))),
            None => Ok(()),
        }
    };
    crate::ext::disabled::switch(paths, name, l.disabled, taken).map(|_| ())
}
