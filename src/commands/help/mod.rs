//! `help [COMMAND [VERB]]`, `version`, and `completions SHELL`: what roost
//! says about itself. Help text comes from the command model.

mod page;

use crate::cli::model::{CompletionsArgs, HelpArgs};
use crate::error::{Error, Exit, Result};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

pub fn help(a: HelpArgs) -> Result<Exit> {
    let mut root = crate::cli::built();
    let mut cmd = &mut root;
    for word in &a.words {
        let found = cmd
            .get_subcommands()
            .find(|c| c.get_name() == word || c.get_all_aliases().any(|x| x == word))
            .map(|c| c.get_name().to_string());
        let Some(name) = found else {
            if cmd.get_name() == "roost" {
                if let Some(found) = installed_commands()
                    .into_iter()
                    .find(|c| c.command == *word)
                {
                    if let Some(shown) = page::show(&found.dir, word) {
                        return shown;
                    }
                    return Err(extension_help(word, &a.words[1..]));
                }
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
        print!("{}", extension_commands(&installed_commands()));
    }
    Ok(Exit::Ok)
}

/// The columns help's lines fit in.
const COLUMNS: usize = 80;

/// An installed extension's command, as help lists it.
struct Installed {
    /// The command and its extension, printable.
    command: String,
    extension: String,
    /// What its manifest says the extension is for, printable, if it says.
    about: Option<String>,
    /// The extension's directory (its pinned clone, or where it is linked).
    dir: std::path::PathBuf,
}

/// The end of plain `roost help`: each installed extension command with
/// what its extension's manifest says it is for (else which extension it
/// is from), a line each within 80 columns; nothing when none is installed.
fn extension_commands(commands: &[Installed]) -> String {
    if commands.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nExtension commands (roost help CMD shows its page, or runs roost CMD --help):\n",
    );
    let wide = commands
        .iter()
        .map(|c| c.command.chars().count())
        .max()
        .unwrap_or(0);
    for c in commands {
        let from = format!("(extension {})", c.extension);
        let room = COLUMNS.saturating_sub(2 + wide + 2 + 1 + from.chars().count());
        let text = match &c.about {
            Some(about) if room >= 12 => format!("{} {from}", cut(about, room)),
            _ => format!("from extension {}", c.extension),
        };
        out.push_str(&format!("  {:wide$}  {text}\n", c.command));
    }
    out
}

/// `text` in at most `room` characters, cut with `...` when longer.
fn cut(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let kept: String = text.chars().take(room.saturating_sub(3)).collect();
    format!("{}...", kept.trim_end())
}

/// The installed extensions' commands, from ext.index (empty when there is
/// none or it cannot be read), each with its extension's name and what the
/// manifest in its directory says it is for. The manifest is read as any
/// file roost did not write: a regular file only, within the manifest's
/// bound, and every word of it printable.
fn installed_commands() -> Vec<Installed> {
    let Ok(paths) = crate::paths::Paths::from_env() else {
        return Vec::new();
    };
    let Ok(index) = std::fs::read(paths.ext_index()) else {
        return Vec::new();
    };
    let mut abouts: std::collections::HashMap<Vec<u8>, Option<String>> = Default::default();
    index
        .split(|&b| b == b'\n')
        .filter_map(crate::index::Entry::parse)
        .map(|e| {
            let shown = |b: &[u8]| crate::untrusted::printable(b);
            let what = abouts
                .entry(e.extension.to_vec())
                .or_insert_with(|| about(Path::new(OsStr::from_bytes(e.path))))
                .clone();
            let program = Path::new(OsStr::from_bytes(e.path));
            Installed {
                command: shown(e.command),
                extension: shown(e.extension),
                about: what,
                dir: program
                    .parent()
                    .and_then(Path::parent)
                    .map(Path::to_path_buf)
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// The description in the manifest of the extension whose program is at
/// `program` (`DIR/bin/roost-CMD`, the manifest at `DIR/roost-ext.json`).
fn about(program: &Path) -> Option<String> {
    let dir = program.parent()?.parent()?;
    let bytes = crate::fsutil::read_regular(
        &dir.join(crate::contract::MANIFEST),
        crate::ext::manifest::MAX_BYTES as u64,
    )
    .ok()??;
    let manifest = crate::ext::manifest::parse(&bytes).ok()?;
    manifest
        .description
        .map(|d| crate::untrusted::printable(d.as_bytes()))
        .filter(|d| !d.trim().is_empty())
}

/// `roost help CMD` for an extension's command that ships no page:
/// `roost CMD --help`, as git and cargo pass help on to an external
/// command. Returns only on failure.
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

#[cfg(test)]
mod tests {
    use crate::agents::Agent;

    /// `claude ARGS --resume ID`, `codex --no-daemon resume ID ARGS`, …:
    /// how `resume` starts each agent again, as the docs write it.
    fn resume_lines() -> Vec<String> {
        Agent::ALL
            .iter()
            .map(|a| {
                let args = a.resume_args("ID", &["ARGS".to_string()]);
                format!("{} {}", a.name(), args.join(" "))
            })
            .collect()
    }

    fn words(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// `roost help resume`, roost(1) and README give each agent's resume
    /// command line as `resume` runs it.
    #[test]
    fn the_docs_give_the_resume_command_lines_resume_runs() {
        let root = crate::cli::built();
        let help = words(
            &root
                .find_subcommand("resume")
                .and_then(|c| c.get_long_about())
                .map(|t| t.to_string())
                .unwrap_or_default(),
        );
        let page = words(
            &include_str!("../../../man/roost.1")
                .replace("\\fB", "")
                .replace("\\fR", "")
                .replace("\\fI", "")
                .replace("\\-", "-"),
        );
        let readme = words(include_str!("../../../README.md"));
        for line in resume_lines() {
            assert!(
                help.contains(&line),
                "roost help resume lacks {line}: {help}"
            );
            assert!(page.contains(&line), "roost.1 lacks {line}");
            assert!(
                readme.contains(&format!("`{line}`")),
                "README lacks `{line}`"
            );
        }
    }
}
