//! Shell completion: the scripts `roost completions SHELL` prints, and the
//! query they run on every TAB, `roost __complete SHELL CWORD WORDS...`.
//! A query reads the command table, ext.index (ext.lock too, for the names
//! of installed extensions) and, only when its socket file exists, the
//! running roost server. It never starts a server, never runs an
//! extension, and prints nothing but candidates.

use crate::cli::model::Shell;
use crate::cli::{self, synopsis};
use crate::index::{self, Entry};
use crate::paths::Paths;
use crate::switch;
use crate::tmux::{Pane, Tmux};
use crate::untrusted::printable;
use clap::{Arg, ArgAction, ValueHint};
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The shells roost has a completion script for.
pub const SHELLS: &[&str] = &["bash", "zsh", "fish"];

/// The completion script for `shell`.
pub fn script(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => BASH,
        Shell::Zsh => ZSH,
        Shell::Fish => FISH,
    }
}

// The scripts hold no command names: every TAB asks the roost on PATH, so
// extensions installed later complete without regenerating anything. They
// live in completions/, where packagers find them.

const BASH: &str = include_str!("../completions/roost.bash");
const ZSH: &str = include_str!("../completions/_roost");
const FISH: &str = include_str!("../completions/roost.fish");

/// `roost __complete SHELL CWORD WORDS...`: WORDS is the command line with
/// the command itself first, CWORD the index of the word being completed
/// (past the end: a new, empty word). Prints the candidates that start with
/// that word, one per line; zsh and fish get `candidate<TAB>description`.
pub fn main(args: &[OsString]) -> u8 {
    let words: Vec<String> = args
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let (shell, cword) = match words.as_slice() {
        [shell, cword, ..] if SHELLS.contains(&shell.as_str()) => match cword.parse::<usize>() {
            Ok(n) => (shell.as_str(), n),
            Err(_) => return usage(),
        },
        _ => return usage(),
    };
    // `LANG=C roost …`: the shell's variable assignments come before the
    // command and are no words of roost's (bash hands them over as words).
    let assignments = words[2..]
        .iter()
        .take(cword)
        .take_while(|w| is_assignment(w))
        .count();
    let line = &words[2 + assignments..];
    let cword = cword - assignments;
    let before: Vec<&str> = line
        .iter()
        .take(cword)
        .skip(1)
        .map(String::as_str)
        .collect();
    let current = line.get(cword).map_or("", String::as_str);
    let mut out = Vec::new();
    let all = candidates(&before, current, &Live::new());
    if handed_over(&all) {
        println!("{}", all[0].value);
        return 0;
    }
    for c in all {
        // Window names are anyone's text: one that would need escaping (a
        // control or direction character, a TAB, a newline) is not offered.
        if printable(c.value.as_bytes()) != c.value {
            continue;
        }
        out.extend_from_slice(c.value.as_bytes());
        if shell != "bash" && !c.about.is_empty() {
            out.push(b'\t');
            out.extend_from_slice(printable(c.about.as_bytes()).as_bytes());
        }
        out.push(b'\n');
    }
    let _ = std::io::stdout().write_all(&out);
    0
}

/// A shell variable assignment word: `NAME=value`.
fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn usage() -> u8 {
    eprintln!("usage: roost __complete bash|zsh|fish CWORD WORDS...");
    2
}

/// One completion: what is inserted, and what zsh and fish show beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Candidate {
    value: String,
    about: String,
}

fn cand(value: impl Into<String>, about: impl Into<String>) -> Candidate {
    Candidate {
        value: value.into(),
        about: about.into(),
    }
}

