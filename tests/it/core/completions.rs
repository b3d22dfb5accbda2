//! The completion scripts in the real shells: each test sources the
//! checked-in script in bash, zsh (its completion system, in a pty) and fish,
//! asks for the completions of a partial command line, and checks what the
//! shell offers. The roost those scripts call is the binary under test, first
//! on PATH. A missing shell is skipped with a notice, unless
//! ROOST_TEST_REQUIRE_ALL=1 (set by .ci/run), which turns the skip into a failure.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SCRIPTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/completions");

/// The checked-in file for each shell.
const FILES: &[(&str, &str)] = &[
    ("bash", "roost.bash"),
    ("zsh", "_roost"),
    ("fish", "roost.fish"),
];

/// Types LINE and a TAB into an interactive `zsh -f` (in a pty, through
/// zsh/zpty) with compinit and the scripts directory on fpath. A compadd
/// wrapper asks the real compadd which of the offered words match (-O) and
/// appends them to OUT; when completion is over, `DONE` is appended and the
/// shell exits.
const ZSH_HARNESS: &str = r#"
zmodload zsh/zpty || exit 3
zpty roostz 'zsh -f -i'
zpty -w roostz "PROMPT=; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w roostz "__out=${(q)2}"
zpty -w roostz 'compadd() { local -a __m; builtin compadd -O __m "$@"; print -rl -- $__m >>| $__out; }'
zpty -w roostz 'comppostfuncs=(__done); __done() { print -r -- DONE >>| $__out; exit }'
zpty -n -w roostz "$3"$'\t'
until [[ -f $2 && "$(<$2)" == *DONE* ]]; do
    zpty -rt roostz >/dev/null || sleep 0.02
done
"#;

#[derive(Clone, Copy, Debug)]
enum Shell {
    Bash,
    Zsh,
    Fish,
}

impl Shell {
    fn name(self) -> &'static str {
        match self {
            Shell::Bash => "bash",
            Shell::Zsh => "zsh",
            Shell::Fish => "fish",
        }
    }
}

/// The shells to test in; a missing one is skipped (or fails the test under
/// ROOST_TEST_REQUIRE_ALL=1).
fn shells() -> Vec<Shell> {
    [Shell::Bash, Shell::Zsh, Shell::Fish]
        .into_iter()
        .filter(|shell| {
            // Looked up, not run: a shell started here would read and
            // write the real HOME (fish creates ~/.config/fish).
            let found = on_path(shell.name());
            if !found {
                skip_without(&format!("{} is not installed", shell.name()));
            }
            found
        })
        .collect()
}

/// A TestEnv whose shells find the roost under test first on PATH.
struct Env {
    env: TestEnv,
    bin: PathBuf,
}

