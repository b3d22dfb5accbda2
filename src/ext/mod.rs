//! `roost ext`: installing third-party repositories as pinned extensions,
//! and living with them (contract §1–§4, §7). One verb per file; `names`,
//! `manifest` and `lock` are pure; `git` does every git operation; `store`
//! owns ext.lock + ext.index on disk; `checks` the install gates; `consent`
//! what the user is shown and asked.

pub mod author;
mod check;
pub mod checks;
pub mod consent;
mod diff;
pub mod git;
mod hash;
mod info;
mod install;
pub mod list;
pub mod lock;
pub mod manifest;
pub mod names;
mod new;
mod remove;
pub mod store;
mod update;
pub mod verify;

use crate::error::{Error, Result};
use crate::paths::Paths;
use std::ffi::OsString;

/// The verbs, for help and completion.
pub const VERBS: &[(&str, &str, &str)] = &[
    (
        "install",
        "OWNER/REPO [--ref REF] [--yes] | --link DIR [--yes]",
        "pin, show, ask, install",
    ),
    (
        "list",
        "[--json]",
        "what is installed, pinned to which commit",
    ),
    (
        "info",
        "NAME [--json]",
        "the lock entry, the manifest, both directories",
    ),
    (
        "verify",
        "[NAME]",
        "do the files on disk still match the pinned tree?",
    ),
    (
        "update",
        "[NAME] [--yes] [--grant AUTHORITY]",
        "move the pin: shows the diff and asks again",
    ),
    (
        "remove",
        "NAME [--purge]",
        "take it off (--purge: its data too)",
    ),
    (
        "new",
        "NAME [DIR]",
        "for authors: scaffold an extension repository",
    ),
    (
        "check",
        "DIR [--json]",
        "for authors: what install would say about DIR",
    ),
];

/// `roost ext VERB ARGS...`
pub fn run(args: &[OsString]) -> Result<u8> {
    let Some((verb, rest)) = args.split_first() else {
        return Err(Error::usage(
            "ext",
            format!("missing VERB ({})", verb_list()),
        ));
    };
    let mut a = Words::new(rest);
    if matches!(verb.to_str(), Some("install" | "update" | "remove")) {
        store::recover_leftovers(&paths("ext")?).map_err(|e| Error::fail("ext", e))?;
    }
    match verb.to_str() {
        Some("install") => install::run(&mut a),
        Some("list") => list::run(&mut a),
        Some("info") => info::run(&mut a),
        Some("verify") => verify::run(&mut a),
        Some("update") => update::run(&mut a),
        Some("remove") => remove::run(&mut a),
        Some("new") => new::run(&mut a),
        Some("check") => check::run(&mut a),
        _ => Err(Error::usage(
            "ext",
            format!(
                "unknown verb '{}' ({})",
                verb.to_string_lossy(),
                verb_list()
            ),
        )),
    }
}

fn verb_list() -> String {
    let names: Vec<&str> = VERBS.iter().map(|v| v.0).collect();
    names.join(", ")
}

/// The words after a verb: `--flag`, `--opt VALUE` or `--opt=VALUE`, and
/// positionals, in any order; after `--`, only positionals.
pub struct Words {
    words: Vec<OsString>,
    /// Everything after `--`, taken as positionals whatever it looks like.
    operands: Vec<OsString>,
}

impl Words {
    fn new(words: &[OsString]) -> Words {
        let (words, operands) = match words.iter().position(|w| w == "--") {
            Some(i) => (words[..i].to_vec(), words[i + 1..].to_vec()),
            None => (words.to_vec(), Vec::new()),
        };
        Words { words, operands }
    }

    /// Removes `--name` (or `-short`) if present.
    pub fn flag(&mut self, long: &str, short: Option<&str>) -> bool {
        let before = self.words.len();
        self.words
            .retain(|w| w != long && Some(w.to_str().unwrap_or("")) != short);
        self.words.len() != before
    }

