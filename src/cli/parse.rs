//! Words → a parsed built-in command, or what the user asked to see (help),
//! or a usage error in roost's own format: `roost CMD: what was wrong`, then
//! that command's usage line, exit 2. clap does the parsing; this file only
//! words its errors the way the rest of roost speaks.

use super::build::built;
use super::model::{self, Command};
use super::table;
use crate::error::Error;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::FromArgMatches;
use std::ffi::OsString;

/// What the words asked for.
pub enum Parsed {
    /// `name` is the command's own (not an alias), as its errors begin.
    Run {
        name: &'static str,
        command: Command,
    },
    /// Help was printed (exit 0).
    Shown,
}

/// Parses `word rest...` (the words after `roost`) into a command.
pub fn parse(word: &OsString, rest: &[OsString]) -> Result<Parsed, Error> {
    // `roost --help spawn` is `roost help spawn`, as git reads it.
    if (word == "--help" || word == "-h") && !rest.is_empty() {
        return parse(&OsString::from("help"), rest);
    }
    let mut root = built();
    let rest = text_after_positionals(&root, word, rest);
    let argv = std::iter::once(OsString::from("roost"))
        .chain(std::iter::once(word.clone()))
        .chain(rest.iter().cloned());
    let matches = match root.try_get_matches_from_mut(argv) {
        Ok(m) => m,
        Err(e) => return shown_or_error(&root, word, &rest, e),
    };
    let cli = model::Cli::from_arg_matches(&matches).map_err(|e| Error::Usage {
        cmd: None,
        msg: e.to_string(),
    })?;
    let name = matches
        .subcommand_name()
        .and_then(|n| table::find(n.as_bytes()))
        .map_or("roost", |spec| spec.name);
    Ok(Parsed::Run {
        name,
        command: cli.command,
    })
}

/// For a command whose last argument is trailing text after positionals of
/// its own (`send TARGET TEXT...`), every word after those positionals is
/// text, even one spelled like an option: a `--` goes in after them, as the
/// user could have typed it. Options before them still count; a `--` the
/// user typed right there is kept as the only one.
fn text_after_positionals(
    root: &clap::Command,
    word: &OsString,
    rest: &[OsString],
) -> Vec<OsString> {
    let mut out = rest.to_vec();
    let Some(cmd) = word.to_str().and_then(|w| root.find_subcommand(w)) else {
        return out;
    };
    let positionals: Vec<&clap::Arg> = cmd.get_positionals().collect();
    let Some((last, before)) = positionals.split_last() else {
        return out;
    };
    if !last.is_trailing_var_arg_set() || before.is_empty() || cmd.has_subcommands() {
        return out;
    }
    let takes_value = |w: &str| {
        cmd.get_opts().any(|o| {
            w.strip_prefix("--")
                .is_some_and(|l| o.get_long() == Some(l))
                || (w.len() == 2
                    && w.strip_prefix('-').and_then(|c| c.chars().next()) == o.get_short())
        })
    };
    let mut seen = 0;
    let mut i = 0;
    while i < rest.len() {
        let w = rest[i].to_string_lossy();
        if w == "--" {
            return out;
        }
        if w.starts_with('-') && w.len() > 1 {
            i += if takes_value(&w) { 2 } else { 1 };
            continue;
        }
        seen += 1;
        i += 1;
        if seen == before.len() {
            if rest.get(i).is_some_and(|n| n != "--") {
                out.insert(i, OsString::from("--"));
            }
            return out;
        }
    }
    out
}

/// The path of the command the words name: `["ext", "install"]`. Used to
/// say whose usage a malformed line gets.
fn path_of(root: &clap::Command, word: &OsString, rest: &[OsString]) -> Vec<String> {
    let Some(cmd) = word
        .to_str()
        .and_then(|w| root.get_subcommands().find(|s| matches_word(s, w)))
    else {
        return Vec::new();
    };
    let mut path = vec![cmd.get_name().to_string()];
    if cmd.has_subcommands() {
        let verb = rest
            .iter()
            .find(|w| !w.to_string_lossy().starts_with('-'))
            .and_then(|w| w.to_str())
            .and_then(|w| cmd.find_subcommand(w));
        if let Some(verb) = verb {
            path.push(verb.get_name().to_string());
        }
    }
    path
}

fn matches_word(cmd: &clap::Command, word: &str) -> bool {
    cmd.get_name() == word
        || cmd.get_all_aliases().any(|a| a == word)
        || cmd
            .get_all_long_flag_aliases()
            .any(|f| word.strip_prefix("--") == Some(f))
        || cmd
            .get_all_short_flag_aliases()
            .any(|f| word.strip_prefix('-') == Some(f.encode_utf8(&mut [0; 4])))
}