impl Env {
    fn new() -> Env {
        let env = TestEnv::new();
        let bin = env.path("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(ROOST, bin.join("roost")).unwrap();
        Env { env, bin }
    }

    fn vars(&self, extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut vars: Vec<(String, String)> = self
            .env
            .vars()
            .into_iter()
            .filter(|(k, _)| k != "PATH" && !extra.iter().any(|(e, _)| e == k))
            .collect();
        let path = std::env::var("PATH").unwrap_or_default();
        vars.push(("PATH".into(), format!("{}:{path}", self.bin.display())));
        vars.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        vars
    }

    /// What SHELL offers for LINE with the cursor at its end.
    fn complete(&self, shell: Shell, line: &str) -> Vec<String> {
        self.complete_with(shell, line, &[])
    }

    fn complete_with(&self, shell: Shell, line: &str, extra: &[(&str, &str)]) -> Vec<String> {
        let out_file = self.env.path("zsh-matches");
        let _ = std::fs::remove_file(&out_file);
        let mut cmd = Command::new("timeout");
        cmd.arg("30");
        match shell {
            Shell::Bash => {
                let (words, cword) = bash_words(line);
                let quoted: Vec<String> = words.iter().map(|w| sq(w)).collect();
                let script = format!(
                    "source {file}\nCOMP_LINE={line}; COMP_POINT={point}\nCOMP_WORDS=({words}); COMP_CWORD={cword}\n_roost\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
                    file = sq(&script_path("bash")),
                    line = sq(line),
                    point = line.len(),
                    words = quoted.join(" "),
                );
                cmd.args(["bash", "--norc", "--noprofile", "-c", &script]);
            }
            Shell::Zsh => {
                let harness = self.env.write("zsh-harness.zsh", ZSH_HARNESS);
                cmd.args(["zsh", "-f"])
                    .arg(harness)
                    .arg(SCRIPTS)
                    .arg(&out_file)
                    .arg(line);
            }
            Shell::Fish => {
                // --no-config leaves fish's own completions unloaded; a
                // login fish has them (for spawn's command line).
                let script = format!(
                    "set -g fish_complete_path $__fish_data_dir/completions; source {}; complete -C {}",
                    fish_quote(&script_path("fish")),
                    fish_quote(line)
                );
                cmd.args(["fish", "--no-config", "-c", &script]);
            }
        }
        let out = cmd
            .env_clear()
            .envs(self.vars(extra))
            .current_dir(self.env.path("work"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{} completing {line:?}: {}",
            shell.name(),
            describe(&out)
        );
        let text = match shell {
            Shell::Zsh => std::fs::read_to_string(&out_file).unwrap(),
            _ => String::from_utf8(out.stdout).unwrap(),
        };
        let text = match shell {
            Shell::Zsh => text
                .strip_suffix("DONE\n")
                .unwrap_or_else(|| panic!("zsh completing {line:?} did not finish: {text:?}"))
                .to_string(),
            _ => text,
        };
        text.lines()
            .filter(|l| !l.is_empty())
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect()
    }

    /// Asserts that SHELL offers exactly `want` for LINE.
    fn completes(&self, shell: Shell, line: &str, want: &[&str]) {
        let got = self.complete(shell, line);
        assert_eq!(
            got,
            want,
            "{} completing {line:?}; roost itself answers {:?}",
            shell.name(),
            self.direct(line)
        );
    }

    /// Asserts that SHELL offers each of `want` for LINE.
    fn offers(&self, shell: Shell, line: &str, want: &[&str]) {
        let got = self.complete(shell, line);
        for w in want {
            assert!(
                got.iter().any(|g| g == w),
                "{} completing {line:?}: {w:?} missing from {got:?}; roost itself answers {:?}",
                shell.name(),
                self.direct(line)
            );
        }
    }
}

impl Env {
    /// What `roost __complete` answers for LINE, without a shell (for
    /// failure messages).
    fn direct(&self, line: &str) -> String {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if line.ends_with(' ') {
            words.push("");
        }
        let cword = (words.len() - 1).to_string();
        let out = self
            .env
            .roost(["__complete", "bash", cword.as_str()].iter().chain(&words))
            .output()
            .unwrap();
        describe(&out)
    }
}

fn script_path(shell: &str) -> String {
    let file = FILES.iter().find(|(s, _)| *s == shell).unwrap().1;
    format!("{SCRIPTS}/{file}")
}

/// COMP_WORDS and COMP_CWORD as bash builds them: words split at blanks
/// outside quotes, and again at `:` and `=` (COMP_WORDBREAKS) outside
/// quotes, which become words of their own; quotes and backslashes stay in
/// the words as typed.
fn bash_words(line: &str) -> (Vec<String>, usize) {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                word.push(c);
            }
            (Some(_), c) => word.push(c),
            (None, '\\') => {
                word.push(c);
                word.extend(chars.next());
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                word.push(c);
            }
            (None, ' ' | '\t') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            (None, ':' | '=') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                words.push(c.to_string());
            }
            (None, c) => word.push(c),
        }
    }
    // Right after a ':' or '=', the separator itself is the current word.
    let after_separator = word.is_empty()
        && quote.is_none()
        && words.last().is_some_and(|w| w == ":" || w == "=")
        && !line.ends_with([' ', '\t']);
    if !after_separator {
        words.push(word);
    }
    let cword = words.len() - 1;
    (words, cword)
}

fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn fish_quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', r"\\").replace('\'', r"\'"))
}

