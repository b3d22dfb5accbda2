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
        text.contains("\nUsage: roost spawn [--cwd DIR] [--session SESSION] NAME [CMD...]\n"),
        "{text}"
    );
    let out = env.run(["help", "nope"]);
    assert_refusal(
        &out,
        Exit::Usage,
        "roost help: 'nope' is not a built-in command (roost ext list shows extension commands)\n",
    );
}
