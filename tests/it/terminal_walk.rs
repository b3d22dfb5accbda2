//! Every built-in command and every `roost ext` verb, run on a real
//! terminal (script(1)'s pseudo-terminal) in a world made hostile: the
//! directory it runs in, the session and window names, a pane's state,
//! reply and screen, a server option, an extension's description and an
//! agent's settings all hold text that acts on a terminal. Nothing of it
//! may reach the terminal raw; roost's own colours are the only escapes
//! that do. The commands come from roost's own table, so a new one is
//! walked without being named here.

use crate::common::hostile::*;
use crate::common::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The hostile world: a server whose names, states, reply, screen and
/// terminal option are EVIL, an installed extension whose description
/// holds direction controls, and a directory (where roost runs) whose
/// name and agent settings hold EVIL too.
struct World {
    env: TestEnv,
    cwd: PathBuf,
    /// The pane whose names, state and screen are EVIL.
    pane: String,
    /// The pane whose reply is EVIL.
    other: String,
}

fn world() -> World {
    let env = TestEnv::new();
    let cwd = env.path("work").join(format!("proj{EVIL}x"));
    std::fs::create_dir_all(cwd.join(".claude")).unwrap();
    std::fs::write(
        cwd.join(".claude/settings.local.json"),
        format!(
            "{{{k}: 1, {k}: 2}}",
            k = serde_json::to_string(EVIL).unwrap()
        ),
    )
    .unwrap();
    let f = env.ext_repo("owner/roost-note");
    f.write(
        "roost-ext.json",
        "{\"name\": \"note\", \"contract\": 1, \"commands\": [\"note\"], \"description\": \"notes \u{202e}reversed\u{2066} text\"}",
    );
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
    f.commit("first");
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    let screen = format!(
        "printf '%s\\n' '{}'; exec sleep 100000",
        EVIL.replace('\'', "")
    );
    let pane = env.spawn("alice", &screen);
    let other = env.spawn("bob", "sleep 100000");
    named(&env, &["rename-window", "-t", &pane], EVIL);
    named(&env, &["rename-session", "-t", &pane], &format!("s{EVIL}"));
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", EVIL]);
    env.tmux_ok(&["set-option", "-p", "-t", &other, "@agent_state", "blocked"]);
    env.tmux_ok(&["set-option", "-p", "-t", &other, "@roost-reply", EVIL]);
    env.tmux_ok(&[
        "set-option",
        "-g",
        "default-terminal",
        &format!("xterm{EVIL}"),
    ]);
    World {
        env,
        cwd,
        pane,
        other,
    }
}

/// `'WORD'` for a shell line.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// What the terminal showed while `roost ARGS` ran in `cwd` on it.
fn on_terminal(env: &TestEnv, cwd: &Path, args: &[String]) -> Vec<u8> {
    let line = format!(
        "cd {} && exec {} {}",
        quote(&cwd.to_string_lossy()),
        quote(ROOST),
        args.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
    );
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qefc", &line, "/dev/null"])
        .env_clear()
        .envs(env.vars())
        .current_dir(env.path("work"));
    bounded_typed(cmd, Some(b""), Duration::from_secs(90))
        .out
        .stdout
}

/// The words each command is run with (several runs each). A command not
/// named here is run alone, and with EVIL as its argument.
fn runs(name: &str, w: &World) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let pane = w.pane.as_str();
    match name {
        // These hand the terminal to tmux (attach) or run a tour of their
        // own in a sandbox of their own: nothing of the world reaches them.
        "up" | "session" | "demo" => vec![],
        "spawn" => vec![s(&["carol", "sh"]), s(&[EVIL, "sh"])],
        "send" => vec![s(&["--wait", "1", pane, "hi"]), s(&[EVIL, "hi"])],
        "read" | "screen" => vec![s(&[pane]), s(&[&w.other]), s(&[EVIL])],
        "wait-done" => vec![s(&[pane, "1"]), s(&[EVIL, "1"])],
        "kill" => vec![s(&[EVIL]), s(&["--session", EVIL])],
        "hooks" => vec![
            s(&["status"]),
            s(&["install", "claude", "--project", "."]),
            s(&["remove", "claude", "--project", "."]),
            s(&["install", EVIL]),
        ],
        "help" => vec![s(&[]), s(&["send"]), s(&["note"]), s(&[EVIL])],
        "completions" => vec![s(&["bash"]), s(&[EVIL])],
        "ext" => vec![s(&[]), s(&[EVIL])],
        _ => vec![s(&[]), s(&[EVIL])],
    }
}