#[test]
fn core_commands_and_their_flags_complete_in_every_shell() {
    let env = Env::new();
    for shell in shells() {
        env.completes(shell, "roost sp", &["spawn"]);
        env.offers(shell, "roost send --", &["--force"]);
        env.offers(shell, "roost ", &["up", "start", "wait-done", "ext"]);
        env.offers(shell, "roost completions ", &["bash", "zsh", "fish"]);
        let dashed = env.complete(shell, "roost ");
        assert!(
            !dashed.iter().any(|w| w.starts_with('-')),
            "{shell:?}: {dashed:?}"
        );
        env.offers(shell, "roost -", &["--help", "--version"]);
    }
}

#[test]
fn variable_assignments_in_front_of_roost_are_not_its_words() {
    let env = Env::new();
    for shell in shells() {
        env.completes(shell, "LANG=C roost sp", &["spawn"]);
        env.completes(shell, "A=1 B_2=x=y roost ext inst", &["install"]);
    }
}

#[test]
fn ext_offers_its_verbs_in_every_shell() {
    let env = Env::new();
    for shell in shells() {
        env.offers(
            shell,
            "roost ext ",
            &["install", "list", "info", "verify", "update", "remove"],
        );
        env.offers(shell, "roost ext install --", &["--ref", "--yes"]);
        // `help` follows the model's depth: ext's verbs, then nothing.
        env.offers(shell, "roost help ext ", &["install", "rollback"]);
        env.completes(shell, "roost help ext install ", &[]);
        env.completes(shell, "roost help spawn ", &[]);
    }
}

#[test]
fn an_installed_extension_completes_until_it_is_removed() {
    let env = Env::new();
    env.env
        .simple_ext("owner/roost-note", "note", &["note"], &[]);
    let shells = shells();
    for &shell in &shells {
        assert!(!env
            .complete(shell, "roost no")
            .contains(&"note".to_string()));
    }
    env.env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    for &shell in &shells {
        env.completes(shell, "roost no", &["note"]);
        env.offers(shell, "roost ", &["note", "spawn"]);
        env.completes(shell, "roost ext info ", &["note"]);
        env.completes(shell, "roost ext remove n", &["note"]);
        for off in ["1", "0"] {
            let got = env.complete_with(shell, "roost no", &[("ROOST_NO_EXT", off)]);
            assert!(got.is_empty(), "{shell:?} ROOST_NO_EXT={off}: {got:?}");
        }
        // Nothing of the extension runs to complete its arguments.
        assert!(env.complete(shell, "roost note ").is_empty(), "{shell:?}");
    }
    env.env.ok(["ext", "remove", "note"]);
    for &shell in &shells {
        let got = env.complete(shell, "roost no");
        assert!(got.is_empty(), "{shell:?}: {got:?}");
        assert!(
            env.complete(shell, "roost ext info ").is_empty(),
            "{shell:?}"
        );
    }
}

#[test]
fn targets_are_the_panes_and_windows_of_the_running_server() {
    let env = Env::new();
    let alice = env.env.spawn("alice", "sleep 600");
    env.env
        .tmux_ok(&["new-session", "-d", "-s", "work", "-n", "bob", "sleep 600"]);
    let bob = env
        .env
        .tmux_ok(&["display-message", "-p", "-t", "work:bob", "#{pane_id}"])
        .trim()
        .to_string();
    // A name with a TAB, an escape or a direction control would break the
    // one-per-line answer or paint the terminal: it is not offered. (tmux
    // 3.8 refuses the first two itself; every release takes the third.)
    for name in ["odd\tname", "esc\u{1b}[31m"] {
        let _ = env
            .env
            .tmux(&["new-window", "-d", "-t", "main:", "-n", name]);
    }
    env.env
        .tmux_ok(&["new-window", "-d", "-t", "main:", "-n", "rlo\u{202e}x"]);
    for shell in shells() {
        let got = env.complete(shell, "roost send ");
        assert!(
            !got.iter()
                .any(|g| g.contains("odd") || g.contains("esc") || g.contains("rlo")),
            "{shell:?}: {got:?}"
        );
        for cmd in ["send", "read", "screen", "wait-done"] {
            env.offers(
                shell,
                &format!("roost {cmd} "),
                &[&alice, &bob, "alice", "work:bob"],
            );
        }
        env.offers(shell, "roost send --force al", &["alice"]);
        env.offers(shell, "roost kill ", &["main", "work"]);
        env.offers(shell, "roost session w", &["work"]);
    }
}

