//! `help [COMMAND [VERB]]`, `version`, and `completions SHELL`: what roost
//! says about itself. Help text comes from the command model.

use crate::cli::model::{CompletionsArgs, HelpArgs};
use crate::error::{Error, Exit, Result};
use std::ffi::OsStr;

pub fn help(a: HelpArgs) -> Result<Exit> {
    let mut root = crate::cli::built();
    let mut cmd = &mut root;
    for word in &a.words {
        let found = cmd
            .get_subcommands()
            .find(|c| c.get_name() == word || c.get_all_aliases().any(|x| x == word))
            .map(|c| c.get_name().to_string());
        let Some(name) = found else {
            if cmd.get_name() == "roost" && installed_commands().iter().any(|(c, _)| c == word) {
                return Err(extension_help(word, &a.words[1..]));
            }
            let what = if cmd.get_name() == "roost" {
                format!(
                    "'{word}' is not a built-in command (roost ext list shows extension commands)"
                )
            } else {
                format!("'{word}' is not a verb of roost {}", cmd.get_name())
            };
            return Err(Error::usage("help", what));
        };
        cmd = cmd.find_subcommand_mut(&name).expect("found above");
    }
    print!("{}", cmd.render_long_help());
    if a.words.is_empty() {
        let commands = installed_commands();
        if !commands.is_empty() {
            println!("\nExtension commands (roost help CMD runs roost CMD --help):");
            let wide = commands.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
            for (command, ext) in commands {
                println!("  {command:wide$}  from extension {ext}");
            }
        }
    }
    Ok(Exit::Ok)
}

/// The installed extensions' commands, from ext.index (empty when there is
/// none or it cannot be read), each with its extension's name.
fn installed_commands() -> Vec<(String, String)> {
    let Ok(paths) = crate::paths::Paths::from_env() else {
        return Vec::new();
    };
    let Ok(index) = std::fs::read(paths.ext_index()) else {
        return Vec::new();
    };
    index
        .split(|&b| b == b'\n')
        .filter_map(crate::index::Entry::parse)
        .map(|e| {
            let shown = |b: &[u8]| crate::untrusted::printable(b);
            (shown(e.command), shown(e.extension))
        })
        .collect()
}

/// `roost help CMD` for an extension's command: `roost CMD --help`, as git
/// and cargo pass help on to an external command. Returns only on failure.
fn extension_help(word: &str, rest: &[String]) -> Error {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().unwrap_or_else(|_| "roost".into());
    let err = std::process::Command::new(exe)
        .arg(word)
        .args(rest)
        .arg("--help")
        .exec();
    Error::fail(
        "help",
        format!(
            "cannot run roost {word} --help: {}",
            crate::fsutil::io_words(&err)
        ),
    )
}

/// `version`: the semver alone, as scripts read it (extensions get the
/// same as ROOST_VERSION); `-V`/`--version`: `roost 0.1.0 (480250f)`, the
/// commit included, as git and cargo print theirs.
pub fn version(word: &OsStr) -> Result<Exit> {
    if word == "version" {
        println!("{}", crate::VERSION);
    } else {
        println!("{}", crate::LONG_VERSION);
    }
    Ok(Exit::Ok)
}

/// `completions SHELL`: the script, from `complete/scripts.rs`.
pub fn completions(a: CompletionsArgs) -> Result<Exit> {
    print!("{}", crate::complete::scripts::script(a.shell));
    Ok(Exit::Ok)
}
