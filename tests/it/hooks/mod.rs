//! `roost hooks` writes the agents' own configuration by merging, and
//! `roost hook` turns the payloads those agents send into the pane's state,
//! reply, agent and session id, in a real pane of a real server.

mod files;

use crate::common::*;
use std::io::Write;
use std::process::{Command, Stdio};

/// `roost hook ARGS` as the agent runs it inside `pane`, `payload` on stdin.
fn hook_in(env: &TestEnv, pane: &str, args: &[&str], payload: &str) -> std::process::Output {
    let tmux_var = format!(
        "{},{},0",
        env.socket,
        env.tmux_ok(&["display-message", "-p", "#{pid}"]).trim()
    );
    let mut cmd: Command = env.roost(["hook"].iter().chain(args));
    cmd.env("TMUX", tmux_var)
        .env("TMUX_PANE", pane)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn option(env: &TestEnv, pane: &str, name: &str) -> String {
    env.tmux_ok(&["show-options", "-pqv", "-t", pane, name])
        .trim_end()
        .to_string()
}

#[test]
fn claude_code_payloads_stamp_the_state_and_record_reply_session_and_prompt() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    // As Claude Code sends them (its hook input: common fields, then the
    // event's own).
    let common = r#""session_id":"0b6c1a52-6a3f-4d0e-9f1e-2c7d5e8a9b10","transcript_path":"/nonexistent.jsonl","cwd":"/w""#;
    let submit =
        format!(r#"{{{common},"hook_event_name":"UserPromptSubmit","prompt":"say hi\n"}}"#);
    let out = hook_in(&env, &pane, &["claude", "UserPromptSubmit"], &submit);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert_eq!(option(&env, &pane, "@agent_state"), "working");
    assert_eq!(option(&env, &pane, "@roost-agent"), "claude");
    assert_eq!(
        option(&env, &pane, "@roost-session-id"),
        "0b6c1a52-6a3f-4d0e-9f1e-2c7d5e8a9b10"
    );
    // The key `send` computes of what it typed: FNV-1a of "say hi".
    assert_eq!(option(&env, &pane, "@roost-prompt-seen"), key("say hi"));
    let notify = format!(
        r#"{{{common},"hook_event_name":"Notification","message":"Claude needs your permission to use Bash","notification_type":"permission_prompt"}}"#
    );
    assert!(hook_in(&env, &pane, &["claude", "Notification"], &notify)
        .status
        .success());
    assert_eq!(option(&env, &pane, "@agent_state"), "blocked");
    let stop = format!(
        r#"{{{common},"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"ACK: say hi"}}"#
    );
    assert!(hook_in(&env, &pane, &["claude", "Stop"], &stop)
        .status
        .success());
    assert_eq!(option(&env, &pane, "@agent_state"), "done");
    assert_eq!(env.ok(["read", "alice"]), "ACK: say hi\n");
    env.ok(["wait-done", "alice", "5"]);
}

/// prompt_key as roost computes it (FNV-1a, 64 bits).
fn key(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.trim_end().bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[test]
fn a_stop_without_the_message_reads_the_transcript_it_names() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    let transcript = env.write(
        "t.jsonl",
        concat!(
            r#"{"type":"user","message":{"role":"user","content":"hi"}}"#,
            "\n",
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"from the transcript"}]}}"#,
            "\n"
        ),
    );
    let stop = format!(
        r#"{{"session_id":"s1","transcript_path":"{}","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}}"#,
        transcript.display()
    );
    assert!(hook_in(&env, &pane, &["claude"], &stop).status.success());
    assert_eq!(env.ok(["read", "alice"]), "from the transcript\n");
}

