//! What the user is shown before anything is installed or updated, and the
//! question that follows. It states two things only: the exact commit, and
//! what the extension declared it wants to reach. It never judges the code.

use super::git::INTERRUPTED;
use super::manifest::{check_range, Manifest, RangeCheck};
use crate::colour::{Colour, Paint};
use crate::untrusted::printable;
use std::io::{IsTerminal, Write};
use std::sync::atomic::Ordering;

/// Everything the block shows.
pub struct Offer<'a> {
    /// Where it comes from, as people read it (`github.com/owner/repo`).
    pub source: String,
    pub reference: &'a str,
    /// The pinned commit; `None` for an extension linked to a checkout.
    pub commit: Option<&'a str>,
    /// Who signed the pinned commit (`Signer::describe`); `None` when
    /// nothing is pinned.
    pub signer: Option<String>,
    pub manifest: &'a Manifest,
    /// What the user is asked to agree to (the block speaks of it).
    pub purpose: Purpose,
}

/// What a consent block is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Install,
    /// Moving an installed extension's pin to a new commit.
    Update,
    /// Moving it back to the pin recorded before its last update.
    Rollback,
}

impl Purpose {
    /// "If you …, the code in it can …".
    fn if_you(self) -> &'static str {
        match self {
            Purpose::Install => "install it",
            Purpose::Update => "update it",
            Purpose::Rollback => "roll back to it",
        }
    }

    /// "Nothing runs during …."
    fn during(self) -> &'static str {
        match self {
            Purpose::Install => "install",
            Purpose::Update => "update",
            Purpose::Rollback => "the rollback",
        }
    }
}

const FLEET: &str = "This extension asks to drive your agents. If you ACT, the code
in it can read any pane's screen and send prompts to any agent, the
same as you can.";

const NO_FLEET: &str = "This extension does not ask for access to your agents.";

const DID_NOT_ASK: &str = "An extension that did NOT ask can still reach them if it tries. This
line tells you what it declared, not what it is stopped from doing.";

const PINNED: &str = "Roost has checked that this is the exact commit named above. It has
NOT checked whether the code is honest. It cannot.";

const LINKED: &str = "Roost has NOT pinned this: it runs whatever that directory holds when
you type its commands. It has NOT checked whether the code is honest.
It cannot.";

const SIGNED: &str = "The signer line says which key made the commit object above. It says
nothing about who wrote the lines in it or what the code does.";

/// What the `fleet` authority lets an extension's code do, in a few words.
pub const FLEET_MEANS: &str = "its code could read any pane's screen and send prompts to any agent";

