//! The one model of roost's command line: every built-in command and every
//! `ext` verb as clap types. Parsing, `--help`, usage lines, completion and
//! the man pages' synopses and options all come from it. The hot path never
//! builds it (the router reads table.rs instead); a test keeps the two in
//! step.

use clap::{Args, Parser, Subcommand, ValueEnum, ValueHint};
use std::ffi::OsString;
use std::path::PathBuf;

/// What follows the command list in `roost --help`.
const AFTER_HELP: &str = "\
Any other word runs an installed extension's command (roost ext list).
Targets: %N (pane), @N (window), SESSION:WINDOW[.PANE], or a window name in session main.
Environment: ROOST_SOCKET (socket name or path), ROOST_NO_EXT (non-empty: no extensions).
Options go before send's TARGET: every word after it is text, so roost send alice -v sends -v.";

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
    /// ensure session main exists and attach to it (also plain `roost`)
    ///
    /// Ensure session main exists, starting roost's server if none runs, and
    /// attach to it. Inside a roost pane, switch to it instead; inside your
    /// own tmux, attach nested, saying so on stderr. When stdin or stdout is
    /// not a terminal, print a note on stderr and do not attach. Plain
    /// `roost` does the same.
    #[command(visible_alias = "start")]
    Up,
    #[command(verbatim_doc_comment)]
    /// ensure session SESSION exists and attach to it
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
    /// (exit 1) before any window exists. When the program exits, its window
    /// stays: `roost status` lists it as exited with its exit status, and
    /// `roost screen` and `roost read` still show its last output, until
    /// `roost kill` or a new `roost spawn` of the same name replaces it. A
    /// program named claude, codex, gemini, opencode or aider (by its
    /// basename) is an agent roost knows: the pane's @roost-agent names it,
    /// codex is started with --no-daemon, and the window is recorded for
    /// `roost resume`.
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
    /// same tmux command as the paste and as the Enter. Control characters
    /// in TEXT that could end the paste or act as keys are made visible (ESC
    /// becomes the symbol for escape, U+241B); newline and tab keep their
    /// meaning.
    ///
    /// Nothing is typed until the program reads its terminal: a program
    /// still starting (in raw mode with nothing drawn yet, or in the
    /// terminal's line mode with nothing reading), or busy, is waited for up
    /// to --wait SECONDS (30), which also bounds the wait for another
    /// sender. Text of more than one line, or longer than 4095 bytes, goes
    /// only to a program that asked for bracketed paste: tmux 3.7 and later
    /// say so; with an older tmux, only an agent roost knows (spawned by
    /// name, or reporting through `roost hook`) counts as having asked, or
    /// any program in raw mode when --paste says it asks. Use --lines to
    /// submit each line on its own instead (cat, a shell's read loop, a
    /// REPL that does not ask; a blank line is Enter alone); a failure part
    /// way says which lines were already submitted. A pane in copy mode or
    /// another mode is taken out of it, also when one is entered during the
    /// wait. The text counts as taken once the program has read
    /// every byte of it (the kernel tells), never because the terminal
    /// echoed it. Enter waits for a raw-mode program's screen to stand still
    /// for 300 ms (600 ms for an agent roost knows; at most 5 s), and counts once it was read too; where an agent's
    /// prompt hook is wired, only once that hook reports this very prompt.
    /// The target's recorded reply and state are cleared as Enter is
    /// pressed. A blocked target is refused unless --force is given;
    /// --when-idle first waits until the target is neither working nor
    /// blocked (it never answers a dialog). Exit 0 delivered; 1 failed,
    /// nothing typed; 2 no such target or a dead pane; 3 the target is
    /// blocked; 4 the program could not take TEXT in time, nothing typed; 5
    /// the text was typed but the program did not take it, so Enter was not
    /// pressed (do not send it again); 6 the text and Enter were typed but
    /// not confirmed taken (do not send it again: look first).
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
    /// roost send b "$(roost read a)" passes a reply on unchanged. Exit 2
    /// when there is no such target.
    Read(LinesArgs),
    #[command(verbatim_doc_comment)]
    /// the last N (40) non-blank lines of TARGET's screen
    ///
    /// Print the last N (40) non-blank lines of the pane's screen, shown as
    /// read shows text: escaped on a terminal, byte for byte elsewhere. Exit
    /// 2 when there is no such target.
    Screen(LinesArgs),
    #[command(verbatim_doc_comment)]
    /// inside a roost pane: record TEXT (or stdin) as this pane's reply
    ///
    /// Inside a roost pane, record TEXT (or standard input, with `-`) as this
    /// pane's reply, which `roost read` prints. Text that starts with `-` goes
    /// after `--`. A reply keeps its first 1 MiB (1048576 bytes, cut before
    /// a UTF-8 character the bound falls in); the rest is read and dropped,
    /// with a note on stderr, and the exit status stays 0. Elsewhere a
    /// silent no-op, so agent hooks can call it unconditionally.
    Reply(ReplyArgs),
    #[command(verbatim_doc_comment)]
    /// stamp this pane: idle, working, blocked, done or error
    ///
    /// Stamp this pane's @agent_state: idle, working, blocked, done or error.
    /// Any other word is refused (exit 1) and nothing is stamped. A no-op
    /// outside roost.
    State(StateArgs),
    #[command(verbatim_doc_comment)]
    /// run by an agent's hooks: report its state, reply and session to roost
    ///
    /// What the hooks `roost hooks install` writes run: read AGENT's JSON
    /// payload on stdin (codex's notify: the last argument) and record it on
    /// the pane. working when a prompt is taken, blocked when the agent waits
    /// for a person, done at the end of a turn (with its last assistant
    /// message as the reply), error on failure; also the agent's name, its
    /// session id, and the key of the prompt it took. Side requests (titles,
    /// summaries) are ignored. AGENT is claude, codex, gemini, opencode,
    /// aider or generic; EVENT names the event when the payload does not
    /// (generic: working, blocked, done or error). Outside a roost pane a
    /// silent no-op. Never exits 2: a payload that is not a JSON object
    /// exits 1 with one line on stderr, and nothing is recorded.
    Hook(HookArgs),
    #[command(verbatim_doc_comment)]
    /// wait until TARGET is done or idle (1: error or timeout, 2: gone)
    ///
    /// Wait until the target's state is done or idle (exit 0); error, or
    /// SECONDS (600) passing, exits 1 (saying so when the target never
    /// reported any state); a target that is gone, exited or never existed
    /// exits 2.
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
    /// byte for byte, JSON-escaped). Exit 0 either way; exit 1 when tmux is
    /// not installed.
    Status(JsonArgs),
    #[command(verbatim_doc_comment)]
    /// end one agent, one session, or the whole roost server
    ///
    /// kill TARGET ends the pane (%N, WINDOW.PANE) or the window (NAME,
    /// SESSION:WINDOW, @N) TARGET names; a word that names no window but a
    /// session ends that session, as --session does. Without either, end the
    /// whole server: on a terminal it asks first unless --all is given; with
    /// stdin not a terminal it does not ask. An agent ended by TARGET or
    /// --session is forgotten by `roost resume`; ending the whole server
    /// forgets nothing (as after a crash, resume brings every agent back).
    /// Exit 0 also when nothing runs; 1 when the question is answered no; 2
    /// when there is no such target or session.
    #[command(visible_aliases = ["down", "stop"])]
    Kill(KillArgs),
    #[command(verbatim_doc_comment)]
    /// the pane id of the caller (inside roost only)
    ///
    /// Print the caller's pane id. Outside roost, an error (exit 1).
    Whoami,
    #[command(verbatim_doc_comment)]
    /// check tmux, the socket, paths, roost.conf and extensions
    ///
    /// Check the tmux version, the locale, the socket, that roost's data and
    /// state directories can be written, roost.conf (loaded with roost's base
    /// configuration into a throwaway server, as roost's server will load it,
    /// so what it runs outside tmux runs then too), git for the kind of
    /// source installs use, whether extension commands run and what decides
    /// it, and the installed extensions. Exit 1 when a check
    /// fails; each failure says what to do. With --json, the checks as
    /// one JSON object: each check's name, verdict (ok, note or problem),
    /// message and fix.
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
    /// start again the recorded agents of this server, each by its session id
    ///
    /// Open a window again for every agent roost spawned on this server (by
    /// socket) whose window is gone and that was not ended by `roost kill
    /// TARGET` or `--session`, in its session and working directory, with
    /// the arguments it was spawned with, resuming the exact session its
    /// hooks reported (claude ARGS --resume ID, codex resume ID ARGS,
    /// opencode ARGS --session ID, gemini ARGS --resume ID; aider ARGS
    /// --restore-chat-history, which restores its chat history). An agent
    /// whose session id was never reported is named and skipped. Prints one
    /// line per agent.
    Resume,
    #[command(verbatim_doc_comment)]
    /// switch to the next agent waiting for a person (blocked)
    ///
    /// Print the next blocked pane after the current one (by pane order,
    /// wrapping), and inside roost switch the client to it. Exit 1 when no
    /// agent is blocked.
    Next,
    #[command(verbatim_doc_comment)]
    /// a tmux status-line segment: how many agents are blocked and done
    ///
    /// Print one short line for tmux's status line: `N blocked M done`, only
    /// the counts that are not zero, or nothing. Use it as
    /// `set -g status-right '#(roost badge)'` in roost.conf.
    Badge,
    #[command(verbatim_doc_comment)]
    /// manage extensions: install, list, outdated, update, rollback, repair, disable, remove and more
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
    /// extension's command, run roost CMD --help (the extension's own help);
    /// plain help ends with the installed extension commands. Any other
    /// word is a usage error.
    Help(HelpArgs),
    #[command(verbatim_doc_comment)]
    /// the product version
    ///
    /// Print the product version (semver) alone on stdout.
    #[command(short_flag = 'V', long_flag = "version")]
    Version,
}

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
    /// the window's name
    pub name: String,
    /// the program and its arguments (default: your shell)
    #[arg(trailing_var_arg = true, value_hint = ValueHint::CommandWithArguments)]
    pub cmd: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct SendArgs {
    /// send even when the target is blocked
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
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = positive, hide_default_value = true)]
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
    /// claude, codex, gemini, opencode, aider or generic
    #[arg(value_name = "AGENT")]
    pub agent: String,
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
    /// ~/.gemini/settings.json; opencode: a plugin, roost.js, in
    /// ~/.config/opencode/plugin/; aider: a block in ~/.aider.conf.yml), or
    /// with --project DIR into that project's. Everything else in the file
    /// is kept; a backup FILE.roost-backup is written before roost's first
    /// change. Installing twice is installing once. The hooks run this
    /// roost by its absolute path.
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
    /// One line per agent and scope: wired, not wired, stale (some hooks
    /// missing or running another roost) or unreadable, and the file. The
    /// project scope is the current directory's. --json prints the same as
    /// JSON.
    Status(JsonArgs),
    #[command(verbatim_doc_comment)]
    /// print what AGENT's hooks run (generic: for any CLI that runs a command)
    ///
    /// Print the file roost would write for AGENT and the command each event
    /// runs. With generic, the four commands to wire into any CLI that can
    /// run one at a turn's moments.
    Show(HooksShowArgs),
}

