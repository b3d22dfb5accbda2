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
    /// After a first word that is no command of roost's (an extension's,
    /// if any).
    Extension,
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
        // An extension's arguments are what its manifest declared: roost
        // never runs it to ask.
        None => Position::Extension,
        Some(cmd) => arguments(cmd, rest),
    }
}

/// The words that run a command of the model: its name, its aliases, and
/// `--help`/`-h` style flags.
pub fn names(cmd: &Command) -> impl Iterator<Item = String> + '_ {
    std::iter::once(cmd.get_name().to_string())
        .chain(cmd.get_all_aliases().map(String::from))
        .chain(cmd.get_all_short_flag_aliases().map(|f| format!("-{f}")))
        .chain(cmd.get_all_long_flag_aliases().map(|f| format!("--{f}")))
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

/// The walker checked against clap: for command lines generated from the
/// model and accepted by clap, what the walker says about each word's
/// place (given the words before it) agrees with where clap put that word.
#[cfg(test)]
mod tests {
    use super::*;
    use clap::parser::ValueSource;
    use clap::ArgMatches;
    use std::collections::HashMap;

    use crate::sample::Rng;

    /// What the generator meant a word to be, where clap records no value
    /// for it.
    #[derive(Debug, Clone, PartialEq)]
    enum Meant {
        /// A command or verb word.
        Command,
        /// An option's name whose value is the next word.
        OptionName(String),
        /// `--`.
        Operands,
        /// A value or a flag: clap's indices say whose.
        Recorded,
    }

    /// A value for `arg`: one of its listed values, else a plain word.
    fn value(arg: &Arg, rng: &mut Rng) -> String {
        let listed: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        if listed.is_empty() {
            ["7", "alice", "%1", "x/y"][rng.below(4)].to_string()
        } else {
            rng.pick(&listed).clone()
        }
    }

    /// Some options of `cmd`, each with its value when it takes one
    /// (sometimes as `--opt=VALUE`). A command with verbs gets no global
    /// option (`ext --verbose`): clap records it with the verb's.
    fn some_options(cmd: &Command, rng: &mut Rng, out: &mut Vec<(String, Meant)>) {
        let options: Vec<&Arg> = options(cmd)
            .into_iter()
            .filter(|o| !(cmd.has_subcommands() && o.is_global_set()))
            .collect();
        while !options.is_empty() && rng.chance(30) {
            let opt = *rng.pick(&options);
            let name = match (opt.get_long(), opt.get_short()) {
                (Some(l), Some(s)) => {
                    if rng.chance(50) {
                        format!("--{l}")
                    } else {
                        format!("-{s}")
                    }
                }
                (Some(l), None) => format!("--{l}"),
                (None, Some(s)) => format!("-{s}"),
                (None, None) => continue,
            };
            if !takes_value(opt) {
                out.push((name, Meant::Recorded));
            } else if name.starts_with("--") && rng.chance(25) {
                out.push((format!("{name}={}", value(opt, rng)), Meant::Recorded));
            } else {
                out.push((name, Meant::OptionName(opt.get_id().to_string())));
                out.push((value(opt, rng), Meant::Recorded));
            }
        }
    }

    /// A command line of the model (the words after `roost`), each word
    /// with what it was meant to be.
    fn generate(root: &Command, rng: &mut Rng) -> Vec<(String, Meant)> {
        let commands: Vec<&Command> = root.get_subcommands().collect();
        let mut cmd = *rng.pick(&commands);
        let mut words: Vec<String> = vec![cmd.get_name().to_string()];
        words.extend(cmd.get_all_aliases().map(String::from));
        let mut out = vec![(rng.pick(&words).clone(), Meant::Command)];
        while cmd.has_subcommands() {
            some_options(cmd, rng, &mut out);
            let verbs: Vec<&Command> = cmd.get_subcommands().collect();
            cmd = *rng.pick(&verbs);
            out.push((cmd.get_name().to_string(), Meant::Command));
        }
        let positionals: Vec<&Arg> = synopsis::visible(cmd)
            .filter(|a| a.is_positional())
            .collect();
        let mut operands = false;
        for p in positionals {
            // Options may come before text that takes words spelled like
            // options, never among it.
            let text = p.is_trailing_var_arg_set() && p.is_allow_hyphen_values_set();
            if !operands && !text {
                some_options(cmd, rng, &mut out);
                if rng.chance(10) {
                    out.push(("--".to_string(), Meant::Operands));
                    operands = true;
                }
            }
            if !p.is_required_set() && rng.chance(30) {
                break;
            }
            let count = if many(p) || p.is_trailing_var_arg_set() {
                1 + rng.below(3)
            } else {
                1
            };
            for _ in 0..count {
                out.push((value(p, rng), Meant::Recorded));
            }
            if p.is_trailing_var_arg_set() {
                break;
            }
        }
        out
    }

