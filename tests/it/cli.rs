//! The command line as users meet it, checked for every command and ext
//! verb the model holds: `--help`, `-h` and `roost help PATH` print the same
//! help (exit 0); a malformed line names the command at its own depth and
//! prints that command's usage line (exit 2); extra words are refused.

use crate::common::{describe, exit_code, exit_of, Exit, TestEnv};
use predicates::prelude::*;
use predicates::str::{contains, starts_with};

/// Every command path of the model: `["spawn"]`, `["ext", "install"]`.
fn paths() -> Vec<Vec<String>> {
    let root = roost::cli::built();
    let mut out = Vec::new();
    for cmd in root.get_subcommands() {
        out.push(vec![cmd.get_name().to_string()]);
        for verb in cmd.get_subcommands() {
            out.push(vec![
                cmd.get_name().to_string(),
                verb.get_name().to_string(),
            ]);
        }
    }
    out
}

/// A malformed line's exit status: 2, but 1 for the commands hooks run.
fn usage_code(path: &[String]) -> i32 {
    if roost::error::HOOK_COMMANDS.contains(&path[0].as_str()) {
        1
    } else {
        2
    }
}

fn command_at<'a>(root: &'a clap::Command, path: &[String]) -> &'a clap::Command {
    path.iter()
        .fold(root, |cmd, name| cmd.find_subcommand(name).unwrap())
}

#[test]
fn every_command_and_verb_has_its_help_three_ways() {
    let env = TestEnv::new();
    let all = paths();
    assert!(all.len() >= 26, "{all:?}");
    for path in all {
        let joined = path.join(" ");
        let by_help = env.run(std::iter::once("help".to_string()).chain(path.clone()));
        assert_eq!(
            exit_of(&by_help),
            Exit::Ok,
            "help {joined}: {}",
            describe(&by_help)
        );
        let text = String::from_utf8(by_help.stdout).unwrap();
        assert!(
            text.contains(&format!("\nUsage: roost {joined}")),
            "help {joined}:\n{text}"
        );
        for flag in ["--help", "-h"] {
            let out = env.run(path.iter().map(String::as_str).chain([flag]));
            assert_eq!(
                exit_of(&out),
                Exit::Ok,
                "{joined} {flag}: {}",
                describe(&out)
            );
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                text,
                "{joined} {flag}"
            );
            assert!(out.stderr.is_empty(), "{joined} {flag}: {}", describe(&out));
        }
    }
}

#[test]
fn an_unknown_option_names_the_command_at_its_depth_with_its_usage_line() {
    let env = TestEnv::new();
    let root = roost::cli::built();
    for path in paths() {
        let joined = path.join(" ");
        let cmd = command_at(&root, &path);
        if cmd
            .get_positionals()
            .next()
            .is_some_and(|a| a.is_allow_hyphen_values_set())
        {
            // Its words may start with '-' (reply's text): --bogus is one.
            continue;
        }
        let out = env.run(path.iter().map(String::as_str).chain(["--bogus"]));
        assert_eq!(
            out.status.code(),
            Some(usage_code(&path)),
            "{joined}: {}",
            describe(&out)
        );
        assert!(out.stdout.is_empty(), "{joined}: {}", describe(&out));
        let usage =
            roost::cli::synopsis::line(&path.iter().map(String::as_str).collect::<Vec<_>>(), cmd);
        let hint = if cmd
            .get_positionals()
            .any(|a| a.is_trailing_var_arg_set() && !a.is_allow_hyphen_values_set())
        {
            " (text that starts with '-' goes after '--')"
        } else {
            ""
        };
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("roost {joined}: unknown option '--bogus'{hint}\nusage: {usage}\n"),
            "{joined}"
        );
    }
}

/// Words that fill every positional of `cmd` with something it accepts.
fn filled(cmd: &clap::Command) -> Option<Vec<String>> {
    let mut words = Vec::new();
    for arg in cmd.get_positionals() {
        if arg.is_trailing_var_arg_set() || arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            // A trailing list takes every word after it: there is no extra.
            return None;
        }
        let value = arg
            .get_possible_values()
            .first()
            .map_or("1".to_string(), |v| v.get_name().to_string());
        words.push(value);
    }
    Some(words)
}

