//! `roost help`: every command of the table, and one command's usage line.

use crate::common::*;

#[test]
fn help_lists_every_command_of_the_table() {
    let env = TestEnv::new();
    let text = env.ok(["help"]);
    for c in roost::cli::COMMANDS {
        assert!(
            text.contains(&format!("  {}", c.name)),
            "{} missing:\n{text}",
            c.name
        );
        for alias in c.aliases.iter().filter(|a| !a.starts_with('-')) {
            assert!(text.contains(alias), "alias {alias} missing:\n{text}");
        }
    }
    for word in ["-h", "--help"] {
        let out = env.run([word]);
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        assert_eq!(stdout(&out), text, "{word} differs from help");
        assert_eq!(stderr(&out), "");
    }
}

#[test]
fn help_for_one_command_prints_its_usage_line() {
    let env = TestEnv::new();
    let text = env.ok(["help", "spawn"]);
    assert!(
        text.contains(concat!(
            "\nUsage: roost spawn [--cwd DIR] [--session SESSION] [--message TEXT] NAME\n",
            "                   [CMD...]\n"
        )),
        "{text}"
    );
    let out = env.run(["help", "nope"]);
    assert_refusal(
        &out,
        Exit::Usage,
        "roost help: 'nope' is not a built-in command (roost ext list shows extension commands)\n",
    );
}

/// An extension `note` shipping `man/roost-note.1`, whose program leaves
/// the file `ran` behind if anything runs it.
fn note_with_page(env: &TestEnv, page: &str) -> std::path::PathBuf {
    let ran = env.path("ran");
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.exec(
        "bin/roost-note",
        &format!("#!/bin/sh\ntouch '{}'\necho ran\n", ran.display()),
    );
    f.write("man/roost-note.1", page);
    f.commit("first");
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    ran
}

const PAGE: &str = ".TH ROOST-NOTE 1\n.SH NAME\nroost-note \\- keep notes on panes\n\
                    .SH DESCRIPTION\nNotes live \\fBbeside\\fR the pane.\n\
                    .so /etc/hostname\nEscape \x1b]0;title\x07 gone.\n";

#[test]
fn help_shows_an_extension_s_page_formatted_by_man_without_running_it() {
    if !on_path("man") {
        return skip_without("man is not installed");
    }
    let env = TestEnv::new();
    let ran = note_with_page(&env, PAGE);
    let out = env.run(["help", "note"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let text = stdout(&out);
    assert!(text.contains("keep notes on panes"), "{text}");
    // Formatted: the section heading stands alone, the font escape is gone.
    assert!(text.contains("DESCRIPTION"), "{text}");
    assert!(text.contains("beside the pane"), "{text}");
    assert!(!text.contains(".SH"), "{text}");
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:?}");
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    assert!(
        host.trim().is_empty() || !text.contains(host.trim()),
        "the page read another file: {text}"
    );
    assert!(!ran.exists(), "help ran the extension");
}

#[test]
fn without_man_help_shows_the_page_as_it_is() {
    let env = TestEnv::new();
    let ran = note_with_page(&env, PAGE);
    let empty = env.path("no-programs");
    std::fs::create_dir_all(&empty).unwrap();
    let out = env
        .roost(["help", "note"])
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let text = stdout(&out);
    assert!(text.contains(".SH DESCRIPTION\nNotes live"), "{text}");
    assert!(!text.contains(".so"), "{text}");
    assert!(!text.contains('\x1b'), "{text:?}");
    assert!(!ran.exists(), "help ran the extension");
}

#[test]
fn help_runs_cmd_help_when_the_extension_ships_no_page() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    assert_eq!(env.ok(["help", "note"]), "note [--help]\n");
}

#[test]
fn a_page_too_large_is_refused_naming_it() {
    let env = TestEnv::new();
    let ran = note_with_page(&env, &".\\\" filler\n".repeat(30_000));
    let out = env.run(["help", "note"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = stderr(&out);
    assert!(err.starts_with("roost help: the page "), "{err}");
    assert!(
        err.contains("man/roost-note.1 is larger than 256 KiB"),
        "{err}"
    );
    assert!(!ran.exists());
}
