//! `roost resume` brings back the agents `spawn` recorded, by their session
//! id, in their directory, and never one that was killed.

use crate::common::*;
use crate::core::{hook_in, pane_option as option};

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

/// Installs the extension `qwen` teaching the preset `qwen`: the program
/// `qwen` with fixed arguments, resumed by `--resume ID`.
pub(crate) fn install_qwen_preset(env: &TestEnv) {
    crate::ext::install::ext_with(
        env,
        "owner/roost-qwen",
        serde_json::json!({"name": "qwen", "contract": 1, "commands": ["qwen-hooks"],
        "agents": [{
            "name": "qwen", "program": "qwen",
            "args": ["--approval-mode", "default"],
            "first_message": {"by": "argument"},
            "resume": ["--resume", "{id}"],
            "state": {"hooks": true},
            "send": {"bracketed_paste": true, "settle_ms": 200}
        }]}),
        &["qwen-hooks"],
    );
    env.ok(["ext", "install", "owner/roost-qwen", "--yes"]);
}

#[test]
fn a_preset_agent_is_spawned_by_its_word_and_resumed_by_its_template_and_session_id() {
    let env = TestEnv::new();
    let path = stand_in_agents(&env, &["qwen"]);
    install_qwen_preset(&env);
    let run = |args: &[&str]| {
        let out = env.roost(args).env("PATH", &path).output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let pane = run(&["spawn", "alice", "qwen", "-m", "m1"]);
    assert_eq!(option(&env, &pane, "@roost-agent"), "qwen");
    env.wait_for_screen(&pane, "args: --approval-mode default -m m1");
    // Its own hooks report with the generic payload.
    assert!(hook_in(
        &env,
        &pane,
        &["generic", "working"],
        r#"{"session_id":"q-5f0e"}"#
    )
    .status
    .success());
    env.ok(["kill"]);
    let out = run(&["resume"]);
    assert!(
        out.starts_with("main:alice (qwen): resumed in %")
            && out.ends_with("(qwen --approval-mode default -m m1 --resume q-5f0e)"),
        "{out}"
    );
    env.wait_for_screen(
        &pane_of(&env, "alice"),
        "args: --approval-mode default -m m1 --resume q-5f0e",
    );
    assert_eq!(
        option(&env, &pane_of(&env, "alice"), "@roost-agent"),
        "qwen"
    );
}

#[test]
fn resume_skips_an_agent_whose_preset_was_disabled_or_removed_saying_why() {
    let env = TestEnv::new();
    let path = stand_in_agents(&env, &["qwen"]);
    install_qwen_preset(&env);
    let run = |args: &[&str]| {
        let out = env.roost(args).env("PATH", &path).output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let pane = run(&["spawn", "alice", "qwen"]);
    assert!(hook_in(
        &env,
        &pane,
        &["generic", "working"],
        r#"{"session_id":"q-1"}"#
    )
    .status
    .success());
    env.ok(["kill"]);
    env.ok(["ext", "disable", "qwen"]);
    assert_eq!(
        run(&["resume"]),
        "main:alice (qwen): not resumed: the extension qwen that teaches the agent qwen is disabled (roost ext enable qwen turns it back on)"
    );
    env.ok(["ext", "remove", "qwen"]);
    assert_eq!(
        run(&["resume"]),
        "main:alice (qwen): not resumed: no installed extension teaches the agent qwen now (it was removed)"
    );
}