#[test]
fn an_extra_word_is_refused_everywhere_a_list_does_not_take_it() {
    let env = TestEnv::new();
    let root = roost::cli::built();
    let mut checked = 0;
    for path in paths() {
        let cmd = command_at(&root, &path);
        if cmd.has_subcommands() {
            continue;
        }
        let Some(words) = filled(cmd) else { continue };
        let joined = path.join(" ");
        let args: Vec<String> = path
            .iter()
            .cloned()
            .chain(words)
            .chain(["extra".into()])
            .collect();
        let out = env.run(&args);
        assert_eq!(
            out.status.code(),
            Some(usage_code(&path)),
            "{args:?}: {}",
            describe(&out)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!(
                "roost {joined}: unexpected argument 'extra'\nusage: roost {joined}"
            )),
            "{args:?}: {err}"
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} commands checked");
}

#[test]
fn ext_alone_lists_the_verbs() {
    let env = TestEnv::new();
    let mut listed = predicate::always().boxed();
    for verb in roost::cli::EXT_VERBS {
        listed = listed.and(contains(format!("\n  {verb} "))).boxed();
    }
    env.cmd(["ext"])
        .assert()
        .success()
        .stderr("")
        .stdout(listed);
}

#[test]
fn help_refuses_what_is_not_a_command_or_verb() {
    let env = TestEnv::new();
    for (args, msg) in [
        (&["help", "nope"][..], "roost help: 'nope' is not a built-in command (roost ext list shows extension commands)\n"),
        (&["help", "spawn", "extra"][..], "roost help: 'extra' is not a verb of roost spawn\n"),
        (&["help", "ext", "bogus"][..], "roost help: 'bogus' is not a verb of roost ext\n"),
        (&["help", "ext", "install", "x"][..], "roost help: unexpected argument 'x'\n"),
    ] {
        let out = env.run(args);
        assert_eq!(exit_of(&out), Exit::Usage, "{args:?}: {}", describe(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(msg), "{args:?}: {err}");
        assert!(err.ends_with("usage: roost help [COMMAND [VERB]]\n"), "{err}");
    }
}

#[test]
fn an_unknown_verb_gets_a_suggestion_from_the_verbs() {
    let env = TestEnv::new();
    env.cmd(["ext", "instal", "o/r"])
        .assert()
        .code(exit_code(Exit::Usage))
        .stdout("")
        .stderr(
            "roost ext: unknown verb 'instal'; did you mean 'install'?\n\
             usage: roost ext [--verbose] [VERB [ARGS...]]\n",
        );
}

#[test]
fn options_take_their_value_either_way_and_double_dash_ends_them() {
    let env = TestEnv::new();
    for args in [
        &["send", "--wait=0", "x", "y"][..],
        &["send", "--wait", "0", "x", "y"][..],
    ] {
        env.cmd(args)
            .assert()
            .code(exit_code(Exit::Usage))
            .stdout("")
            .stderr(starts_with(
                "roost send: --wait must be a positive whole number, not '0'\n",
            ));
    }
    // Outside a roost pane, reply is a no-op: `-- -x` is text, not an option.
    env.cmd(["reply", "--", "-x"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    // reply and send take text that starts with '-' as it is (hooks pass
    // whatever an agent wrote, and `send B "$(roost read A)"` passes a
    // reply): every word after send's TARGET is text.
    for text in ["-x", "- added --json"] {
        env.cmd(["reply", text])
            .assert()
            .success()
            .stdout("")
            .stderr("");
        env.cmd(["send", "alice", text, "--force"])
            .assert()
            .code(exit_code(Exit::NoTarget))
            .stderr("roost send: no such target 'alice': roost is not running\n");
    }
    env.cmd(["send", "-x", "alice", "hi"]).assert().code(exit_code(Exit::Usage)).stderr(
        "roost send: unknown option '-x'\n\
         usage: roost send [--force] [--when-idle] [--lines] [--paste] [--wait SECONDS] TARGET TEXT...\n",
    );
    // `--help` is text once TEXT has begun.
    env.cmd(["reply", "done", "--help"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
}

#[test]
fn an_option_without_its_value_or_with_one_it_does_not_take_is_named_plainly() {
    let env = TestEnv::new();
    for (args, msg) in [
        (
            &["send", "--wait"][..],
            "roost send: --wait needs a value\n",
        ),
        (
            &["ext", "install", "--ref"][..],
            "roost ext install: --ref needs a value\n",
        ),
        (
            &["ext", "install", "--link="][..],
            "roost ext install: --link needs a value\n",
        ),
        (
            &["send", "--force=yes", "a", "b"][..],
            "roost send: --force takes no value (not 'yes')\n",
        ),
        (
            &["ext", "list", "--json=1"][..],
            "roost ext list: --json takes no value (not '1')\n",
        ),
    ] {
        env.cmd(args)
            .assert()
            .code(exit_code(Exit::Usage))
            .stdout("")
            .stderr(starts_with(msg));
    }
}

/// `roost --help CMD [VERB]` is `roost help CMD [VERB]`, as git reads it.
#[test]
fn help_before_a_command_is_that_commands_help() {
    let env = TestEnv::new();
    for path in [&["spawn"][..], &["ext", "install"][..]] {
        let want = env.cmd(["help"].iter().chain(path)).output().unwrap();
        for flag in ["--help", "-h"] {
            env.cmd([flag].iter().chain(path))
                .assert()
                .success()
                .stderr("")
                .stdout(String::from_utf8(want.stdout.clone()).unwrap());
        }
    }
}

#[test]
fn ext_verbs_typed_at_top_level_point_at_roost_ext() {
    let env = TestEnv::new();
    for verb in ["install", "remove", "update", "list", "verify"] {
        let out = env.run([verb, "owner/repo"]);
        assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
        let err = crate::common::stderr(&out);
        assert_eq!(
            err.lines().next().unwrap(),
            format!("roost: unknown command '{verb}'; did you mean 'roost ext {verb}'?"),
        );
    }
}

#[test]
fn a_mistyped_option_gets_the_close_one_not_the_text_hint() {
    let env = TestEnv::new();
    for (args, first) in [
        (
            &["send", "--forc", "alice", "x"][..],
            "roost send: unknown option '--forc'; did you mean '--force'?",
        ),
        (
            &["status", "--jsn"],
            "roost status: unknown option '--jsn'; did you mean '--json'?",
        ),
        (
            &["ext", "update", "--al"],
            "roost ext update: unknown option '--al'; did you mean '--all'?",
        ),
    ] {
        let out = env.run(args);
        assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
        assert_eq!(crate::common::stderr(&out).lines().next().unwrap(), first);
    }
}

#[test]
fn a_local_directory_given_to_ext_install_suggests_link() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.path("work/roost-note")).unwrap();
    for (given, why) in [
        ("./roost-note", "OWNER may not be \".\""),
        ("roost-note", "it must contain exactly one '/'"),
    ] {
        let out = env.run(["ext", "install", given]);
        assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
        assert_eq!(
            crate::common::stderr(&out),
            format!(
                "roost ext install: \"{given}\" is not OWNER/REPO: {why}\n\
                 to run a local checkout in place: roost ext install --link {given}\n"
            )
        );
    }
}

#[test]
fn help_passes_on_to_an_installed_extension_and_lists_its_commands() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note", "notes"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    assert_eq!(env.ok(["help", "note"]), "note [--help]\n");
    assert_eq!(env.ok(["help", "notes", "add"]), "notes [add] [--help]\n");
    let text = env.ok(["help"]);
    assert!(
        text.ends_with(
            "\nExtension commands (roost help CMD shows its page, or runs roost CMD --help):\n  note   from extension note\n  notes  from extension note\n"
        ),
        "{text}"
    );
    let out = env.run(["help", "nope"]);
    assert_eq!(exit_of(&out), Exit::Usage);
}

/// Plain `roost help` lists each extension command with what its
/// manifest says the extension is for, escaped and cut to fit 80 columns;
/// without a description, or with a manifest that is not a regular file
/// (read without blocking), which extension it is from.
#[test]
fn help_lists_extension_commands_with_their_manifests_description() {
    let env = TestEnv::new();
    let manifest = |name: &str, commands: &[&str], about: &str| {
        serde_json::json!({"name": name, "contract": 1, "commands": commands,
                           "needs": [], "description": about})
    };
    crate::ext::install::ext_with(
        &env,
        "owner/roost-mark",
        manifest(
            "mark",
            &["mark", "marks"],
            "Bookmarks for panes \u{2014} caf\u{e9}",
        ),
        &["mark", "marks"],
    );
    let long = "a long description ".repeat(10);
    crate::ext::install::ext_with(
        &env,
        "owner/roost-tally",
        manifest("tally", &["tally"], long.trim()),
        &["tally"],
    );
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    for repo in ["owner/roost-mark", "owner/roost-tally", "owner/roost-note"] {
        env.ok(["ext", "install", repo, "--yes"]);
    }
    let text = env.ok(["help"]);
    let listed = text
        .split_once(
            "\nExtension commands (roost help CMD shows its page, or runs roost CMD --help):\n",
        )
        .map(|(_, l)| l.to_string())
        .unwrap_or_else(|| panic!("{text}"));
    let tally = format!(
        "  tally  {}... (extension tally)",
        &long[..80 - "  tally  ".len() - "... (extension tally)".len()].trim_end()
    );
    assert_eq!(
        listed,
        format!(
            "  mark   Bookmarks for panes \u{2014} caf\u{e9} (extension mark)\n\
             \x20 marks  Bookmarks for panes \u{2014} caf\u{e9} (extension mark)\n\
             \x20 note   from extension note\n\
             {tally}\n"
        )
    );
    assert!(listed.lines().all(|l| l.chars().count() <= 80), "{listed}");
    // A manifest swapped for a FIFO nobody writes: named, not waited on.
    let manifest = env.path("data/roost/ext/mark/roost-ext.json");
    std::fs::remove_file(&manifest).unwrap();
    nix::unistd::mkfifo(&manifest, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let started = std::time::Instant::now();
    let text = env.ok(["help"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(text.contains("\n  mark   from extension mark\n"), "{text}");
}

/// The footer of `roost --help` states send's rule as the parser has it:
/// every word after TARGET is text, a dashed one too.
#[test]
fn the_top_level_help_footer_states_send_s_text_rule() {
    let env = TestEnv::new();
    let help = env.ok(["--help"]);
    assert!(!help.contains("goes after '--'"), "{help}");
    let rule = "roost send alice -v sends -v.";
    assert!(help.contains(rule), "{help}");
    // And it is so: -v after TARGET is text, not an unknown option.
    let out = env.run(["send", "nosuchagent", "-v"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
    assert!(!describe(&out).contains("option"), "{}", describe(&out));
}

/// What help prints for `path`: `roost help PATH`, and for a command with
/// verbs also `roost PATH` alone (its list of verbs).
fn helps(env: &TestEnv) -> Vec<(String, String)> {
    let mut out = vec![("roost --help".to_string(), env.ok(["--help"]))];
    for path in paths() {
        let joined = path.join(" ");
        out.push((
            format!("roost help {joined}"),
            env.ok(std::iter::once("help".to_string()).chain(path.clone())),
        ));
    }
    for parent in ["ext", "hooks"] {
        out.push((format!("roost {parent}"), env.ok([parent])));
    }
    out
}

#[test]
fn every_help_fits_80_columns() {
    let env = TestEnv::new();
    let mut wide = Vec::new();
    for (what, text) in helps(&env) {
        for line in text.lines().filter(|l| l.chars().count() > 80) {
            wide.push(format!("{what}: {} columns: {line}", line.chars().count()));
        }
    }
    assert!(
        wide.is_empty(),
        "lines past 80 columns:\n{}",
        wide.join("\n")
    );
}

/// The words of a paragraph as help fills it: a `quoted span` is one.
fn units(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut word, mut quoted) = (String::new(), false);
    for c in text.chars() {
        if c == '`' {
            quoted = !quoted;
        }
        if c.is_whitespace() && !quoted {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
        } else {
            word.push(if c.is_whitespace() { ' ' } else { c });
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A command's description (what help prints above `Usage:`) is filled
/// evenly to 76 columns: no line past it but a lone long word, and none
/// that leaves room for the next line's first word (ragged reflow).
#[test]
fn every_commands_description_is_filled_evenly() {
    let env = TestEnv::new();
    let mut ragged = Vec::new();
    for (what, text) in helps(&env).into_iter().skip(1) {
        let Some((description, _)) = text.split_once("\nUsage: ") else {
            continue;
        };
        for paragraph in description.split("\n\n") {
            let lines: Vec<&str> = paragraph.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let width = line.chars().count();
                if width > 76 && units(line).len() > 1 {
                    ragged.push(format!("{what}: past 76 columns: {line}"));
                }
                if let Some(next) = lines.get(i + 1) {
                    let first = units(next).into_iter().next().unwrap_or_default();
                    if width + 1 + first.chars().count() <= 76 {
                        ragged.push(format!("{what}: room for '{first}' after: {line}"));
                    }
                }
            }
        }
    }
    assert!(ragged.is_empty(), "ragged help:\n{}", ragged.join("\n"));
}

/// No help says one thing twice: no run of eight words comes back in its
/// description or its exit statuses.
#[test]
fn no_help_says_one_thing_twice() {
    let env = TestEnv::new();
    let mut twice = Vec::new();
    for (what, text) in helps(&env).into_iter().skip(1) {
        let Some((description, rest)) = text.split_once("\nUsage: ") else {
            continue;
        };
        let statuses = rest.split_once("\nExit status:").map_or("", |(_, s)| s);
        let words: Vec<&str> = description
            .split_whitespace()
            .chain(statuses.split_whitespace())
            .collect();
        let mut seen = std::collections::HashMap::new();
        for (i, run) in words.windows(8).enumerate() {
            match seen.get(run) {
                Some(&first) if i - first >= 8 => {
                    twice.push(format!("{what}: \"{}\"", run.join(" ")));
                    break;
                }
                Some(_) => {}
                None => {
                    seen.insert(run, i);
                }
            }
        }
    }
    assert!(twice.is_empty(), "said twice:\n{}", twice.join("\n"));
}

/// The options `--help` lists, in its order: `--ref`, `-y`, … (without
/// `--help`), by their long names.
fn options_in_help(text: &str) -> Vec<String> {
    let Some((_, options)) = text.split_once("\nOptions:\n") else {
        return Vec::new();
    };
    options
        .lines()
        .take_while(|l| !l.starts_with(|c: char| c.is_alphabetic()))
        // An option's own line; its help is indented 10 columns below it.
        .filter(|l| {
            let text = l.trim_start();
            text.starts_with('-') && l.len() - text.len() < 10
        })
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| w.trim_end_matches(',').to_string())
        .filter(|w| w != "--help")
        .collect()
}

/// The options a man entry lists, in its order.
fn options_in_man(page: &str, path: &str) -> Vec<String> {
    let tag = format!(".TP\n\\fBroost {}\\fR", path.replace('-', "\\-"));
    let Some(entry) = page
        .split(&tag)
        .skip(1)
        .find(|e| e.starts_with([' ', '\n']))
    else {
        panic!("no man entry for roost {path}");
    };
    let entry = entry.split("\n.TP\n\\fBroost ").next().unwrap();
    let Some((_, options)) = entry.split_once("\n.RS\n") else {
        return Vec::new();
    };
    options
        .split("\n.RE\n")
        .next()
        .unwrap()
        .split(".TP\n")
        .filter_map(|item| {
            let first = item
                .lines()
                .next()?
                .replace("\\-", "-")
                .replace("\\fB", " ");
            first
                .split(|c: char| c.is_whitespace() || c == '\\')
                .find(|w| w.starts_with("--"))
                .map(|w| w.trim_end_matches(',').to_string())
        })
        .collect()
}

#[test]
fn help_lists_options_in_the_order_of_the_man_entry() {
    let env = TestEnv::new();
    let root =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/roost.1")).unwrap();
    let ext =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/man/roost-ext.1")).unwrap();
    let mut checked = 0;
    for path in paths() {
        let joined = path.join(" ");
        let page = if path[0] == "ext" && path.len() > 1 {
            &ext
        } else {
            &root
        };
        if path.len() > 1 && path[0] != "ext" {
            continue; // hooks' verbs have no entry of their own
        }
        let help = env.ok(std::iter::once("help".to_string()).chain(path.clone()));
        let in_help = options_in_help(&help);
        let in_man = options_in_man(page, &joined);
        assert_eq!(
            in_help, in_man,
            "roost {joined}: --help, then the man entry"
        );
        checked += usize::from(in_help.len() > 1);
    }
    assert!(
        checked >= 8,
        "only {checked} commands with two options or more"
    );
}
