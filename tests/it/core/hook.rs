//! `roost hook` turns the payloads the agents send into the pane's state,
//! reply, agent and session id, in a real pane of a real server.

use crate::common::*;
use crate::core::{hook_in, pane_option as option};

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

/// A preset's own hooks name it: `roost hook qwen EVENT` takes the generic
/// payload and records the preset's name on the pane. A word no enabled
/// extension teaches keeps the refusal of an unknown agent.
#[test]
fn a_preset_word_takes_the_generic_payload_and_an_unknown_word_is_refused() {
    let env = TestEnv::new();
    crate::core::resume::install_qwen_preset(&env);
    let pane = env.spawn("q", "sleep 100000");
    let out = hook_in(&env, &pane, &["qwen", "working"], r#"{"session_id":"q-7"}"#);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(option(&env, &pane, "@agent_state"), "working");
    assert_eq!(option(&env, &pane, "@roost-agent"), "qwen");
    assert_eq!(option(&env, &pane, "@roost-session-id"), "q-7");
    assert!(
        hook_in(&env, &pane, &["qwen", "done"], r#"{"reply":"ACK: q"}"#)
            .status
            .success()
    );
    assert_eq!(option(&env, &pane, "@agent_state"), "done");
    assert_eq!(env.ok(["read", "q"]), "ACK: q\n");
    let unknown = hook_in(&env, &pane, &["nope", "working"], "");
    assert_eq!(exit_of(&unknown), Exit::Failed, "{}", describe(&unknown));
    assert_eq!(
        String::from_utf8_lossy(&unknown.stderr),
        "roost hook: unknown agent 'nope' (one of claude, codex, gemini, opencode, aider, copilot, pi, generic)\nusage: roost hook AGENT [EVENT...]\n"
    );
    env.ok(["ext", "disable", "qwen"]);
    let off = hook_in(&env, &pane, &["qwen", "idle"], "");
    assert_eq!(exit_of(&off), Exit::Failed, "{}", describe(&off));
    assert!(
        String::from_utf8_lossy(&off.stderr).starts_with("roost hook: unknown agent 'qwen'"),
        "{}",
        describe(&off)
    );
    assert_eq!(option(&env, &pane, "@agent_state"), "done");
}
