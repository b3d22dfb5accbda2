//! The command words a query offers: roost's own commands and aliases
//! (dashed ones only after a dash), and the installed extension commands
//! dispatch would run.

use super::output::{cand, Candidate};
use super::source::Source;
use super::walk::names;
use crate::cli;
use crate::index::{self, Entry};

/// What zsh and fish show beside a command or verb: its one-line help.
pub fn about(cmd: &clap::Command) -> String {
    cmd.get_about().map(|a| a.to_string()).unwrap_or_default()
}

/// The first word: every core command and alias, then extension commands.
pub fn commands(root: &clap::Command, current: &str, src: &impl Source) -> Vec<Candidate> {
    let dashed = current.starts_with('-');
    let mut out = Vec::new();
    if dashed {
        for arg in root.get_arguments() {
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            out.extend(arg.get_short().map(|c| cand(format!("-{c}"), &help)));
            out.extend(arg.get_long().map(|l| cand(format!("--{l}"), &help)));
        }
    }
    for cmd in root.get_subcommands() {
        for name in names(cmd).filter(|n| dashed || !n.starts_with('-')) {
            out.push(cand(name, about(cmd)));
        }
    }
    if !dashed {
        out.extend(extension_commands(current, src, false));
    }
    out
}

/// What dispatch would run: never a line it would miss. `shadowed`: also
/// the commands a built-in hides (what `ext exec` runs).
pub fn extension_commands(current: &str, src: &impl Source, shadowed: bool) -> Vec<Candidate> {
    if src.no_ext() {
        return Vec::new();
    }
    let index = src.index();
    let found: Vec<Candidate> = index
        .split(|&b| b == b'\n')
        .filter_map(Entry::parse)
        .filter(|e| {
            index::valid_name(e.command)
                && index::valid_name(e.extension)
                && e.command.starts_with(current.as_bytes())
                && (shadowed || !cli::is_reserved(&String::from_utf8_lossy(e.command)))
                && src.runnable(e.path)
        })
        .map(|e| {
            cand(
                String::from_utf8_lossy(e.command),
                format!("extension {}", String::from_utf8_lossy(e.extension)),
            )
        })
        .collect();
    // Like dispatch, the switch is asked only when there is a hit to hide.
    if found.is_empty() || src.switched_off() {
        return Vec::new();
    }
    found
}