/// What a query may look at beyond the command table.
trait Source {
    /// `ROOST_NO_EXT` is non-empty: no extension command is offered.
    fn no_ext(&self) -> bool;
    /// ext.index as bytes (empty when absent).
    fn index(&self) -> Vec<u8>;
    /// ext.lock as bytes (empty when absent).
    fn lock(&self) -> Vec<u8>;
    /// Whether `bin/roost-CMD` of an index line would run (dispatch's test).
    fn runnable(&self, path: &[u8]) -> bool;
    /// The server-wide switch: asked only when there is something to offer.
    fn switched_off(&self) -> bool;
    /// The panes of the running roost server (none when it is not running).
    fn panes(&self) -> Vec<Pane>;
    /// The sessions of the running roost server.
    fn sessions(&self) -> Vec<String>;
}

/// The candidates for `current`, given the words between `roost` and it.
fn candidates(before: &[&str], current: &str, src: &impl Source) -> Vec<Candidate> {
    let root = cli::built();
    let mut all = match before.split_first() {
        None => commands(&root, current, src),
        Some((first, rest)) => match root
            .get_subcommands()
            .find(|c| names(c).any(|n| n == *first))
        {
            // An extension's arguments are its own: roost never runs it to ask.
            None => Vec::new(),
            Some(cmd) => arguments(cmd, rest, current, src),
        },
    };
    if handed_over(&all) {
        return all;
    }
    all.retain(|c| c.value.starts_with(current));
    let mut seen = std::collections::HashSet::new();
    all.retain(|c| seen.insert(c.value.clone()));
    all
}

/// The words that run a command of the model: its name, its aliases, and
/// `--help`/`-h` style flags.
fn names(cmd: &clap::Command) -> impl Iterator<Item = String> + '_ {
    std::iter::once(cmd.get_name().to_string())
        .chain(cmd.get_all_aliases().map(String::from))
        .chain(cmd.get_short_flag().map(|f| format!("-{f}")))
        .chain(cmd.get_long_flag().map(|f| format!("--{f}")))
}

fn about(cmd: &clap::Command) -> String {
    cmd.get_about().map(|a| a.to_string()).unwrap_or_default()
}

/// The first word: every core command and alias, then extension commands.
fn commands(root: &clap::Command, current: &str, src: &impl Source) -> Vec<Candidate> {
    let dashed = current.starts_with('-');
    let mut out = Vec::new();
    if dashed {
        for arg in root.get_arguments() {
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            out.extend(arg.get_short().map(|c| cand(format!("-{c}"), &help)));
            out.extend(arg.get_long().map(|l| cand(format!("--{l}"), &help)));
        }
    }
    for cmd in root.get_subcommands() {
        for name in names(cmd).filter(|n| dashed || !n.starts_with('-')) {
            out.push(cand(name, about(cmd)));
        }
    }
    if !dashed {
        out.extend(extension_commands(current, src, false));
    }
    out
}

/// What dispatch would run: never a line it would miss. `shadowed`: also
/// the commands a built-in hides (what `ext exec` runs).
fn extension_commands(current: &str, src: &impl Source, shadowed: bool) -> Vec<Candidate> {
    if src.no_ext() {
        return Vec::new();
    }
    let index = src.index();
    let found: Vec<Candidate> = index
        .split(|&b| b == b'\n')
        .filter_map(Entry::parse)
        .filter(|e| {
            index::valid_name(e.command)
                && index::valid_name(e.extension)
                && e.command.starts_with(current.as_bytes())
                && (shadowed || !cli::is_reserved(&String::from_utf8_lossy(e.command)))
                && src.runnable(e.path)
        })
        .map(|e| {
            cand(
                String::from_utf8_lossy(e.command),
                format!("extension {}", String::from_utf8_lossy(e.extension)),
            )
        })
        .collect();
    // Like dispatch, the switch is asked only when there is a hit to hide.
    if found.is_empty() || src.switched_off() {
        return Vec::new();
    }
    found
}

/// The one candidate that tells the shell script to complete directory
/// names itself (no window or extension name can hold a TAB).
const DIRS: &str = "\tdirs";

