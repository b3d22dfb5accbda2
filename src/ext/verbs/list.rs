//! `roost ext list [--json]`: what is installed, pinned to which commit,
//! which are disabled, and a loud warning on stderr when ext.lock and
//! ext.index disagree.

use crate::cli::model::JsonArgs;
use crate::error::{Exit, Result};
use crate::ext::dirs;
use crate::ext::disabled;
use crate::ext::disagreements::disagreements;
use crate::ext::display;
use crate::ext::error::At;
use crate::ext::integrity;
use crate::ext::lock::{Lock, Slot, Source};
use crate::ext::store;
use crate::paths::Paths;
use crate::untrusted::printable;
use serde::Serialize;

const CMD: &str = "ext list";

pub fn run(a: JsonArgs) -> Result<Exit> {
    let as_json = a.json;
    let paths = dirs::paths().at(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let rows: Vec<Row> = lock
        .valid_names()
        .map(|name| row(&lock, &paths, name))
        .collect();
    if as_json {
        println!("{}", crate::untrusted::json(&rows));
    } else if rows.is_empty() && lock.invalid_names().next().is_none() {
        println!("no extensions installed");
    } else {
        print!("{}", table(&lock, &paths, &rows));
    }
    if let Some(note) = disabled::seam_note() {
        eprintln!("roost {CMD}: note: {note}");
    }
    // A pinned extension whose clone is gone cannot run; repair puts it back.
    for r in rows.iter().filter(|r| r.missing && r.commit.is_some()) {
        eprintln!(
            "roost {CMD}: note: {}'s files are gone; {}",
            r.name,
            integrity::repair_hint(&r.name)
        );
    }
    let problems = disagreements(&lock, &paths);
    if !problems.is_empty() {
        eprintln!("roost ext list: warning: ext.lock and ext.index disagree:");
        for p in &problems {
            eprintln!("  {p}");
        }
        eprintln!(
            "ext.index is the file being obeyed. `roost ext verify` checks the installed files;"
        );
        eprintln!("`roost ext repair` writes ext.index again from ext.lock.");
    }
    Ok(Exit::Ok)
}

/// The text form: a header, a row per extension (name, short commit or
/// `linked`, commands), then the entries that are never run, each with why.
fn table(lock: &Lock, paths: &Paths, rows: &[Row]) -> String {
    let (readable, unreadable): (Vec<&Row>, Vec<&Row>) =
        rows.iter().partition(|r| r.unreadable.is_none());
    let width = readable
        .iter()
        .map(|r| r.name.len())
        .chain([NAME.len()])
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    if !readable.is_empty() {
        out.push_str(&format!("{NAME:<width$}  {PINNED:<7}  COMMANDS\n"));
    }
    for r in readable {
        let missing = if r.missing { "  (missing)" } else { "" };
        let disabled = if r.disabled { "  (disabled)" } else { "" };
        let pin = match &r.linked {
            Some(_) => "linked".to_string(),
            None => printable(display::short(r.commit.as_deref().unwrap_or_default()).as_bytes()),
        };
        let linked = match &r.linked {
            Some(dir) => format!("  (linked to {}, not pinned)", printable(dir.as_bytes())),
            None => String::new(),
        };
        out.push_str(&format!(
            "{:<width$}  {pin:<7}  {}{linked}{disabled}{missing}\n",
            r.name,
            printable(r.commands.join(", ").as_bytes())
        ));
    }
    for r in unreadable {
        let why = r.unreadable.as_deref().unwrap_or_default();
        let why = integrity::unreadable_granting(paths, &r.name, why);
        out.push_str(&format!("{}  ({why})\n", r.name));
    }
    for bad in lock.invalid_names() {
        out.push_str(&format!(
            "{}  ({})\n",
            printable(bad.as_bytes()),
            integrity::INVALID
        ));
    }
    out
}

const NAME: &str = "NAME";
const PINNED: &str = "PINNED";

/// One extension as `list --json` gives it: a value that is absent (a
/// linked extension's pin, every field of an entry that cannot be read) is
/// null, a list that is absent empty.
#[derive(Serialize)]
struct Row {
    name: String,
    repo: Option<String>,
    url: Option<String>,
    #[serde(rename = "ref")]
    reference: Option<String>,
    commit: Option<String>,
    /// Who signed the pinned commit, as recorded (`unsigned`,
    /// `ssh:SHA256:...`); null when nothing is.
    signer: Option<String>,
    /// Every signer agreed to for it.
    signers: Vec<String>,
    commands: Vec<String>,
    needs: Vec<String>,
    contract: Option<u64>,
    installed: Option<String>,
    /// The author's checkout, for an extension installed with `--link`.
    linked: Option<String>,
    /// `roost ext disable`: its commands do not run.
    disabled: bool,
    /// The commit `rollback` would return to, if one is recorded.
    previous: Option<String>,
    missing: bool,
    /// Why the entry cannot be read (text form only).
    #[serde(skip)]
    unreadable: Option<String>,
}

fn row(lock: &Lock, paths: &Paths, name: &str) -> Row {
    let mut row = Row {
        name: name.to_string(),
        repo: None,
        url: None,
        reference: None,
        commit: None,
        signer: None,
        signers: Vec::new(),
        commands: Vec::new(),
        needs: Vec::new(),
        contract: None,
        installed: None,
        linked: None,
        disabled: false,
        previous: None,
        missing: !dirs::ext_dir(paths, name, lock.entry(name)).is_dir(),
        unreadable: None,
    };
    match lock.get(name) {
        Some(Slot::Typed(e)) => {
            row.commands = e.commands.clone();
            row.needs = e.needs.clone();
            row.contract = Some(e.contract.number);
            row.installed = Some(e.installed.clone());
            row.disabled = e.disabled;
            row.previous = e.previous.as_ref().map(|p| p.pin.commit.clone());
            match &e.source {
                Source::Pinned(pin) => {
                    row.repo = Some(pin.repo.clone());
                    row.url = pin.url.clone();
                    row.reference = Some(pin.git_ref.clone());
                    row.commit = Some(pin.commit.clone());
                    row.signer = pin.signer.clone();
                    row.signers = pin.signers.clone();
                }
                Source::Linked { dir } => row.linked = Some(dir.clone()),
            }
        }
        Some(Slot::Unreadable(u)) => row.unreadable = Some(u.why.clone()),
        None => {}
    }
    row
}