/// The consent block (without the question); `paint` colours its warnings
/// (a `warn` status, the note on the roost range, the fleet paragraph).
pub fn render(offer: &Offer, paint: Paint) -> String {
    let m = offer.manifest;
    let version = crate::VERSION;
    let mut rows: Vec<(&str, String, &str)> = match offer.commit {
        Some(commit) => vec![
            ("repo", printable(offer.source.as_bytes()), ""),
            ("ref", printable(offer.reference.as_bytes()), ""),
            (
                "commit",
                // In full: a 7-digit prefix can be matched by another
                // commit in seconds, and this is the line agreed to.
                format!("{commit} (pinned)"),
                "",
            ),
        ],
        None => vec![
            ("dir", printable(offer.source.as_bytes()), ""),
            (
                "commit",
                "none: linked to that directory, NOT pinned".to_string(),
                "",
            ),
        ],
    };
    if let Some(signer) = &offer.signer {
        // A claimed identity is already one word of printable ASCII;
        // the printer holds the whole line to that all the same.
        rows.push(("signer", printable(signer.as_bytes()), ""));
    }
    rows.push((
        "contract",
        format!("{} (roost speaks {})", m.contract, crate::contract::NUMBER),
        "ok",
    ));
    let range = m.roost.as_deref().map(|r| printable(r.as_bytes()));
    let (range_value, range_status) = match check_range(m.roost.as_deref(), version) {
        RangeCheck::Absent => (format!("any (you have {version})"), "ok"),
        RangeCheck::Ok => (
            format!("{} (you have {version})", range.clone().unwrap_or_default()),
            "ok",
        ),
        RangeCheck::OutOfRange => (
            format!("{} (you have {version})", range.clone().unwrap_or_default()),
            "warn",
        ),
        RangeCheck::Unreadable => (
            format!("{} (cannot read)", range.clone().unwrap_or_default()),
            "warn",
        ),
    };
    rows.push(("roost", range_value, range_status));
    let claims: Vec<String> = m.commands.iter().map(|c| format!("roost {c}")).collect();
    let claims = match claims.is_empty() {
        true => "no commands".to_string(),
        false => claims.join(", "),
    };
    rows.push(("claims", claims, ""));
    for preset in &m.agents {
        // Read as "teaches roost the agent `qwen`: started as …".
        rows.push(("teaches", format!("roost {}", preset.consent_line()), ""));
    }
    if let Some(d) = &m.description {
        rows.push(("about", printable(d.as_bytes()), ""));
    }
    rows.extend(super::settings::declaration::consent_rows(&m.settings));
    let width = rows
        .iter()
        .filter(|r| !r.2.is_empty())
        .map(|r| r.1.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (label, value, status) in &rows {
        let line = if status.is_empty() {
            format!("  {label:<9} {value}")
        } else {
            let status = match *status {
                "warn" => paint.paint(Colour::Yellow, status),
                _ => status.to_string(),
            };
            format!("  {label:<9} {value:<width$}  {status}")
        };
        out.push_str(line.trim_end());
        out.push('\n');
    }
    match check_range(m.roost.as_deref(), version) {
        RangeCheck::OutOfRange | RangeCheck::Unreadable => out.push_str(&format!(
            "\n{} {}\n",
            paint.paint(Colour::Yellow, "Note:"),
            range_warning(m).unwrap_or_default()
        )),
        _ => {}
    }
    let authority = if m.needs.iter().any(|n| n == "fleet") {
        FLEET
    } else {
        NO_FLEET
    };
    let pinned = if offer.commit.is_some() {
        PINNED
    } else {
        LINKED
    };
    let signed = if offer.signer.is_some() { SIGNED } else { "" };
    let events = super::consent_events::paragraph(m).unwrap_or_default();
    let when = super::consent_events::when_it_runs(m);
    for paragraph in [authority, &events, DID_NOT_ASK, pinned, signed, when] {
        if paragraph.is_empty() {
            continue;
        }
        let text = paragraph
            .replace("ACT", offer.purpose.if_you())
            .replace("WHEN", offer.purpose.during());
        out.push('\n');
        for line in text.lines() {
            // Each line painted on its own, so a pager's line never
            // carries a colour it did not start.
            if paragraph == FLEET || paragraph == events {
                out.push_str(&paint.paint(Colour::Yellow, line));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
    }
    out
}

/// What came of asking.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    /// Stdin is not a terminal and `--yes` was not given.
    NoTerminal,
}

/// Prints `question [y/N]` on `out` and reads the answer: `y`/`yes` in any
/// case is yes, anything else no. `--yes` answers for the user; without a
/// terminal there is nobody to ask. An interrupt (see `git::Interrupts`) is
/// a no.
pub fn ask(question: &str, yes: bool, out: &mut dyn Write) -> Answer {
    if INTERRUPTED.load(Ordering::SeqCst) {
        return Answer::No;
    }
    if yes {
        let _ = writeln!(out, "{question} [y/N] yes (--yes)");
        return Answer::Yes;
    }
    if !std::io::stdin().is_terminal() {
        return Answer::NoTerminal;
    }
    let _ = write!(out, "{question} [y/N] ");
    let _ = out.flush();
    let read = read_line();
    // Enter echoes its newline; the end of input (Ctrl-D) and an interrupt
    // do not, so the line is ended here and what follows starts on its own.
    if !matches!(read, Some((_, true))) {
        let _ = writeln!(out);
    }
    match read.map(|(l, _)| l.trim().to_ascii_lowercase()) {
        Some(answer) if answer == "y" || answer == "yes" => Answer::Yes,
        _ => Answer::No,
    }
}

/// One line from stdin, read unbuffered so that an interrupt ends the wait
/// (std's reader retries through it), and whether a newline ended it (not
/// the end of input); `None` when interrupted or unreadable.
fn read_line() -> Option<(String, bool)> {
    let stdin = std::io::stdin();
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    let ended = loop {
        match nix::unistd::read(&stdin, &mut byte) {
            Ok(0) => break false,
            Ok(_) if byte[0] == b'\n' => break true,
            Ok(_) => line.push(byte[0]),
            Err(nix::errno::Errno::EINTR) if !INTERRUPTED.load(Ordering::SeqCst) => {}
            Err(_) => return None,
        }
    };
    Some((String::from_utf8_lossy(&line).into_owned(), ended))
}

/// What install says of a manifest's roost range this roost is outside of,
/// or cannot read (`ext check` says the same); None when it is fine.
pub fn range_warning(m: &Manifest) -> Option<String> {
    let version = crate::VERSION;
    match check_range(m.roost.as_deref(), version) {
        RangeCheck::OutOfRange => Some(format!(
            "it says it is for roost {}; this is roost {version}. The range is advisory: installing anyway.",
            m.roost.as_deref().map(|r| printable(r.as_bytes())).unwrap_or_default()
        )),
        RangeCheck::Unreadable => Some(
            "roost cannot read its roost range (only \">=A.B.C <D.E.F\" and \"*\" are understood); the check is skipped.".into(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(needs: &[&str], roost: Option<&str>) -> Manifest {
        Manifest {
            name: "note".into(),
            contract: 1,
            roost: roost.map(String::from),
            needs: needs.iter().map(|s| s.to_string()).collect(),
            commands: vec!["note".into(), "notes".into()],
            description: None,
            events: None,
            settings: Vec::new(),
            agents: Vec::new(),
            completion: Default::default(),
        }
    }

    #[test]
    fn no_verdict_words_ever() {
        for (m, purpose) in [
            (
                manifest(&["fleet"], Some(">=0.1.0 <0.2.0")),
                Purpose::Install,
            ),
            (manifest(&[], Some("junk")), Purpose::Update),
            (manifest(&["fleet"], None), Purpose::Rollback),
        ] {
            let text = render(
                &Offer {
                    source: "github.com/o/r".into(),
                    reference: "HEAD",
                    signer: None,
                    commit: Some("0123456789012345678901234567890123456789"),
                    manifest: &m,
                    purpose,
                },
                Paint::default(),
            )
            .to_lowercase();
            for word in ["safe", "trusted", "scanned", "clean", "secure", "verified"] {
                assert!(!text.contains(word), "{word} in {text}");
            }
        }
    }

    #[test]
    fn the_block_speaks_of_what_it_asks_about() {
        let m = manifest(&["fleet"], None);
        let text = |purpose| {
            render(
                &Offer {
                    source: "github.com/o/r".into(),
                    reference: "HEAD",
                    signer: None,
                    commit: Some("0123456789012345678901234567890123456789"),
                    manifest: &m,
                    purpose,
                },
                Paint::default(),
            )
        };
        let rollback = text(Purpose::Rollback);
        assert!(
            rollback.contains("If you roll back to it, the code\n"),
            "{rollback}"
        );
        assert!(
            rollback.contains("\nNothing runs during the rollback. Code runs"),
            "{rollback}"
        );
        let install = text(Purpose::Install);
        assert!(
            install.contains("If you install it, the code\n"),
            "{install}"
        );
        assert!(
            install.contains("\nNothing runs during install. Code runs"),
            "{install}"
        );
    }
}