/// The one candidate that tells the script the word is a command name
/// (spawn's CMD): the shell completes it from its commands.
const COMMANDS: &str = "\tcommands";

/// `LINE` then K: the word belongs to a command line that began K words
/// before it (spawn's CMD and its arguments); the shell completes it as
/// it would that command's.
const LINE: &str = "\tline ";

/// A candidate that hands the word over to the shell script.
fn handed_over(all: &[Candidate]) -> bool {
    all.first().is_some_and(|c| c.value.starts_with('\t'))
}

/// The words after a command of the model, walked the way clap parses
/// them: options anywhere before `--` (one that takes a value takes the
/// next word), positionals in order, a trailing list taking everything.
fn arguments(
    cmd: &clap::Command,
    rest: &[&str],
    current: &str,
    src: &impl Source,
) -> Vec<Candidate> {
    let options: Vec<&Arg> = synopsis::visible(cmd)
        .filter(|a| !a.is_positional())
        .collect();
    let positionals: Vec<&Arg> = synopsis::visible(cmd)
        .filter(|a| a.is_positional())
        .collect();
    let option_named = |w: &str| {
        options.iter().copied().find(|o| {
            o.get_long()
                .is_some_and(|l| w.strip_prefix("--") == Some(l))
                || o.get_short().is_some_and(|c| w == format!("-{c}"))
        })
    };
    let mut taken = 0;
    // The words a list (`help`'s COMMAND and VERB) has taken so far.
    let mut listed: Vec<&str> = Vec::new();
    let mut operands = false;
    let mut i = 0;
    while let Some(w) = rest.get(i) {
        i += 1;
        if !operands && *w == "--" {
            operands = true;
        } else if !operands && w.starts_with('-') && w.len() > 1 {
            if let Some(opt) = option_named(w).filter(|o| takes_value(o)) {
                if i == rest.len() {
                    // Its value is the word being completed.
                    return values(cmd, opt, current, src, &[]);
                }
                i += 1;
            }
        } else if cmd.has_subcommands() {
            return match cmd.find_subcommand(w) {
                Some(sub) => arguments(sub, &rest[i..], current, src),
                None => Vec::new(),
            };
        } else {
            match positionals.get(taken) {
                // A command line (spawn's CMD) is the shell's to complete:
                // the script is told how many words before the current one
                // it begins.
                Some(p) if p.get_value_hint() == ValueHint::CommandWithArguments => {
                    return vec![cand(format!("{LINE}{}", rest.len() + 1 - i), "")];
                }
                // Everything after the first word of a trailing list is its own.
                Some(p) if p.is_trailing_var_arg_set() => return Vec::new(),
                Some(p) if many(p) => listed.push(w),
                Some(_) => {
                    taken += 1;
                    // Text that takes words spelled like options (send's
                    // TEXT) begins right after the positionals before it.
                    operands |= positionals.get(taken).is_some_and(|p| {
                        p.is_trailing_var_arg_set() && p.is_allow_hyphen_values_set()
                    });
                }
                None => return Vec::new(),
            }
        }
    }
    // `--link=DI`: the value after `=`, offered as whole words
    // (`--link=` + value); a directory is left to the script.
    let dashed = current.starts_with('-') && !operands;
    if let Some((name, value)) = current.split_once('=').filter(|_| dashed) {
        let Some(opt) = option_named(name).filter(|o| takes_value(o)) else {
            return Vec::new();
        };
        let found = values(cmd, opt, value, src, &[]);
        if found.first().is_some_and(|c| c.value == DIRS) {
            return found;
        }
        return found
            .into_iter()
            .map(|c| cand(format!("{name}={}", c.value), c.about))
            .collect();
    }
    if current.starts_with('-') && !operands {
        return options
            .iter()
            .filter_map(|o| o.get_long())
            .map(|l| cand(format!("--{l}"), o_help(&options, l)))
            .collect();
    }
    if cmd.has_subcommands() {
        return cmd
            .get_subcommands()
            .map(|s| cand(s.get_name(), about(s)))
            .collect();
    }
    match positionals.get(taken) {
        Some(p) => values(cmd, p, current, src, &listed),
        None => Vec::new(),
    }
}

