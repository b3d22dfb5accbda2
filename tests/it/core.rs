//! The built-in commands, run as the real binary against a
//! throwaway tmux server per test.

use crate::common::*;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

fn pane_option(env: &TestEnv, pane: &str, name: &str) -> String {
    let out = env.tmux_ok(&["show-options", "-pqv", "-t", pane, name]);
    out.trim_end_matches('\n').to_string()
}

fn wait_for_option(env: &TestEnv, pane: &str, name: &str, value: &str) {
    let mut last = String::new();
    let ok = wait_until(Duration::from_secs(10), || {
        last = pane_option(env, pane, name);
        last == value
    });
    assert!(
        ok,
        "{name} of {pane} never became {value:?} (last {last:?})"
    );
}

/// Waits until `roost read` prints a recorded reply (no notice) equal to `want`.
fn wait_for_reply(env: &TestEnv, pane: &str, want: &str) {
    let mut last = String::new();
    let ok = wait_until(Duration::from_secs(10), || {
        let out = env.run(["read", pane]);
        last = stdout(&out);
        out.stderr.is_empty() && last == want
    });
    assert!(ok, "{pane} never recorded {want:?} (last {last:?})");
}

fn wait_for_file(path: &Path) -> String {
    let mut text = String::new();
    let ok = wait_until(Duration::from_secs(10), || {
        text = std::fs::read_to_string(path).unwrap_or_default();
        text.ends_with('\n')
    });
    assert!(ok, "{} was never written", path.display());
    text
}

fn pane_ids(env: &TestEnv) -> Vec<String> {
    env.tmux_ok(&["list-panes", "-a", "-F", "#{pane_id}"])
        .lines()
        .map(str::to_string)
        .collect()
}

/// A second, unrelated tmux server on a socket path in the test dir: it
/// stands for the user's everyday tmux. Killed on drop.
struct OtherServer<'a> {
    env: &'a TestEnv,
    socket: String,
}

impl<'a> OtherServer<'a> {
    fn start(env: &'a TestEnv, name: &str) -> OtherServer<'a> {
        let socket = env.path(name).to_string_lossy().into_owned();
        let server = OtherServer { env, socket };
        server.tmux_ok(&["new-session", "-d", "-s", "everyday", "sleep 100"]);
        server
    }

    fn tmux(&self, args: &[&str]) -> Output {
        self.env.tmux_on(&self.socket, args)
    }

    fn tmux_ok(&self, args: &[&str]) -> String {
        self.env.tmux_ok_on(&self.socket, args)
    }

    /// What `$TMUX` holds inside this server's first pane.
    fn tmux_var(&self) -> String {
        let pid = self.tmux_ok(&["display-message", "-p", "#{pid}"]);
        format!("{},{},0", self.socket, pid.trim())
    }
}

impl Drop for OtherServer<'_> {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

// ---- version, usage, help ----------------------------------------------

#[test]
fn version_words_print_the_bare_version_alone_on_stdout() {
    let env = TestEnv::new();
    for word in ["--version", "-V", "version"] {
        let out = env.run([word]);
        assert_eq!(out.status.code(), Some(0), "{word}: {}", describe(&out));
        assert_eq!(
            stdout(&out),
            concat!(env!("CARGO_PKG_VERSION"), "\n"),
            "{word}"
        );
        assert_eq!(stderr(&out), "", "{word}");
    }
}

#[test]
fn unknown_words_name_the_word_suggest_a_close_built_in_and_exit_2() {
    let env = TestEnv::new();
    let usage = roost::cli::usage_line();
    for (word, first) in [
        ("nope", "roost: unknown command 'nope'"),
        (
            "sapwn",
            "roost: unknown command 'sapwn'; did you mean 'spawn'?",
        ),
        (
            "Status",
            "roost: unknown command 'Status'; did you mean 'status'?",
        ),
        (
            "doctr",
            "roost: unknown command 'doctr'; did you mean 'doctor'?",
        ),
        ("-x", "roost: unknown option '-x'"),
        ("--bogus", "roost: unknown option '--bogus'"),
        ("a\u{1b}[2Jb", "roost: unknown command 'a\\x1b[2Jb'"),
    ] {
        let out = env.run([word]);
        assert_eq!(out.status.code(), Some(2), "{word}: {}", describe(&out));
        assert!(out.stdout.is_empty(), "{word}: {}", describe(&out));
        assert_eq!(stderr(&out), format!("{first}\n{usage}\n"), "{word}");
    }
    assert!(
        !env.socket_file().exists(),
        "a usage error started a server"
    );
}

/// The user guide's promise: a disabled, removed or broken extension's
/// command gets exactly what a word that was never installed gets.
#[test]
fn a_disabled_extension_command_gets_what_a_never_installed_word_gets() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    assert!(env.run(["note"]).status.success());
    let never = TestEnv::new().run(["note"]);
    let off = env
        .roost(["note"])
        .env("ROOST_NO_EXT", "1")
        .output()
        .unwrap();
    assert_eq!(
        (off.status.code(), off.stdout, off.stderr),
        (never.status.code(), never.stdout, never.stderr.clone())
    );
    env.ok(["ext", "remove", "note"]);
    let removed = env.run(["note"]);
    assert_eq!(removed.stderr, never.stderr);
    assert_eq!(removed.status.code(), Some(2));
}

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
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
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
        2,
        "roost help: 'nope' is not a built-in command (roost ext list shows extension commands)\n",
    );
}

