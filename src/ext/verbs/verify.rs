//! `roost ext verify [NAME]`: recompute each installed tree's git hash from
//! the files on disk and compare it with the one recorded at install.

use crate::cli::model::VerifyArgs;
use crate::error::{Exit, Result};
use crate::ext::dirs;
use crate::ext::error::At;
use crate::ext::installed;
use crate::ext::integrity::{check, repair_hint, unreadable_granting, Change, INVALID};
use crate::ext::lock::Source;
use crate::ext::store;
use crate::untrusted::printable;
use serde::Serialize;

const CMD: &str = "ext verify";

pub fn run(a: VerifyArgs) -> Result<Exit> {
    let paths = dirs::paths().at(CMD)?;
    let lock = store::read_lock(&paths).map_err(|e| e.at(CMD))?;
    let one = a.name;
    let everything = one.is_none();
    let names = installed::chosen(&lock, one).at(CMD)?;
    let mut rows = Vec::new();
    if everything {
        for bad in lock.invalid_names() {
            rows.push(Row::bad(printable(bad.as_bytes()), INVALID.into()));
        }
    }
    // Pinned extensions whose files differ: repair puts them back.
    let mut changed = Vec::new();
    for name in &names {
        let Some(slot) = lock.get(name) else {
            continue;
        };
        let pin = match slot.typed().map(|e| &e.source) {
            Ok(Source::Pinned(pin)) => pin,
            Ok(Source::Linked { dir }) => {
                // Nothing was pinned, so there is nothing to compare with; a
                // checkout that is gone leaves its commands dead all the same.
                let shown = printable(dir.as_bytes());
                rows.push(if std::path::Path::new(dir).is_dir() {
                    Row::ok(name, format!("linked to {shown} (not pinned, not hashed)"))
                } else {
                    Row::bad(
                        name.clone(),
                        format!("missing (linked to {shown}, which does not exist)"),
                    )
                });
                continue;
            }
            Err(u) => {
                rows.push(Row::bad(
                    name.clone(),
                    unreadable_granting(&paths, name, &u.why),
                ));
                continue;
            }
        };
        let report = check(&paths.ext_clone(name), &pin.tree);
        if !report.ok {
            changed.push(name.as_str());
        }
        rows.push(Row {
            name: name.clone(),
            ok: report.ok,
            verdict: report.verdict,
            files: report.files,
            details: report.details,
        });
    }
    let all_ok = rows.iter().all(|r| r.ok);
    if a.json {
        println!("{}", crate::untrusted::json(&rows));
    } else if rows.is_empty() {
        println!("no extensions installed");
    } else {
        for row in &rows {
            println!("{}: {}", row.name, row.verdict);
            for line in &row.details {
                println!("  {line}");
            }
        }
    }
    match changed.as_slice() {
        [] => {}
        [name] => eprintln!("{}", repair_hint(name)),
        _ => eprintln!("roost ext repair --all puts back the files pinned in ext.lock"),
    }
    Ok(Exit::check(all_ok))
}

/// One entry as verify reports it (`verify --json` prints a list of them).
#[derive(Serialize)]
struct Row {
    name: String,
    /// Its files match the pinned tree (or it is linked, with its checkout
    /// there): nothing more is claimed.
    ok: bool,
    /// The verdict, as the text form gives it after `NAME: `.
    verdict: String,
    /// Every file added, removed or modified; empty when ok, or when which
    /// files differ cannot be known.
    files: Vec<Change>,
    #[serde(skip)]
    details: Vec<String>,
}

impl Row {
    fn ok(name: &str, verdict: String) -> Row {
        Row {
            name: name.to_string(),
            ok: true,
            verdict,
            files: vec![],
            details: vec![],
        }
    }

    fn bad(name: String, verdict: String) -> Row {
        Row {
            name,
            ok: false,
            verdict,
            files: vec![],
            details: vec![],
        }
    }
}