fn o_help(options: &[&Arg], long: &str) -> String {
    options
        .iter()
        .find(|o| o.get_long() == Some(long))
        .and_then(|o| o.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default()
}

fn takes_value(arg: &Arg) -> bool {
    !matches!(
        arg.get_action(),
        ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count
    )
}

fn many(arg: &Arg) -> bool {
    arg.get_num_args().is_some_and(|n| n.max_values() > 1)
}

/// What may fill `arg` of `cmd`: told by its value name (TARGET, SESSION,
/// STATE), its listed values, or its hint (a directory, an installed
/// extension).
fn values(
    cmd: &clap::Command,
    arg: &Arg,
    current: &str,
    src: &impl Source,
    before: &[&str],
) -> Vec<Candidate> {
    let listed: Vec<Candidate> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| {
            cand(
                v.get_name(),
                v.get_help().map(|h| h.to_string()).unwrap_or_default(),
            )
        })
        .collect();
    if !listed.is_empty() {
        return listed;
    }
    match (synopsis::value_name(arg).as_str(), arg.get_value_hint()) {
        // kill's TARGET may also be a session's name.
        ("TARGET", _) if cmd.get_name() == "kill" => {
            let mut all = targets(&src.panes(), current);
            all.extend(src.sessions().into_iter().map(|s| cand(s, "session")));
            all
        }
        // An exited pane takes no text: send never offers it.
        ("TARGET", _) if cmd.get_name() == "send" => {
            let live: Vec<Pane> = src.panes().into_iter().filter(|p| !p.dead).collect();
            targets(&live, current)
        }
        ("TARGET", _) => targets(&src.panes(), current),
        ("SESSION", _) => src
            .sessions()
            .into_iter()
            .map(|s| cand(s, "session"))
            .collect(),
        ("STATE", _) => crate::tmux::AgentState::words()
            .iter()
            .map(|s| cand(*s, ""))
            .collect(),
        ("COMMAND", _) => {
            // `help ext ` offers ext's verbs; `help spawn ` nothing more.
            let root = cli::built();
            let Some(at) = before.iter().try_fold(&root, |at, w| at.find_subcommand(w)) else {
                return Vec::new();
            };
            at.get_subcommands()
                .map(|c| cand(c.get_name(), about(c)))
                .collect()
        }
        ("AUTHORITY", _) => crate::contract::AUTHORITIES
            .iter()
            .map(|a| cand(*a, "authority"))
            .collect(),
        (_, ValueHint::DirPath) => vec![cand(DIRS, "")],
        (_, ValueHint::CommandWithArguments) if before.is_empty() => vec![cand(COMMANDS, "")],
        (_, ValueHint::CommandName) => extension_commands(current, src, true),
        (_, cli::model::INSTALLED) => {
            let all = installed(src);
            // Each of the two switches offers only what it would change.
            match cmd.get_name() {
                "enable" => all.into_iter().filter(|c| c.about == DISABLED).collect(),
                "disable" => all.into_iter().filter(|c| c.about != DISABLED).collect(),
                _ => all,
            }
        }
        _ => Vec::new(),
    }
}

/// What zsh and fish show beside a disabled extension's name.
const DISABLED: &str = "extension (disabled)";

