//! `roost spawn`: the pane it prints, duplicate and unusable names, no name,
//! no tmux; the first message (message.rs).

use crate::common::*;
use crate::core::pane_ids;

mod message;

// ---- spawn ---------------------------------------------------------------

#[test]
fn spawn_prints_a_pane_id_that_exists_on_the_server() {
    let env = TestEnv::new();
    let out = env.run(["spawn", "alice", "sleep 100"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let id = stdout(&out);
    let id = id.strip_suffix('\n').expect("one line");
    assert!(
        id.len() > 1 && id.starts_with('%') && id[1..].bytes().all(|b| b.is_ascii_digit()),
        "not a pane id: {id:?}"
    );
    assert!(
        pane_ids(&env).contains(&id.to_string()),
        "{id} not on the server"
    );
    let name = env.tmux_ok(&[
        "display-message",
        "-p",
        "-t",
        id,
        "#{session_name}:#{window_name}",
    ]);
    assert_eq!(name, "main:alice\n");
}

#[test]
fn spawn_refuses_a_duplicate_window_name_with_exit_1() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    let before = pane_ids(&env);
    let out = env.run(["spawn", "alice", "sleep 100"]);
    assert_refusal(
        &out,
        Exit::Failed,
        "roost spawn: a window named 'alice' already exists",
    );
    assert_eq!(pane_ids(&env), before, "a window was created anyway");
}

#[test]
fn spawn_refuses_window_names_with_a_tab_a_newline_or_a_colon() {
    let env = TestEnv::new();
    for name in ["a\tb", "a\nb", "a:b", "main:x"] {
        let out = env.run(["spawn", name, "sleep 100"]);
        assert_refusal(&out, Exit::Failed, "roost spawn: invalid window name");
    }
    assert!(!env.server_running(), "a refused spawn started the server");
}

#[test]
fn spawn_without_a_name_is_a_usage_error_with_exit_2() {
    let env = TestEnv::new();
    let out = env.run(["spawn"]);
    assert_refusal(&out, Exit::Usage, "roost spawn: missing NAME\n");
    assert_eq!(
        stderr(&out).lines().nth(1),
        Some("usage: roost spawn [--cwd DIR] [--session SESSION] [--message TEXT] NAME [CMD...]")
    );
}

#[test]
fn spawn_without_tmux_says_so_in_one_line() {
    let env = TestEnv::new();
    let out = env
        .roost(["spawn", "alice"])
        .env("PATH", env.path("work"))
        .output()
        .unwrap();
    assert_refusal(&out, Exit::Failed, "roost spawn: ");
    assert!(
        stderr(&out).contains("tmux is not installed"),
        "{}",
        describe(&out)
    );
}
