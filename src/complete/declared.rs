//! An extension command's arguments, from what its manifest declared (the
//! lines of ext.complete for that command): its subcommands, its options
//! and the kinds of their values. Read as data: nothing of the extension
//! runs on TAB.

use super::output::{cand, Candidate};
use super::source::Source;
use super::values;
use crate::ext::completion_data::Kind;

/// What ext.complete says about one command.
#[derive(Default)]
struct Declared {
    /// (subcommand path, WHAT, NAME, KIND) of each of its lines.
    lines: Vec<(String, String, String, String)>,
}

impl Declared {
    /// The lines of `cmd` in `file`; lines that cannot be read are skipped.
    fn of(file: &[u8], cmd: &str) -> Declared {
        let mut prefix = cmd.as_bytes().to_vec();
        prefix.push(b'\t');
        let lines = file
            .split(|&b| b == b'\n')
            .filter(|l| l.starts_with(&prefix))
            .filter_map(|l| std::str::from_utf8(&l[prefix.len()..]).ok())
            .filter_map(|l| {
                let mut f = l.splitn(4, '\t');
                Some((
                    f.next()?.to_string(),
                    f.next()?.to_string(),
                    f.next()?.to_string(),
                    f.next()?.to_string(),
                ))
            })
            .collect();
        Declared { lines }
    }

    fn at<'a>(&'a self, path: &'a str, what: &'a str) -> impl Iterator<Item = (&'a str, &'a str)> {
        self.lines
            .iter()
            .filter(move |(p, w, _, _)| p == path && w == what)
            .map(|(_, _, n, k)| (n.as_str(), k.as_str()))
    }

    fn option(&self, path: &str, name: &str) -> Option<Kind> {
        self.at(path, "opt")
            .find(|(n, _)| *n == name)
            .and_then(|(_, k)| Kind::from_word(k))
    }

    fn has_sub(&self, path: &str, name: &str) -> bool {
        self.at(path, "sub").any(|(n, _)| n == name)
    }

    fn arg(&self, path: &str, i: usize) -> Option<Kind> {
        let i = i.to_string();
        self.at(path, "arg")
            .find(|(n, _)| *n == i)
            .and_then(|(_, k)| Kind::from_word(k))
    }
}

/// The candidates for `current` after extension command `cmd` and the
/// words `rest` between them; nothing when the command declared nothing,
/// the seam is off, or the command would not run.
pub fn candidates(cmd: &str, rest: &[&str], current: &str, src: &impl Source) -> Vec<Candidate> {
    if src.no_ext() {
        return Vec::new();
    }
    let declared = Declared::of(&src.completion(), cmd);
    if declared.lines.is_empty() {
        return Vec::new();
    }
    let found = walk(&declared, rest, current, src);
    // Like dispatch, the switch is asked only when there is a hit to hide.
    if found.is_empty() || src.switched_off() {
        return Vec::new();
    }
    found
}

/// Walks `rest` as a parser of the declared grammar would: options
/// anywhere before `--` (one with a value taking the next word), a
/// subcommand as the first plain word where there are some, then
/// positionals in order.
fn walk(d: &Declared, rest: &[&str], current: &str, src: &impl Source) -> Vec<Candidate> {
    let mut path = String::new();
    let mut taken = 0;
    let mut operands = false;
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        i += 1;
        if !operands && *w == "--" {
            operands = true;
        } else if !operands && w.starts_with('-') && w.len() > 1 {
            match d.option(&path, w) {
                Some(Kind::Flag) | None => {}
                Some(kind) if i == rest.len() => return values::of_kind(&kind, current, src),
                Some(_) => i += 1,
            }
        } else if taken == 0 && d.has_sub(&path, w) {
            path = if path.is_empty() {
                w.to_string()
            } else {
                format!("{path} {w}")
            };
        } else {
            taken += 1;
        }
    }
    if !operands && current.starts_with('-') {
        if let Some((name, value)) = current.split_once('=') {
            return match d.option(&path, name) {
                Some(Kind::Flag) | None => Vec::new(),
                Some(kind) => values::with_option(name, values::of_kind(&kind, value, src)),
            };
        }
        return d
            .at(&path, "opt")
            .map(|(n, k)| cand(n, k.split(' ').next().unwrap_or("")))
            .collect();
    }
    if taken == 0 {
        let subs: Vec<Candidate> = d.at(&path, "sub").map(|(n, _)| cand(n, "")).collect();
        if !subs.is_empty() {
            return subs;
        }
    }
    match d.arg(&path, taken) {
        Some(kind) => values::of_kind(&kind, current, src),
        None => Vec::new(),
    }
}