/// Installed extension names: the distinct second fields of ext.index, then
/// the names in ext.lock that have no line there (a disabled extension has
/// none), each marked when it is disabled.
fn installed(src: &impl Source) -> Vec<Candidate> {
    let lock = crate::ext::lock::Lock::parse(&src.lock()).unwrap_or_default();
    let about = |name: &str| match lock.entry(name) {
        Some(e) if e.disabled => DISABLED,
        _ => "extension",
    };
    let index = src.index();
    let indexed = index
        .split(|&b| b == b'\n')
        .filter_map(Entry::parse)
        .filter(|e| index::valid_name(e.extension))
        .map(|e| String::from_utf8_lossy(e.extension).into_owned());
    indexed
        .chain(lock.valid_names().map(String::from))
        .map(|name| {
            let about = about(&name);
            cand(name, about)
        })
        .collect()
}

/// Pane ids, and window names the way `send` takes them: bare in session
/// main, `SESSION:NAME` elsewhere, and `main:NAME` too once the word being
/// completed holds a ':'.
/// A name holding a character `untrusted` escapes (one an agent may have
/// put there to repaint the terminal) is offered by its pane id only.
fn targets(panes: &[Pane], current: &str) -> Vec<Candidate> {
    let shown = |text: &str| crate::untrusted::printable(text.as_bytes());
    let mut out: Vec<Candidate> = panes
        .iter()
        .map(|p| cand(&p.id, shown(&format!("{} {}", p.address(), p.window_name))))
        .collect();
    for p in panes {
        let name = if p.session == "main" && !current.contains(':') {
            p.window_name.clone()
        } else {
            format!("{}:{}", p.session, p.window_name)
        };
        if shown(&name) == name {
            out.push(cand(name, format!("window {}", p.window_id)));
        }
    }
    out
}

/// The real sources: the environment, ext.index, the running server.
struct Live {
    tmux: Tmux,
    paths: Option<Paths>,
}

impl Live {
    fn new() -> Live {
        Live {
            tmux: Tmux::from_env(),
            paths: Paths::from_env().ok(),
        }
    }
}

impl Source for Live {
    fn no_ext(&self) -> bool {
        std::env::var_os(crate::contract::env::NO_EXT).is_some_and(|v| !v.is_empty())
    }

    fn index(&self) -> Vec<u8> {
        self.paths
            .as_ref()
            .and_then(|p| std::fs::read(p.ext_index()).ok())
            .unwrap_or_default()
    }

    fn lock(&self) -> Vec<u8> {
        self.paths
            .as_ref()
            .and_then(|p| std::fs::read(p.ext_lock()).ok())
            .unwrap_or_default()
    }

    /// One stat per candidate (dispatch adds an access(2) check, which a
    /// completion of a thousand commands cannot afford).
    fn runnable(&self, path: &[u8]) -> bool {
        use std::os::unix::fs::PermissionsExt;
        let path = Path::new(OsStr::from_bytes(path));
        path.is_absolute()
            && std::fs::metadata(path)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }

    fn switched_off(&self) -> bool {
        match &self.paths {
            Some(p) => switch::is_off(&self.tmux, &p.user_conf()),
            None => true,
        }
    }

    fn panes(&self) -> Vec<Pane> {
        if !self.tmux.socket_exists() {
            return Vec::new();
        }
        self.tmux.panes().unwrap_or_default()
    }