/// The transcript's path comes from the agent's payload: a FIFO there
/// (which would block the hook, and the agent with it) or a device (which
/// never ends) is not read, and the turn is still stamped done.
#[test]
fn a_transcript_that_is_a_fifo_or_a_device_is_not_read() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    let fifo = env.path("t.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    for transcript in [fifo.as_path(), std::path::Path::new("/dev/zero")] {
        let stop = format!(
            r#"{{"session_id":"s1","transcript_path":"{}","hook_event_name":"Stop"}}"#,
            transcript.display()
        );
        let tmux_var = format!(
            "{},{},0",
            env.socket,
            env.tmux_ok(&["display-message", "-p", "#{pid}"]).trim()
        );
        let mut cmd = env.roost(["hook", "claude", "Stop"]);
        cmd.env("TMUX", tmux_var).env("TMUX_PANE", &pane);
        let run = bounded_typed(
            cmd,
            Some(stop.as_bytes()),
            std::time::Duration::from_secs(10),
        );
        assert_eq!(exit_of(&run.out), Exit::Ok, "{}", describe(&run.out));
        assert!(run.peak_kib < 64 << 10, "{} KiB", run.peak_kib);
        assert_eq!(option(&env, &pane, "@agent_state"), "done");
    }
}

#[test]
fn codex_notify_takes_its_json_as_the_last_word_and_ignores_other_threads() {
    let env = TestEnv::new();
    let pane = env.spawn("bob", "sleep 100000");
    let turn = r#"{"type":"agent-turn-complete","thread-id":"019a-t1","turn-id":"1","cwd":"/w","input-messages":["hi"],"last-assistant-message":"ACK: hi"}"#;
    let out = hook_in(&env, &pane, &["codex", turn], "");
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(option(&env, &pane, "@agent_state"), "done");
    assert_eq!(env.ok(["read", "bob"]), "ACK: hi\n");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
    // A side request on another thread (a title) does not end this turn.
    let side = r#"{"type":"agent-turn-complete","thread-id":"019a-t2","last-assistant-message":"Greeting"}"#;
    assert!(hook_in(&env, &pane, &["codex", side], "").status.success());
    assert_eq!(option(&env, &pane, "@agent_state"), "working");
    assert_eq!(env.ok(["read", "bob"]), "ACK: hi\n");
}

#[test]
fn gemini_and_generic_events_stamp_their_states() {
    let env = TestEnv::new();
    let pane = env.spawn("gem", "sleep 100000");
    let before = r#"{"session_id":"g1","transcript_path":"","cwd":"/w","hook_event_name":"BeforeAgent","timestamp":"2026-12-02T10:00:00.000Z","prompt":"hi"}"#;
    assert!(hook_in(&env, &pane, &["gemini", "BeforeAgent"], before)
        .status
        .success());
    assert_eq!(option(&env, &pane, "@agent_state"), "working");
    let after = r#"{"session_id":"g1","transcript_path":"","cwd":"/w","hook_event_name":"AfterAgent","timestamp":"2026-12-02T10:00:01.000Z","prompt":"hi","prompt_response":"ACK: hi","stop_hook_active":false}"#;
    assert!(hook_in(&env, &pane, &["gemini", "AfterAgent"], after)
        .status
        .success());
    assert_eq!(option(&env, &pane, "@agent_state"), "done");
    assert_eq!(env.ok(["read", "gem"]), "ACK: hi\n");
    assert!(hook_in(&env, &pane, &["generic", "blocked"], "")
        .status
        .success());
    assert_eq!(option(&env, &pane, "@agent_state"), "blocked");
    assert_eq!(option(&env, &pane, "@roost-agent"), "generic");
}