#[test]
fn bash_completes_a_window_after_the_colon_it_splits_at() {
    let env = Env::new();
    env.env.ok(["session", "work"]);
    env.env
        .tmux_ok(&["new-window", "-d", "-t", "work:", "-n", "bob"]);
    if shells().iter().any(|s| matches!(s, Shell::Bash)) {
        // bash replaces only the fragment after ':' with each candidate,
        // also when it is still empty.
        assert_eq!(env.complete(Shell::Bash, "roost send work:b"), ["bob"]);
        assert!(env
            .complete(Shell::Bash, "roost send work:")
            .contains(&"bob".to_string()));
    }
}

#[test]
fn a_query_never_starts_a_server() {
    let env = Env::new();
    env.env
        .simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    assert!(!env.env.socket_file().exists());
    for shell in shells() {
        for line in [
            "roost send ",
            "roost kill ",
            "roost n",
            "roost ",
            "roost ext info ",
        ] {
            env.complete(shell, line);
            assert!(
                !env.env.socket_file().exists(),
                "{shell:?} completing {line:?} started a server"
            );
        }
        assert_eq!(env.complete(shell, "roost send "), Vec::<String>::new());
    }
    assert!(!env.env.server_running());
}

#[test]
fn completions_for_an_unknown_shell_is_a_usage_error_naming_the_shells() {
    let env = TestEnv::new();
    let out = env.run(["completions", "tcsh"]);
    assert_eq!(
        quiet(&out, Exit::Usage),
        "roost completions: unknown shell 'tcsh' (one of bash, zsh, fish)\nusage: roost completions SHELL\n"
    );
}

/// The scripts in completions/ are what `roost completions SHELL` prints.
#[test]
fn roost_completions_prints_the_scripts_in_completions() {
    let env = TestEnv::new();
    for (shell, file) in FILES {
        let script = std::fs::read_to_string(Path::new(SCRIPTS).join(file)).unwrap();
        env.cmd(["completions", shell])
            .assert()
            .success()
            .stderr("")
            .stdout(script);
    }
}

/// A window name with a blank is offered quoted where the shell needs it,
/// and completes again once its first part is typed, escaped or quoted.
#[test]
fn a_window_name_with_a_blank_completes_and_completes_again_once_begun() {
    let env = Env::new();
    env.env.spawn("my alice", "sleep 600");
    for shell in shells() {
        for line in ["roost send my", r"roost send my\ a", "roost send 'my a"] {
            // bash quotes it, unless readline is inside an open quote,
            // where readline closes the quote itself.
            let want = match shell {
                Shell::Bash if !line.contains('\'') => r"my\ alice",
                _ => "my alice",
            };
            env.completes(shell, line, &[want]);
        }
    }
}

/// Directory arguments complete directories (not files) in every shell,
/// also after `--link=`.
#[test]
fn directory_arguments_complete_directories_in_every_shell() {
    let env = Env::new();
    std::fs::create_dir_all(env.env.path("work/subdir")).unwrap();
    env.env.write("work/subfile", "not a directory\n");
    for shell in shells() {
        // fish shows a directory with its slash; zsh's matcher is asked twice.
        let dir = match shell {
            Shell::Fish => "subdir/",
            _ => "subdir",
        };
        for line in [
            "roost ext check su",
            "roost ext new note su",
            "roost ext install --link su",
            "roost ext install --link=su",
            "roost ext install --link=",
        ] {
            let mut got = env.complete(shell, line);
            got.dedup();
            let want = match (shell, line.contains('=')) {
                (Shell::Fish, true) => format!("--link={dir}"),
                _ => dir.to_string(),
            };
            assert_eq!(got, [want], "{shell:?} completing {line:?}");
        }
    }
}