    fn sessions(&self) -> Vec<String> {
        if !self.tmux.socket_exists() {
            return Vec::new();
        }
        self.tmux
            .sessions()
            .map(|s| s.into_iter().map(|s| s.name).collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_are_name_equals_anything() {
        for w in ["A=1", "_=", "LANG=C.UTF-8", "B_2=x=y"] {
            assert!(is_assignment(w), "{w}");
        }
        for w in [
            "roost", "=x", "1A=x", "A-B=x", "./roost", "--opt=x", "a.b=c",
        ] {
            assert!(!is_assignment(w), "{w}");
        }
    }

    #[derive(Default)]
    struct Fake {
        no_ext: bool,
        off: bool,
        index: &'static str,
        lock: &'static str,
        panes: Vec<Pane>,
        sessions: Vec<String>,
    }

    impl Source for Fake {
        fn no_ext(&self) -> bool {
            self.no_ext
        }
        fn index(&self) -> Vec<u8> {
            self.index.as_bytes().to_vec()
        }
        fn lock(&self) -> Vec<u8> {
            self.lock.as_bytes().to_vec()
        }
        fn runnable(&self, path: &[u8]) -> bool {
            !path.ends_with(b"broken")
        }
        fn switched_off(&self) -> bool {
            self.off
        }
        fn panes(&self) -> Vec<Pane> {
            self.panes.clone()
        }
        fn sessions(&self) -> Vec<String> {
            self.sessions.clone()
        }
    }

    fn values(before: &[&str], current: &str, src: &Fake) -> Vec<String> {
        candidates(before, current, src)
            .into_iter()
            .map(|c| c.value)
            .collect()
    }

    const INDEX: &str = "note\tnotes\t/x/bin/roost-note\t\n\
                         notes\tnotes\t/x/bin/roost-notes\t\n\
                         nope\tbad\t/x/broken\t\n\
                         status\tevil\t/x/bin/roost-status\t\n\
                         Nasty\tnotes\t/x/bin/roost-Nasty\t\n\
                         mark\tmarker\t/m/bin/roost-mark\tfleet\n";

    fn pane(id: &str, session: &str, window: &str) -> Pane {
        Pane {
            id: id.into(),
            window_id: format!("@{}", &id[1..]),
            session: session.into(),
            window_index: "1".into(),
            pane_index: "0".into(),
            active: true,
            dead: false,
            dead_status: None,
            pid: None,
            state: None,
            command: String::new(),
            window_name: window.into(),
        }
    }

    #[test]
    fn the_first_word_offers_commands_and_dashed_aliases_only_after_a_dash() {
        let src = Fake::default();
        assert_eq!(values(&[], "sp", &src), ["spawn"]);
        let all = values(&[], "", &src);
        for word in ["up", "start", "down", "stop", "wait-done", "completions"] {
            assert!(all.contains(&word.to_string()), "{word} missing: {all:?}");
        }
        assert!(!all.iter().any(|w| w.starts_with('-')), "{all:?}");
        assert_eq!(values(&[], "-", &src), ["-h", "--help", "-V", "--version"]);
    }

    #[test]
    fn flags_are_offered_only_where_the_argument_reader_takes_them() {
        let src = Fake::default();
        assert_eq!(
            values(&["send"], "--", &src),
            ["--force", "--when-idle", "--lines", "--paste", "--wait"]
        );
        assert!(values(&["send", "--wait"], "", &src).is_empty());
        assert_eq!(values(&["status"], "-", &src), ["--json"]);
        // Every word after TARGET is text, as the parser takes it.
        assert!(values(&["send", "%1"], "--", &src).is_empty());
        assert!(values(&["send", "%1", "hi"], "--", &src).is_empty());
        assert!(values(&["send", "--"], "-", &src).is_empty());
        assert_eq!(values(&["spawn"], "-", &src), ["--cwd", "--session"]);
        // spawn's CMD and its arguments are the shell's (see below).
        assert_eq!(values(&["spawn", "alice", "cat"], "-", &src), ["\tline 1"]);
    }

    #[test]
    fn extension_commands_come_from_the_index_as_dispatch_would_run_them() {
        let src = Fake {
            index: INDEX,
            ..Fake::default()
        };
        assert_eq!(values(&[], "no", &src), ["note", "notes"]);
        assert_eq!(values(&[], "ma", &src), ["mark"]);
        // A core name in the index is never run, so never offered twice.
        assert_eq!(values(&[], "statu", &src), ["status"]);
        assert_eq!(
            candidates(&[], "statu", &src)[0].about,
            "the server, its sessions and every pane with its state"
        );
        assert!(values(&[], "N", &src).is_empty());
        for off in [
            Fake {
                no_ext: true,
                index: INDEX,
                ..Fake::default()
            },
            Fake {
                off: true,
                index: INDEX,
                ..Fake::default()
            },
        ] {
            assert!(values(&[], "no", &off).is_empty());
        }
        // An extension's own arguments are not roost's to guess.
        assert!(values(&["note"], "", &src).is_empty());
    }

    #[test]
    fn ext_offers_verbs_their_options_and_installed_names() {
        let src = Fake {
            index: INDEX,
            no_ext: true,
            ..Fake::default()
        };
        assert_eq!(values(&["ext"], "", &src), cli::EXT_VERBS);
        for verb in ["info", "verify", "update", "rollback", "disable", "remove"] {
            assert_eq!(
                values(&["ext", verb], "", &src),
                ["notes", "bad", "evil", "marker"],
                "{verb}"
            );
            assert!(values(&["ext", verb, "notes"], "", &src).is_empty());
        }
        assert_eq!(values(&["ext", "remove"], "m", &src), ["marker"]);
        assert!(values(&["ext", "install"], "", &src).is_empty());
        assert!(values(&["ext", "list"], "", &src).is_empty());
        assert_eq!(
            values(&["ext", "install", "o/r"], "--", &src),
            ["--ref", "--link", "--yes", "--verbose"]
        );
        // A directory argument hands over to the shell's own directory completion.
        assert_eq!(values(&["ext", "install", "--link"], "", &src), [DIRS]);
        assert_eq!(values(&["ext", "check"], "x", &src), [DIRS]);
        assert_eq!(values(&["ext", "new", "n"], "", &src), [DIRS]);
        assert!(values(&["ext", "new"], "", &src).is_empty());
        // exec offers every runnable command, a shadowed one too, then
        // leaves the extension's own arguments alone.
        assert!(
            values(&["ext", "exec"], "", &src).is_empty(),
            "ROOST_NO_EXT is set"
        );
        let on = Fake {
            index: INDEX,
            ..Fake::default()
        };
        assert_eq!(
            values(&["ext", "exec"], "", &on),
            ["note", "notes", "status", "mark"]
        );
        assert!(values(&["ext", "exec", "note"], "", &on).is_empty());
        assert!(values(&["ext", "install", "--ref"], "", &src).is_empty());
        assert!(values(&["ext", "remove", "--"], "-", &src).is_empty());
        assert!(values(&["ext", "remove", "--", "x"], "", &src).is_empty());
        assert_eq!(
            values(&["ext", "update", "--yes"], "", &src),
            ["notes", "bad", "evil", "marker"]
        );
    }

    #[test]
    fn a_disabled_extension_is_offered_by_name_as_disabled_but_not_its_commands() {
        // `hush` of the disabled extension `quiet` has no index line.
        let src = Fake {
            index: "note\tnotes\t/x/bin/roost-note\t\n",
            lock: r#"{"notes": {"commands": ["note"], "needs": [], "contract": 1,
                       "installed": "t", "linked": "/x"},
                      "quiet": {"commands": ["hush"], "needs": [], "contract": 1,
                       "installed": "t", "linked": "/q", "disabled": true}}"#,
            ..Fake::default()
        };
        assert!(values(&[], "hu", &src).is_empty());
        assert!(values(&["ext", "exec"], "hu", &src).is_empty());
        let info = candidates(&["ext", "info"], "", &src);
        assert_eq!(
            info,
            [
                cand("notes", "extension"),
                cand("quiet", "extension (disabled)")
            ]
        );
        assert_eq!(values(&["ext", "enable"], "", &src), ["quiet"]);
        assert_eq!(values(&["ext", "disable"], "", &src), ["notes"]);
        assert_eq!(values(&["ext", "rollback"], "q", &src), ["quiet"]);
    }

