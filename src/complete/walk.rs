//! The argv walker: where the word being completed stands in roost's
//! grammar, found by walking the words before it the way clap parses them
//! (options anywhere before `--`, one that takes a value taking the next
//! word; positionals in order; a trailing list taking everything).

use crate::cli::synopsis;
use clap::{Arg, ArgAction, Command, ValueHint};

/// Where the word being completed stands.
#[derive(Debug)]
pub enum Position<'a> {
    /// The first word: a command (or an extension's).
    First,
    /// The value of option `opt` of `cmd`.
    Value { cmd: &'a Command, opt: &'a Arg },
    /// A word of a shell command line (spawn's CMD and its arguments) that
    /// began `back` words before this one.
    Line { back: usize },
    /// Nothing roost offers: an extension's arguments, an unknown verb, a
    /// word past the last positional, the rest of a trailing list.
    Nothing,
    /// Between the words of `cmd`.
    At(At<'a>),
}

/// A place between the words of a command.
#[derive(Debug)]
pub struct At<'a> {
    pub cmd: &'a Command,
    /// Past `--`, or in text that takes words spelled like options (send's
    /// TEXT): no option can come.
    pub operands: bool,
    /// The positional the next plain word fills; `None` when every one is
    /// taken (or `cmd` takes a verb instead).
    pub next: Option<&'a Arg>,
    /// The words a list (`help`'s COMMAND and VERB) has taken so far.
    pub listed: Vec<&'a str>,
}

/// Where the word after `before` (the words between `roost` and it)
/// stands, in the model `root`.
pub fn position<'a>(root: &'a Command, before: &[&'a str]) -> Position<'a> {
    let Some((first, rest)) = before.split_first() else {
        return Position::First;
    };
    match root
        .get_subcommands()
        .find(|c| names(c).any(|n| n == *first))
    {
        // An extension's arguments are its own: roost never runs it to ask.
        None => Position::Nothing,
        Some(cmd) => arguments(cmd, rest),
    }
}

/// The words that run a command of the model: its name, its aliases, and
/// `--help`/`-h` style flags.
pub fn names(cmd: &Command) -> impl Iterator<Item = String> + '_ {
    std::iter::once(cmd.get_name().to_string())
        .chain(cmd.get_all_aliases().map(String::from))
        .chain(cmd.get_short_flag().map(|f| format!("-{f}")))
        .chain(cmd.get_long_flag().map(|f| format!("--{f}")))
}

/// The options of `cmd` a user is shown (not `--help`).
pub fn options(cmd: &Command) -> Vec<&Arg> {
    synopsis::visible(cmd)
        .filter(|a| !a.is_positional())
        .collect()
}

/// The option among `options` that the word `w` names (`--wait`, `-y`).
pub fn option_named<'a>(options: &[&'a Arg], w: &str) -> Option<&'a Arg> {
    options.iter().copied().find(|o| {
        o.get_long()
            .is_some_and(|l| w.strip_prefix("--") == Some(l))
            || o.get_short().is_some_and(|c| w == format!("-{c}"))
    })
}

pub fn takes_value(arg: &Arg) -> bool {
    !matches!(
        arg.get_action(),
        ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count
    )
}

fn many(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|n| n.max_values() > 1)
}

/// The words after command `cmd`.
fn arguments<'a>(cmd: &'a Command, rest: &[&'a str]) -> Position<'a> {
    let options = options(cmd);
    let positionals: Vec<&Arg> = synopsis::visible(cmd)
        .filter(|a| a.is_positional())
        .collect();
    let mut taken = 0;
    let mut listed: Vec<&str> = Vec::new();
    let mut operands = false;
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        i += 1;
        if !operands && *w == "--" {
            operands = true;
        } else if !operands && w.starts_with('-') && w.len() > 1 {
            if let Some(opt) = option_named(&options, w).filter(|o| takes_value(o)) {
                if i == rest.len() {
                    // Its value is the word being completed.
                    return Position::Value { cmd, opt };
                }
                i += 1;
            }
        } else if cmd.has_subcommands() {
            return match cmd.find_subcommand(w) {
                Some(sub) => arguments(sub, &rest[i..]),
                None => Position::Nothing,
            };
        } else {
            match positionals.get(taken) {
                // A command line (spawn's CMD) is the shell's to complete.
                Some(p) if p.get_value_hint() == ValueHint::CommandWithArguments => {
                    return Position::Line {
                        back: rest.len() + 1 - i,
                    };
                }
                // Everything after the first word of a trailing list is its own.
                Some(p) if p.is_trailing_var_arg_set() => return Position::Nothing,
                Some(p) if many(p) => listed.push(w),
                Some(_) => {
                    taken += 1;
                    // Text that takes words spelled like options (send's
                    // TEXT) begins right after the positionals before it.
                    operands |= positionals.get(taken).is_some_and(|p| {
                        p.is_trailing_var_arg_set() && p.is_allow_hyphen_values_set()
                    });
                }
                None => return Position::Nothing,
            }
        }
    }
    Position::At(At {
        cmd,
        operands,
        next: if cmd.has_subcommands() {
            None
        } else {
            positionals.get(taken).copied()
        },
        listed,
    })
}
