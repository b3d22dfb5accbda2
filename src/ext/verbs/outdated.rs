//! `roost ext outdated [NAME...] [--json]`: what each installed pinned
//! extension's recorded ref points to now at its recorded source, from the
//! ref listing alone (one connection each, no objects fetched). Writes
//! nothing.

use crate::cli::model::OutdatedArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::dirs;
use crate::ext::display;
use crate::ext::error::At;
use crate::ext::git;
use crate::ext::installed;
use crate::ext::lock::{Lock, Source};
use crate::ext::names;
use crate::ext::origin;
use crate::ext::store;
use crate::untrusted::printable;
use serde::Serialize;

const CMD: &str = "ext outdated";

/// What the NEEDS column says when the ref moved: the new manifest is not
/// fetched, so whether the authority grows is not known here.
const NEEDS_UNKNOWN: &str = "unknown without a fetch";

pub fn run(a: OutdatedArgs) -> Result<Exit> {
    let paths = dirs::paths().at(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let names = chosen(&lock, a.names)?;
    if names.is_empty() && !a.json {
        println!("no extensions installed");
        return Ok(Exit::Ok);
    }
    let rows: Vec<Row> = names.iter().map(|name| check(&lock, name)).collect();
    if a.json {
        println!("{}", crate::untrusted::json(&rows));
    } else {
        print!("{}", table(&rows));
    }
    let mut ok = true;
    for row in rows.iter().filter(|r| r.status == Status::Failed) {
        ok = false;
        let why = row.error.as_deref().unwrap_or_default();
        Error::fail(CMD, format!("{}: {why}", row.name)).report();
    }
    Ok(Exit::check(ok))
}

/// The extensions named (each must be installed; each once), or all of
/// them. An unknown name is refused before any source is asked.
fn chosen(lock: &Lock, given: Vec<String>) -> Result<Vec<String>> {
    if given.is_empty() {
        return Ok(lock.valid_names().map(String::from).collect());
    }
    let mut names: Vec<String> = Vec::new();
    for name in given {
        let mut one = installed::chosen(lock, Some(name)).at(CMD)?;
        if !names.contains(&one[0]) {
            names.append(&mut one);
        }
    }
    Ok(names)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    /// The ref points where the pin does.
    Unchanged,
    /// The ref points to another commit now.
    Moved,
    /// Linked to a checkout: not pinned, not checked.
    Linked,
    /// The source could not be asked, or did not know the ref.
    Failed,
}

/// One extension, as `outdated --json` gives it.
#[derive(Serialize)]
struct Row {
    name: String,
    status: Status,
    repo: Option<String>,
    url: Option<String>,
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// The pinned commit, in full.
    pinned: Option<String>,
    /// The commit the ref points to now, in full (unknown when failed).
    available: Option<String>,
    /// The authority the pinned commit declared.
    needs: Vec<String>,
    /// Whether updating would grant more authority: false when the ref has
    /// not moved; null when it is not known without fetching the new commit.
    needs_grow: Option<bool>,
    /// The checkout a linked extension runs from.
    linked: Option<String>,
    /// Why it could not be checked.
    error: Option<String>,
}

fn check(lock: &Lock, name: &str) -> Row {
    let mut row = Row {
        name: name.to_string(),
        status: Status::Failed,
        repo: None,
        url: None,
        reference: None,
        pinned: None,
        available: None,
        needs: Vec::new(),
        needs_grow: None,
        linked: None,
        error: None,
    };
    let entry = match lock.get(name).map(|slot| slot.typed()) {
        Some(Ok(entry)) => entry,
        Some(Err(u)) => {
            row.error = Some(format!(
                "its ext.lock entry cannot be read ({}); roost ext remove {name}, then install it again",
                u.why
            ));
            return row;
        }
        None => {
            row.error = Some("not installed".to_string());
            return row;
        }
    };
    row.needs = entry.needs.clone();
    let pin = match &entry.source {
        Source::Linked { dir } => {
            row.status = Status::Linked;
            row.linked = Some(dir.clone());
            return row;
        }
        Source::Pinned(pin) => pin,
    };
    row.repo = Some(pin.repo.clone());
    row.reference = Some(pin.git_ref.clone());
    row.pinned = Some(pin.commit.clone());
    let asked = origin::recorded_url(pin)
        .map_err(|e| e.to_string())
        .and_then(|url| {
            row.url = Some(url.clone());
            let reference = origin::recorded_ref(pin).map_err(|e| e.to_string())?;
            if let Some(commit) = reference.filter(|r| names::is_full_sha(r)) {
                // A commit id names itself: there is nothing to ask.
                return Ok(commit.to_ascii_lowercase());
            }
            let shown = reference.unwrap_or("HEAD");
            git::Remote::new(&url)
                .advertised(reference)
                .map(|id| id.to_string())
                .map_err(|e| {
                    let f = git::failure::explain(&format!("cannot resolve {shown} at"), &url, &e);
                    let hint = f.what_to_do().map(|h| format!("; {h}")).unwrap_or_default();
                    match f.whole().filter(|_| crate::error::verbose()) {
                        Some(whole) => format!("{}{hint}; the whole error: {whole}", f.message()),
                        None => format!("{}{hint}", f.message()),
                    }
                })
        });
    match asked {
        Ok(now) => {
            let same = now == pin.commit;
            row.status = if same {
                Status::Unchanged
            } else {
                Status::Moved
            };
            row.needs_grow = same.then_some(false);
            row.available = Some(now);
        }
        Err(e) => row.error = Some(e),
    }
    row
}

/// The text form: a header, then a row per extension, and what to run next
/// when a ref moved.
fn table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.name.len())
        .chain([NAME.len()])
        .max()
        .unwrap_or(0);
    let mut out = format!("{NAME:<width$}  PINNED   AVAILABLE  NEEDS\n");
    let short =
        |c: &Option<String>| printable(display::short(c.as_deref().unwrap_or("?")).as_bytes());
    let mut moved = Vec::new();
    for r in rows {
        let (pinned, available, needs) = match r.status {
            Status::Unchanged => (short(&r.pinned), "unchanged".to_string(), "same"),
            Status::Moved => {
                moved.push(r.name.as_str());
                (short(&r.pinned), short(&r.available), NEEDS_UNKNOWN)
            }
            Status::Linked => ("linked".to_string(), "-".to_string(), "-"),
            Status::Failed if r.pinned.is_some() => (short(&r.pinned), "failed".to_string(), "-"),
            Status::Failed => ("?".to_string(), "failed".to_string(), "-"),
        };
        let note = match &r.linked {
            Some(dir) => format!("  (linked to {}, not checked)", printable(dir.as_bytes())),
            None => String::new(),
        };
        out.push_str(&format!(
            "{:<width$}  {pinned:<7}  {available:<9}  {needs}{note}\n",
            r.name
        ));
    }
    match moved.as_slice() {
        [] => {}
        [one] => out.push_str(&format!(
            "roost ext update {one} fetches the new commit, shows the diff and what it needs, and asks\n"
        )),
        _ => out.push_str(
            "roost ext update NAME (or --all) fetches each new commit, shows the diff and what it needs, and asks\n",
        ),
    }
    out
}

const NAME: &str = "NAME";
