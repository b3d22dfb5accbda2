//! The clap model made ready to use: every command given `-h`/`--help`
//! and the usage line `synopsis` draws for it, as help, usage errors and
//! the man pages show it; and the usage line of a command path alone.

use super::{model, synopsis, table};

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
    let mut cmd = cmd.override_usage(usage);
    for name in names {
        let mut sub_path: Vec<&str> = path.to_vec();
        sub_path.push(&name);
        cmd = cmd.mut_subcommand(&name, |sub| with_usage(sub, &sub_path));
    }
    cmd
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