/// The words each `roost ext` verb is run with.
fn ext_runs(verb: &str) -> Vec<Vec<String>> {
    let s = |v: &[&str]| {
        std::iter::once("ext")
            .chain(v.iter().copied())
            .map(|x| x.to_string())
            .collect::<Vec<String>>()
    };
    match verb {
        "install" => vec![
            s(&["install", EVIL]),
            s(&["install", "owner/nothing", "--yes"]),
        ],
        "new" => vec![s(&["new", EVIL])],
        "check" => vec![s(&["check", "."]), s(&["check", EVIL])],
        "exec" => vec![s(&["exec", "note"]), s(&["exec", EVIL])],
        // Last, so the rest saw the extension installed.
        "remove" => vec![s(&["remove", EVIL])],
        "update" | "rollback" | "outdated" => vec![s(&[verb, "note", "--yes"]), s(&[verb, EVIL])],
        _ => vec![s(&[verb]), s(&[verb, "note"]), s(&[verb, EVIL])],
    }
}

#[test]
fn no_command_lets_hostile_text_reach_the_terminal_raw() {
    if !on_path("script") {
        skip_without("util-linux script(1) is not installed");
        return;
    }
    let w = world();
    let mut walked = 0;
    let mut raw = Vec::new();
    let mut seen = std::collections::BTreeMap::<String, String>::new();
    let mut check = |args: Vec<String>| {
        let shown = without_roost_own(&on_terminal(&w.env, &w.cwd, &args));
        seen.insert(args.join(" "), String::from_utf8_lossy(&shown).into_owned());
        if RAW.iter().any(|r| holds(&shown, r)) {
            raw.push(format!(
                "roost {}: {:?}",
                printable(&args),
                String::from_utf8_lossy(&shown)
            ));
        }
        walked += 1;
    };
    for spec in roost::cli::COMMANDS {
        if spec.name == "ext" {
            for verb in roost::cli::EXT_VERBS {
                for args in ext_runs(verb) {
                    check(args);
                }
            }
        }
        for args in runs(spec.name, &w) {
            let mut all = vec![spec.name.to_string()];
            all.extend(args);
            check(all);
        }
    }
    // A word that is no command, and an extension's command.
    check(vec![EVIL.to_string()]);
    check(vec!["note".to_string()]);
    assert!(walked > 60, "{walked} runs");
    assert!(raw.is_empty(), "raw on the terminal:\n{}", raw.join("\n"));
    // The hostile text was there to be shown, and was shown escaped.
    let read_other = format!("read {}", w.other);
    for (run, want) in [
        ("status", "\\u{202e}h\\u{2066}i"),
        ("doctor", "xterm"),
        ("hooks status", "appears twice"),
        ("ext info note", "notes \\u{202e}reversed"),
        (read_other.as_str(), "\\u{202e}h"),
    ] {
        let shown = seen
            .get(run)
            .unwrap_or_else(|| panic!("{run} was not walked"));
        assert!(shown.contains(want), "{run}: want {want:?} in {shown:?}");
    }
}

/// A name fit for a message: EVIL shown as the test's own words.
fn printable(args: &[String]) -> String {
    args.join(" ").replace(EVIL, "EVIL")
}

/// The check itself fails when something raw reaches the terminal.
#[test]
fn the_walk_sees_what_reaches_the_terminal_raw() {
    if !on_path("script") {
        skip_without("util-linux script(1) is not installed");
        return;
    }
    let env = TestEnv::new();
    let cwd = env.path("work");
    let shown = {
        let line = format!("printf '%s' {}", quote(EVIL));
        let mut cmd = std::process::Command::new("script");
        cmd.args(["-qefc", &line, "/dev/null"])
            .env_clear()
            .envs(env.vars())
            .current_dir(&cwd);
        bounded_typed(cmd, Some(b""), Duration::from_secs(30))
            .out
            .stdout
    };
    let caught = std::panic::catch_unwind(|| assert_no_raw("printf", &without_roost_own(&shown)));
    assert!(caught.is_err(), "a raw ESC went unseen");
    assert_eq!(without_roost_own(b"\x1b[31mFAIL\x1b[m"), b"FAIL");
}
