//! The built-in commands' arguments, as the model's `Command` holds them.

use super::values::{positive, seconds, ValueKind};
use crate::agents::agent::{Agent, HookWord, HookWordParser};
use clap::{Args, Subcommand, ValueEnum, ValueHint};
use std::ffi::OsString;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct SessionArgs {
    /// the session's name
    #[arg(value_name = ValueKind::Session.name())]
    pub name: String,
}

#[derive(Debug, Args)]
pub struct SpawnArgs {
    /// the pane's working directory (default: the current one)
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub cwd: Option<PathBuf>,
    /// the session to open it in, made if missing (default: the caller's, else main)
    #[arg(long, value_name = ValueKind::Session.name())]
    pub session: Option<String>,
    /// the agent's first message, given the way its preset says, else sent once it reads, as send sends
    #[arg(long, value_name = "TEXT")]
    pub message: Option<OsString>,
    /// the window's name
    pub name: String,
    /// the program and its arguments (default: your shell)
    #[arg(trailing_var_arg = true, value_hint = ValueHint::CommandWithArguments)]
    pub cmd: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct SendArgs {
    /// send even when the target is blocked (never into a dialog)
    #[arg(long)]
    pub force: bool,
    /// first wait until the target is neither working nor blocked
    #[arg(long)]
    pub when_idle: bool,
    /// submit each line of TEXT on its own, for a program that reads lines
    #[arg(long, conflicts_with = "paste")]
    pub lines: bool,
    /// the program asks for bracketed paste when it reads (for a tmux before 3.7, which cannot say)
    #[arg(long)]
    pub paste: bool,
    /// how long to wait for the pane's lock, for the target to be idle, and for the program to read
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = seconds, hide_default_value = true)]
    pub wait: u64,
    /// the pane: %N, @N, SESSION:WINDOW[.PANE] or a window name
    #[arg(value_name = ValueKind::Target.name())]
    pub target: String,
    /// the words to paste, joined by spaces (all words after TARGET); `-` alone reads stdin
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub text: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct LinesArgs {
    /// the pane: %N, @N, SESSION:WINDOW[.PANE] or a window name
    #[arg(value_name = ValueKind::Target.name())]
    pub target: String,
    /// how many non-blank lines (40)
    #[arg(value_parser = positive)]
    pub n: Option<u64>,
}

#[derive(Debug, Args)]
pub struct ReplyArgs {
    /// the reply's words, joined by spaces; `-` alone reads stdin
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub text: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct StateArgs {
    /// idle, working, blocked, done or error
    #[arg(value_name = ValueKind::State.name())]
    pub state: String,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    /// claude, codex, gemini, opencode, aider, copilot, pi, generic, or an
    /// installed extension's agent preset
    // The line above names them all; clap's own list of them would run past
    // 80 columns.
    #[arg(value_name = "AGENT", hide_possible_values = true, value_parser = HookWordParser)]
    pub agent: HookWord,
    /// the event, and for codex's notify the JSON payload
    #[arg(value_name = "EVENT", trailing_var_arg = true)]
    pub words: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub verb: Option<HooksVerb>,
}

#[derive(Debug, Subcommand)]
pub enum HooksVerb {
    #[command(verbatim_doc_comment)]
    /// write roost's hooks into AGENT's configuration
    ///
    /// Merge roost's hooks into AGENT's configuration file (claude:
    /// ~/.claude/settings.json; codex: ~/.codex/hooks.json; gemini:
    /// ~/.gemini/settings.json; aider: a block in ~/.aider.conf.yml), or
    /// write a file of roost's own (opencode: a plugin, roost.js, in
    /// ~/.config/opencode/plugin/; copilot: roost.json in ~/.copilot/hooks/;
    /// pi: an extension, roost.ts, in ~/.pi/agent/extensions/), or with
    /// --project DIR that project's. Every other byte of a file merged into
    /// is kept, a link stays a link (the file it names is edited), and a
    /// backup FILE.roost-backup is written before roost's first change.
    /// Each command roost writes ends in its mark, the shell comment
    /// "# written by roost hooks install". Installing twice is installing
    /// once. The hooks run this roost by its absolute path.
    Install(HooksTarget),
    #[command(verbatim_doc_comment)]
    /// take roost's hooks out of AGENT's configuration
    ///
    /// Take out what `install` added, and nothing else. When nothing else
    /// changed in the file meanwhile, it is left as it was before install,
    /// byte for byte (a file roost made is deleted), and the backup goes.
    Remove(HooksTarget),
    #[command(verbatim_doc_comment)]
    /// how every agent's hooks stand, in user scope and this directory's
    ///
    /// For each agent, where its program is on PATH, then one line per
    /// scope: wired, not trusted (codex has not trusted them yet), not
    /// wired, stale (some hooks missing or running another roost) or
    /// unreadable, and the file. The project scope is the current
    /// directory's. --json prints the same as JSON.
    Status(JsonArgs),
    #[command(verbatim_doc_comment)]
    /// print what AGENT's hooks run (generic: for any other CLI)
    ///
    /// Print the file roost would write for AGENT and the command each event
    /// runs. With generic, the four commands to wire into any CLI that can
    /// run one at a turn's moments; with an installed extension's agent
    /// preset, the same four naming it, which its own hooks run.
    Show(HooksShowArgs),
}

#[derive(Debug, Args)]
pub struct HooksTarget {
    /// claude, codex, gemini, opencode, aider, copilot or pi
    #[arg(value_name = "AGENT")]
    pub agent: Agent,
    /// write the project's configuration in DIR instead of the user's
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub project: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct HooksShowArgs {
    /// claude, codex, gemini, opencode, aider, copilot, pi, generic, or an
    /// installed extension's agent preset
    // The line above names them all; clap's own list of them would run past
    // 80 columns.
    #[arg(value_name = "AGENT", hide_possible_values = true, value_parser = HookWordParser)]
    pub agent: HookWord,
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// the pane: %N, @N, SESSION:WINDOW[.PANE] or a window name
    #[arg(value_name = ValueKind::Target.name())]
    pub target: String,
    /// how long to wait (600)
    #[arg(value_parser = seconds)]
    pub seconds: Option<u64>,
}

#[derive(Debug, Args)]
pub struct CloseArgs {
    /// the agent's pane: %N, @N, SESSION:WINDOW[.PANE] or a window name
    #[arg(value_name = ValueKind::Target.name())]
    pub target: String,
    /// how long the agent has to exit before it is ended as kill ends it (10)
    #[arg(value_parser = positive)]
    pub seconds: Option<u64>,
}

#[derive(Debug, Args)]
pub struct JsonArgs {
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct KillArgs {
    /// the agent to end: a pane, a window, or a session's name
    #[arg(value_name = ValueKind::Target.name(), conflicts_with = "session")]
    pub target: Option<String>,
    /// end this session and every agent in it
    #[arg(long, value_name = ValueKind::Session.name())]
    pub session: Option<String>,
    /// end the whole server without asking (alone, or as TARGET's end)
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// the shell
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Debug, Args)]
pub struct HelpArgs {
    /// a command, and for ext a verb
    #[arg(value_names = [ValueKind::Command.name(), "VERB"], num_args = 0..=2)]
    pub words: Vec<String>,
}
