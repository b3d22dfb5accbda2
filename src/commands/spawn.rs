//! `spawn [--session SESSION] [--message TEXT] NAME [CMD...]`: a new window
//! running an agent, in SESSION (made when missing), the caller's session
//! or main; prints its pane id. A first message goes on the command line
//! where the agent's preset says so; else the router sends it.
//! A program that cannot be run is refused before any window exists, and
//! the window outlives its program (tmux's remain-on-exit), so an agent that
//! stops keeps its last words on screen until it is killed or replaced.

use super::{ctx::Ctx, target};
use crate::cli::model::SpawnArgs;
use crate::error::{Error, Result};
use crate::ext::presets::FirstMessage;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// What a spawn made: the pane, and the first message still to be sent
/// into it (the router hands it to send).
pub struct Made {
    pub pane: String,
    pub message: Option<Vec<u8>>,
}

pub fn run(ctx: &Ctx, a: SpawnArgs) -> Result<Made> {
    if a.message.as_ref().is_some_and(|m| m.is_empty()) {
        return Err(Error::usage(ctx.cmd, "--message is empty"));
    }
    let (command, agent) = crate::agents::launch::spawn_command(a.cmd);
    // A word no agent roost knows may name a preset an extension teaches.
    let preset = match agent {
        None => crate::agents::launch::preset_command(ctx.paths().ok(), &command),
        Some(_) => None,
    };
    let given: Vec<String> = command
        .get(1..)
        .unwrap_or_default()
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    // The first message goes on the command line where the preset says
    // so (never into what resume gives back); else it is sent.
    let mut message = a.message;
    let (command, preset) = match preset {
        Some((mut expanded, taught)) => {
            if let Some(text) =
                message.take_if(|_| taught.preset.first_message != FirstMessage::Send)
            {
                if let FirstMessage::Option(option) = &taught.preset.first_message {
                    expanded.push(option.into());
                }
                expanded.push(text);
            }
            (expanded, Some((taught.preset.name, given)))
        }
        None => (command, None),
    };
    let name = a.name;
    target::check_window_name(ctx, &name)?;
    if let Some(session) = &a.session {
        target::check_name(ctx, "session name", session)?;
    }
    let cwd = working_directory(ctx, a.cwd)?;
    let start = ctx.server_start()?;
    check_program(ctx, &command, &start.path, cwd.as_deref())?;
    let session = match (a.session, ctx.tmux.caller_pane()) {
        (Some(session), _) => {
            ctx.ensure_session(&session)?;
            session
        }
        (None, Some(pane)) => ctx.tmux.session_of(&pane).map_err(|e| ctx.tmux_err(e))?,
        (None, None) => {
            ctx.ensure_session(target::DEFAULT_SESSION)?;
            target::DEFAULT_SESSION.to_string()
        }
    };
    let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
    let same_name: Vec<_> = panes
        .iter()
        .filter(|p| p.session == session && p.window_name == name)
        .collect();
    if same_name.iter().any(|p| !p.dead) {
        return Err(Error::fail(
            ctx.cmd,
            format!(
                "a window named '{name}' already exists in session {}",
                crate::untrusted::printable(session.as_bytes())
            ),
        )
        .hint("names address agents, so they must be unique: pick another NAME (roost status lists them)"));
    }
    // An agent that has exited is replaced: its window goes first.
    for p in same_name {
        let _ = ctx.tmux.kill_window_id(&p.window_id);
    }
    let pane = ctx
        .tmux
        .new_window(&session, &name, cwd.as_deref(), &command, &start)
        .map_err(|e| ctx.tmux_err(e))?;
    crate::agents::launch::spawned(
        &ctx.tmux,
        ctx.paths().ok(),
        crate::agents::launch::Spawned {
            agent,
            preset: preset.as_ref().map(|(n, g)| (n.as_str(), g.clone())),
            session: &session,
            name: &name,
            cwd: cwd.as_deref(),
            command: &command,
            pane: &pane,
        },
    );
    if let Some(em) = crate::events::Emitter::from_env() {
        em.detached(crate::events::Event::Spawned, Some(&pane), &[]);
    }
    println!("{pane}");
    Ok(Made {
        pane,
        message: message.map(|m| m.into_encoded_bytes()),
    })
}