/// Gemini CLI's `AfterAgent` repeats in `prompt_response` each streamed
/// piece of the reply after the first; the session transcript it names
/// holds the reply as streamed, and that is what is recorded. A transcript
/// with no reply for the turn leaves the payload's.
#[test]
fn a_gemini_reply_is_taken_from_its_session_transcript() {
    let env = TestEnv::new();
    let pane = env.spawn("gem", "sleep 100000");
    let transcript = env.write(
        "session.jsonl",
        concat!(
            r#"{"sessionId":"g1","kind":"main"}"#,
            "\n",
            r#"{"id":"u1","type":"user","content":[{"text":"hello there, say ACK"}]}"#,
            "\n",
            r#"{"id":"m1","type":"gemini","content":"ACK: hello there, say ACK","thoughts":[]}"#,
            "\n",
            r#"{"$set":{"lastUpdated":"2026-12-05T14:16:37.480Z"}}"#,
            "\n"
        ),
    );
    let after = |path: &str| {
        format!(
            r#"{{"session_id":"g1","transcript_path":"{path}","hook_event_name":"AfterAgent","prompt":"hello there, say ACK","prompt_response":"ACK: hello there, say ACK there, say  ACK","stop_hook_active":false}}"#
        )
    };
    let payload = after(&transcript.display().to_string());
    let out = hook_in(&env, &pane, &["gemini", "AfterAgent"], &payload);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(env.ok(["read", "gem"]), "ACK: hello there, say ACK\n");
    let missing = env.path("gone.jsonl");
    let payload = after(&missing.display().to_string());
    assert!(hook_in(&env, &pane, &["gemini", "AfterAgent"], &payload)
        .status
        .success());
    assert_eq!(
        env.ok(["read", "gem"]),
        "ACK: hello there, say ACK there, say  ACK\n"
    );
}

#[test]
fn a_malformed_payload_exits_1_with_one_line_and_stamps_nothing() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100000");
    let out = hook_in(&env, &pane, &["claude", "Stop"], "{not json");
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("roost hook: claude payload: not JSON"),
        "{err}"
    );
    assert_eq!(option(&env, &pane, "@agent_state"), "");
    assert_eq!(option(&env, &pane, "@roost-agent"), "");
    // A usage error is 1 too, never 2 (Claude Code reads 2 as "block").
    let out = hook_in(&env, &pane, &[], "");
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
}

#[test]
fn outside_roost_the_handler_is_a_silent_no_op() {
    let env = TestEnv::new();
    let out = env
        .roost(["hook", "claude", "Stop"])
        .env_remove("TMUX")
        .env_remove("TMUX_PANE")
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok);
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert!(!env.server_running());
}

#[test]
fn install_merges_keeps_a_backup_is_idempotent_and_remove_restores_the_bytes() {
    let env = TestEnv::new();
    let original = "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\n  }\n}\n";
    let settings = env.write("home/.claude/settings.json", original);
    let out = env.ok(["hooks", "install", "claude"]);
    assert!(
        out.starts_with(&format!(
            "claude: hooks written to {}\n",
            settings.display()
        )),
        "{out}"
    );
    assert!(out.contains(".roost-backup"), "{out}");
    let merged = std::fs::read_to_string(&settings).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&merged).unwrap();
    assert_eq!(doc["model"], "opus");
    let stop = doc["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2);
    assert_eq!(stop[0]["hooks"][0]["command"], "notify-send done");
    let roost = assert_cmd::cargo::cargo_bin("roost");
    assert_eq!(
        stop[1]["hooks"][0]["command"],
        format!(
            "{} hook claude Stop # written by roost hooks install",
            roost.display()
        )
    );
    assert_eq!(
        doc["sandbox"]["network"]["allowUnixSockets"][0],
        env.socket_file()
            .parent()
            .unwrap()
            .to_string_lossy()
            .as_ref()
    );
    assert!(merged.find("\"model\"") < merged.find("\"hooks\""));
    let again = env.ok(["hooks", "install", "claude"]);
    assert!(again.starts_with("claude: hooks already in "), "{again}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), merged);
    let status = env.ok(["hooks", "status"]);
    assert!(
        status.contains(&format!(
            "\n  user     wired       {}\n",
            settings.display()
        )),
        "{status}"
    );
    let out = env.ok(["hooks", "remove", "claude"]);
    assert!(out.contains("is as it was before install"), "{out}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);
    assert!(!env.path("home/.claude/settings.json.roost-backup").exists());
}

#[test]
fn every_agent_installs_into_a_project_and_leaves_nothing_behind() {
    let env = TestEnv::new();
    let project = env.path("work/proj");
    std::fs::create_dir_all(&project).unwrap();
    let dir = project.to_string_lossy().into_owned();
    for (agent, file) in [
        ("claude", ".claude/settings.local.json"),
        ("codex", ".codex/hooks.json"),
        ("gemini", ".gemini/settings.json"),
        ("opencode", ".opencode/plugin/roost.js"),
        ("aider", ".aider.conf.yml"),
    ] {
        env.ok(["hooks", "install", agent, "--project", &dir]);
        assert!(project.join(file).is_file(), "{agent}");
        let json = env.ok(["hooks", "status", "--json"]);
        let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["agent"] == agent && r["file"] == project.join(file).to_string_lossy().as_ref()
            })
            .cloned();
        // status looks at the current directory's project: not this one.
        assert!(row.is_none(), "{agent}: {json}");
        env.ok(["hooks", "remove", agent, "--project", &dir]);
        assert!(!project.join(file).exists(), "{agent}");
    }
}