    /// Removes `--name VALUE` or `--name=VALUE`; the value may be empty.
    pub fn value(&mut self, cmd: &'static str, long: &str) -> Result<Option<String>> {
        let prefix = format!("{long}=");
        for i in 0..self.words.len() {
            let word = self.words[i].to_string_lossy().into_owned();
            if word == long {
                if i + 1 >= self.words.len() {
                    return Err(Error::usage(cmd, format!("{long} needs a value")));
                }
                let value = self.words.remove(i + 1);
                self.words.remove(i);
                return text(cmd, value).map(Some);
            }
            if let Some(v) = word.strip_prefix(&prefix) {
                let v = v.to_string();
                self.words.remove(i);
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// The remaining positionals; any leftover option is a usage error.
    pub fn positionals(self, cmd: &'static str, most: usize) -> Result<Vec<String>> {
        if let Some(opt) = self.words.iter().find(|w| is_option(w)) {
            return Err(Error::usage(
                cmd,
                format!("unknown option {}", opt.to_string_lossy()),
            ));
        }
        let words: Vec<OsString> = self.words.into_iter().chain(self.operands).collect();
        if words.len() > most {
            return Err(Error::usage(
                cmd,
                format!("unexpected argument '{}'", words[most].to_string_lossy()),
            ));
        }
        words.into_iter().map(|w| text(cmd, w)).collect()
    }
}

/// Whether a word reads as an option. No option has a `/` in its name, so
/// `-x/y` is a malformed OWNER/REPO (or NAME), refused as such, not an
/// unknown option.
fn is_option(word: &OsString) -> bool {
    let word = word.to_string_lossy();
    let name = word.split('=').next().unwrap_or("");
    word.starts_with('-') && !name.contains('/')
}

fn text(cmd: &'static str, word: OsString) -> Result<String> {
    word.into_string()
        .map_err(|w| Error::usage(cmd, format!("'{}' is not valid UTF-8", w.to_string_lossy())))
}

/// roost's paths, or the error every verb gives without them.
fn paths(cmd: &'static str) -> Result<Paths> {
    Paths::from_env().map_err(|e| Error::fail(cmd, e))
}

/// roost's places for a verb that writes them: checked before anything is
/// fetched or any consent is asked.
fn writable_paths(cmd: &'static str) -> Result<Paths> {
    let paths = paths(cmd)?;
    paths
        .check_writable()
        .map_err(|(msg, hint)| Error::fail(cmd, msg).hint(hint))?;
    Ok(paths)
}

/// Where OWNER/REPO is fetched from: `${ROOST_EXT_GIT_BASE:-https://github.com/}`.
pub fn url_for(repo: &str) -> String {
    let base = std::env::var("ROOST_EXT_GIT_BASE")
        .ok()
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| "https://github.com/".to_string());
    if base.ends_with('/') {
        format!("{base}{repo}")
    } else {
        format!("{base}/{repo}")
    }
}

/// A name from the command line or ext.lock that is not a valid extension
/// name never becomes a path: it is simply not installed.
fn no_such(cmd: &'static str, name: &str) -> Error {
    Error::fail(
        cmd,
        format!(
            "no such extension: {}",
            crate::untrusted::printable(name.as_bytes())
        ),
    )
    .hint("roost ext list shows what is installed")
}

/// Where extension `name` lives: its clone, or the author's checkout when
/// it is linked.
fn ext_dir(paths: &Paths, name: &str, entry: Option<&lock::Entry>) -> std::path::PathBuf {
    match entry.and_then(|e| e.linked()) {
        Some(dir) => std::path::PathBuf::from(dir),
        None => paths.ext_clone(name),
    }
}

/// The one extension NAME names (which must be installed), or all of them.
fn chosen(cmd: &'static str, lock: &lock::Lock, name: Option<String>) -> Result<Vec<String>> {
    match name {
        Some(name) if crate::index::valid_name(name.as_bytes()) && lock.get(&name).is_some() => {
            Ok(vec![name])
        }
        Some(name) => Err(no_such(cmd, &name)),
        None => Ok(lock.valid_names().map(String::from).collect()),
    }
}

/// The first 7 hex digits of a commit, for people.
fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Words {
        let list: Vec<OsString> = list.iter().map(OsString::from).collect();
        Words::new(&list)
    }

    #[test]
    fn after_double_dash_everything_is_a_positional() {
        let mut w = words(&["--yes", "--", "--yes", "-x"]);
        assert!(w.flag("--yes", None));
        assert_eq!(w.positionals("ext install", 2).unwrap(), ["--yes", "-x"]);
        let mut w = words(&["--", "--ref", "v1"]);
        assert_eq!(w.value("ext install", "--ref").unwrap(), None);
    }

    #[test]
    fn a_word_with_a_slash_in_its_name_is_not_an_option() {
        assert_eq!(
            words(&["-x/y"]).positionals("ext install", 1).unwrap(),
            ["-x/y"]
        );
        for opt in ["--bogus", "-x", "--bogus=a/b"] {
            let err = words(&[opt]).positionals("ext install", 1).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{opt}");
        }
    }
}
