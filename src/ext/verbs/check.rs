//! `roost ext check DIR [--json]`: every install gate run on a local
//! directory, so authors see what install would refuse, or what it would
//! claim and ask for. Nothing is installed.

use crate::cli::model::CheckArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::checks;
use crate::ext::git::hash::leaf_on_disk;
use crate::ext::git::{self, entries};
use crate::ext::store;
use crate::untrusted::printable;
use serde::Serialize;
use std::os::unix::ffi::OsStrExt;

const CMD: &str = "ext check";

pub fn run(a: CheckArgs) -> Result<Exit> {
    let (as_json, dir) = (a.json, a.dir);
    if !dir.is_dir() {
        return Err(
            Error::refuse(CMD, format!("{} is not a directory", dir.display()))
                .hint("give the directory of an extension's checkout"),
        );
    }
    let shown = printable(dir.as_os_str().as_bytes());
    let verdict = checks::check_dir(&dir);
    let notes = match &verdict {
        Ok(m) => notes(m).into_iter().chain(uncommitted(&dir, m)).collect(),
        Err(_) => Vec::new(),
    };
    if as_json {
        let readings = match &verdict {
            Ok(m) => crate::ext::screens::read_all(&dir, &m.agents),
            Err(_) => Vec::new(),
        };
        let screens: Vec<Screen> = readings.iter().map(Screen::of).collect();
        let agree = readings.iter().all(|r| r.agrees());
        let out = Verdict {
            dir: &shown,
            ok: verdict.is_ok(),
            refusal: verdict.as_ref().err().map(|e| e.message()),
            accepted: verdict.as_ref().ok().map(|m| Accepted {
                name: &m.name,
                contract: m.contract,
                commands: &m.commands,
                needs: &m.needs,
                agents: crate::ext::presets::to_value(&m.agents),
                screens: &screens,
                notes: &notes,
            }),
        };
        println!("{}", crate::untrusted::json(&out));
        return Ok(Exit::check(verdict.is_ok() && agree));
    }
    match verdict {
        Err(e) => {
            eprintln!("roost ext check: install would refuse {shown}: {e}");
            Ok(Exit::Failed)
        }
        Ok(m) => {
            println!("{shown}: install would accept it");
            println!("  name      {}", m.name);
            println!(
                "  contract  {} (roost speaks {})",
                m.contract,
                crate::contract::NUMBER
            );
            let claims: Vec<String> = m.commands.iter().map(|c| format!("roost {c}")).collect();
            println!("  claims    {}", claims.join(", "));
            if m.needs.iter().any(|n| n == "fleet") {
                println!("  needs     fleet: it asks to drive the user's agents");
            } else {
                println!("  needs     nothing: it does not ask for access to the user's agents");
            }
            for preset in &m.agents {
                println!("  teaches   roost {}", preset.consent_line());
            }
            for note in notes {
                println!("note: {note}");
            }
            screens(&dir, &m)
        }
    }
}

/// What `check --json` prints: the refusal, or what install would record.
#[derive(Serialize)]
struct Verdict<'a> {
    dir: &'a str,
    ok: bool,
    refusal: Option<&'a str>,
    #[serde(flatten)]
    accepted: Option<Accepted<'a>>,
}

#[derive(Serialize)]
struct Accepted<'a> {
    name: &'a str,
    contract: u32,
    commands: &'a [String],
    needs: &'a [String],
    /// The agent presets it teaches, as ext.lock would record them.
    agents: serde_json::Value,
    /// What each captured screen reads as (any that disagrees fails).
    screens: &'a [Screen],
    /// What install would warn of, and what would stop an install on this
    /// machine as it is now.
    notes: &'a [String],
}

/// One captured screen in `check --json`: its path, the state its
/// directory says (null: none), the state and rule that matched, whether
/// they agree, and why it could not be read.
#[derive(Serialize)]
struct Screen {
    path: String,
    expected: Option<&'static str>,
    matched: Option<&'static str>,
    rule: Option<usize>,
    agrees: bool,
    problem: Option<String>,
}