/// The directory the pane starts in: `--cwd DIR` made absolute (it must be
/// a directory), else the current one (None when there is none).
fn working_directory(ctx: &Ctx, given: Option<PathBuf>) -> Result<Option<PathBuf>> {
    let Some(dir) = given else {
        return Ok(std::env::current_dir().ok());
    };
    let shown = crate::untrusted::printable(dir.as_os_str().as_encoded_bytes());
    let absolute = std::path::absolute(&dir).map_err(|e| {
        Error::fail(
            ctx.cmd,
            format!(
                "cannot use --cwd '{shown}': {}; no window was made",
                crate::fsutil::io_words(&e)
            ),
        )
    })?;
    match std::fs::metadata(&absolute) {
        Ok(m) if m.is_dir() => Ok(Some(absolute)),
        Ok(_) => Err(Error::fail(
            ctx.cmd,
            format!("--cwd '{shown}' is not a directory; no window was made"),
        )
        .hint("give --cwd the directory the agent should start in")),
        Err(_) => Err(Error::fail(
            ctx.cmd,
            format!("--cwd '{shown}': no such directory; no window was made"),
        )
        .hint("give --cwd a directory that exists")),
    }
}

/// Refuses a CMD whose program cannot be found or executed on the PATH the
/// pane gets. One word is a shell command line: its first word is checked
/// unless it is shell syntax or a shell builtin, which the shell runs. A
/// relative path is looked up from the pane's directory.
fn check_program(
    ctx: &Ctx,
    command: &[OsString],
    pane_path: &OsStr,
    cwd: Option<&Path>,
) -> Result<()> {
    let program = match command {
        [] => return Ok(()),
        [line] => match first_word(&line.to_string_lossy()) {
            Some(word) => word,
            None => return Ok(()),
        },
        [first, ..] => first.to_string_lossy().into_owned(),
    };
    let looked_up = match cwd {
        Some(dir) if program.contains('/') && !program.starts_with('/') => {
            dir.join(&program).to_string_lossy().into_owned()
        }
        _ => program.clone(),
    };
    if crate::fsutil::find_program(&looked_up, pane_path).is_some() {
        return Ok(());
    }
    let why = if program.contains('/') {
        "no such executable file"
    } else {
        "not found on PATH"
    };
    Err(Error::fail(ctx.cmd, format!("cannot run '{program}': {why}; no window was made")).hint(
        "check the spelling, or give the program's full path (panes get roost's scripts, then your PATH)",
    ))
}

/// What the shell runs first for `line`, when roost can tell: `None` for a
/// builtin, a keyword, or anything but a plain word.
fn first_word(line: &str) -> Option<String> {
    const SHELL_OWN: &[&str] = &[
        "!", ".", ":", "[", "{", "alias", "bg", "break", "case", "cd", "command", "continue",
        "echo", "eval", "exec", "exit", "export", "false", "fg", "for", "getopts", "hash", "if",
        "jobs", "kill", "local", "printf", "pwd", "read", "readonly", "return", "set", "shift",
        "test", "time", "times", "trap", "true", "type", "ulimit", "umask", "unalias", "unset",
        "until", "wait", "while",
    ];
    let words = shell_words::split(line).ok()?;
    let word = words.into_iter().find(|w| !is_assignment(w))?;
    let plain = !word.is_empty() && !word.contains(|c: char| "$`()<>|;&*?[]{}~\\'\"".contains(c));
    (plain && !SHELL_OWN.contains(&word.as_str())).then_some(word)
}

/// `NAME=value` in front of a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::first_word;

    #[test]
    fn the_first_word_of_a_shell_line_is_the_program() {
        assert_eq!(first_word("claudee").as_deref(), Some("claudee"));
        assert_eq!(first_word("aider --model x").as_deref(), Some("aider"));
        assert_eq!(first_word("FOO=1 BAR=2 codex").as_deref(), Some("codex"));
        assert_eq!(
            first_word("'/opt/my agent/run' -x").as_deref(),
            Some("/opt/my agent/run")
        );
        assert_eq!(first_word("./agent").as_deref(), Some("./agent"));
    }

    #[test]
    fn shell_syntax_and_builtins_are_left_to_the_shell() {
        for line in [
            "exec claude",
            "cd /x && claude",
            "roost state working; sleep 1",
            "$AGENT",
            "(cd x; y)",
            "while true; do sleep 1; done",
            "echo hi",
            "",
            "'unterminated",
        ] {
            let got = first_word(line);
            assert!(
                got.is_none() || got.as_deref() == Some("roost"),
                "{line:?} gave {got:?}"
            );
        }
    }
}