#[test]
fn a_file_roost_cannot_read_is_refused_and_left_as_it_was() {
    let env = TestEnv::new();
    let settings = env.write("home/.gemini/settings.json", "{ \"ui\": ");
    let out = env.run(["hooks", "install", "gemini"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "roost hooks: cannot merge into {}: it is not JSON",
            settings.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ \"ui\": ");
    let out = env.run(["hooks", "install", "nosuch"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
}

#[test]
fn show_generic_prints_the_four_commands() {
    let env = TestEnv::new();
    let out = env.ok(["hooks", "show", "generic"]);
    let roost = assert_cmd::cargo::cargo_bin("roost");
    // Each command stands alone on its line, so copying the line copies
    // the command and nothing else; what it is for is a comment above it.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    for (i, state) in ["working", "blocked", "done", "error"].iter().enumerate() {
        assert!(lines[2 * i].starts_with("# "), "{out}");
        assert_eq!(
            lines[2 * i + 1],
            format!("{} hook generic {state}", roost.display()),
            "{out}"
        );
    }
}

#[test]
fn spawn_knows_an_agent_by_name_and_resume_brings_it_back_by_its_session_id() {
    let env = TestEnv::new();
    // A stand-in program named claude that prints its arguments.
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("claude");
    std::fs::write(&fake, "#!/bin/sh\necho \"args: $*\"\nexec sleep 100000\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let spawn = |args: &[&str]| {
        let out = env.roost(args).env("PATH", &path).output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let pane = spawn(&["spawn", "alice", "claude"]);
    assert_eq!(option(&env, &pane, "@roost-agent"), "claude");
    let start = r#"{"session_id":"5f0e-aa","transcript_path":"","cwd":"/w","hook_event_name":"SessionStart","source":"startup"}"#;
    assert!(hook_in(&env, &pane, &["claude", "SessionStart"], start)
        .status
        .success());
    env.ok(["kill"]);
    let out = spawn(&["resume"]);
    assert!(
        out.starts_with("main:alice (claude): resumed in %"),
        "{out}"
    );
    let panes = env.tmux_ok(&["list-panes", "-a", "-F", "#{pane_id} #{window_name}"]);
    let pane = panes
        .lines()
        .find(|l| l.ends_with(" alice"))
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    env.wait_for_screen(&pane, "args: --resume 5f0e-aa");
    assert_eq!(spawn(&["resume"]), "main:alice (claude): running");
}

/// Stand-ins named after agents in `bin`, each printing its arguments and
/// its working directory; returns the PATH that finds them first.
fn stand_in_agents(env: &TestEnv, names: &[&str]) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in names {
        let fake = bin.join(name);
        std::fs::write(
            &fake,
            "#!/bin/sh\necho \"args: $*\"\necho \"cwd: $(pwd)\"\nexec sleep 100000\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

/// The pane of window `name`.
fn pane_of(env: &TestEnv, name: &str) -> String {
    let panes = env.tmux_ok(&["list-panes", "-a", "-F", "#{pane_id} #{window_name}"]);
    panes
        .lines()
        .find_map(|l| l.strip_suffix(&format!(" {name}")))
        .unwrap_or_else(|| panic!("no window {name}: {panes}"))
        .to_string()
}

#[test]
fn resume_gives_back_the_spawn_arguments_in_the_spawn_directory_and_not_a_killed_agent() {
    let env = TestEnv::new();
    let path = stand_in_agents(&env, &["claude", "codex", "aider"]);
    let project = env.path("project");
    std::fs::create_dir_all(&project).unwrap();
    let dir = project.to_str().unwrap();
    let roost = |args: &[&str]| {
        let out = env.roost(args).env("PATH", &path).output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let started = |pane: &str, agent: &str, id: &str| {
        let start = format!(r#"{{"session_id":"{id}","hook_event_name":"SessionStart"}}"#);
        let out = hook_in(&env, pane, &[agent, "SessionStart"], &start);
        assert!(out.status.success(), "{}", describe(&out));
    };
    let alice = roost(&["spawn", "--cwd", dir, "alice", "claude", "--model", "m1"]);
    started(&alice, "claude", "5f0e-aa");
    let cx = roost(&["spawn", "--cwd", dir, "cx", "codex", "-m", "x"]);
    started(&cx, "codex", "0199-cc");
    // aider reports no session id: its chat history in its directory is
    // what it restores.
    roost(&[
        "spawn",
        "--cwd",
        dir,
        "ai",
        "aider",
        "--model",
        "m2",
        "notes.txt",
    ]);
    let bob = roost(&["spawn", "bob", "claude"]);
    started(&bob, "claude", "b0b-1");
    let carol = roost(&["spawn", "carol", "claude"]);
    started(&carol, "claude", "ca-1");
    // Ended on purpose, by window and by pane: not resumed.
    roost(&["kill", "bob"]);
    roost(&["kill", &carol]);
    // The whole server ending is what a crash or a reboot does: resumed.
    roost(&["kill"]);
    let out = roost(&["resume"]);
    let told: Vec<&str> = out.lines().collect();
    assert_eq!(told.len(), 3, "{out}");
    for (line, how) in told.iter().zip([
        "main:alice (claude): resumed in %",
        "main:cx (codex): resumed in %",
        "main:ai (aider): resumed in %",
    ]) {
        assert!(line.starts_with(how), "{out}");
    }
    for (name, args) in [
        ("alice", "--model m1 --resume 5f0e-aa"),
        ("cx", "--no-daemon resume 0199-cc -m x"),
        ("ai", "--model m2 notes.txt --restore-chat-history"),
    ] {
        let pane = pane_of(&env, name);
        env.wait_for_screen(&pane, &format!("args: {args}\n"));
        env.wait_for_screen(&pane, &format!("cwd: {dir}\n"));
    }
    // Ending a session forgets its agents too (a session that is not the
    // last: the last one is the whole server, which forgets nothing).
    roost(&["session", "other"]);
    roost(&["kill", "--session", "main"]);
    assert_eq!(
        roost(&["resume"]),
        "no agents recorded for this server (roost spawn NAME AGENT records them)"
    );
}

#[test]
fn next_finds_the_blocked_agent_and_badge_counts() {
    let env = TestEnv::new();
    let a = env.spawn("a", "sleep 100000");
    let b = env.spawn("b", "sleep 100000");
    let out = env.run(["next"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(env.ok(["badge"]), "");
    env.tmux_ok(&["set-option", "-p", "-t", &b, "@agent_state", "blocked"]);
    env.tmux_ok(&["set-option", "-p", "-t", &a, "@agent_state", "done"]);
    let next = env.ok(["next"]);
    assert!(next.starts_with(&format!("{b} ")), "{next}");
    assert_eq!(env.ok(["badge"]), "1 blocked 1 done\n");
}

/// A pane renames its window and its session with a direction control and
/// stamps itself blocked: `next` shows the names escaped.
#[test]
fn next_prints_a_hostile_window_and_session_name_escaped() {
    let env = TestEnv::new();
    let a = env.spawn("a", "sleep 100000");
    env.tmux_ok(&["rename-window", "-t", &a, "alice\u{202e}live\u{1b}[2J"]);
    env.tmux_ok(&["rename-session", "-t", &a, "main\u{202e}x"]);
    env.tmux_ok(&["set-option", "-p", "-t", &a, "@agent_state", "blocked"]);
    let next = env.ok(["next"]);
    assert!(!next.contains(['\u{202e}', '\u{1b}']), "{next:?}");
    // (tmux itself shows the ESC in a name as the text \033.)
    assert!(next.contains("alice\\u{202e}live"), "{next}");
    assert!(next.contains("main\\u{202e}x:"), "{next}");
}

#[test]
fn doctor_checks_the_version_and_the_wiring_of_the_agents_on_path() {
    let env = TestEnv::new();
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for (name, version) in [
        ("claude", "2.1.332 (Claude Code)"),
        ("codex", "codex-cli 0.99.0"),
    ] {
        let fake = bin.join(name);
        std::fs::write(&fake, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let doctor = || {
        let out = env.roost(["doctor"]).env("PATH", &path).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (_, text) = doctor();
    let claude = bin.join("claude");
    assert!(
        text.contains(&format!(
            "ok    claude 2.1.332 at {} (a version roost knows)\n",
            claude.display()
        )),
        "{text}"
    );
    assert!(text.contains("note  codex 0.99.0 at "), "{text}");
    assert!(
        text.contains("roost's wiring was checked against 0.171.0"),
        "{text}"
    );
    assert!(text.contains("note  claude hooks not wired"), "{text}");
    env.ok(["hooks", "install", "claude"]);
    let (_, text) = doctor();
    assert!(text.contains("ok    claude hooks in "), "{text}");
    // Hooks that run another roost are a problem, with the fix.
    let settings = env.path("home/.claude/settings.json");
    let moved = std::fs::read_to_string(&settings).unwrap().replace(
        assert_cmd::cargo::cargo_bin("roost").to_str().unwrap(),
        "/old/roost",
    );
    std::fs::write(&settings, moved).unwrap();
    let (code, text) = doctor();
    assert_eq!(code, exited(Exit::Failed), "{text}");
    assert!(text.contains("FAIL  claude hooks in "), "{text}");
    assert!(
        text.contains("      run roost hooks install claude\n"),
        "{text}"
    );
}

#[test]
fn codex_is_spawned_with_its_own_server_and_opencode_events_name_their_state() {
    let env = TestEnv::new();
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("codex");
    std::fs::write(&fake, "#!/bin/sh\necho \"args: $*\"\nexec sleep 100000\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = env
        .roost(["spawn", "cx", "codex", "-m", "x"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    env.wait_for_screen(&pane, "args: --no-daemon -m x");
    assert_eq!(option(&env, &pane, "@roost-agent"), "codex");
    // What roost's opencode plugin sends.
    let prompt = r#"{"session_id":"ses_1","prompt":"hi"}"#;
    assert!(hook_in(&env, &pane, &["opencode", "prompt"], prompt)
        .status
        .success());
    assert_eq!(option(&env, &pane, "@agent_state"), "working");
    assert_eq!(option(&env, &pane, "@roost-prompt-seen"), key("hi"));
    let idle = r#"{"session_id":"ses_1","reply":"ACK: hi"}"#;
    assert!(hook_in(&env, &pane, &["opencode", "done"], idle)
        .status
        .success());
    assert_eq!(option(&env, &pane, "@agent_state"), "done");
    assert_eq!(env.ok(["read", "cx"]), "ACK: hi\n");
    assert_eq!(option(&env, &pane, "@roost-agent"), "opencode");
}