// ---- spawn ---------------------------------------------------------------

#[test]
fn spawn_prints_a_pane_id_that_exists_on_the_server() {
    let env = TestEnv::new();
    let out = env.run(["spawn", "alice", "sleep 100"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
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
        1,
        "roost spawn: a window named 'alice' already exists",
    );
    assert_eq!(pane_ids(&env), before, "a window was created anyway");
}

#[test]
fn spawn_refuses_window_names_with_a_tab_a_newline_or_a_colon() {
    let env = TestEnv::new();
    for name in ["a\tb", "a\nb", "a:b", "main:x"] {
        let out = env.run(["spawn", name, "sleep 100"]);
        assert_refusal(&out, 1, "roost spawn: invalid window name");
    }
    assert!(!env.server_running(), "a refused spawn started the server");
}

#[test]
fn spawn_without_a_name_is_a_usage_error_with_exit_2() {
    let env = TestEnv::new();
    let out = env.run(["spawn"]);
    assert_refusal(&out, 2, "roost spawn: missing NAME\n");
    assert_eq!(
        stderr(&out).lines().nth(1),
        Some("usage: roost spawn [--cwd DIR] [--session SESSION] NAME [CMD...]")
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
    assert_refusal(&out, 1, "roost spawn: ");
    assert!(
        stderr(&out).contains("tmux is not installed"),
        "{}",
        describe(&out)
    );
}

// ---- send ----------------------------------------------------------------

#[test]
fn send_joins_several_words_with_spaces() {
    let env = TestEnv::new();
    let pane = env.spawn("cat", "cat");
    let out = env.run(["send", "cat", "hello", "big", "world"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    env.wait_for_screen(&pane, "hello big world\nhello big world");
}

#[test]
fn send_refuses_a_blocked_pane_with_exit_3() {
    let env = TestEnv::new();
    let pane = env.spawn("agent", "cat");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "blocked"]);
    let out = env.run(["send", "agent", "hello"]);
    assert_refusal(&out, 3, "roost send: 'agent' ");
    assert!(stderr(&out).contains("blocked"), "{}", describe(&out));
    std::thread::sleep(Duration::from_millis(200));
    assert!(!env.screen(&pane).contains("hello"), "text was delivered");
    assert_eq!(pane_option(&env, &pane, "@agent_state"), "blocked");
}

#[test]
fn send_force_delivers_to_a_blocked_pane() {
    let env = TestEnv::new();
    let pane = env.spawn("agent", "cat");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "blocked"]);
    let out = env.run(["send", "--force", "agent", "hello"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    env.wait_for_screen(&pane, "hello\nhello");
}

#[test]
fn send_to_a_missing_target_is_exit_2() {
    let env = TestEnv::new();
    env.spawn("alice", "cat");
    for target in ["nope", "%99", "@99", "main:7", "other:alice", "ali"] {
        let out = env.run(["send", target, "hello"]);
        assert_refusal(&out, 2, &format!("roost send: no such target '{target}'"));
    }
}

#[test]
fn send_without_a_server_is_exit_2_and_starts_none() {
    let env = TestEnv::new();
    let out = env.run(["send", "alice", "hello"]);
    assert_refusal(&out, 2, "roost send: no such target 'alice'");
    assert!(!env.socket_file().exists(), "send started a server");
}

#[test]
fn send_to_a_dead_pane_is_exit_2() {
    let env = TestEnv::new();
    let pane = env.spawn("gone", "cat");
    env.tmux_ok(&["set-option", "-w", "-t", &pane, "remain-on-exit", "on"]);
    env.tmux_ok(&["send-keys", "-t", &pane, "C-d"]);
    let dead = wait_until(Duration::from_secs(10), || {
        env.tmux_ok(&["display-message", "-p", "-t", &pane, "#{pane_dead}"]) == "1\n"
    });
    assert!(dead, "the pane never died");
    let out = env.run(["send", "gone", "hello"]);
    assert_refusal(&out, 2, "roost send: 'gone' ");
    assert!(stderr(&out).contains("dead"), "{}", describe(&out));
}

#[test]
fn send_without_text_is_a_usage_error_with_exit_2() {
    let env = TestEnv::new();
    env.spawn("alice", "cat");
    let out = env.run(["send", "alice"]);
    assert_refusal(&out, 2, "roost send: missing TEXT\n");
    assert_eq!(
        stderr(&out),
        "roost send: missing TEXT\nusage: roost send [--force] [--when-idle] [--lines] [--paste] [--wait SECONDS] TARGET TEXT...\n"
    );
    assert_refusal(
        &env.run(["send"]),
        2,
        "roost send: missing TARGET and TEXT\n",
    );
    assert_refusal(
        &env.run(["send", "alice", ""]),
        2,
        "roost send: TEXT is empty\n",
    );
    assert_refusal(
        &env.run(["send", "--bogus", "alice", "x"]),
        2,
        "roost send: unknown option --bogus\n",
    );
}

// ---- read, screen, reply ---------------------------------------------------

#[test]
fn read_prints_the_recorded_reply_with_empty_stderr() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "roost reply 'the answer'; sleep 100");
    wait_for_reply(&env, &pane, "the answer\n");
    let out = env.run(["read", "alice"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stdout(&out), "the answer\n");
    assert_eq!(stderr(&out), "");
}

#[test]
fn read_falls_back_to_the_screen_with_a_one_line_notice() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", r"printf 'first\n\nsecond\n\nthird\n'; sleep 100");
    env.wait_for_screen(&pane, "third");
    let out = env.run(["read", "alice", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stdout(&out), "second\nthird\n");
    let err = stderr(&out);
    assert!(
        err.starts_with("roost read: ") && err.lines().count() == 1,
        "{err:?}"
    );
    assert!(err.ends_with('\n'), "{err:?}");
}

/// Hooks pass whatever the agent wrote: text that starts with '-' is
/// recorded as it is, and a malformed `state` or `reply` exits 1, never 2
/// (which Claude Code reads as "block").
#[test]
fn reply_and_state_in_hooks_take_any_text_and_never_exit_2() {
    let env = TestEnv::new();
    let codes = env.path("codes");
    let pane = env.spawn(
        "alice",
        &format!(
            "roost state; a=$?; roost state done now; b=$?; roost reply; c=$?; \
             echo $a $b $c > '{}'; roost reply '- added --json, tests pass'; sleep 100",
            codes.display()
        ),
    );
    wait_for_reply(&env, &pane, "- added --json, tests pass\n");
    assert_eq!(wait_for_file(&codes), "1 1 1\n");
}

#[test]
fn reply_dash_records_stdin() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", r"printf 'one\ntwo\n' | roost reply -; sleep 100");
    wait_for_reply(&env, &pane, "one\ntwo\n");
    let out = env.run(["read", &pane]);
    assert_eq!(stdout(&out), "one\ntwo\n", "{}", describe(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn reply_records_a_reply_too_long_for_one_tmux_command() {
    let env = TestEnv::new();
    // Quotes, format and shell syntax, tabs and multi-byte characters, far
    // past the 16 KiB a single tmux command may carry.
    let mut text = String::new();
    for i in 0..1500 {
        text.push_str(&format!("{i}: 'q' \"d\" #{{x}} $HOME\t\u{e9}\u{1f426}\n"));
    }
    assert!(text.len() > 40_000);
    let file = env.write("reply.txt", &text);
    let pane = env.spawn(
        "alice",
        &format!(
            "roost reply - < '{}' && echo recorded; sleep 100",
            file.display()
        ),
    );
    env.wait_for_screen(&pane, "recorded");
    let out = env.run(["read", "alice"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    assert!(
        stdout(&out) == text,
        "the reply came back changed ({} bytes)",
        out.stdout.len()
    );
    let options = env.tmux_ok(&["show-options", "-p", "-t", &pane]);
    assert!(
        !options.contains("staging"),
        "a staging option was left: {options:.200}"
    );
}

#[test]
fn reply_outside_roost_is_a_silent_no_op() {
    let env = TestEnv::new();
    let out = env.run(["reply", "hello"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert!(!env.socket_file().exists());
    // Hooks run it: a malformed line exits 1, never 2.
    assert_refusal(&env.run(["reply"]), 1, "roost reply: missing TEXT");
}

#[test]
fn screen_prints_the_last_n_non_blank_lines() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", r"printf 'first\n\nsecond  \n\nthird\n'; sleep 100");
    env.wait_for_screen(&pane, "third");
    let out = env.run(["screen", "alice", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stdout(&out), "second\nthird\n");
    assert_eq!(stderr(&out), "");
    assert_eq!(env.ok(["screen", &pane]), "first\nsecond\nthird\n");
    assert_refusal(
        &env.run(["screen", "alice", "0"]),
        2,
        "roost screen: N must be",
    );
    assert_refusal(
        &env.run(["screen", "nope"]),
        2,
        "roost screen: no such target 'nope'",
    );
}

// ---- status ----------------------------------------------------------------

#[test]
fn status_without_a_server_says_not_running_and_starts_none() {
    let env = TestEnv::new();
    let out = env.run(["status"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stdout(&out), "roost: not running\n");
    assert_eq!(stderr(&out), "");
    let out = env.run(["status", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["running"], false);
    assert_eq!(json["version"], 1);
    // Present whether or not a server runs: a reader never tests for it.
    assert_eq!(json["sessions"], serde_json::json!([]));
    assert!(!env.socket_file().exists(), "status started a server");
}

/// main: the first window, alice (working), bob (no state), both running
/// sleep; work: one window.
fn fleet(env: &TestEnv) -> [String; 4] {
    // The program itself, not a shell line, so the command column reads
    // `sleep` whichever shell /bin/sh is.
    let alice = env
        .ok(["spawn", "alice", "sleep", "100"])
        .trim()
        .to_string();
    let bob = env.ok(["spawn", "bob", "sleep", "100"]).trim().to_string();
    env.tmux_ok(&["set-option", "-p", "-t", &alice, "@agent_state", "working"]);
    let out = env.run(["session", "work"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    let first = env.tmux_ok(&[
        "display-message",
        "-p",
        "-t",
        "=main:0",
        "#{pane_id} #{window_name}",
    ]);
    let work = env.tmux_ok(&[
        "display-message",
        "-p",
        "-t",
        "=work:0",
        "#{pane_id} #{window_name}",
    ]);
    // SHELL=/bin/sh in the test environment: tmux names a shell window `sh`.
    let first = first
        .strip_suffix(" sh\n")
        .expect("first window is named sh")
        .to_string();
    let work = work
        .strip_suffix(" sh\n")
        .expect("work window is named sh")
        .to_string();
    [first, alice, bob, work]
}

#[test]
fn status_lists_sessions_and_panes_in_the_documented_format() {
    let env = TestEnv::new();
    let [first, alice, bob, work] = fleet(&env);
    let out = env.run(["status"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    let dash = status_dash();
    let expected = format!(
        "roost: running (socket={})\n\
         \x20 session main {dash} 3 windows\n\
         \x20   {first}  main:0.0  sh     sh     [-]\n\
         \x20   {alice}  main:1.0  alice  sleep  [working]\n\
         \x20   {bob}  main:2.0  bob    sleep  [-]\n\
         \x20 session work {dash} 1 window\n\
         \x20   {work}  work:0.0  sh     sh     [-]\n",
        env.socket
    );
    assert_eq!(stdout(&out), expected);
}

#[test]
fn status_json_carries_the_same_facts() {
    let env = TestEnv::new();
    let [first, alice, bob, work] = fleet(&env);
    let out = env.run(["status", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["running"], true);
    assert_eq!(json["version"], 1);
    assert_eq!(json["socket"], env.socket.as_str());
    let sessions = json["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    let facts = |s: &serde_json::Value| {
        let panes: Vec<(String, String, String, serde_json::Value)> = s["panes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["id"].as_str().unwrap().to_string(),
                    p["target"].as_str().unwrap().to_string(),
                    p["window"].as_str().unwrap().to_string(),
                    p["state"].clone(),
                )
            })
            .collect();
        (
            s["name"].as_str().unwrap().to_string(),
            s["windows"].as_u64().unwrap(),
            s["attached"].as_bool().unwrap(),
            panes,
        )
    };
    let none = serde_json::Value::Null;
    let p = |id: &str,
             t: &str,
             w: &str,
             s: serde_json::Value|
     -> (String, String, String, serde_json::Value) {
        (id.to_string(), t.to_string(), w.to_string(), s)
    };
    assert_eq!(
        facts(&sessions[0]),
        (
            "main".to_string(),
            3,
            false,
            vec![
                p(&first, "main:0.0", "sh", none.clone()),
                p(&alice, "main:1.0", "alice", "working".into()),
                p(&bob, "main:2.0", "bob", none.clone()),
            ]
        )
    );
    assert_eq!(
        facts(&sessions[1]),
        (
            "work".to_string(),
            1,
            false,
            vec![p(&work, "work:0.0", "sh", none)]
        )
    );
}

#[test]
fn session_without_a_terminal_ensures_the_session_and_exits_0() {
    let env = TestEnv::new();
    let out = env.run(["session", "work"]);
    quiet(&out, 0);
    assert_eq!(
        env.tmux_ok(&["list-sessions", "-F", "#{session_name}"]),
        "work\n"
    );
    // Again: the session exists already, still no attach.
    assert_eq!(env.run(["session", "work"]).status.code(), Some(0));
    assert_refusal(&env.run(["session"]), 2, "roost session: missing SESSION\n");
    assert_refusal(
        &env.run(["session", "a:b"]),
        1,
        "roost session: invalid session name",
    );
}

// ---- kill ------------------------------------------------------------------

#[test]
fn kill_session_kills_only_that_session() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    env.ok(["session", "work"]);
    let out = env.run(["kill", "work"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert_eq!(
        env.tmux_ok(&["list-sessions", "-F", "#{session_name}"]),
        "main\n"
    );
    assert_eq!(
        env.tmux_ok(&["list-windows", "-t", "=main", "-F", "#{window_name}"]),
        "sh\nalice\n"
    );
}

#[test]
fn kill_down_and_stop_kill_the_whole_server() {
    let env = TestEnv::new();
    for word in ["kill", "down", "stop"] {
        env.spawn("alice", "sleep 100");
        env.ok(["session", "work"]);
        // Without a terminal (a script), no question is asked.
        let out = env.run([word]);
        assert_eq!(out.status.code(), Some(0), "{word}: {}", describe(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{word}: {}",
            describe(&out)
        );
        assert!(!env.server_running(), "{word} left the server running");
        assert_eq!(env.ok(["status"]), "roost: not running\n");
    }
    env.spawn("alice", "sleep 100");
    env.ok(["kill", "--all"]);
    assert!(!env.server_running());
    // Nothing to kill is not an error.
    assert_eq!(env.run(["kill"]).status.code(), Some(0));
}

#[test]
fn kill_of_a_missing_target_or_session_is_exit_2() {
    let env = TestEnv::new();
    let out = env.run(["kill", "nope"]);
    assert_refusal(
        &out,
        2,
        "roost kill: no such target or session 'nope': roost is not running",
    );
    env.spawn("alice", "sleep 100");
    let out = env.run(["kill", "nope"]);
    assert_refusal(&out, 2, "roost kill: no such target or session 'nope'\n");
    let out = env.run(["kill", "--session", "nope"]);
    assert_refusal(&out, 2, "roost kill: no session 'nope'\n");
    for t in ["%99", "@99", "work:alice", "main:alice.5"] {
        let out = env.run(["kill", t]);
        assert_refusal(
            &out,
            2,
            &format!("roost kill: no such target or session '{t}'\n"),
        );
    }
    assert!(env.server_running());
    assert_refusal(
        &env.run(["kill", "a", "b"]),
        2,
        "roost kill: unexpected argument 'b'",
    );
    assert_refusal(
        &env.run(["kill", "alice", "--all"]),
        2,
        "roost kill: TARGET cannot be used with --all\n",
    );
}

fn windows(env: &TestEnv, session: &str) -> String {
    env.tmux_ok(&[
        "list-windows",
        "-t",
        &format!("={session}"),
        "-F",
        "#{window_name}",
    ])
}

#[test]
fn kill_target_ends_one_agent_by_every_target_form() {
    let env = TestEnv::new();
    let alice = env.spawn("alice", "sleep 100");
    env.spawn("bob", "sleep 100");
    env.spawn("carol", "sleep 100");
    let dave = env.spawn("dave", "sleep 100");
    env.ok(["session", "work"]);
    env.tmux_ok(&["new-window", "-d", "-t", "work:", "-n", "erin"]);
    let erin = env.tmux_ok(&["display", "-p", "-t", "=work:erin", "#{window_id}"]);
    assert_eq!(windows(&env, "main"), "sh\nalice\nbob\ncarol\ndave\n");

    let silent = |args: &[&str]| {
        let out = env.run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", describe(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{}",
            describe(&out)
        );
    };
    silent(&["kill", "bob"]);
    assert_eq!(windows(&env, "main"), "sh\nalice\ncarol\ndave\n");
    silent(&["kill", &alice]);
    silent(&["stop", "main:carol"]);
    assert_eq!(windows(&env, "main"), "sh\ndave\n");
    silent(&["down", erin.trim()]);
    assert_eq!(windows(&env, "work"), "sh\n");
    // A pane of a split window: only that pane ends.
    let second = env.tmux_ok(&["split-window", "-d", "-P", "-F", "#{pane_id}", "-t", &dave]);
    silent(&["kill", "main:dave.1"]);
    assert!(!env
        .tmux_ok(&["list-panes", "-a", "-F", "#{pane_id}"])
        .contains(second.trim()));
    assert_eq!(windows(&env, "main"), "sh\ndave\n");
    assert!(env.server_running());
}

#[test]
fn a_word_naming_a_session_and_a_window_is_refused() {
    let env = TestEnv::new();
    env.spawn("work", "sleep 100");
    env.ok(["session", "work"]);
    let out = env.run(["kill", "work"]);
    assert_refusal(
        &out,
        2,
        "roost kill: 'work' names both a window in session main and a session\n\
         say which: roost kill main:work (the window) or roost kill --session work\n",
    );
    env.ok(["kill", "--session", "work"]);
    assert_eq!(windows(&env, "main"), "sh\nwork\n");
    env.ok(["kill", "work"]);
    assert_eq!(windows(&env, "main"), "sh\n");
}

#[test]
fn on_a_terminal_the_whole_server_ends_only_after_a_yes() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    let Some(out) = env.on_a_terminal("kill", b"n\n") else {
        return;
    };
    let seen = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    assert_eq!(out.status.code(), Some(1), "{seen}");
    assert!(
        seen.contains("End the whole roost server: 2 panes in 1 session? [y/N] roost kill"),
        "{seen}"
    );
    assert!(
        seen.ends_with(
            "roost kill: nothing killed\n\
             roost kill TARGET ends one agent; roost kill --all ends every one without asking\n"
        ),
        "{seen}"
    );
    assert!(env.server_running());
    let out = env.on_a_terminal("down", b"y\n").unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!env.server_running());
    env.spawn("alice", "sleep 100");
    let out = env.on_a_terminal("stop --all", b"").unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert!(!env.server_running());
}

// ---- whoami, state -----------------------------------------------------------

#[test]
fn whoami_outside_roost_fails_with_exit_1() {
    let env = TestEnv::new();
    let out = env.run(["whoami"]);
    assert_refusal(&out, 1, "roost whoami: not inside a roost pane\n");
}

#[test]
fn whoami_inside_a_pane_prints_its_pane_id() {
    let env = TestEnv::new();
    let file = env.path("who");
    let pane = env.spawn(
        "alice",
        &format!("roost whoami > '{}'; sleep 100", file.display()),
    );
    assert_eq!(wait_for_file(&file), format!("{pane}\n"));
}

#[test]
fn state_outside_roost_is_a_silent_no_op() {
    let env = TestEnv::new();
    let out = env.run(["state", "working"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert!(!env.socket_file().exists(), "state started a server");
}

#[test]
fn state_ignores_a_pane_of_a_different_tmux_server() {
    let env = TestEnv::new();
    let roost_pane = env.spawn("alice", "sleep 100");
    let other = OtherServer::start(&env, "everyday");
    let other_pane = other.tmux_ok(&["display-message", "-p", "#{pane_id}"]);
    let other_pane = other_pane.trim_end();
    // Both servers have a pane with this id: a wrong lookup would stamp roost's.
    assert!(pane_ids(&env).contains(&other_pane.to_string()));
    for unset_roost_socket in [false, true] {
        let mut cmd = env.roost(["state", "working"]);
        cmd.env("TMUX", other.tmux_var())
            .env("TMUX_PANE", other_pane);
        if unset_roost_socket {
            cmd.env_remove("ROOST_SOCKET");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{}",
            describe(&out)
        );
    }
    let stamped = other.tmux_ok(&["show-options", "-pqv", "-t", other_pane, "@agent_state"]);
    assert_eq!(stamped, "", "the other server's pane was stamped");
    for pane in pane_ids(&env) {
        assert_eq!(
            pane_option(&env, &pane, "@agent_state"),
            "",
            "{pane} was stamped"
        );
    }
    assert_eq!(pane_option(&env, &roost_pane, "@agent_state"), "");
    let default = env
        .path("tmux")
        .join(format!("tmux-{}", unsafe_uid()))
        .join("roost");
    assert!(
        !default.exists(),
        "a server was started at {}",
        default.display()
    );
}

#[test]
fn state_inside_a_pane_stamps_agent_state() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "roost state working; sleep 100");
    wait_for_option(&env, &pane, "@agent_state", "working");
    let status = env.ok(["status"]);
    let row = status_fields(&status, &pane).unwrap_or_default();
    assert_eq!(row[..3], [pane.as_str(), "main:1.0", "alice"], "{status}");
    assert_eq!(
        row.last().map(String::as_str),
        Some("[working]"),
        "{status}"
    );
}

// ---- wait-done ---------------------------------------------------------------

#[test]
fn wait_done_returns_0_when_the_target_says_done() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 0.5; roost state done; sleep 100");
    let out = env.run(["wait-done", "alice", "10"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
}

#[test]
fn wait_done_returns_0_when_the_target_is_idle() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "idle"]);
    let out = env.run(["wait-done", &pane, "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
}

#[test]
fn wait_done_returns_1_when_the_target_reports_an_error() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "error"]);
    let out = env.run(["wait-done", "alice", "5"]);
    assert_refusal(&out, 1, "roost wait-done: 'alice' ");
}

#[test]
fn wait_done_returns_1_on_timeout() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
    let started = std::time::Instant::now();
    let out = env.run(["wait-done", "alice", "1"]);
    assert_refusal(&out, 1, "roost wait-done: 'alice' ");
    assert!(stderr(&out).contains("working"), "{}", describe(&out));
    assert!(started.elapsed() >= Duration::from_secs(1));
}

#[test]
fn wait_done_returns_2_when_the_target_goes_away() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    let waiter = env
        .roost(["wait-done", "alice", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    env.tmux_ok(&["kill-window", "-t", &pane]);
    let out = waiter.wait_with_output().unwrap();
    assert_refusal(&out, 2, "roost wait-done: 'alice' ");
}

#[test]
fn wait_done_returns_2_for_a_missing_target() {
    let env = TestEnv::new();
    assert_refusal(
        &env.run(["wait-done", "alice", "1"]),
        2,
        "roost wait-done: no such target",
    );
    env.spawn("bob", "sleep 100");
    assert_refusal(
        &env.run(["wait-done", "alice", "1"]),
        2,
        "roost wait-done: no such target 'alice'",
    );
}

// ---- the server's start ------------------------------------------------------

#[test]
fn the_users_roost_conf_is_sourced_at_server_start() {
    let env = TestEnv::new();
    env.write("config/roost/roost.conf", "set -g @roost-test-option yes\n");
    env.spawn("alice", "sleep 100");
    assert_eq!(
        env.tmux_ok(&["show-options", "-gv", "@roost-test-option"]),
        "yes\n"
    );
    // roost's base config was loaded before it.
    assert_eq!(
        env.tmux_ok(&["show-options", "-gv", "automatic-rename"]),
        "off\n"
    );
}

#[test]
fn errors_in_roost_conf_are_a_warning_naming_file_and_line_at_server_start() {
    let env = TestEnv::new();
    for (text, line) in [
        (
            "set -g @roost-test-option yes\n\nset -g bogus-option on\n",
            "line 3: invalid option: bogus-option",
        ),
        (
            "set -g mouse on\nbogus-command\n",
            "line 2: unknown command: bogus-command",
        ),
    ] {
        let conf = env.write("config/roost/roost.conf", text);
        let out = env
            .roost(["up"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "roost: warning: {}: {line}\n\
                 the server started without it: fix roost.conf, then roost kill and roost to load it again (roost doctor checks it)\n\
                 roost: session main is running (socket={}); not attaching without a terminal\n",
                conf.display(),
                env.socket
            ),
        );
        assert!(env.server_running());
        env.ok(["kill"]);
    }
}

#[test]
fn a_server_starts_without_a_roost_conf() {
    let env = TestEnv::new();
    let out = env.run(["spawn", "alice", "sleep 100"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    assert_eq!(
        env.tmux_ok(&["show-options", "-gqv", "@roost-test-option"]),
        ""
    );
}

#[test]
fn roost_home_is_in_the_server_environment_and_its_scripts_come_first_on_path() {
    let env = TestEnv::new();
    let file = env.path("pane-path");
    env.spawn(
        "alice",
        &format!("echo \"$PATH\" > '{}'; sleep 100", file.display()),
    );
    let home = env.path("data/roost/home");
    assert_eq!(
        env.tmux_ok(&["show-environment", "-g", "ROOST_HOME"]),
        format!("ROOST_HOME={}\n", home.display())
    );
    let path = wait_for_file(&file);
    let first = path.trim_end().split(':').next().unwrap().to_string();
    let scripts = home.join("bin");
    assert_eq!(first, scripts.to_string_lossy());
    let link = std::fs::read_link(scripts.join("roost")).expect("bin/roost is a symlink");
    assert_eq!(
        std::fs::canonicalize(link).unwrap(),
        std::fs::canonicalize(ROOST).unwrap()
    );
}

// ---- bad input ---------------------------------------------------------------

#[test]
fn bad_input_gets_a_short_message_and_never_a_panic() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    let bad: &[(&[&str], i32, &str)] = &[
        (&["read"], 2, "roost read: missing TARGET"),
        (&["read", "alice", "x"], 2, "roost read: N must be"),
        (
            &["read", "alice", "99999999999999999999999"],
            2,
            "roost read: N must be",
        ),
        (
            &["read", "alice", "1", "2"],
            2,
            "roost read: unexpected argument",
        ),
        (&["read", "-x", "alice"], 2, "roost read: unknown option -x"),
        (&["screen"], 2, "roost screen: missing TARGET"),
        (&["wait-done"], 2, "roost wait-done: missing TARGET"),
        (
            &["wait-done", "alice", "0"],
            2,
            "roost wait-done: SECONDS must be",
        ),
        (
            &["wait-done", "alice", "-1"],
            2,
            "roost wait-done: SECONDS must be",
        ),
        (&["state"], 1, "roost state: missing STATE"),
        (&["state", "a", "b"], 1, "roost state: unexpected argument"),
        (&["whoami", "x"], 2, "roost whoami: unexpected argument"),
        (
            &["status", "--bogus"],
            2,
            "roost status: unknown option --bogus",
        ),
        (&["status", "x"], 2, "roost status: unexpected argument"),
        (
            &["spawn", "--bogus", "x"],
            2,
            "roost spawn: unknown option --bogus",
        ),
        (&["spawn", "-x"], 2, "roost spawn: unknown option -x"),
        (&["spawn", "%1"], 1, "roost spawn: invalid window name"),
        (&["spawn", ""], 1, "roost spawn: invalid window name"),
        (&["session", "-x"], 2, "roost session: unknown option -x"),
        (&["kill", "--al"], 2, "roost kill: unknown option --al"),
        (&["version", "x"], 2, "roost version: unexpected argument"),
        (&["send", "'", "x"], 2, "roost send: no such target"),
        (
            &["send", "=main:alice", "x"],
            2,
            "roost send: no such target",
        ),
    ];
    for (args, code, prefix) in bad {
        let out = env.run(*args);
        assert_refusal(&out, *code, prefix);
    }
    // Words that are not UTF-8 where text is required.
    let junk = OsStr::from_bytes(b"a\xffb");
    let out = env.run([OsStr::new("spawn"), junk]);
    assert_refusal(&out, 2, "roost spawn: 'a\u{FFFD}b' is not valid UTF-8");
    let out = env.run([OsStr::new("read"), junk]);
    assert_refusal(&out, 2, "roost read: 'a\u{FFFD}b' is not valid UTF-8");
}
