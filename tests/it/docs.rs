//! The docs say what the program does. Each command's exit statuses are
//! written once, in the command model (`roost::cli::model::exits`): its
//! `--help`, its man entry and roost(1)'s EXIT STATUS are drawn from it,
//! and README's command table (written by hand) is compared with it here,
//! synopses included. And the facts that drifted apart once: how `reply`
//! takes dashed text, how codex resumes, what ROOST_EXT_GIT_BASE may be.

use crate::common::{describe, exit_of, Exit, TestEnv};
use roost::cli::model::exits;
use std::collections::BTreeMap;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap()
}

/// Roff as a reader sees the words: fonts and escapes gone, lines joined.
fn unroff(text: &str) -> String {
    text.replace("\\fB", "")
        .replace("\\fR", "")
        .replace("\\fI", "")
        .replace("\\-", "-")
        .replace("\\&", "")
        .replace("\\e", "\\")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The cells of a Markdown table row, `\|` read as `|` inside a cell.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// The `code spans` of a cell.
fn spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.replace('…', "..."))
        .collect()
}

/// README's command table: each row's first cell and its exit codes, by
/// the command the row is for.
fn readme_commands() -> BTreeMap<String, (Vec<String>, String)> {
    let readme = read("README.md");
    let table = readme
        .split_once("| command | what it does | exit codes |\n|---|---|---|\n")
        .expect("README has its command table")
        .1;
    let mut rows = BTreeMap::new();
    for line in table.lines().take_while(|l| l.starts_with('|')) {
        let c = cells(line);
        assert_eq!(c.len(), 3, "{line}");
        let words = spans(&c[0]);
        let first = words.first().expect("a row names its command");
        let name = match first.split_whitespace().next().unwrap() {
            "roost" => "up".to_string(),
            w => w.to_string(),
        };
        assert!(
            rows.insert(name.clone(), (words, c[2].clone())).is_none(),
            "README's command table has two rows for {name}"
        );
    }
    rows
}

/// Every command of the model has one row in README's command table, its
/// code spans are the model's synopses (without `roost `) of the command
/// or its verbs, or the words that run it, and its exit codes are those
/// the model gives (`exits::line`), word for word.
#[test]
fn readmes_command_table_gives_the_models_synopses_and_exit_statuses() {
    let root = roost::cli::built();
    let rows = readme_commands();
    let mut wrong = Vec::new();
    for cmd in root.get_subcommands() {
        let name = cmd.get_name();
        let Some((words, codes)) = rows.get(name) else {
            wrong.push(format!("{name}: no row"));
            continue;
        };
        let mut allowed: Vec<String> = vec![roost::cli::synopsis::line(&[name], cmd)];
        for verb in cmd.get_subcommands() {
            allowed.push(roost::cli::synopsis::line(&[name, verb.get_name()], verb));
        }
        let mut allowed: Vec<String> = allowed
            .iter()
            .map(|s| s.strip_prefix("roost ").unwrap().to_string())
            .collect();
        allowed.extend(cmd.get_all_aliases().map(String::from));
        allowed.extend(cmd.get_all_long_flag_aliases().map(|f| format!("--{f}")));
        allowed.extend(cmd.get_all_short_flag_aliases().map(|f| format!("-{f}")));
        match name {
            "up" => allowed.push("roost".into()),
            "help" => allowed.extend(["-h".into(), "--help".into()]),
            _ => {}
        }
        for word in words {
            if !allowed.contains(word) {
                wrong.push(format!("{name}: `{word}` is none of {allowed:?}"));
            }
        }
        let want = exits::line(name);
        if *codes != want {
            wrong.push(format!(
                "{name}: exit codes\n    README: {codes}\n    model:  {want}"
            ));
        }
    }
    for name in rows.keys() {
        if root.find_subcommand(name).is_none() {
            wrong.push(format!("{name}: a row for no command of the model"));
        }
    }
    assert!(
        wrong.is_empty(),
        "README's command table disagrees with the command model:\n{}",
        wrong.join("\n")
    );
}

