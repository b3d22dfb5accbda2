//! `roost ext list [--json]`: what is installed, pinned to which commit,
//! which are disabled, and a loud warning on stderr when ext.lock and
//! ext.index disagree.

use super::lock::{IndexLine, Lock, Slot, Source};
use super::store;
use crate::cli::model::JsonArgs;
use crate::error::{Error, Exit, Result};
use crate::index::Entry;
use crate::paths::Paths;
use crate::untrusted::printable;
use serde::Serialize;
use std::collections::BTreeMap;

const CMD: &str = "ext list";

pub fn run(a: JsonArgs) -> Result<Exit> {
    let as_json = a.json;
    let paths = super::paths(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| Error::fail(CMD, e))?;
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
            None => printable(super::short(r.commit.as_deref().unwrap_or_default()).as_bytes()),
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
        let why = super::verify::unreadable_granting(paths, &r.name, why);
        out.push_str(&format!("{}  ({why})\n", r.name));
    }
    for bad in lock.invalid_names() {
        out.push_str(&format!(
            "{}  ({})\n",
            printable(bad.as_bytes()),
            super::verify::INVALID
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
        commands: Vec::new(),
        needs: Vec::new(),
        contract: None,
        installed: None,
        linked: None,
        disabled: false,
        previous: None,
        missing: !super::ext_dir(paths, name, lock.entry(name)).is_dir(),
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
                }
                Source::Linked { dir } => row.linked = Some(dir.clone()),
            }
        }
        Some(Slot::Unreadable(u)) => row.unreadable = Some(u.why.clone()),
        None => {}
    }
    row
}

/// What one extension looks like in one of the two files: each command's
/// executable and authorities, from its first line (the one the dispatcher
/// obeys).
#[derive(Default, PartialEq)]
struct Seen {
    commands: BTreeMap<String, (String, Vec<String>)>,
}

impl Seen {
    fn commands(&self) -> Vec<String> {
        self.commands.keys().cloned().collect()
    }

    /// The authorities, or each command's when they are not all the same.
    fn authority(&self) -> String {
        let mut sets = self.commands.values().map(|(_, a)| a);
        match sets.next() {
            None => words(&[]),
            Some(first) if sets.all(|a| a == first) => words(first),
            Some(_) => self
                .commands
                .iter()
                .map(|(c, (_, a))| format!("{}: {}", printable(c.as_bytes()), words(a)))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// Every way ext.lock and ext.index differ, one line per extension.
pub fn disagreements(lock: &Lock, paths: &Paths) -> Vec<String> {
    let mut from_lock: BTreeMap<String, Seen> = BTreeMap::new();
    // A disabled extension is meant to have no line.
    let disabled = |name: &str| lock.entry(name).is_some_and(|e| e.disabled);
    for name in lock.valid_names().filter(|n| !disabled(n)) {
        from_lock.entry(name.to_string()).or_default();
    }
    let derived: Vec<IndexLine> = lock.index_entries(|name| paths.ext_clone(name));
    for line in &derived {
        add(&mut from_lock, &line.entry());
    }
    let mut from_index: BTreeMap<String, Seen> = BTreeMap::new();
    let bytes = std::fs::read(paths.ext_index()).unwrap_or_default();
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        match Entry::parse(line) {
            Some(e) => add(&mut from_index, &e),
            None => {
                from_index
                    .entry(format!("(unreadable line: {})", printable(line)))
                    .or_default();
            }
        }
    }
    let mut out = Vec::new();
    let names: std::collections::BTreeSet<&String> =
        from_lock.keys().chain(from_index.keys()).collect();
    for name in names {
        let shown = printable(name.as_bytes());
        match (from_lock.get(name), from_index.get(name)) {
            (Some(_), None) => out.push(format!(
                "{shown}: only in ext.lock (its commands do not run)"
            )),
            (None, Some(_)) if disabled(name) => out.push(format!(
                "{shown}: disabled in ext.lock, but ext.index still runs its commands"
            )),
            (None, Some(_)) => out.push(format!(
                "{shown}: only in ext.index (it runs with no record in ext.lock)"
            )),
            // ext.lock gives nothing for an entry it cannot read, so the
            // commands ext.index runs for it are said as what they are.
            (Some(_), Some(i)) if lock.get(name).is_some_and(|s| s.typed().is_err()) => out.push(format!(
                "{shown}: its ext.lock entry cannot be read, yet ext.index still runs {} (authority: {})",
                words(&i.commands()),
                i.authority()
            )),
            (Some(l), Some(i)) if l != i => {
                let (lc, ic) = (l.commands(), i.commands());
                if lc != ic {
                    out.push(format!(
                        "{shown}: commands differ (ext.lock: {}; ext.index: {})",
                        words(&lc),
                        words(&ic)
                    ));
                }
                let (la, ia) = (l.authority(), i.authority());
                if la != ia {
                    out.push(format!(
                        "{shown}: authority differs (ext.lock: {la}; ext.index: {ia})"
                    ));
                }
                let path = |s: &Seen| -> Vec<String> {
                    s.commands.values().map(|(p, _)| p.clone()).collect()
                };
                if lc == ic && path(l) != path(i) {
                    out.push(format!("{shown}: the executables' paths differ"));
                }
            }
            _ => {}
        }
    }
    out
}

/// Records one line; a later line for the same command is never obeyed.
fn add(map: &mut BTreeMap<String, Seen>, e: &Entry) {
    let seen = map
        .entry(String::from_utf8_lossy(e.extension).into_owned())
        .or_default();
    let mut auth: Vec<String> = e
        .authorities()
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect();
    auth.sort();
    auth.dedup();
    seen.commands
        .entry(String::from_utf8_lossy(e.command).into_owned())
        .or_insert((String::from_utf8_lossy(e.path).into_owned(), auth));
}

fn words(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        printable(v.join(" ").as_bytes())
    }
}
