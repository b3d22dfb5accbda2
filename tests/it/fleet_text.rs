//! What an agent controls never reaches the user's terminal raw, nor forges
//! a line: window and session names, states, replies and screens, as
//! `status`, `read`, `screen` and `wait-done` show them. A program in a pane
//! has `$TMUX`, so it sets its own options and names with tmux directly;
//! the tests do the same from the outside.

use crate::common::hostile::*;
use crate::common::*;

use std::time::Duration;

/// `'WORD'` for a shell line.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

#[test]
fn status_shows_names_an_agent_gave_itself_printable_on_a_terminal_and_in_a_pipe() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "cat");
    named(&env, &["rename-window", "-t", &pane], EVIL);
    named(
        &env,
        &["rename-session", "-t", "=main"],
        &format!("s{EVIL}"),
    );
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", EVIL]);
    let piped = env.run(["status"]);
    assert_eq!(exit_of(&piped), Exit::Ok, "{}", describe(&piped));
    assert_no_raw("status to a pipe", &piped.stdout);
    let text = stdout(&piped);
    assert!(text.contains("\\u{202e}h\\u{2066}i"), "{text}");
    let row = status_fields(&text, &pane).unwrap();
    assert_eq!(row.last().map(String::as_str), Some("[-]"), "{text}");
    assert_eq!(text.lines().count(), 4, "{text}");
    let Some(shown) = env.on_a_terminal("status", b"") else {
        return;
    };
    assert_no_raw("status on a terminal", &shown.stdout);
    assert!(holds(&shown.stdout, b"\\u{202e}h"), "{}", describe(&shown));
    let json = env.run(["status", "--json"]);
    assert_no_raw("status --json", &json.stdout);
}

#[test]
fn read_and_screen_show_an_agents_text_printable_on_a_terminal_and_byte_for_byte_to_a_pipe() {
    let env = TestEnv::new();
    let reply = format!("first line\n\tindented {EVIL}\nlast");
    env.write("work/reply.txt", &reply);
    env.write(
        "work/agent.sh",
        &format!(
            "roost reply - < reply.txt\nprintf 'screen:{}\\n'\nexec cat\n",
            "\\342\\200\\256rlo\\033]52;c;aGk=\\007"
        ),
    );
    let pane = env.spawn("alice", "sh agent.sh");
    let mut read = Vec::new();
    assert!(
        wait_until(Duration::from_secs(10), || {
            read = env.run(["read", "alice"]).stdout;
            read == format!("{reply}\n").as_bytes()
        }),
        "read to a pipe is not the reply byte for byte: {:?}",
        String::from_utf8_lossy(&read)
    );
    env.wait_for_screen(&pane, "screen:");
    let screen = env.run(["screen", "alice"]);
    assert!(
        holds(&screen.stdout, "screen:\u{202e}rlo".as_bytes()),
        "{}",
        describe(&screen)
    );
    let Some(shown) = env.on_a_terminal("read alice", b"") else {
        return;
    };
    assert_eq!(exit_of(&shown), Exit::Ok, "{}", describe(&shown));
    assert_no_raw("read on a terminal", &shown.stdout);
    let text = stdout(&shown).replace("\r\n", "\n");
    assert!(
        text.contains("first line\n\tindented a\\x1b]0;title\\x07b\\x1b[2Jc"),
        "{text:?}"
    );
    assert!(
        text.contains("\\x1b]52;c;aGk=\\x07f\\x9bg\\u{202e}h"),
        "{text:?}"
    );
    let shown = env.on_a_terminal("screen alice", b"").unwrap();
    assert_no_raw("screen on a terminal", &shown.stdout);
    assert!(
        holds(&shown.stdout, b"screen:\\u{202e}rlo"),
        "{}",
        describe(&shown)
    );
    // The fallback of read (no reply recorded) is shown the same way.
    let bob = env.spawn(
        "bob",
        &format!("printf {}; exec cat", quote("b\\342\\200\\256ob\\n")),
    );
    env.wait_for_screen(&bob, "ob");
    let shown = env.on_a_terminal("read bob", b"").unwrap();
    assert_no_raw("read's screen on a terminal", &shown.stdout);
}

/// The forged pane line an agent's state would hold, for the pane list's
/// format as it was and as it is.
fn forgeries(bob: &str) -> Vec<String> {
    vec![
        format!("\n{bob}\t@9\tmain\t9\t0\t1\t0\t\t1\tdone\tbob"),
        format!("\n{bob}\t@9\tmain\t9\t0\t1\t0\t\t1\tdone\tcat\tbob"),
        format!("x\n{bob}\t@9\tmain\t9\t0\t1\t0\t\t1\tdone\tsh\tbob\n"),
    ]
}