/// roost(1)'s and roost-ext(1)'s EXIT STATUS give every status a command
/// on the page documents, with what it means; each entry gives its own
/// statuses as the model has them, and `--help` ends with the same.
#[test]
fn the_pages_and_help_give_each_commands_exit_statuses() {
    let env = TestEnv::new();
    let root = roost::cli::built();
    for (page, parent, path) in [
        ("man/roost.1", &root, &[][..]),
        (
            "man/roost-ext.1",
            root.find_subcommand("ext").unwrap(),
            &["ext"][..],
        ),
    ] {
        let text = read(page);
        let section = text
            .split_once(".SH EXIT STATUS\n")
            .unwrap_or_else(|| panic!("{page} has no EXIT STATUS"))
            .1;
        let section = section.split("\n.SH ").next().unwrap();
        for cmd in parent.get_subcommands() {
            let joined: Vec<&str> = path.iter().copied().chain([cmd.get_name()]).collect();
            let joined = joined.join(" ");
            for (exit, _) in exits::of(&joined) {
                assert!(
                    section.contains(&format!(".TP\n{}\n", exit.code())),
                    "{page}'s EXIT STATUS has no {} ({joined} exits with it)",
                    exit.code()
                );
            }
            // The page sets a `quoted` word in bold.
            let want = format!("Exit status: {}.", exits::line(&joined)).replace('`', "");
            assert!(
                unroff(&text).contains(&want),
                "{page} does not give {joined}'s: {want}"
            );
            let help = env.ok(["help"].into_iter().chain(joined.split(' ')));
            let block = exits::help_block(&joined);
            assert!(
                help.ends_with(&format!("{block}\n")),
                "help {joined}:\n{help}"
            );
        }
    }
    // Every status of send's, 6 and 4's present meaning included.
    let roost_1 = unroff(&read("man/roost.1"));
    assert!(
        roost_1.contains(
            "6 For spawn and send: the text and Enter were typed, but roost could not confirm"
        ),
        "{roost_1}"
    );
    assert!(roost_1.contains(
        "4 For spawn and send: the program could not take the text in time (send's --wait;"
    ));
}

/// `reply` takes text that starts with `-` as it comes (hooks pass what an
/// agent wrote), and no doc says it must go after `--`.
#[test]
fn reply_takes_dashed_text_as_every_doc_says() {
    let env = TestEnv::new();
    let out = env.run(["reply", "-x", "--y"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let help = env.ok(["help", "reply"]);
    let page = unroff(&read("man/roost.1"));
    for (doc, text) in [("help reply", help.as_str()), ("roost.1", page.as_str())] {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(!text.contains("goes after `--`"), "{doc}: {text}");
        assert!(!text.contains("goes after --"), "{doc}: {text}");
    }
    assert!(
        help.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("TEXT is taken as it comes, even when it starts with `-`"),
        "{help}"
    );
}

/// ROOST_EXT_GIT_BASE may be a plain directory (tests/it/ext/update/all.rs
/// installs from one): no doc says a local repository needs a `file://`
/// base, and the environment entries say a directory works.
#[test]
fn every_doc_says_a_local_repository_needs_no_file_url() {
    let env = TestEnv::new();
    let docs = [
        ("README.md", read("README.md")),
        ("roost.1", unroff(&read("man/roost.1"))),
        ("roost-ext.1", unroff(&read("man/roost-ext.1"))),
        ("roost-extension.7", unroff(&read("man/roost-extension.7"))),
        ("help ext install", env.ok(["help", "ext", "install"])),
    ];
    for (doc, text) in &docs {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for needs_a_url in [
            "reached through a file:// ROOST_EXT_GIT_BASE",
            "reached through a `file://`",
            "installed through a `file://`",
            "A file:// base installs from local bare repositories",
        ] {
            assert!(!text.contains(needs_a_url), "{doc} says: {needs_a_url}");
        }
    }
    let roost_1 = &docs[1].1;
    let entry = roost_1
        .split_once("ROOST_EXT_GIT_BASE Where roost ext install fetches")
        .expect("roost.1 describes ROOST_EXT_GIT_BASE")
        .1;
    assert!(
        entry.starts_with(
            " OWNER/REPO (and https://github.com/OWNER/REPO) from; default https://github.com/. \
             An https://, ssh:// or file:// URL, or a directory (absolute or relative)"
        ),
        "{entry}"
    );
}