    /// Where clap put each word of `line`: word position → the command and
    /// the argument whose value (or flag) it is. clap counts positions from
    /// each command's own word, `--opt=VALUE` as two, `--` as none.
    fn recorded<'a>(
        cmd: &'a Command,
        m: &ArgMatches,
        line: &[(String, Meant)],
        start: usize,
        out: &mut HashMap<usize, (&'a Command, &'a Arg)>,
    ) {
        let end = (start + 1..line.len())
            .find(|&i| line[i].1 == Meant::Command)
            .unwrap_or(line.len());
        let mut word_at = HashMap::new();
        let mut local = 0;
        let mut operands = false;
        for (i, (w, _)) in line.iter().enumerate().take(end).skip(start + 1) {
            if w == "--" && !operands {
                operands = true;
                continue;
            }
            local += 1;
            if !operands && w.starts_with("--") && w.contains('=') {
                word_at.insert(local, i);
                local += 1;
            }
            word_at.insert(local, i);
        }
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if m.value_source(id) != Some(ValueSource::CommandLine) {
                continue;
            }
            for i in m.indices_of(id).into_iter().flatten() {
                let Some(&at) = word_at.get(&i) else {
                    continue;
                };
                // A global option (`--verbose`) shows in every command's
                // matches: it is recorded where its word is.
                let names = |j: usize| {
                    let w = line[j]
                        .0
                        .split_once('=')
                        .map_or(line[j].0.as_str(), |(n, _)| n);
                    option_named(&[arg], w).is_some()
                };
                if arg.is_positional() || names(at) || (at > 0 && names(at - 1)) {
                    out.insert(at, (cmd, arg));
                }
            }
        }
        if let Some((name, sub)) = m.subcommand() {
            recorded(cmd.find_subcommand(name).unwrap(), sub, line, end, out);
        }
    }

    /// The first word position clap records for `arg` of `cmd`.
    fn first_of(all: &HashMap<usize, (&Command, &Arg)>, cmd: &Command, arg: &Arg) -> usize {
        all.iter()
            .filter(|(_, (c, a))| c.get_name() == cmd.get_name() && a.get_id() == arg.get_id())
            .map(|(i, _)| *i)
            .min()
            .unwrap()
    }

    /// Checks the walker's view of word `k` of `line`.
    fn check(
        root: &Command,
        line: &[(String, Meant)],
        k: usize,
        clap_says: &HashMap<usize, (&Command, &Arg)>,
    ) -> Result<&'static str, String> {
        let words: Vec<&str> = line.iter().map(|(w, _)| w.as_str()).collect();
        let (word, meant) = (&line[k].0, &line[k].1);
        let at = position(root, &words[..k]);
        let same = |a: &Arg, b: &Arg| a.get_id() == b.get_id();
        let ok = match (clap_says.get(&k), &at) {
            (None, Position::First) => *meant == Meant::Command && k == 0,
            (None, Position::At(at)) => match meant {
                Meant::Command => at.cmd.find_subcommand(word).is_some(),
                Meant::OptionName(id) => {
                    !at.operands
                        && option_named(&options(at.cmd), word)
                            .is_some_and(|o| o.get_id().as_str() == id)
                }
                Meant::Operands => !at.operands,
                Meant::Recorded => false,
            },
            (Some((cmd, arg)), _) if !arg.is_positional() => match &at {
                Position::Value { cmd: c, opt } => c.get_name() == cmd.get_name() && same(opt, arg),
                // A flag, or `--opt=VALUE`: the word itself names the option.
                Position::At(at) => {
                    let name = word.split_once('=').map_or(word.as_str(), |(n, _)| n);
                    at.cmd.get_name() == cmd.get_name()
                        && !at.operands
                        && option_named(&options(at.cmd), name).is_some_and(|o| same(o, arg))
                }
                _ => false,
            },
            (Some((cmd, arg)), _) => {
                let first = first_of(clap_says, cmd, arg);
                match &at {
                    Position::Line { back } => {
                        arg.get_value_hint() == ValueHint::CommandWithArguments && k - back == first
                    }
                    Position::Nothing => arg.is_trailing_var_arg_set() && k > first,
                    Position::At(at) => {
                        at.cmd.get_name() == cmd.get_name()
                            && at.next.is_some_and(|n| same(n, arg))
                            && (k == first || many(arg))
                    }
                    _ => false,
                }
            }
            _ => false,
        };
        if ok {
            Ok(match at {
                Position::First => "first",
                Position::Value { .. } => "value",
                Position::Line { .. } => "line",
                Position::Nothing | Position::Extension => "nothing",
                Position::At(at) if at.operands => "operands",
                Position::At(at) if !at.listed.is_empty() => "listed",
                Position::At(_) => "at",
            })
        } else {
            Err(format!(
                "roost {}: word {k} ({word:?}, meant {meant:?}): the walker says {}, clap {:?}",
                words.join(" "),
                shown(&at),
                clap_says
                    .get(&(k + 1))
                    .map(|(c, a)| (c.get_name(), a.get_id().as_str()))
            ))
        }
    }

    /// A position, briefly.
    fn shown(at: &Position) -> String {
        let id = |a: Option<&Arg>| a.map(|a| a.get_id().to_string());
        match at {
            Position::First => "First".to_string(),
            Position::Value { cmd, opt } => format!("Value({} {})", cmd.get_name(), opt.get_id()),
            Position::Line { back } => format!("Line({back})"),
            Position::Nothing => "Nothing".to_string(),
            Position::Extension => "Extension".to_string(),
            Position::At(at) => format!(
                "At({} operands {} next {:?} listed {:?})",
                at.cmd.get_name(),
                at.operands,
                id(at.next),
                at.listed
            ),
        }
    }

    #[test]
    fn the_walker_places_every_word_where_clap_puts_it() {
        let root = crate::cli::built();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut accepted = 0;
        let mut seen = std::collections::BTreeSet::new();
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..1500 {
            let line = generate(&root, &mut rng);
            let argv = std::iter::once("roost").chain(line.iter().map(|(w, _)| w.as_str()));
            let Ok(matches) = root.clone().try_get_matches_from(argv) else {
                continue;
            };
            accepted += 1;
            let mut clap_says = HashMap::new();
            let (name, sub) = matches.subcommand().unwrap();
            let cmd = root.find_subcommand(name).unwrap();
            recorded(cmd, sub, &line, 0, &mut clap_says);
            for k in 0..line.len() {
                match check(&root, &line, k, &clap_says) {
                    Ok(kind) => kinds.insert(kind),
                    Err(why) => panic!("{why}"),
                };
            }
            seen.insert(
                line[..line.len().min(2)]
                    .iter()
                    .map(|(w, _)| w.clone())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        assert!(accepted > 600, "only {accepted} lines accepted");
        let every = [
            "at", "first", "line", "listed", "nothing", "operands", "value",
        ];
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), every);
        // Every command and verb was reached.
        let leaves: usize = root
            .get_subcommands()
            .map(|c| c.get_subcommands().count().max(1))
            .sum();
        assert!(seen.len() >= leaves, "{seen:?}");
    }
}
