//! Every way ext.lock and ext.index disagree, one line per extension: what
//! list warns of and doctor reports (ext.index is the file obeyed).

use super::lock::{IndexLine, Lock};
use crate::index::Entry;
use crate::paths::Paths;
use crate::untrusted::printable;
use std::collections::BTreeMap;

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
    // A disabled extension is meant to have no line, nor is one that
    // claims no command (it only handles events).
    let disabled = |name: &str| {
        lock.entry(name)
            .is_some_and(|e| e.disabled || e.commands.is_empty())
    };
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
