//! `roost ext update [NAME | --all] [--yes] [--grant AUTHORITY]
//! [--accept-signer SIGNER] [--json]`:
//! re-resolve the recorded ref; when it moved, fetch the new commit fresh,
//! re-run every install gate, show the change and ask again (`repin`); for
//! every extension in turn, ending with a summary. Never runs git inside
//! the installed clone.

use crate::cli::model::UpdateArgs;
use crate::error::{Error, Exit, Kind, Result};
use crate::ext::checks;
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::error::{At, ExtError};
use crate::ext::git;
use crate::ext::installed;
use crate::ext::integrity;
use crate::ext::lock::Entry;
use crate::ext::output::Output;
use crate::ext::repin::{self, Outcome, Repin, Target};
use crate::ext::store;
use crate::paths::Paths;
use serde::Serialize;

const CMD: &str = "ext update";

pub fn run(a: UpdateArgs) -> Result<Exit> {
    let paths = dirs::writable_paths().at(CMD)?;
    let lock = store::read_lock(&paths).at(CMD)?;
    let one = a.name.is_some();
    let names = installed::chosen(&lock, a.name).at(CMD)?;
    let mut out = Output::beside_json(a.json);
    let mut update = |name: &str| {
        let mut r = Repin::new(name, Target::Ref);
        (r.yes, r.grants, r.diff_only) = (a.yes, &a.grant, a.diff);
        r.accept_signers = &a.accept_signer;
        let result = update_one(&paths, &mut r, &mut out);
        (result, r.from, r.to)
    };
    if one && !a.json {
        // One extension by name: its own messages, and its error as roost's.
        let name = &names[0];
        return match update(name).0 {
            Ok(_) => Ok(Exit::Ok),
            Err(e) => Err(e.within(name).at(CMD)),
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
            let e = ExtError::failed("interrupted before it was tried");
            lines.push(Line::of(name, &Err(e), None, None));
            continue;
        }
        let (result, from, to) = update(name);
        if let Err(e) = &result {
            e.clone().within(name).at(CMD).report();
        }
        lines.push(Line::of(name, &result, from, to));
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
    let were = match not.as_slice() {
        [] => return Ok(Exit::Ok),
        // Its error is on stderr already.
        _ if names.len() == 1 => return Ok(Exit::Failed),
        [name] => format!("{name} was not"),
        many => format!("{} were not", many.join(", ")),
    };
    // Said on stderr; stdout holds the summary, JSON or not.
    Error::fail(CMD, format!("not every extension was updated ({were})")).report();
    Ok(Exit::Failed)
}

/// One extension: the workflow, and what it ended in, told.
fn update_one(paths: &Paths, r: &mut Repin, out: &mut Output) -> crate::ext::error::Result<Done> {
    let name = r.name;
    Ok(match r.run(paths, out)? {
        Outcome::Moved {
            from, to, disabled, ..
        } => {
            out.say(&format!("updated {name}: {from} -> {to}\n"));
            if disabled {
                out.say(&format!("{}\n", repin::still_disabled(name)));
            }
            Done::Updated { from, to }
        }
        Outcome::Unchanged { reference, commit } => {
            out.say(&format!(
                "{name}: up to date ({reference} is still {commit})\n"
            ));
            // Nothing to fetch, but the files running may not be the pinned ones.
            let tree = store::read_lock(paths)?
                .entry(name)
                .and_then(|e| e.pin().map(|p| p.tree.clone()));
            if tree.is_some_and(|t| !integrity::check(&paths.ext_clone(name), &t).ok) {
                out.say(&format!(
                    "{name}: its files differ from the tree pinned at install (roost ext verify {name} names them); {}\n",
                    integrity::repair_hint(name)
                ));
            }
            Done::Unchanged { reference, commit }
        }
        Outcome::Linked(entry) => {
            linked(out, name, &entry);
            Done::Linked {
                dir: entry.linked().unwrap_or_default().to_string(),
            }
        }
        Outcome::Shown => Done::Shown,
    })
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
    /// The pinned commit before, in full, once it was read.
    from: Option<String>,
    /// The commit it was to move to, in full, once it was known.
    to: Option<String>,
    /// Why it was not updated, or what stayed as it was.
    reason: Option<String>,
}

impl Line {
    /// The line for `name`, from how it ended and the pins the workflow
    /// learnt (`from`, `to`) on the way.
    fn of(
        name: &str,
        result: &std::result::Result<Done, ExtError>,
        from: Option<String>,
        to: Option<String>,
    ) -> Line {
        let printable = |s: &str| crate::untrusted::printable(s.as_bytes());
        let (status, from, to, reason) = match result {
            Err(e) => {
                let status = match e.kind() {
                    Kind::Refused => Status::Refused,
                    Kind::Failed => Status::Failed,
                };
                (status, from, to, Some(printable(e.message())))
            }
            Ok(Done::Updated { from, to }) => {
                (Status::Updated, Some(from.clone()), Some(to.clone()), None)
            }
            Ok(Done::Unchanged { reference, commit }) => (
                Status::Unchanged,
                Some(commit.clone()),
                Some(commit.clone()),
                Some(format!(
                    "{} is still {}",
                    printable(reference),
                    display::short(commit)
                )),
            ),
            Ok(Done::Shown) => (
                Status::Unchanged,
                None,
                None,
                Some("the diff was shown".into()),
            ),
            Ok(Done::Linked { dir }) => (
                Status::Linked,
                None,
                None,
                Some(format!("not pinned; edit it in {}", printable(dir))),
            ),
        };
        Line {
            name: name.to_string(),
            status,
            from,
            to,
            reason,
        }
    }
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

/// A linked extension is updated by editing its checkout. Its code is read
/// at every run, but what it claims and needs was recorded when it was
/// linked: say so when its manifest now declares otherwise.
fn linked(out: &mut Output, name: &str, entry: &Entry) {
    let dir = entry.linked().unwrap_or_default();
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
