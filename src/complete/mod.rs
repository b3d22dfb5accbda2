//! Shell completion: the scripts `roost completions SHELL` prints, and the
//! query they run on every TAB, `roost __complete SHELL CWORD WORDS...`.
//! A query reads the command table, ext.index (ext.lock too, for the names
//! of installed extensions; ext.complete for an extension command's
//! declared arguments) and, only when its socket file exists, the
//! running roost server. It never starts a server, never runs an
//! extension, and prints nothing but candidates. This file reads the query
//! and turns where its word stands (walk.rs) into candidates.

mod commands;
mod declared;
mod output;
pub mod scripts;
mod source;
mod values;
mod walk;

use output::{cand, handed_over, Candidate, LINE};
use source::{Live, Source};
use std::ffi::OsString;
use std::io::Write;
use walk::{At, Position};

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
        [shell, cword, ..] => match (scripts::shell_named(shell), cword.parse::<usize>()) {
            (Some(shell), Ok(n)) => (shell, n),
            _ => return usage(),
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
    let all = candidates(&before, current, &Live::new());
    let _ = std::io::stdout().write_all(&output::render(shell, &all));
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
    eprintln!(
        "usage: roost __complete {} CWORD WORDS...",
        scripts::shell_names()
    );
    2
}

/// The candidates for `current`, given the words between `roost` and it.
fn candidates(before: &[&str], current: &str, src: &impl Source) -> Vec<Candidate> {
    let root = crate::cli::built();
    let mut all = match before {
        // `ext exec NAME ARGS...` runs NAME as typed: its own declared
        // arguments (with --event it runs a handler, which takes none).
        ["ext", "exec", name, rest @ ..] if !name.starts_with('-') => {
            declared::candidates(name, rest, current, src)
        }
        _ => match walk::position(&root, before) {
            Position::First => commands::commands(&root, current, src),
            Position::Nothing => Vec::new(),
            Position::Value { cmd, opt } => values::values(cmd, opt, current, src, &[]),
            Position::Line { back } => vec![cand(format!("{LINE}{back}"), "")],
            Position::At(at) => arguments(at, current, src),
            Position::Extension => declared::candidates(before[0], &before[1..], current, src),
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

/// The candidates at a place between a command's words: an option (after
/// a dash), the value of `--opt=`, a verb, or what fills the next
/// positional.
fn arguments(at: At, current: &str, src: &impl Source) -> Vec<Candidate> {
    let cmd = at.cmd;
    let options = walk::options(cmd);
    // `--link=DI`: the value after `=`, offered as whole words
    // (`--link=` + value); a directory is left to the script.
    let dashed = current.starts_with('-') && !at.operands;
    if let Some((name, value)) = current.split_once('=').filter(|_| dashed) {
        let Some(opt) = walk::option_named(&options, name).filter(|o| walk::takes_value(o)) else {
            return Vec::new();
        };
        return values::with_option(name, values::values(cmd, opt, value, src, &[]));
    }
    if dashed {
        return options
            .iter()
            .filter_map(|o| o.get_long().map(|l| (l, o)))
            .map(|(l, o)| {
                let help = o.get_help().map(|h| h.to_string()).unwrap_or_default();
                cand(format!("--{l}"), help)
            })
            .collect();
    }
    if cmd.has_subcommands() {
        return cmd
            .get_subcommands()
            .map(|s| cand(s.get_name(), commands::about(s)))
            .collect();
    }
    match at.next {
        Some(p) => values::values(cmd, p, current, src, &at.listed),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::output::{COMMANDS, DIRS, FILES};
    use super::*;
    use crate::cli;
    use crate::tmux::Pane;

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
        completion: &'static str,
        panes: Vec<Pane>,
        sessions: Vec<String>,
        presets: Vec<String>,
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
        fn completion(&self) -> Vec<u8> {
            self.completion.as_bytes().to_vec()
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
        fn presets(&self) -> Vec<String> {
            self.presets.clone()
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
            command: Default::default(),
            window_name: window.into(),
            may_ask: false,
            dialog: None,
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
        assert_eq!(
            values(&["spawn"], "-", &src),
            ["--cwd", "--session", "--message"]
        );
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
        // An extension's own arguments are not roost's to guess: only what
        // it declared is offered (see below).
        assert!(values(&["note"], "", &src).is_empty());
    }

    const DECLARED: &str = "note\t\tsub\tadd\t\n\
                            note\t\tsub\tshow\t\n\
                            note\t\topt\t--all\tflag\n\
                            note\t\topt\t--tag\tone-of todo done\n\
                            note\t\topt\t--out\tfile\n\
                            note\tadd\targ\t0\tpane\n\
                            note\tadd\targ\t1\tagent\n\
                            note\tshow\topt\t--in\tsession\n\
                            note\tshow\targ\t0\tdir\n";

    #[test]
    fn an_extension_command_completes_what_its_manifest_declared() {
        let src = Fake {
            index: INDEX,
            completion: DECLARED,
            panes: vec![pane("%1", "main", "alice")],
            sessions: vec!["main".into(), "work".into()],
            presets: vec!["qwen".into()],
            ..Fake::default()
        };
        assert_eq!(values(&["note"], "", &src), ["add", "show"]);
        assert_eq!(values(&["note"], "--", &src), ["--all", "--tag", "--out"]);
        assert_eq!(values(&["note", "--tag"], "", &src), ["todo", "done"]);
        assert_eq!(values(&["note"], "--tag=d", &src), ["--tag=done"]);
        assert_eq!(values(&["note", "--out"], "x", &src), [FILES]);
        assert_eq!(values(&["note"], "--out=x", &src), [FILES]);
        assert_eq!(
            values(&["note", "--all", "--tag", "todo"], "a", &src),
            ["add"]
        );
        assert_eq!(values(&["note", "add"], "", &src), ["%1", "alice"]);
        let agents: Vec<String> = crate::agents::Agent::ALL
            .iter()
            .map(|a| a.name().to_string())
            .chain(["qwen".to_string()])
            .collect();
        assert_eq!(values(&["note", "add", "%1"], "", &src), agents);
        assert!(values(&["note", "add", "%1", "claude"], "", &src).is_empty());
        assert_eq!(values(&["note", "show", "--in"], "w", &src), ["work"]);
        assert_eq!(values(&["note", "show"], "", &src), [DIRS]);
        // `ext exec NAME` completes NAME's arguments as NAME does.
        assert_eq!(values(&["ext", "exec", "note"], "", &src), ["add", "show"]);
        assert_eq!(
            values(&["ext", "exec", "note", "--tag"], "", &src),
            ["todo", "done"]
        );
        assert!(values(&["ext", "exec", "--event", "x", "note"], "", &src).is_empty());
        // Another extension's command, and one that declared nothing.
        assert!(values(&["notes"], "", &src).is_empty());
        assert!(values(&["mark"], "-", &src).is_empty());
        for off in [
            Fake {
                no_ext: true,
                completion: DECLARED,
                ..Fake::default()
            },
            Fake {
                off: true,
                completion: DECLARED,
                ..Fake::default()
            },
        ] {
            assert!(values(&["note"], "", &off).is_empty());
        }
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
            ["--ref", "--link", "--yes", "--grant", "--verbose"]
        );
        assert_eq!(
            values(&["ext", "install", "o/r", "--grant"], "", &src),
            ["fleet", "events"]
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
        assert_eq!(values(&["completions"], "", &src), ["bash", "zsh", "fish"]);
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
