//! The one model of roost's command line: every built-in command and every
//! `ext` verb as clap types. Parsing, `--help`, usage lines, completion and
//! the man pages' synopses and options all come from it. The hot path never
//! builds it (the router reads table.rs instead); a test keeps the two in
//! step.

mod args;
pub mod exits;
mod ext;
mod values;

pub use args::*;
pub use ext::*;
pub use values::{ValueKind, INSTALLED};

use clap::{Parser, Subcommand};

/// What follows the command list in `roost --help`.
const AFTER_HELP: &str = "\
Any other word runs an installed extension's command (roost ext list).
Targets: %N (pane), @N (window), SESSION:WINDOW[.PANE], or a window of main.
Environment: ROOST_SOCKET (the server's socket), ROOST_NO_EXT (no extensions).
Words after send's TARGET are text: roost send alice -v sends -v.";

#[derive(Debug, Parser)]
#[command(
    name = "roost",
    about = "a fleet of coding agents on its own tmux server",
    after_help = AFTER_HELP,
    disable_help_subcommand = true,
    disable_help_flag = true,
    disable_version_flag = true,
    subcommand_required = true,
    arg_required_else_help = false
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(verbatim_doc_comment)]
    /// ensure session main, attach (also plain `roost`)
    ///
    /// Ensure session main exists, starting roost's server if none runs, and
    /// attach to it. Inside a roost pane, switch to it instead; inside your
    /// own tmux, attach nested, saying so on stderr. When stdin or stdout is
    /// not a terminal, print a note on stderr and do not attach. Plain
    /// `roost` does the same.
    #[command(visible_alias = "start")]
    Up,
    #[command(verbatim_doc_comment)]
    /// ensure session SESSION and attach
    ///
    /// Ensure session SESSION exists and attach to it, as `roost up` does for
    /// main. A session name follows the rules of a window name (see spawn),
    /// except that it may be digits alone.
    Session(SessionArgs),
    #[command(verbatim_doc_comment)]
    /// open window NAME running CMD; prints the new pane id
    ///
    /// Open window NAME running CMD (your shell without one) in session
    /// SESSION (--session), else in the caller's session inside roost, else
    /// in session main, and print the new pane id (%N). A SESSION that does
    /// not exist is made first, as `roost session` makes it, but nothing
    /// attaches to it. The pane starts in DIR (--cwd), else in the current directory,
    /// whatever characters its name holds. A window name must be unique in
    /// its session, must not contain `:`, `.`, `#` or control, direction or
    /// invisible characters, must not start with `%`, `@`, `=` or `-`, and
    /// must not be digits alone (a target reads those as an index). A CMD whose
    /// program cannot be found or executed on the pane's PATH is refused
    /// before any window exists. When the program exits, its window
    /// stays: `roost status` lists it as exited with its exit status, and
    /// `roost screen` and `roost read` still show its last output, until
    /// `roost kill` or a new `roost spawn` of the same name replaces it. A
    /// program named claude, codex, gemini, opencode, aider, copilot or pi
    /// (by its basename) is an agent roost knows: the pane's @roost-agent
    /// names it, codex is started with --no-daemon, and the window is
    /// recorded for `roost resume`. A word an installed extension's preset
    /// teaches (`roost spawn x qwen`) starts that preset's program.
    ///
    /// --message TEXT gives the agent its first message: as the last
    /// argument or after an option where its preset says so, else (an
    /// agent roost knows, a preset that says send, any other program) sent
    /// once the program reads, exactly as `roost send` sends it, waiting up
    /// to 60 s for a slow start. The pane id is printed first; when the
    /// message is not delivered, spawn exits as send would, the window
    /// stays, and `roost resume` never sends the message again.
    Spawn(SpawnArgs),
    #[command(verbatim_doc_comment)]
    /// paste TEXT into TARGET exactly once, then press Enter
    ///
    /// Deliver TEXT exactly once: as one bracketed paste, then one Enter,
    /// each taken by the program. Options go before TARGET: every word after
    /// it is text, even one that starts with `-` (a `--` right after TARGET
    /// is dropped); `-` alone reads TEXT from standard input. One send at a
    /// time per pane, across processes and users: a second waits for the
    /// first. A pane in copy mode or another mode is taken out of it, in the
    /// same tmux command as the paste and as the Enter, also when one is
    /// entered while send waits. Control characters in TEXT that could end
    /// the paste or act as keys are made visible (ESC becomes the symbol for
    /// escape, U+241B); newline and tab keep their meaning.
    ///
    /// Nothing is typed until the program reads its terminal: a program
    /// still starting (in raw mode with nothing drawn yet, or in the
    /// terminal's line mode with nothing reading), or busy, is waited for up
    /// to --wait SECONDS (30), which also bounds the wait for another
    /// sender. Text of more than one line goes in as one paste only to a
    /// program that asked for bracketed paste: tmux 3.7 and later say so;
    /// with an older tmux, only an agent roost knows (spawned by name, or
    /// reporting through `roost hook`) counts as having asked, or any
    /// program in raw mode when --paste says it asks. Use --lines to submit
    /// each line on its own instead (cat, a shell's read loop, a REPL that
    /// does not ask; a blank line is Enter alone); a failure part way says
    /// which lines were already submitted. A program that reads lines in
    /// the terminal's line mode takes one line of at most 4095 bytes: more
    /// lines, or a longer line (which it cannot take at all), are refused at
    /// once, before anything is typed.
    ///
    /// The text counts as taken once the program has read every byte of it
    /// (the kernel tells), never because the terminal echoed it. Enter waits
    /// for a raw-mode program's screen to stand still for 300 ms (600 ms for
    /// an agent roost knows; at most 5 s), and counts once it was read too,
    /// or once another job holds the terminal (a shell running the command
    /// line it read); where an agent's prompt hook is wired, only once that
    /// hook reports this very prompt. The target's recorded reply and state
    /// are cleared as Enter is pressed. A blocked target is refused unless
    /// --force is given; --when-idle first waits until the target is neither
    /// working nor blocked (it never answers a dialog). A pane showing a
    /// dialog roost knows (codex's "Hooks need review", which asks a person
    /// to trust new hooks) is waiting for a person too: nothing is typed
    /// into it, even with --force.
    Send(SendArgs),
    #[command(verbatim_doc_comment)]
    /// the agent's recorded reply, else the last N lines of its screen
    ///
    /// Print the agent's recorded reply (pane option @roost-reply) if it has
    /// one, else the last N (40) non-blank lines of its screen with a
    /// one-line notice on stderr. On a terminal, control characters (ESC
    /// sequences included), direction controls and invisible characters in
    /// the text are shown escaped (`\x1b`, `\u{202e}`); newlines and TABs
    /// stay. To a pipe or a file the text is written byte for byte, so
    /// roost send b "$(roost read a)" passes a reply on unchanged.
    Read(LinesArgs),
    #[command(verbatim_doc_comment)]
    /// the last N (40) non-blank lines of TARGET's screen
    ///
    /// Print the last N (40) non-blank lines of the pane's screen, shown as
    /// read shows text: escaped on a terminal, byte for byte elsewhere.
    Screen(LinesArgs),
    #[command(verbatim_doc_comment)]
    /// inside a roost pane: record TEXT (or stdin) as this pane's reply
    ///
    /// Inside a roost pane, record TEXT (or standard input, with `-`) as this
    /// pane's reply, which `roost read` prints. TEXT is taken as it comes,
    /// even when it starts with `-` (hooks pass whatever an agent wrote):
    /// only `-h` or `--help` alone asks for help. A reply keeps its first
    /// 1 MiB (1048576 bytes, cut before a UTF-8 character the bound falls
    /// in); the rest is read and dropped, with a note on stderr, and the
    /// exit status stays 0. Elsewhere a silent no-op, so agent hooks can
    /// call it unconditionally.
    Reply(ReplyArgs),
    #[command(verbatim_doc_comment)]
    /// stamp this pane: idle, working, blocked, done or error
    ///
    /// Stamp this pane's @agent_state: idle, working, blocked, done or error.
    /// Any other word is refused and nothing is stamped. A no-op outside
    /// roost.
    State(StateArgs),
    #[command(verbatim_doc_comment)]
    /// what agents' hooks run: report state, reply and session to roost
    ///
    /// What the hooks `roost hooks install` writes run: read AGENT's JSON
    /// payload on stdin (codex's notify: the last argument) and record it on
    /// the pane. working when a prompt is taken, blocked when the agent waits
    /// for a person, done at the end of a turn (with its last assistant
    /// message as the reply), error on failure; also the agent's name, its
    /// session id, and the key of the prompt it took. Side requests (titles,
    /// summaries) are ignored. AGENT is claude, codex, gemini, opencode,
    /// aider, copilot, pi or generic; EVENT names the event when the
    /// payload does not (generic: working, blocked, done or error). Outside
    /// a roost pane a silent no-op. A payload that is not a JSON object is
    /// one line on stderr, and nothing is recorded.
    Hook(HookArgs),
    #[command(verbatim_doc_comment)]
    /// wait until TARGET is done or idle (1: error or timeout, 2: gone)
    ///
    /// Wait until the target's state is done or idle, for at most SECONDS
    /// (600). On error, it names the first line of the agent's last reply,
    /// where its hooks keep the error; on a timeout, it says so when the
    /// target never reported any state.
    WaitDone(WaitArgs),
    #[command(verbatim_doc_comment)]
    /// the server, its sessions and every pane with its state
    ///
    /// Print `roost: running (socket=SOCKET)`, then one line per session and
    /// one per pane in aligned columns: pane id, target, window name, the
    /// command running in it, and its state (`-` when it has none or a word
    /// that is not one of the five states, exited and the exit status when
    /// its program has ended); or `roost: not running`. A name holding a
    /// blank is shown in single quotes. Control, direction and invisible
    /// characters in names and commands are shown escaped (`\x1b`,
    /// `\u{202e}`), to a terminal and a pipe alike, and
    /// outside a UTF-8 locale the output is ASCII (`-` for the dash, `\xe9`
    /// for é). With --json, the same facts as JSON (no command; strings
    /// byte for byte, JSON-escaped).
    Status(JsonArgs),
    #[command(verbatim_doc_comment)]
    /// ask TARGET's agent to exit the way it exits, then end its pane
    ///
    /// Type the agent's own exit command at its prompt (claude, opencode,
    /// aider and copilot: /exit; codex, gemini and pi: /quit), wait up to
    /// SECONDS (10) for the agent to exit, then end its pane, or its window
    /// when TARGET names a window, as kill does. An agent that has not
    /// exited by then is ended as kill ends it, with a line saying so. One
    /// line on stderr says how it ended, with the session id its hooks
    /// reported. Nothing is typed into a dialog: an agent waiting for a
    /// person (blocked, or showing a dialog roost knows, as send says) is
    /// refused, exit 3, and so is a pane where text `roost send` typed
    /// still waits for its Enter (exit 1). A pane whose
    /// agent roost does not know (see spawn) is refused, exit 1: roost kill
    /// ends it. A closed agent is forgotten by `roost resume`, as after kill
    /// TARGET (the agent's own resume by that session id brings it back).
    Close(CloseArgs),
    #[command(verbatim_doc_comment)]
    /// end an agent, a session or the whole server
    ///
    /// kill TARGET ends the pane (%N, WINDOW.PANE) or the window (NAME,
    /// SESSION:WINDOW, @N) TARGET names; a word that names no window but a
    /// session ends that session, as --session does. Without either, end the
    /// whole server: on a terminal it asks first unless --all is given; with
    /// stdin not a terminal it does not ask. A TARGET or session that is the
    /// last of the server ends the whole server: asked the same on a
    /// terminal, refused without one unless --all is given. Every process
    /// of what ends goes with it: SIGTERM after tmux closes it, SIGKILL for
    /// what is left 3 s later. One line on stderr says what was ended. An
    /// agent ended by TARGET or --session is forgotten by `roost resume`;
    /// ending the whole server forgets nothing (as after a crash, resume
    /// brings every agent back).
    #[command(visible_aliases = ["down", "stop"])]
    Kill(KillArgs),
    #[command(verbatim_doc_comment)]
    /// the pane id of the caller (inside roost only)
    ///
    /// Print the caller's pane id. Outside roost, an error.
    Whoami,
    #[command(verbatim_doc_comment)]
    /// check tmux, the socket, paths, roost.conf and extensions
    ///
    /// Check the tmux version, the locale, the socket, that roost's data and
    /// state directories can be written, roost.conf (loaded with roost's base
    /// configuration into a throwaway server, as roost's server will load it,
    /// so what it runs outside tmux runs then too), git for the kind of
    /// source installs use, whether extension commands run and what decides
    /// it, and the installed extensions. Each failure says what to do. With
    /// --json, the checks as one JSON object:
    /// each check's name, verdict (ok, note or problem), message and fix.
    Doctor(JsonArgs),
    #[command(verbatim_doc_comment)]
    /// wire agents' hooks to roost: install, remove, status, show
    ///
    /// Write roost's hooks into an agent's own configuration (user scope, or
    /// one project's with --project DIR), take them out again, show how
    /// they stand, or print the commands to wire by hand. roost(1) has a
    /// section per agent.
    #[command(subcommand_value_name = "VERB", subcommand_help_heading = "Verbs")]
    Hooks(HooksArgs),
    #[command(verbatim_doc_comment)]
    /// reopen this server's recorded agents, each by its session id
    ///
    /// Open a window again for every agent roost spawned on this server (by
    /// socket) whose window is gone and that was not ended by `roost kill
    /// TARGET` or `--session`, in its session and working directory, with
    /// the arguments it was spawned with, resuming the exact session its
    /// hooks reported (claude ARGS --resume ID, codex --no-daemon resume ID
    /// ARGS, gemini ARGS --resume ID, opencode ARGS --session ID, copilot
    /// ARGS --resume=ID, pi ARGS --session ID; aider ARGS
    /// --restore-chat-history, which restores its chat history). An agent
    /// whose session id was never reported is named and skipped. Prints one
    /// line per agent.
    Resume,
    #[command(verbatim_doc_comment)]
    /// switch to the next agent waiting for a person (blocked)
    ///
    /// Print the next blocked pane after the current one (by pane order,
    /// wrapping), and inside roost switch the client to it.
    Next,
    #[command(verbatim_doc_comment)]
    /// a tmux status-line segment: how many agents are blocked and done
    ///
    /// Print one short line for tmux's status line: `N blocked M done`, only
    /// the counts that are not zero, or nothing. Use it as
    /// `set -g status-right '#(roost badge)'` in roost.conf.
    Badge,
    #[command(verbatim_doc_comment)]
    /// manage extensions: install, list, update, remove and more
    ///
    /// The extension manager. Without a verb, this list of verbs; roost-ext(1)
    /// has the whole story.
    #[command(subcommand_value_name = "VERB", subcommand_help_heading = "Verbs")]
    Ext(ExtArgs),
    #[command(verbatim_doc_comment)]
    /// print the completion script for bash, zsh or fish
    ///
    /// Print the completion script for SHELL. The script asks roost on every
    /// TAB, so extension commands complete as soon as they are installed.
    Completions(CompletionsArgs),
    #[command(verbatim_doc_comment)]
    /// a guided tour in a throwaway sandbox (touches nothing of yours)
    ///
    /// A guided tour in a throwaway sandbox (private HOME and XDG tree,
    /// private tmux socket, fake agents), removed afterwards. It touches
    /// nothing of yours.
    Demo,
    #[command(verbatim_doc_comment)]
    /// this help, or one command's (roost help ext install)
    ///
    /// Print the help, or one command's or ext verb's help. Also -h and
    /// --help, after roost or after any command. For an installed
    /// extension's command, show the page it ships (man/roost-CMD.1,
    /// formatted by man -l when man is there), without running it; when it
    /// ships none, run roost CMD --help (the extension's own help). Plain
    /// help ends with the installed extension commands and their
    /// descriptions. Any other word is a usage error.
    Help(HelpArgs),
    #[command(verbatim_doc_comment)]
    /// the product version (-V, --version: with its commit)
    ///
    /// Print the product version (semver) alone on stdout, as scripts read
    /// it (extensions get the same as ROOST_VERSION). -V and --version
    /// print roost's name, the version and the commit roost was built from,
    /// as git and cargo print theirs (`roost 0.1.0 (480250f)`; without the
    /// commit when roost was built from a tree without its git history):
    /// what a bug report needs.
    #[command(short_flag_alias = 'V', long_flag_alias = "version")]
    Version,
}

/// The whole model, as clap builds it.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

#[cfg(test)]
mod tests {
    use super::ValueKind;

    /// Every kind names some argument of the model, by the name completion
    /// reads back; no kind's word is left over for another.
    #[test]
    fn every_value_kind_names_an_argument_of_the_model() {
        let root = crate::cli::built();
        let mut named = Vec::new();
        let mut stack = vec![&root];
        while let Some(cmd) = stack.pop() {
            stack.extend(cmd.get_subcommands());
            for arg in cmd.get_arguments() {
                named.extend(
                    arg.get_value_names()
                        .into_iter()
                        .flatten()
                        .map(|n| n.to_string()),
                );
            }
        }
        for kind in ValueKind::ALL {
            assert!(named.iter().any(|n| n == kind.name()), "{kind:?}");
            assert_eq!(ValueKind::named(kind.name()), Some(kind));
        }
        assert_eq!(ValueKind::named("VERB"), None);
    }
}
