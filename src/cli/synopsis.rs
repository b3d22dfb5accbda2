//! Usage lines from the model: `roost send [--force] [--wait SECONDS]
//! TARGET TEXT...`. One rendering for usage errors, `--help`, completion
//! and the man pages' SYNOPSIS, so they can never disagree.

use clap::{Arg, ArgAction, Command};

/// `roost ext install [--ref REF] …` for the command at `path` (the words
/// after `roost`), or None when the model has no such command.
pub fn of_path(root: &Command, path: &[&str]) -> Option<String> {
    let mut cmd = root;
    for word in path {
        cmd = cmd.find_subcommand(word)?;
    }
    Some(line(path, cmd))
}

/// The synopsis of `cmd`, reached from `roost` by `path`. A positional that
/// excludes some options is shown with them as alternatives, each side with
/// the options only it allows: `roost kill [TARGET | --session SESSION |
/// --all]`, `roost ext install [--yes] ([--ref REF] SOURCE | --link DIR)`.
pub fn line(path: &[&str], cmd: &Command) -> String {
    let mut out = String::from("roost");
    for word in path {
        out.push(' ');
        out.push_str(word);
    }
    let exclusive = visible(cmd).find(|a| {
        a.is_positional()
            && cmd
                .get_arg_conflicts_with(a)
                .iter()
                .any(|c| !c.is_positional())
    });
    let others: Vec<&Arg> = match exclusive {
        Some(p) => cmd.get_arg_conflicts_with(p),
        None => Vec::new(),
    };
    let same_side = |arg: &Arg| {
        others.iter().any(|o| {
            let excludes = |a: &Arg, b: &Arg| {
                cmd.get_arg_conflicts_with(a)
                    .iter()
                    .any(|c| c.get_id() == b.get_id())
            };
            excludes(o, arg) || excludes(arg, o)
        }) && !others.iter().any(|o| o.get_id() == arg.get_id())
    };
    let in_group = |arg: &Arg| {
        exclusive.is_some_and(|p| p.get_id() == arg.get_id())
            || others.iter().any(|o| o.get_id() == arg.get_id())
            || same_side(arg)
    };
    for arg in visible(cmd).filter(|a| !a.is_positional() && !in_group(a)) {
        out.push(' ');
        out.push_str(&option(arg));
    }
    if let Some(p) = exclusive {
        let mut side: Vec<String> = visible(cmd)
            .filter(|a| !a.is_positional() && same_side(a))
            .map(option)
            .collect();
        side.push(value_name(p) + if many(p) { "..." } else { "" });
        let mut sides = vec![side.join(" ")];
        sides.extend(others.iter().map(|o| option_words(o)));
        let sides = sides.join(" | ");
        if !is_optional(cmd, p) {
            out.push_str(&format!(" ({sides})"));
        } else {
            out.push_str(&format!(" [{sides}]"));
        }
    }
    for arg in visible(cmd).filter(|a| a.is_positional() && !in_group(a)) {
        out.push(' ');
        out.push_str(&positional(arg));
    }
    if cmd.has_subcommands() {
        let verb = cmd.get_subcommand_value_name().unwrap_or("COMMAND");
        if cmd.is_subcommand_required_set() {
            out.push_str(&format!(" {verb} [ARGS...]"));
        } else {
            out.push_str(&format!(" [{verb} [ARGS...]]"));
        }
    }
    out
}

/// Whether the command runs with neither the positional nor what it
/// excludes (clap keeps `required_unless_present` to itself, so ask it).
fn is_optional(cmd: &Command, p: &Arg) -> bool {
    !p.is_required_set()
        && cmd
            .clone()
            .no_binary_name(true)
            .try_get_matches_from(Vec::<String>::new())
            .is_ok()
}

fn many(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|n| n.max_values() > 1)
        || matches!(arg.get_action(), ArgAction::Append)
}

/// The arguments a person sees: not clap's own `--help`/`--version`.
pub fn visible(cmd: &Command) -> impl Iterator<Item = &Arg> {
    cmd.get_arguments()
        .filter(|a| !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version"))
}

/// `--wait SECONDS`, `--force`, `--grant AUTHORITY...` (without brackets).
/// `-y, --yes` or `--ref REF`: every name an option answers to, and its
/// value, as the man pages list it.
pub fn option_names(arg: &Arg) -> String {
    match (arg.get_short(), arg.get_long()) {
        (Some(short), Some(_)) => format!("-{short}, {}", option_words(arg)),
        _ => option_words(arg),
    }
}

pub fn option_words(arg: &Arg) -> String {
    let name = match (arg.get_long(), arg.get_short()) {
        (Some(long), _) => format!("--{long}"),
        (None, Some(short)) => format!("-{short}"),
        (None, None) => arg.get_id().to_string(),
    };
    match arg.get_action() {
        ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count => name,
        _ => format!("{name} {}", value_name(arg)),
    }
}

fn option(arg: &Arg) -> String {
    let words = option_words(arg);
    let repeat = matches!(arg.get_action(), ArgAction::Append);
    match (arg.is_required_set(), repeat) {
        (true, false) => words,
        (true, true) => format!("{words}..."),
        (false, false) => format!("[{words}]"),
        (false, true) => format!("[{words}]..."),
    }
}

fn positional(arg: &Arg) -> String {
    // A short list of named words, each optional after the one before:
    // `[COMMAND [VERB]]`.
    if let Some(names) = arg.get_value_names().filter(|n| n.len() > 1) {
        return names
            .iter()
            .rev()
            .fold(String::new(), |inner, name| match inner.is_empty() {
                true => format!("[{name}]"),
                false => format!("[{name} {inner}]"),
            });
    }
    let name = value_name(arg);
    let name = if many(arg) {
        format!("{name}...")
    } else {
        name
    };
    if arg.is_required_set() {
        name
    } else {
        format!("[{name}]")
    }
}

/// The value's name as help shows it: `SECONDS`, or the id upper-cased.
pub fn value_name(arg: &Arg) -> String {
    arg.get_value_names()
        .and_then(|names| names.first())
        .map(|n| n.to_string())
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
}
