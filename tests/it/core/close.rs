//! `roost close`: stand-ins named as the agents roost knows, each exiting
//! only on its own agent's exit command, typed at its prompt; the fallback
//! to ending the pane when the agent does not exit in time; and the panes
//! close refuses (an agent waiting for a person, text still waiting for
//! its Enter, an agent roost does not know) with nothing typed.

use crate::common::*;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

/// Each agent roost knows, with the exit command it takes.
const AGENTS: &[(&str, &str)] = &[
    ("claude", "/exit"),
    ("codex", "/quit"),
    ("gemini", "/quit"),
    ("opencode", "/exit"),
    ("aider", "/exit"),
    ("copilot", "/exit"),
    ("pi", "/quit"),
];

/// A directory of stand-ins, one per agent, put first on PATH: each prints
/// a prompt, writes every line it reads to NAME.typed in the test's
/// directory, and exits on its agent's exit command alone (`stubborn`: on
/// none).
fn stand_ins(env: &TestEnv, stubborn: bool) -> String {
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, exit) in AGENTS {
        let quit = if stubborn {
            String::new()
        } else {
            format!("  [ \"$line\" = '{exit}' ] && exit 0\n")
        };
        let log = env.path(&format!("{name}.typed"));
        let script = format!(
            "#!/bin/sh\nprintf '{name}> '\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> '{}'\n{quit}  printf '{name}> '\ndone\n",
            log.display()
        );
        let file = bin.join(name);
        std::fs::write(&file, script).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

fn roost_with(env: &TestEnv, path: &str, args: &[&str]) -> std::process::Output {
    env.roost(args).env("PATH", path).output().unwrap()
}

fn spawned(env: &TestEnv, path: &str, name: &str, program: &str) -> String {
    let out = roost_with(env, path, &["spawn", name, program]);
    assert!(out.status.success(), "{}", describe(&out));
    let pane = stdout(&out).trim().to_string();
    env.wait_for_screen(&pane, &format!("{program}>"));
    pane
}

fn windows(env: &TestEnv) -> String {
    env.tmux_ok(&["list-windows", "-t", "=main", "-F", "#{window_name}"])
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What the stand-in of `name` read, line by line.
fn typed(env: &TestEnv, name: &str) -> String {
    std::fs::read_to_string(env.path(&format!("{name}.typed"))).unwrap_or_default()
}

fn recorded(env: &TestEnv) -> String {
    std::fs::read_to_string(env.path("state/roost/agents.json")).unwrap_or_default()
}

#[test]
fn every_agent_is_closed_by_its_own_exit_command_and_forgotten() {
    let env = TestEnv::new();
    let path = stand_ins(&env, false);
    for (name, exit) in AGENTS {
        let pane = spawned(&env, &path, name, name);
        assert!(recorded(&env).contains(&format!("\"agent\": \"{name}\"")));
        let out = roost_with(&env, &path, &["close", name]);
        assert_eq!(exit_of(&out), Exit::Ok, "{name}: {}", describe(&out));
        assert!(out.stdout.is_empty(), "{name}: {}", describe(&out));
        let said = stderr_of(&out);
        let want = format!("roost close: '{name}' ({pane}): {name} exited on {exit} in ");
        assert!(said.starts_with(&want), "{name}: {said}");
        assert!(said.ends_with(" s; its window ended\n"), "{name}: {said}");
        assert_eq!(said.lines().count(), 1, "{name}: {said}");
        assert_eq!(windows(&env), "sh\n", "{name}'s window is left");
        assert_eq!(typed(&env, name), format!("{exit}\n"), "{name}");
        // Ended on purpose: resume leaves it be.
        assert!(
            !recorded(&env).contains(&format!("\"name\": \"{name}\"")),
            "{name}"
        );
    }
}

#[test]
fn close_by_pane_id_ends_the_pane_and_names_the_session_id_a_hook_reported() {
    let env = TestEnv::new();
    let path = stand_ins(&env, false);
    let pane = spawned(&env, &path, "alice", "claude");
    env.tmux_ok(&[
        "set-option",
        "-p",
        "-t",
        &pane,
        "@roost-session-id",
        "5e55-1d",
    ]);
    let out = roost_with(&env, &path, &["close", &pane]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let said = stderr_of(&out);
    assert!(
        said.starts_with(&format!(
            "roost close: '{pane}': claude exited on /exit in "
        )),
        "{said}"
    );
    assert!(
        said.ends_with(" s (its session: 5e55-1d); its pane ended\n"),
        "{said}"
    );
    assert_eq!(windows(&env), "sh\n");
}

#[test]
fn an_agent_that_does_not_exit_in_time_is_ended_as_kill_ends_it_with_a_line_saying_so() {
    let env = TestEnv::new();
    let path = stand_ins(&env, true);
    let pane = spawned(&env, &path, "alice", "gemini");
    let t = Instant::now();
    let out = roost_with(&env, &path, &["close", "alice", "1"]);
    let took = t.elapsed();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(
        stderr_of(&out),
        format!(
            "roost close: 'alice' ({pane}): gemini did not exit within 1 s of /quit; its window ended as roost kill ends it\n"
        )
    );
    assert!(took >= Duration::from_secs(1), "{took:?}");
    assert_eq!(typed(&env, "gemini"), "/quit\n");
    assert!(took < Duration::from_secs(8), "{took:?}");
    assert_eq!(windows(&env), "sh\n");
}

#[test]
fn a_blocked_agent_is_refused_with_exit_3_and_nothing_typed() {
    let env = TestEnv::new();
    let path = stand_ins(&env, false);
    let pane = spawned(&env, &path, "alice", "codex");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "blocked"]);
    let out = roost_with(&env, &path, &["close", "alice"]);
    assert_refusal(
        &out,
        Exit::Blocked,
        &format!(
            "roost close: 'alice' ({pane}) is blocked: it is waiting for a person; nothing was typed\n"
        ),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(typed(&env, "codex"), "");
    assert_eq!(windows(&env), "sh\nalice\n");
}

/// codex holding its "Hooks need review" dialog before any hook reported:
/// its state is not blocked, but what is typed there would answer the
/// dialog. close types nothing and exits 3, as send does.
#[test]
fn an_agent_showing_a_dialog_is_refused_with_exit_3_and_nothing_typed() {
    let env = TestEnv::new();
    let path = stand_ins(&env, false);
    let bin = env.path("bin");
    let log = env.path("codex.typed");
    let script = format!(
        "#!/bin/sh\nprintf '\\n  Hooks need review\\n  5 hooks are new or changed.\\n\\n  1. Review hooks\\n  2. Trust all and continue\\n\\n  enter confirm . esc skip\\n'\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> '{}'\n  [ \"$line\" = '/quit' ] && exit 0\ndone\n",
        log.display()
    );
    std::fs::write(bin.join("codex"), script).unwrap();
    let out = roost_with(&env, &path, &["spawn", "alice", "codex"]);
    assert!(out.status.success(), "{}", describe(&out));
    let pane = stdout(&out).trim().to_string();
    env.wait_for_screen(&pane, "enter confirm");
    let out = roost_with(&env, &path, &["close", "alice"]);
    assert_refusal(
        &out,
        Exit::Blocked,
        &format!(
            "roost close: 'alice' ({pane}) shows codex's \"Hooks need review\" dialog: it is waiting for a person; nothing was typed\n"
        ),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(typed(&env, "codex"), "");
    assert_eq!(windows(&env), "sh\nalice\n");
}

#[test]
fn text_still_waiting_for_its_enter_is_not_submitted_with_the_exit_command() {
    let env = TestEnv::new();
    let path = stand_ins(&env, false);
    let pane = spawned(&env, &path, "alice", "pi");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@roost-sent", "typed"]);
    let out = roost_with(&env, &path, &["close", "alice"]);
    assert_refusal(
        &out,
        Exit::Failed,
        &format!(
            "roost close: text roost send typed into 'alice' ({pane}) still waits for its Enter"
        ),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(typed(&env, "pi"), "");
    assert_eq!(windows(&env), "sh\nalice\n");
}

#[test]
fn a_pane_whose_agent_roost_does_not_know_is_refused_and_kill_is_named() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "cat");
    let out = env.run(["close", "alice"]);
    assert_refusal(
        &out,
        Exit::Failed,
        &format!(
            "roost close: 'alice' ({pane}) runs no agent roost knows, so roost cannot tell how it exits; nothing was typed\n"
        ),
    );
    assert!(
        stderr_of(&out).contains("roost kill TARGET ends it"),
        "{}",
        describe(&out)
    );
    // A pane a generic hook reported from names an agent roost does not know.
    env.tmux_ok(&[
        "set-option",
        "-p",
        "-t",
        &pane,
        "@roost-agent",
        "generic\u{1b}[2J",
    ]);
    let out = env.run(["close", "alice"]);
    assert_refusal(
        &out,
        Exit::Failed,
        &format!(
            "roost close: 'alice' ({pane}) runs generic\\x1b[2J, an agent roost does not know, so"
        ),
    );
    assert_eq!(env.screen(&pane).trim(), "");
    assert_eq!(windows(&env), "sh\nalice\n");
}

#[test]
fn an_exited_agent_has_its_pane_ended_and_a_missing_target_is_exit_2() {
    let env = TestEnv::new();
    let out = env.run(["close", "alice"]);
    assert_refusal(
        &out,
        Exit::NoTarget,
        "roost close: no such target 'alice': roost is not running",
    );
    let pane = env.spawn("alice", "true");
    let dead = wait_until(Duration::from_secs(10), || {
        env.tmux_ok(&["display-message", "-p", "-t", &pane, "#{pane_dead}"]) == "1\n"
    });
    assert!(dead);
    let out = env.run(["close", "alice"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(
        stderr_of(&out),
        format!(
            "roost close: 'alice' ({pane}): its program had already exited; its window ended\n"
        )
    );
    assert_eq!(windows(&env), "sh\n");
    let out = env.run(["close", "nope"]);
    assert_refusal(&out, Exit::NoTarget, "roost close: no such target 'nope'");
    let out = env.run(["close", "sh", "0"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
}

/// An extension's preset that says how its agent exits (`exit`) is closed
/// by typing that; one that says nothing is refused, naming its preset.
#[test]
fn a_preset_agent_is_closed_by_its_exit_text_and_one_without_is_refused() {
    let env = TestEnv::new();
    let preset = |name: &str, exit: Option<&str>| {
        let mut p = serde_json::json!({"name": name, "program": "qc",
            "first_message": {"by": "argument"}, "resume": ["--resume", "{id}"],
            "state": {"hooks": true}, "send": {"bracketed_paste": false, "settle_ms": 0}});
        if let Some(exit) = exit {
            p["exit"] = exit.into();
        }
        p
    };
    crate::ext::install::ext_with(
        &env,
        "owner/roost-qc",
        serde_json::json!({"name": "qc", "contract": 1, "commands": ["qc-tool"],
            "agents": [preset("quitter", Some(":leave now")), preset("stayer", None)]}),
        &["qc-tool"],
    );
    env.ok(["ext", "install", "owner/roost-qc", "--yes"]);
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let typed = env.path("qc.typed");
    std::fs::write(
        bin.join("qc"),
        format!(
            "#!/bin/sh\nprintf 'qc> '\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> '{}'\n  [ \"$line\" = ':leave now' ] && exit 0\n  printf 'qc> '\ndone\n",
            typed.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(bin.join("qc"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let spawn = |name: &str, word: &str| {
        let out = roost_with(&env, &path, &["spawn", name, word]);
        assert!(out.status.success(), "{}", describe(&out));
        let pane = stdout(&out).trim().to_string();
        env.wait_for_screen(&pane, "qc>");
        pane
    };
    spawn("alice", "quitter");
    let bob = spawn("bob", "stayer");
    let out = roost_with(&env, &path, &["close", "alice"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        stderr(&out).contains("quitter exited on :leave now in "),
        "{}",
        describe(&out)
    );
    assert_eq!(std::fs::read_to_string(&typed).unwrap(), ":leave now\n");
    let out = roost_with(&env, &path, &["close", "bob"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!("roost close: 'bob' ({bob}) runs stayer, whose preset (from the extension qc) says no exit command, so roost cannot tell how it exits; nothing was typed\nroost kill TARGET ends it\n")
    );
    assert_eq!(std::fs::read_to_string(&typed).unwrap(), ":leave now\n");
    assert!(windows(&env).contains("bob"));
}