    #[test]
    fn targets_are_pane_ids_and_window_names_as_send_takes_them() {
        let src = Fake {
            panes: vec![pane("%1", "main", "alice"), pane("%2", "work", "bob")],
            sessions: vec!["main".into(), "work".into()],
            ..Fake::default()
        };
        for cmd in ["send", "read", "screen", "wait-done"] {
            assert_eq!(
                values(&[cmd], "", &src),
                ["%1", "%2", "alice", "work:bob"],
                "{cmd}"
            );
        }
        assert_eq!(values(&["send", "--force"], "w", &src), ["work:bob"]);
        assert_eq!(values(&["send"], "main:a", &src), ["main:alice"]);
        let mut gone = pane("%3", "main", "carol");
        gone.dead = true;
        let with_dead = Fake {
            panes: vec![pane("%1", "main", "alice"), gone],
            ..Fake::default()
        };
        assert_eq!(values(&["send"], "", &with_dead), ["%1", "alice"]);
        assert_eq!(
            values(&["read"], "", &with_dead),
            ["%1", "%3", "alice", "carol"]
        );
        assert_eq!(values(&["send", "--wait", "5"], "w", &src), ["work:bob"]);
        assert!(values(&["send", "alice"], "", &src).is_empty());
        assert_eq!(values(&["kill", "--session"], "", &src), ["main", "work"]);
        assert_eq!(values(&["spawn", "--session"], "w", &src), ["work"]);
        assert_eq!(
            values(&["kill"], "", &src),
            ["%1", "%2", "alice", "work:bob", "main", "work"]
        );
        assert_eq!(values(&["session"], "w", &src), ["work"]);
        assert_eq!(values(&["completions"], "", &src), SHELLS);
        assert_eq!(values(&["state"], "b", &src), ["blocked"]);
    }