impl Screen {
    fn of(r: &crate::ext::screens::Reading) -> Screen {
        Screen {
            path: r.path.clone(),
            expected: r.expected.map(|s| s.name()),
            matched: r.matched.as_ref().map(|m| m.0.name()),
            rule: r.matched.as_ref().map(|m| m.1),
            agrees: r.agrees(),
            problem: r.problem.clone(),
        }
    }
}

/// What install would warn of (the roost range), and what would stop an
/// install on this machine as it is now.
fn notes(m: &crate::ext::manifest::Manifest) -> Vec<String> {
    let mut out: Vec<String> = crate::ext::consent::range_warning(m).into_iter().collect();
    let Ok(paths) = crate::paths::Paths::from_env() else {
        return out;
    };
    let Ok(lock) = store::read_lock(&paths) else {
        return out;
    };
    if lock.get(&m.name).is_some() {
        out.push(format!("{} is already installed here", m.name));
    }
    let claims = lock.claims();
    for c in &m.commands {
        if let Some(owner) = claims.get(c.as_str()).filter(|o| **o != m.name) {
            out.push(format!(
                "command {c} is claimed here by the installed extension {owner}"
            ));
        }
    }
    if let Some((agent, owner)) = crate::ext::new_entry::taught_elsewhere(&lock, &m.name, m) {
        out.push(format!(
            "agent {agent} is taught here by the installed extension {owner}"
        ));
    }
    out
}

/// Install takes the last commit, while check looked at the files: in a git
/// work tree, every committed file and every file the gates read
/// (roost-ext.json, bin/roost-CMD) that differs from that commit.
fn uncommitted(dir: &std::path::Path, m: &crate::ext::manifest::Manifest) -> Vec<String> {
    let Some(committed) = git::committed_leaves(dir) else {
        return Vec::new();
    };
    let gated = std::iter::once(crate::contract::MANIFEST.to_string())
        .chain(m.commands.iter().map(|c| format!("bin/roost-{c}")));
    let mut differ = Vec::new();
    for path in entries::paths_with(&committed, gated) {
        let on_disk = leaf_on_disk(&entries::on_disk(dir, &path)).ok().flatten();
        let how = match (committed.get(&path), on_disk) {
            // A submodule: install never fetches it.
            (Some(c), _) if c.is_submodule() => continue,
            (None, Some(_)) => "not committed",
            (Some(_), None) => "not here",
            (Some(c), Some(d)) if c.id != d.id => "changed",
            (Some(c), Some(d)) if c.kind != d.kind => "mode changed",
            _ => continue,
        };
        differ.push(format!("{} ({how})", printable(&path)));
    }
    if differ.is_empty() {
        return Vec::new();
    }
    const SHOWN: usize = 10;
    let more = differ.len().saturating_sub(SHOWN);
    differ.truncate(SHOWN);
    let mut list = differ.join(", ");
    if more > 0 {
        list.push_str(&format!(" and {more} more"));
    }
    vec![format!(
        "install takes the last commit, and these files differ from it: {list}"
    )]
}

/// Runs each preset's screen rules over the screens the extension ships,
/// printing which rule matched each; any that reads as another state than
/// its directory says (or cannot be read) fails the check.
fn screens(dir: &std::path::Path, m: &crate::ext::manifest::Manifest) -> Result<Exit> {
    let readings = crate::ext::screens::read_all(dir, &m.agents);
    for r in &readings {
        println!("  screen    {}", r.line());
    }
    let wrong = readings.iter().filter(|r| !r.agrees()).count();
    if wrong == 0 {
        return Ok(Exit::Ok);
    }
    let them = if wrong == 1 {
        "fixture does not read as its directory says"
    } else {
        "fixtures do not read as their directories say"
    };
    Err(Error::refuse(CMD, format!("{wrong} screen {them}"))
        .hint("change the preset's rules, or move the fixture to the state it shows"))
}
