//! The values a query offers for an argument, told by its value name (a
//! `ValueKind`: TARGET, SESSION, ...), its listed values, or its
//! hint (a directory, a command, an installed extension): panes and
//! windows, sessions, agent states, verbs, authorities, extension names.

use super::commands::{about, extension_commands};
use super::output::{cand, Candidate, COMMANDS, DIRS, FILES};
use super::source::Source;
use crate::cli::model::ValueKind;
use crate::cli::{self, synopsis};
use crate::ext::completion_data::Kind;
use crate::index::{self, Entry};
use crate::tmux::Pane;
use clap::{Arg, ValueHint};

/// What may fill `arg` of `cmd`: told by its value name (a `ValueKind`),
/// its listed values, or its hint (a directory, an installed
/// extension).
pub fn values(
    cmd: &clap::Command,
    arg: &Arg,
    current: &str,
    src: &impl Source,
    before: &[&str],
) -> Vec<Candidate> {
    let listed: Vec<Candidate> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| {
            cand(
                v.get_name(),
                v.get_help().map(|h| h.to_string()).unwrap_or_default(),
            )
        })
        .collect();
    if !listed.is_empty() {
        return listed;
    }
    match (
        ValueKind::named(&synopsis::value_name(arg)),
        arg.get_value_hint(),
    ) {
        // kill's TARGET may also be a session's name.
        (Some(ValueKind::Target), _) if cmd.get_name() == "kill" => {
            let mut all = targets(&src.panes(), current);
            all.extend(src.sessions().into_iter().map(|s| cand(s, "session")));
            all
        }
        // An exited pane takes no text: send never offers it.
        (Some(ValueKind::Target), _) if cmd.get_name() == "send" => {
            let live: Vec<Pane> = src.panes().into_iter().filter(|p| !p.dead).collect();
            targets(&live, current)
        }
        (Some(ValueKind::Target), _) => targets(&src.panes(), current),
        (Some(ValueKind::Session), _) => src
            .sessions()
            .into_iter()
            .map(|s| cand(s, "session"))
            .collect(),
        (Some(ValueKind::State), _) => crate::tmux::AgentState::words()
            .iter()
            .map(|s| cand(*s, ""))
            .collect(),
        (Some(ValueKind::Command), _) => {
            // `help ext ` offers ext's verbs; `help spawn ` nothing more.
            let root = cli::built();
            let Some(at) = before.iter().try_fold(&root, |at, w| at.find_subcommand(w)) else {
                return Vec::new();
            };
            at.get_subcommands()
                .map(|c| cand(c.get_name(), about(c)))
                .collect()
        }
        (Some(ValueKind::Authority), _) => crate::contract::AUTHORITIES
            .iter()
            .map(|a| cand(*a, "authority"))
            .collect(),
        (_, ValueHint::DirPath) => vec![cand(DIRS, "")],
        (_, ValueHint::CommandWithArguments) if before.is_empty() => vec![cand(COMMANDS, "")],
        (_, ValueHint::CommandName) => extension_commands(current, src, true),
        (_, cli::model::INSTALLED) => {
            let all = installed(src);
            // Each of the two switches offers only what it would change.
            match cmd.get_name() {
                "enable" => all.into_iter().filter(|c| c.about == DISABLED).collect(),
                "disable" => all.into_iter().filter(|c| c.about != DISABLED).collect(),
                _ => all,
            }
        }
        _ => Vec::new(),
    }
}

/// What zsh and fish show beside a disabled extension's name.
const DISABLED: &str = "extension (disabled)";

/// Installed extension names: the distinct second fields of ext.index, then
/// the names in ext.lock that have no line there (a disabled extension has
/// none), each marked when it is disabled.
fn installed(src: &impl Source) -> Vec<Candidate> {
    let lock = crate::ext::lock::Lock::parse(&src.lock()).unwrap_or_default();
    let about = |name: &str| match lock.entry(name) {
        Some(e) if e.disabled => DISABLED,
        _ => "extension",
    };
    let index = src.index();
    let indexed = index
        .split(|&b| b == b'\n')
        .filter_map(Entry::parse)
        .filter(|e| index::valid_name(e.extension))
        .map(|e| String::from_utf8_lossy(e.extension).into_owned());
    indexed
        .chain(lock.valid_names().map(String::from))
        .map(|name| {
            let about = about(&name);
            cand(name, about)
        })
        .collect()
}

/// Pane ids, and window names the way `send` takes them: bare in session
/// main, `SESSION:NAME` elsewhere, and `main:NAME` too once the word being
/// completed holds a ':'.
/// A name holding a character `untrusted` escapes (one an agent may have
/// put there to repaint the terminal) is offered by its pane id only.
fn targets(panes: &[Pane], current: &str) -> Vec<Candidate> {
    let shown = |text: &str| crate::untrusted::printable(text.as_bytes());
    let mut out: Vec<Candidate> = panes
        .iter()
        .map(|p| {
            let described = format!("{} {}", p.address().raw(), p.window_name.raw());
            cand(&p.id, shown(&described))
        })
        .collect();
    for p in panes {
        let name = if p.session == "main" && !current.contains(':') {
            p.window_name.raw().to_string()
        } else {
            format!("{}:{}", p.session.raw(), p.window_name.raw())
        };
        if shown(&name) == name {
            out.push(cand(name, format!("window {}", p.window_id)));
        }
    }
    out
}

/// What may fill a word of the kind an extension declared.
pub fn of_kind(kind: &Kind, current: &str, src: &impl Source) -> Vec<Candidate> {
    match kind {
        Kind::Flag => Vec::new(),
        Kind::File => vec![cand(FILES, "")],
        Kind::Dir => vec![cand(DIRS, "")],
        Kind::Pane => targets(&src.panes(), current),
        Kind::Session => src
            .sessions()
            .into_iter()
            .map(|s| cand(s, "session"))
            .collect(),
        Kind::Agent => crate::agents::Agent::ALL
            .iter()
            .map(|a| cand(a.name(), "agent"))
            .chain(
                src.presets()
                    .into_iter()
                    .map(|p| cand(p, "agent (a preset)")),
            )
            .collect(),
        Kind::OneOf(words) => words.iter().map(|w| cand(w, "")).collect(),
    }
}

/// `--opt=VALUE`: the values as whole words (`--opt=` + value); a
/// directory or a file is left to the script.
pub fn with_option(name: &str, found: Vec<Candidate>) -> Vec<Candidate> {
    if super::output::handed_over(&found) {
        return found;
    }
    found
        .into_iter()
        .map(|c| cand(format!("{name}={}", c.value), c.about))
        .collect()
}