    #[test]
    fn spawn_hands_its_command_line_to_the_shell_and_grant_offers_authorities() {
        let src = Fake::default();
        assert!(values(&["spawn"], "", &src).is_empty());
        assert_eq!(values(&["spawn", "alice"], "", &src), [COMMANDS]);
        assert_eq!(
            values(&["spawn", "--cwd", "/x", "alice"], "ca", &src),
            [COMMANDS]
        );
        assert_eq!(values(&["spawn", "alice", "cat"], "", &src), ["\tline 1"]);
        assert_eq!(
            values(&["spawn", "alice", "--", "git", "log"], "-", &src),
            ["\tline 2"]
        );
        assert_eq!(
            values(&["spawn", "alice", "--", "git"], "", &src),
            ["\tline 1"]
        );
        for verb in ["update", "rollback"] {
            assert_eq!(
                values(&["ext", verb, "--grant"], "", &src),
                crate::contract::AUTHORITIES,
                "{verb}"
            );
        }
        assert_eq!(
            values(&["ext", "update", "n"], "--grant=f", &src),
            ["--grant=fleet"]
        );
    }

    #[test]
    fn a_window_name_an_agent_filled_with_controls_is_offered_by_pane_id_only() {
        let src = Fake {
            panes: vec![
                pane("%1", "main", "evil\u{202e}txt"),
                pane("%2", "main", "ok"),
            ],
            ..Fake::default()
        };
        assert_eq!(values(&["send"], "", &src), ["%1", "%2", "ok"]);
        let abouts: Vec<String> = candidates(&["send"], "", &src)
            .into_iter()
            .map(|c| c.about)
            .collect();
        assert!(abouts.iter().all(|a| !a.contains('\u{202e}')), "{abouts:?}");
    }

    /// `--opt=VALUE` completes the value, as a whole word; a target that
    /// holds `=` is still a target.
    #[test]
    fn an_option_given_with_equals_completes_its_value() {
        let src = Fake {
            panes: vec![pane("%1", "main", "a=b")],
            ..Fake::default()
        };
        assert_eq!(values(&["send"], "a=", &src), ["a=b"]);
        assert_eq!(values(&["ext", "install"], "--link=x", &src), [DIRS]);
        assert!(values(&["send"], "--force=", &src).is_empty());
    }
}