fn shown_or_error(
    root: &clap::Command,
    word: &OsString,
    rest: &[OsString],
    e: clap::Error,
) -> Result<Parsed, Error> {
    let path = path_of(root, word, rest);
    let mut cmd = root.clone();
    let mut at = &mut cmd;
    for name in &path {
        at = at.find_subcommand_mut(name).expect("path_of found it");
    }
    if e.kind() == ErrorKind::DisplayHelp {
        // The same text as `roost help PATH`.
        print!("{}", at.render_long_help());
        return Ok(Parsed::Shown);
    }
    let takes_text = at
        .get_positionals()
        .any(|a| a.is_trailing_var_arg_set() && !a.is_allow_hyphen_values_set());
    let msg = match e.kind() {
        ErrorKind::InvalidUtf8 => {
            let bad = rest.iter().find(|w| w.to_str().is_none());
            let shown = bad.map_or(String::new(), |w| w.to_string_lossy().into_owned());
            format!("'{shown}' is not valid UTF-8")
        }
        // `roost send alice -v`: say how to send such text.
        // (Not when a close option is suggested: that was the likelier aim.)
        ErrorKind::UnknownArgument if takes_text && e.get(ContextKind::SuggestedArg).is_none() => {
            format!(
                "{} (text that starts with '-' goes after '--')",
                message(&e)
            )
        }
        _ => message(&e),
    };
    Err(Error::Usage {
        cmd: (!path.is_empty()).then(|| path.join(" ")),
        msg,
    })
}

/// One line saying what was wrong, in roost's words.
fn message(e: &clap::Error) -> String {
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(", "),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let bare = |name: String| {
        name.trim_end_matches("...")
            .trim_matches(['<', '>', '[', ']'])
            .to_string()
    };
    // `--wait <SECONDS>` is named by its option, `[N]` by its name.
    let named = |arg: String| match arg.split_whitespace().next() {
        Some(option) if option.starts_with('-') => option.to_string(),
        _ => bare(arg),
    };
    match e.kind() {
        ErrorKind::MissingRequiredArgument => {
            let missing: Vec<String> = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(v)) => v.iter().map(|s| bare(s.clone())).collect(),
                _ => vec![bare(text(ContextKind::InvalidArg))],
            };
            format!("missing {}", missing.join(" and "))
        }
        ErrorKind::UnknownArgument => {
            let arg = text(ContextKind::InvalidArg);
            if arg.starts_with('-') && arg.len() > 1 {
                match e.get(ContextKind::SuggestedArg) {
                    Some(ContextValue::String(near)) if near.starts_with("--") => {
                        format!("unknown option '{arg}'; did you mean '{near}'?")
                    }
                    _ => format!("unknown option '{arg}'"),
                }
            } else {
                format!("unexpected argument '{arg}'")
            }
        }
        ErrorKind::TooManyValues => {
            let arg = named(text(ContextKind::InvalidArg));
            let value = text(ContextKind::InvalidValue);
            if arg.starts_with('-') {
                format!("{arg} takes no value (not '{value}')")
            } else {
                format!("unexpected argument '{value}'")
            }
        }
        ErrorKind::InvalidSubcommand => {
            let word = text(ContextKind::InvalidSubcommand);
            match table::closest(word.as_bytes(), table::EXT_VERBS.iter().copied()) {
                None => format!("unknown verb '{word}'"),
                Some(verb) => format!("unknown verb '{word}'; did you mean '{verb}'?"),
            }
        }
        ErrorKind::ValueValidation => {
            let arg = named(text(ContextKind::InvalidArg));
            match std::error::Error::source(e) {
                Some(why) => format!("{arg} {why}"),
                None => format!("invalid {arg}"),
            }
        }
        ErrorKind::InvalidValue => {
            let arg = named(text(ContextKind::InvalidArg));
            let value = text(ContextKind::InvalidValue);
            let valid: Vec<String> = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => v.clone(),
                _ => Vec::new(),
            };
            let near = table::closest(value.as_bytes(), valid.iter().map(String::as_str));
            match (text(ContextKind::ValidValue), near) {
                (v, _) if v.is_empty() => format!("{arg} needs a value"),
                (v, Some(near)) => format!(
                    "unknown {} '{value}'; did you mean '{near}'? (one of {v})",
                    arg.to_lowercase()
                ),
                (v, None) => format!("unknown {} '{value}' (one of {v})", arg.to_lowercase()),
            }
        }
        ErrorKind::ArgumentConflict => {
            let first = |s: String| s.split_whitespace().next().map(|w| bare(w.to_string()));
            let arg = first(text(ContextKind::InvalidArg)).unwrap_or_default();
            let other = first(text(ContextKind::PriorArg)).unwrap_or_default();
            if arg == other {
                format!("{arg} was given more than once")
            } else {
                format!("{arg} cannot be used with {other}")
            }
        }
        _ => {
            // clap's own first line, without its "error: " prefix.
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("").trim();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    }
}