#[derive(Debug, Args)]
pub struct HooksTarget {
    /// claude, codex, gemini, opencode or aider
    #[arg(value_name = "AGENT", value_parser = ["claude", "codex", "gemini", "opencode", "aider"])]
    pub agent: String,
    /// write the project's configuration in DIR instead of the user's
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub project: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct HooksShowArgs {
    /// claude, codex, gemini, opencode, aider or generic
    #[arg(value_name = "AGENT", value_parser = ["claude", "codex", "gemini", "opencode", "aider", "generic"])]
    pub agent: String,
}

#[derive(Debug, Args)]
pub struct WaitArgs {
    /// the pane: %N, @N, SESSION:WINDOW[.PANE] or a window name
    #[arg(value_name = ValueKind::Target.name())]
    pub target: String,
    /// how long to wait (600)
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
    #[arg(value_name = ValueKind::Target.name(), conflicts_with_all = ["session", "all"])]
    pub target: Option<String>,
    /// end this session and every agent in it
    #[arg(long, value_name = ValueKind::Session.name(), conflicts_with = "all")]
    pub session: Option<String>,
    /// end the whole server without asking
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

#[derive(Debug, Args)]
pub struct ExtArgs {
    /// on failure, print the whole error too (also ROOST_VERBOSE=1)
    #[arg(short, long, global = true)]
    pub verbose: bool,
    #[command(subcommand)]
    pub verb: Option<ExtVerb>,
}

#[derive(Debug, Subcommand)]
pub enum ExtVerb {
    #[command(verbatim_doc_comment)]
    /// pin, show, ask, install
    ///
    /// Check SOURCE and REF before anything touches the network. SOURCE is
    /// OWNER/REPO (each part letters, digits, `.`, `_` or `-`), fetched from
    /// ${ROOST_EXT_GIT_BASE:-https://github.com/}OWNER/REPO;
    /// https://github.com/OWNER/REPO (`.git` and a trailing `/` allowed) is
    /// the same as OWNER/REPO; any other https://HOST[:PORT]/PATH,
    /// ssh://[USER@]HOST[:PORT]/PATH or [USER@]HOST:PATH is fetched from
    /// where it says. A URL is refused, naming what is wrong, for
    /// credentials (a user in https, a password anywhere), a query or
    /// fragment, percent-escapes, spaces, control characters or anything
    /// but ASCII, `.`, `..` or empty path segments, a host, user or path
    /// segment starting with `-`, or a scheme other than https and ssh (a
    /// local repository is reached through a file:// ROOST_EXT_GIT_BASE).
    /// The extension's name is its manifest's; ext.lock records the source
    /// as OWNER/REPO or HOST/PATH, and the URL fetched. Resolve REF (default:
    /// the remote's HEAD) to a full commit; a commit given in full must be
    /// reachable from the repository's own branches, tags or HEAD (no other
    /// ref a server lists counts, refs/pull/* included; a server may
    /// hold, and serve, commits the repository never published, such as a
    /// fork's), which roost checks against the history of those refs fetched
    /// without file contents. Fetch exactly that commit over the connection
    /// that resolved it and without its history when the server
    /// allows, with nothing of the repository executed: no submodules, no LFS
    /// or other filters, no hooks, no templates. Refuse a symlink pointing
    /// outside the tree or a setuid or setgid file, check the manifest, show
    /// the consent block and ask. Then move the clone into place, create its
    /// state directory, and write ext.lock and ext.index together. A failure
    /// after that point undoes everything the run did. With --link DIR, run
    /// an author's checkout in place instead (nothing is copied or pinned).
    Install(InstallArgs),
    #[command(verbatim_doc_comment)]
    /// what is installed, pinned to which commit
    ///
    /// A header row, then each installed extension: name, short commit (or
    /// linked), commands, (disabled) when it is disabled, and (missing) when
    /// its clone is gone. A warning on stderr when ext.lock and ext.index
    /// disagree. --json prints the same as JSON, with the commit a rollback
    /// would return to.
    List(JsonArgs),
    #[command(verbatim_doc_comment)]
    /// the lock entry, the manifest, both directories
    ///
    /// The lock entry of NAME as aligned rows (repository and source, or the
    /// linked checkout; ref; the full commit and tree; commands, needs,
    /// contract, install time, whether it is disabled, the commit a rollback
    /// would return to, and any field this roost does not know), its
    /// manifest as found in the clone, and both of its directories. --json
    /// prints the same as JSON, with the lock entry as ext.lock holds it.
    Info(InfoArgs),
    #[command(verbatim_doc_comment)]
    /// do the files on disk still match the pinned tree?
    ///
    /// Recompute the git tree hash of each installed tree (or NAME's) and
    /// compare it with the one recorded at install: `NAME: ok`, or every file
    /// that was added, removed or modified (content, mode or symlink target),
    /// and a non-zero exit. ok means the files match what was recorded,
    /// nothing more; the clone's own .git is not part of the comparison. A
    /// disabled extension is checked like any other. A file put inside a
    /// submodule's (empty) directory is named as added. An ext.lock entry
    /// whose name install could never have written (a hand edit) is named
    /// too, and fails the check; list marks it and doctor fails on it. Such an entry is never run. So it is with an entry that
    /// cannot be read (a field missing, or not of the type install writes):
    /// verify, list, info and doctor name it with the reason, and ext.lock
    /// keeps it as it is. --json prints a list of entries: name, ok, verdict
    /// and files (each with change, path and what).
    Verify(VerifyArgs),
    #[command(verbatim_doc_comment)]
    /// has the ref moved? asks each source, fetches nothing
    ///
    /// For each installed pinned extension (or each NAME), ask the source it
    /// was installed from what its recorded ref points to now: one
    /// connection each, the ref listing only, no objects fetched. A row per
    /// extension: NAME, PINNED (short commit), AVAILABLE (the short commit
    /// the ref points to now, or unchanged) and NEEDS: whether the authority
    /// it declares would grow. That is in the new commit's manifest, which is
    /// not fetched, so for a ref that moved it reads `unknown without a
    /// fetch` (`roost ext update NAME` fetches it and shows it before it
    /// asks); for an unchanged ref, `same`. A ref that is a full commit id
    /// cannot move and is not asked about. Linked extensions are listed as
    /// linked, not checked. --json prints the rows as JSON (needs_grow:
    /// false, or null when unknown). Exit 0 when every check ran; 1 when a
    /// source could not be reached or answered without the ref (the others
    /// are still listed, and each failure is named on stderr).
    Outdated(OutdatedArgs),
    #[command(verbatim_doc_comment)]
    /// move the pin: shows the diff and asks again
    ///
    /// Resolve the recorded ref again, at the source the extension was
    /// installed from (recorded in ext.lock; ROOST_EXT_GIT_BASE only shapes
    /// new installs). Unchanged: say so and write nothing. Otherwise fetch the
    /// new commit fresh (git never runs inside the installed clone), show the
    /// old and new commit, the changed files and the diff (through $PAGER on
    /// a terminal, with LESS=FRX when LESS is unset; capped at 2,000 lines,
    /// roost-ext.json and bin/ first, the files cut named; --diff prints all
    /// of it and changes nothing), run every install check again, call out on its
    /// own line, directly above the question, any authority that grew and
    /// what it lets the code do, and ask again. With --yes, an authority that
    /// grew is refused (exit 1, nothing changed) unless it is named with
    /// --grant AUTHORITY: a script never grants new authority by accident.
    /// ext.lock keeps the pin it replaced, for rollback. A disabled extension
    /// is updated all the same and stays disabled.
    /// With --all, or without NAME, every installed extension in turn, each
    /// asked about on its own; a failure or refusal does not stop the rest,
    /// and a summary follows: one line per extension, updated, unchanged,
    /// linked (not pinned, so not updated), refused (a check or the answer
    /// said no) or failed (the record, the source or the disk stood in the
    /// way), with the reason.
    /// --json prints the summary as JSON on stdout, and everything else on
    /// stderr. Exit 1 when any was refused or failed.
    Update(UpdateArgs),
    #[command(verbatim_doc_comment)]
    /// back to the pin before the last update: shows the diff and asks again
    ///
    /// Return NAME to the pin ext.lock recorded when `update` last moved it:
    /// the same repository, ref, commit and tree, fetched again by its commit
    /// id from the source that pin was fetched from (a branch or tag need not
    /// lead to it any more: it is the commit you agreed to before). The files
    /// checked out must hash to the tree recorded for it, or nothing changes.
    /// Then, as update does: show the old and new commit, the changed files
    /// and the diff (--diff: all of it, and nothing changed), run every install check again, call out any authority
    /// that grows, and ask. With --yes, grown authority is refused unless it
    /// is named with --grant AUTHORITY. The pin it leaves becomes the one
    /// recorded, so a second rollback returns. Refused (exit 1, nothing
    /// changed) when no earlier pin is recorded, when NAME is linked, or when
    /// the commit cannot be fetched. A disabled extension stays disabled.
    Rollback(RollbackArgs),
    #[command(verbatim_doc_comment)]
    /// put back the pinned files and rewrite ext.index from ext.lock
    ///
    /// For NAME (or, with --all or without NAME, every installed extension):
    /// when its clone no longer hashes to the tree pinned in ext.lock (what
    /// `verify` names) or is gone, fetch the pinned commit again by its id
    /// from the recorded source, hold the files checked out to the recorded
    /// tree, and put them in place of the clone. Then write ext.index again
    /// from ext.lock, whatever it holds. The pin, its commands, needs and
    /// disabled mark stay as ext.lock records them, so nothing is asked. A
    /// clone that matches is left alone and nothing is fetched; a linked
    /// extension has nothing pinned to put back. A fetch that fails, or a
    /// commit whose files do not hash to the recorded tree, changes nothing
    /// for that extension (exit 1); the others are still repaired.
    Repair(RepairArgs),
    #[command(verbatim_doc_comment)]
    /// turn one extension off, keeping its pin, clone and data
    ///
    /// Mark NAME disabled in ext.lock and rewrite ext.index without its
    /// commands: each gets exactly the usage error a word that was never
    /// installed gets. Its pin, clone and data directory stay as they are;
    /// list, info and doctor show it as disabled. While it is off, its
    /// commands are free for another extension to claim. update, rollback and
    /// verify work on it as on any other, and it stays disabled. Already
    /// disabled: say so and write nothing.
    Disable(ExtNameArgs),
    #[command(verbatim_doc_comment)]
    /// turn a disabled extension back on
    ///
    /// Clear NAME's disabled mark and rewrite ext.index with its commands
    /// again, at the pin it has now. Refused (exit 1, nothing changed) when
    /// another extension has claimed one of its commands meanwhile: disable
    /// or remove that one first. Already enabled: say so and write nothing.
    Enable(ExtNameArgs),
    #[command(verbatim_doc_comment)]
    /// take it off (--purge: its data too)
    ///
    /// Drop NAME from ext.lock and ext.index, then delete its clone. Its state
    /// directory is kept and its path printed; --purge deletes it too, also on
    /// a later `remove NAME --purge`. A later install of any repository under
    /// the same NAME would read the kept data, so its consent block says that
    /// the directory exists and which repository left it.
    Remove(RemoveArgs),
    #[command(verbatim_doc_comment)]
    /// for authors: scaffold an extension repository
    ///
    /// For authors: write an extension to start from into DIR (default
    /// roost-NAME, new or empty): roost-ext.json, an executable bin/roost-NAME
    /// and a README. Then make DIR a git repository (branch main) with one
    /// commit holding them, made as the author git would name:
    /// GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME and
    /// GIT_COMMITTER_EMAIL, then author.*, committer.* and user.* from your
    /// global and system git configuration; `roost <roost@localhost>` stands
    /// in for a name or email none of them sets. roost only reads those
    /// settings: no git program, hook or filter runs.
    New(NewArgs),
    #[command(verbatim_doc_comment)]
    /// for authors: what install would say about DIR
    ///
    /// For authors: run on DIR, a checkout, every check install runs on a
    /// fetched tree (the manifest, names, links, modes, sizes), and print the
    /// commands it would add and the authority they would get, or every
    /// problem install would refuse. Nothing is fetched, written or run.
    /// Exit 1 when install would refuse. --json prints the same as JSON.
    Check(CheckArgs),
    #[command(verbatim_doc_comment)]
    /// run an extension's command, even where a built-in has its name
    ///
    /// Run the installed extension command CMD with ARGS exactly as `roost CMD`
    /// would (the same program, environment and authority), even when a
    /// built-in command of that name exists: a newer roost may add a command
    /// an extension already had. Everything after CMD is the extension's,
    /// `--help` included. ROOST_NO_EXT and @roost-ext-enabled still turn it
    /// off. Exit 1 when CMD cannot run; otherwise the status is the
    /// extension's own.
    Exec(ExecArgs),
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// the extension command, then its arguments
    #[arg(
        value_name = "CMD",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_hint = ValueHint::CommandName
    )]
    pub words: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    /// OWNER/REPO, or an https:// or ssh:// git URL
    #[arg(
        value_name = "SOURCE",
        required_unless_present = "link",
        conflicts_with = "link"
    )]
    pub repo: Option<String>,
    /// a branch, tag or full commit to pin (default: the remote's HEAD)
    #[arg(
        long = "ref",
        value_name = "REF",
        conflicts_with = "link",
        allow_hyphen_values = true
    )]
    pub git_ref: Option<String>,
    /// run an author's checkout in place instead of a pinned clone
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub link: Option<PathBuf>,
    /// answer the consent question yes (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// an installed extension (default: all of them)
    #[arg(value_hint = INSTALLED)]
    pub name: Option<String>,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// an installed extension (without one: all of them, as --all)
    #[arg(value_hint = INSTALLED, conflicts_with = "all")]
    pub name: Option<String>,
    /// every installed extension in turn, then a summary
    #[arg(long)]
    pub all: bool,
    /// answer the consent question yes (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// with --yes, accept this new authority (repeatable)
    #[arg(long, value_name = ValueKind::Authority.name())]
    pub grant: Vec<String>,
    /// print the summary as JSON (everything else goes to stderr)
    #[arg(long, conflicts_with = "diff")]
    pub json: bool,
    /// print the whole diff to the new commit, uncapped, and change nothing
    #[arg(long, requires = "name", conflicts_with_all = ["yes", "grant"])]
    pub diff: bool,
}