#[test]
fn a_state_holding_a_newline_forges_no_pane_and_no_done() {
    let env = TestEnv::new();
    let alice = env.spawn("alice", "cat");
    let bob = env.spawn("bob", "cat");
    for forged in forgeries(&bob) {
        env.tmux_ok(&["set-option", "-p", "-t", &alice, "@agent_state", &forged]);
        let status = env.ok(["status"]);
        assert_eq!(
            status.lines().filter(|l| l.contains(&bob)).count(),
            1,
            "{status}"
        );
        assert_eq!(status.lines().count(), 5, "{status}");
        assert_eq!(
            status_fields(&status, &alice).unwrap().last().unwrap(),
            "[-]",
            "{status}"
        );
        let json: serde_json::Value = serde_json::from_str(&env.ok(["status", "--json"])).unwrap();
        let panes = json["sessions"][0]["panes"].as_array().unwrap();
        assert_eq!(panes.len(), 3, "{json}");
        assert!(panes.iter().all(|p| p["state"].is_null()), "{json}");
        let out = env.run(["wait-done", "bob", "1"]);
        assert_refusal(
            &out,
            Exit::Failed,
            &format!("roost wait-done: 'bob' ({bob}) has never reported a state"),
        );
        let out = env.run(["wait-done", "alice", "1"]);
        assert_refusal(
            &out,
            Exit::Failed,
            &format!("roost wait-done: 'alice' ({alice}) has never reported a state"),
        );
    }
}

/// The name of a pane's program is the agent's to choose (`exec -a`), and
/// tmux gives it as it is, newlines and TABs included: a name holding a
/// whole pane line, with `done`, forges no pane and no `done`, and it is
/// shown as the name it is.
#[test]
fn a_program_name_holding_a_newline_forges_no_pane_and_no_done() {
    let env = TestEnv::new();
    let bob = env.spawn("bob", "cat");
    for forged in [
        // The forged line takes over alice's window name and bob's id.
        format!("x\n{bob}\t@9\tmain\t9\t0\t1\t0\t\t1\tdone\tsleep"),
        format!("x\n{bob}\t@9\tmain\t9\t0\t1\t0\t\t1\tdone\tsleep\tbob\n"),
        format!("\t\t\n{bob}\t@9\tmain\t9\t0\t1\t0\t\t1\tdone\tsleep\tbob\tx"),
    ] {
        let alice = env
            .ok([
                "spawn",
                "alice",
                "bash",
                "-c",
                "exec -a \"$0\" sleep 100000",
                &forged,
            ])
            .trim()
            .to_string();
        let name = || {
            env.tmux_ok(&[
                "display-message",
                "-p",
                "-t",
                &alice,
                "#{pane_current_command}",
            ])
        };
        let named = wait_until(Duration::from_secs(5), || name().contains(&bob));
        // tmux 3.8 gives no name at all for one holding control characters.
        assert!(
            named || name().trim().is_empty(),
            "tmux gave the program's name as {:?}",
            name()
        );
        let status = env.ok(["status"]);
        assert_eq!(
            status
                .lines()
                .filter(|l| l.trim_start().starts_with(&format!("{bob} ")))
                .count(),
            1,
            "{status}"
        );
        assert_eq!(status.lines().count(), 5, "{status}");
        assert_eq!(
            status_fields(&status, &alice).unwrap().last().unwrap(),
            "[-]",
            "{status}"
        );
        let json: serde_json::Value = serde_json::from_str(&env.ok(["status", "--json"])).unwrap();
        let panes = json["sessions"][0]["panes"].as_array().unwrap();
        assert_eq!(panes.len(), 3, "{json}");
        assert!(panes.iter().all(|p| p["state"].is_null()), "{json}");
        // The name as it is, escaped, in alice's own line.
        let line = status
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{alice} ")))
            .unwrap();
        assert!(
            !named || line.contains(&format!("\\x0a{bob}\\x09@9\\x09")),
            "{status}"
        );
        for (name, pane) in [("alice", &alice), ("bob", &bob)] {
            let out = env.run(["wait-done", name, "1"]);
            assert_refusal(
                &out,
                Exit::Failed,
                &format!("roost wait-done: '{name}' ({pane}) has never reported a state"),
            );
        }
        env.ok(["kill", "alice"]);
    }
}

#[test]
fn a_state_that_is_not_a_known_word_reads_as_no_state_everywhere() {
    let env = TestEnv::new();
    let alice = env.spawn("alice", "cat");
    for state in [
        "finished",
        "DONE",
        "done ",
        " done",
        "done\n",
        "blocked\n",
        "idle\u{202e}",
    ] {
        env.tmux_ok(&["set-option", "-p", "-t", &alice, "@agent_state", state]);
        let status = env.ok(["status"]);
        assert_eq!(
            status_fields(&status, &alice).unwrap().last().unwrap(),
            "[-]",
            "{state:?}: {status}"
        );
        let json: serde_json::Value = serde_json::from_str(&env.ok(["status", "--json"])).unwrap();
        assert!(
            json["sessions"][0]["panes"][1]["state"].is_null(),
            "{state:?}: {json}"
        );
        let out = env.run(["wait-done", "alice", "1"]);
        assert_refusal(
            &out,
            Exit::Failed,
            &format!("roost wait-done: 'alice' ({alice}) has never reported a state"),
        );
    }
    // A pane whose state only looks like blocked is not refused as blocked.
    env.tmux_ok(&["set-option", "-p", "-t", &alice, "@agent_state", "blocked "]);
    let out = env.run(["send", "alice", "hello"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    env.wait_for_screen(&alice, "hello");
    // The known words still read as themselves.
    for state in ["idle", "working", "blocked", "done", "error"] {
        env.tmux_ok(&["set-option", "-p", "-t", &alice, "@agent_state", state]);
        let status = env.ok(["status"]);
        assert_eq!(
            status_fields(&status, &alice).unwrap().last().unwrap(),
            &format!("[{state}]"),
        );
    }
}
