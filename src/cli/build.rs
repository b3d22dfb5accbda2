//! The clap model made ready to use: every command given `-h`/`--help`,
//! its prose filled to fit 80 columns (fill.rs), the usage line `synopsis`
//! draws for it (as help, usage errors and the man pages show it) and its
//! exit statuses at the end of its help; and the usage line of a command
//! path alone.

use super::{fill, model, synopsis, table};

/// Help's `Usage: ` in front of a usage line.
const USAGE_LABEL: usize = "Usage: ".len();

/// The model with every usage line set from `synopsis`, so clap's own help
/// shows the same line usage errors and the man pages show.
pub fn built() -> clap::Command {
    let mut root = with_help(model::command());
    root.build();
    with_usage(root, &[])
}

/// What every command shares: `-h` and `--help`, both showing the whole
/// help (the same text as `roost help CMD`), and `-1` read as a value (so
/// `read %1 -1` says what a count must be, not "unknown option").
fn with_help(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = cmd.allow_negative_numbers(true).arg(
        clap::Arg::new("help")
            .short('h')
            .long("help")
            .help("print this help")
            .action(clap::ArgAction::HelpLong),
    );
    for name in names {
        cmd = cmd.mut_subcommand(&name, with_help);
    }
    cmd
}

fn with_usage(cmd: clap::Command, path: &[&str]) -> clap::Command {
    let usage = synopsis::line(path, &cmd);
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let mut cmd = filled(cmd).override_usage(wrapped(&usage, path.len()));
    if !path.is_empty() {
        cmd = cmd.after_long_help(model::exits::help_block(&path.join(" ")));
    }
    for name in names {
        let mut sub_path: Vec<&str> = path.to_vec();
        sub_path.push(&name);
        cmd = cmd.mut_subcommand(&name, |sub| with_usage(sub, &sub_path));
    }
    cmd
}

/// The command's description and its arguments' help, filled to fit 80
/// columns where help prints them; each argument listed in the order its
/// man entry lists it (the model's), `-h`/`--help` last.
fn filled(mut cmd: clap::Command) -> clap::Command {
    if let Some(text) = cmd.get_long_about().map(|t| t.to_string()) {
        cmd = cmd.long_about(fill::fill(&text, fill::PROSE));
    }
    let args: Vec<(String, Option<String>)> = cmd
        .get_arguments()
        .map(|a| (a.get_id().to_string(), a.get_help().map(|h| h.to_string())))
        .collect();
    let last = args.len();
    for (order, (id, help)) in args.into_iter().enumerate() {
        let order = if id == "help" { last } else { order };
        cmd = cmd.mut_arg(&id, |a| {
            let a = a.display_order(order);
            match &help {
                Some(h) => a.help(fill::fill(h, fill::ARGUMENT)),
                None => a,
            }
        });
    }
    cmd
}

/// A usage line broken at blanks outside brackets to fit 80 columns after
/// `Usage: `, each further line lined up under the first word after the
/// command (`depth` words: `roost` and the path).
fn wrapped(usage: &str, depth: usize) -> String {
    let mut words = Vec::new();
    let (mut word, mut nesting) = (String::new(), 0i32);
    for c in usage.chars() {
        match c {
            '[' | '(' => nesting += 1,
            ']' | ')' => nesting -= 1,
            ' ' if nesting == 0 => {
                words.push(std::mem::take(&mut word));
                continue;
            }
            _ => {}
        }
        word.push(c);
    }
    words.push(word);
    let head = words
        .iter()
        .take(depth + 1)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    let indent = " ".repeat(USAGE_LABEL + head.chars().count() + 1);
    let mut lines = vec![head];
    for word in words.into_iter().skip(depth + 1) {
        let at = if lines.len() == 1 { USAGE_LABEL } else { 0 };
        let line = lines.last_mut().expect("one line at least");
        if at + line.chars().count() + 1 + word.chars().count() > 80 && line.trim() != "" {
            lines.push(format!("{indent}{word}"));
        } else {
            line.push(' ');
            line.push_str(&word);
        }
    }
    lines.join("\n")
}

/// `usage: roost ext install …` for `path` ("ext install"), or the
/// top-level line.
pub fn command_usage(path: &str) -> String {
    let root = built();
    let words: Vec<&str> = path.split_whitespace().collect();
    match synopsis::of_path(&root, &words) {
        Some(line) => format!("usage: {line}"),
        None => table::usage_line(),
    }
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn a_long_usage_line_wraps_under_its_first_argument() {
        assert_eq!(
            wrapped(
                "roost send [--force] [--when-idle] [--lines] [--paste] [--wait SECONDS] TARGET TEXT...",
                1
            ),
            "roost send [--force] [--when-idle] [--lines] [--paste] [--wait SECONDS]\n\
             \x20                 TARGET TEXT..."
        );
        assert_eq!(
            wrapped("roost help [COMMAND [VERB]]", 1),
            "roost help [COMMAND [VERB]]"
        );
    }
}
