//! The router every invocation goes through first: `roost WORD ...` is a
//! completion query, a built-in command, an installed extension's command
//! (dispatch.rs, the hot path), or the usage error. A built-in name is
//! known from the static command table, so no parser is built to decide.

use crate::dispatch::{self, Outcome};
use crate::error::Error;
use crate::{cli, commands, complete, untrusted};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;

pub fn main(args: &[OsString]) -> u8 {
    let (word, rest) = match args.split_first() {
        None => (&b"up"[..], &[][..]),
        Some((w, rest)) => (w.as_bytes(), rest),
    };
    // A completion query. No extension name can start with `_`, so this
    // shadows nothing.
    if word == b"__complete" {
        return complete::main(rest);
    }
    if word == b"__event" {
        return crate::events::runner::main(rest);
    }
    if cli::find(word).is_some() {
        let word = OsStr::from_bytes(word).to_owned();
        return match commands::run(&word, rest) {
            Ok(exit) => exit.code(),
            Err(e) => e.report(),
        };
    }
    // An `ext` verb is never an extension's, whatever an old index says.
    if dispatch::seam_off() || cli::is_ext_verb(word) {
        return usage_error(word);
    }
    match dispatch::extension(word, rest) {
        Outcome::Refused(code) => code,
        Outcome::Miss | Outcome::Off => usage_error(word),
    }
}

/// What a typo, a miss and a disabled seam all get: byte-identical for the
/// same word, whatever is installed (a suggestion comes from the built-in
/// names alone).
fn usage_error(word: &[u8]) -> u8 {
    let shown = untrusted::printable(word);
    let what = if word.starts_with(b"-") {
        "option"
    } else {
        "command"
    };
    let msg = match cli::suggestion(word) {
        // `roost install x` means `roost ext install x` (static data only).
        _ if cli::is_ext_verb(word) => {
            format!("unknown command '{shown}'; did you mean 'roost ext {shown}'?")
        }
        Some(name) => format!("unknown {what} '{shown}'; did you mean '{name}'?"),
        None => format!("unknown {what} '{shown}'"),
    };
    Error::Usage { cmd: None, msg }.report()
}