/// spawn's CMD completes from the shell's commands, and its arguments as
/// the shell completes that command (files at least; zsh and fish also
/// run the command's own completion); --grant offers the authorities.
#[test]
fn spawn_completes_its_command_and_the_command_s_own_words() {
    let env = Env::new();
    std::fs::create_dir_all(env.env.path("work/subdir")).unwrap();
    env.env.write("work/subfile", "a file\n");
    for shell in shells() {
        env.offers(shell, "roost spawn alice slee", &["sleep"]);
        env.offers(shell, "roost spawn --cwd /tmp alice slee", &["sleep"]);
        let mut files = env.complete(shell, "roost spawn alice cat sub");
        files.sort();
        files.dedup();
        let want: &[&str] = match shell {
            Shell::Fish => &["subdir/", "subfile"],
            _ => &["subdir", "subfile"],
        };
        assert_eq!(files, want, "{shell:?}");
        env.offers(shell, "roost spawn alice -- cat -n sub", &["subfile"]);
        let mut grants = env.complete(shell, "roost ext update --grant ");
        // fish sorts what it offers; the others keep roost's order.
        grants.sort();
        assert_eq!(grants, ["events", "fleet"], "{shell:?}");
    }
    // zsh and fish run git's own completion for git's words.
    for shell in shells() {
        if !matches!(shell, Shell::Bash) && on_path("git") {
            env.offers(shell, "roost spawn alice git chec", &["checkout"]);
        }
    }
}

/// An extension whose manifest declares its commands' grammar: `note` with
/// subcommands, options of each kind, and a program that leaves a file
/// behind if anything ever runs it.
fn declaring_ext(env: &Env) -> PathBuf {
    let ran = env.env.path("ran");
    let f = env.env.ext_repo("owner/roost-note");
    let manifest = serde_json::json!({
        "name": "note", "contract": 1, "commands": ["note"],
        "completion": {"note": {
            "options": {"--tag": ["todo", "done"], "--out": "file", "--all": "flag"},
            "subcommands": {
                "add": {"args": ["agent"]},
                "show": {"args": ["dir"]}
            }
        }}
    });
    f.write(
        "roost-ext.json",
        &serde_json::to_string_pretty(&manifest).unwrap(),
    );
    f.exec(
        "bin/roost-note",
        &format!("#!/bin/sh\ntouch {}\n", sq(&ran.to_string_lossy())),
    );
    f.commit("first");
    env.env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    ran
}

/// What SHELL offers for LINE, sorted once each (zsh's matcher is asked
/// twice, and shells order differently).
fn sorted(env: &Env, shell: Shell, line: &str) -> Vec<String> {
    let mut got = env.complete(shell, line);
    got.sort();
    got.dedup();
    got
}

#[test]
fn an_extension_s_declared_arguments_complete_in_every_shell() {
    let env = Env::new();
    let ran = declaring_ext(&env);
    std::fs::create_dir_all(env.env.path("work/subdir")).unwrap();
    env.env.write("work/subfile", "a file\n");
    for shell in shells() {
        let dir = match shell {
            Shell::Fish => "subdir/",
            _ => "subdir",
        };
        for (line, want) in [
            ("roost note ", vec!["add", "show"]),
            ("roost note --all s", vec!["show"]),
            ("roost note --t", vec!["--tag"]),
            ("roost note --tag ", vec!["done", "todo"]),
            ("roost note --tag d", vec!["done"]),
            ("roost note add cl", vec!["claude"]),
            ("roost note show su", vec![dir]),
            ("roost note --out su", vec![dir, "subfile"]),
            ("roost note add claude ", vec![]),
        ] {
            assert_eq!(
                sorted(&env, shell, line),
                want,
                "{shell:?} completing {line:?}; roost itself answers {:?}",
                env.direct(line)
            );
        }
        assert!(!ran.exists(), "{shell:?}: completing ran the extension");
    }
    // The program is real: it leaves the file when it does run.
    env.env.ok(["note"]);
    assert!(ran.exists());
}