#[derive(Debug, Args)]
pub struct OutdatedArgs {
    /// installed extensions (default: all of them)
    #[arg(value_name = "NAME", value_hint = INSTALLED)]
    pub names: Vec<String>,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RollbackArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
    /// answer the consent question yes (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// with --yes, accept this new authority (repeatable)
    #[arg(long, value_name = ValueKind::Authority.name())]
    pub grant: Vec<String>,
    /// print the whole diff to the earlier commit, uncapped, and change nothing
    #[arg(long, conflicts_with_all = ["yes", "grant"])]
    pub diff: bool,
}

#[derive(Debug, Args)]
pub struct RepairArgs {
    /// an installed extension (without one: all of them, as --all)
    #[arg(value_hint = INSTALLED, conflicts_with = "all")]
    pub name: Option<String>,
    /// every installed extension
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Args)]
pub struct ExtNameArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
    /// delete its data too
    #[arg(long)]
    pub purge: bool,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// the extension's name (and its first command's)
    pub name: String,
    /// where to write it (default: roost-NAME)
    #[arg(value_hint = ValueHint::DirPath)]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// the checkout to check
    #[arg(value_hint = ValueHint::DirPath)]
    pub dir: PathBuf,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

/// The hint on an argument that names an installed extension (completion
/// offers the installed names).
pub const INSTALLED: ValueHint = ValueHint::Other;

/// The value names completion fills from what runs or is known: the model
/// names its arguments with `name`, completion reads them back with `named`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A pane or window: `%N`, `@N`, `SESSION:WINDOW[.PANE]` or a name.
    Target,
    /// A session's name.
    Session,
    /// An agent state word.
    State,
    /// A command, and for ext a verb (`help`'s).
    Command,
    /// An authority an extension may be granted.
    Authority,
}

impl ValueKind {
    pub const ALL: [ValueKind; 5] = [
        ValueKind::Target,
        ValueKind::Session,
        ValueKind::State,
        ValueKind::Command,
        ValueKind::Authority,
    ];

    /// The value name, as help and usage lines show it.
    pub const fn name(self) -> &'static str {
        match self {
            ValueKind::Target => "TARGET",
            ValueKind::Session => "SESSION",
            ValueKind::State => "STATE",
            ValueKind::Command => "COMMAND",
            ValueKind::Authority => "AUTHORITY",
        }
    }

    /// The kind a value name stands for, if any.
    pub fn named(name: &str) -> Option<ValueKind> {
        ValueKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A count or a number of seconds: a whole number above zero.
fn positive(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("must be a positive whole number, not '{text}'")),
    }
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
