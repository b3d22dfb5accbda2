//! A preset agent with screen rules and no hook report: `status` reads its
//! state from the last lines of its screen; a hook's stamp wins.

use crate::common::*;
use crate::core::hook_in;

/// Installs the extension `scr` teaching the preset `scr`, whose state
/// comes from its screen alone, and a stand-in `scr` that shows its prompt,
/// then (once FLAG exists) a permission question under it.
fn screen_preset(env: &TestEnv) -> String {
    use std::os::unix::fs::PermissionsExt;
    crate::ext::install::ext_with(
        env,
        "owner/roost-scr",
        serde_json::json!({"name": "scr", "contract": 1, "commands": ["scr-tool"],
        "agents": [{
            "name": "scr", "program": "scr",
            "first_message": {"by": "argument"},
            "resume": ["--resume", "{id}"],
            "state": {"screen_lines": 3, "rules": [
                {"state": "idle", "text": "Type your message"},
                {"state": "working", "text": "esc to cancel"},
                {"state": "blocked", "text": "Allow execution?"}
            ]},
            "send": {"bracketed_paste": true, "settle_ms": 0},
            "exit": "/quit"
        }]}),
        &["scr-tool"],
    );
    env.ok(["ext", "install", "owner/roost-scr", "--yes"]);
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("scr");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho '> Type your message'\nwhile [ ! -e \"$1\" ]; do sleep 0.05; done\n\
         echo 'Allow execution? (y/n)'\nexec sleep 100000\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

/// The preset `scr` spawned as window alice, showing its permission
/// question from the start; its pane.
fn spawned_asking(env: &TestEnv) -> String {
    let path = screen_preset(env);
    let flag = env.path("flag");
    std::fs::write(&flag, "").unwrap();
    let out = env
        .roost(["spawn", "alice", "scr", flag.to_str().unwrap()])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    env.wait_for_screen(&pane, "Allow execution?");
    pane
}

/// The state `status --json` gives pane `pane` (null as "-").
fn state_of(env: &TestEnv, pane: &str) -> String {
    let json: serde_json::Value = serde_json::from_str(&env.ok(["status", "--json"])).unwrap();
    let panes = json["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["panes"].as_array().unwrap().clone());
    for p in panes {
        if p["id"] == pane {
            return p["state"].as_str().unwrap_or("-").to_string();
        }
    }
    panic!("no pane {pane} in status")
}

#[test]
fn a_preset_pane_no_hook_reported_from_reads_its_state_from_its_screen() {
    let env = TestEnv::new();
    let path = screen_preset(&env);
    let flag = env.path("flag");
    let out = env
        .roost(["spawn", "alice", "scr", flag.to_str().unwrap()])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    // A pane that is no preset's shows the same words and stays unread.
    let other = env.spawn("bob", "echo 'Allow execution? (y/n)'; exec sleep 100000");
    env.wait_for_screen(&pane, "Type your message");
    env.wait_for_screen(&other, "Allow execution?");
    assert_eq!(state_of(&env, &pane), "idle");
    assert_eq!(state_of(&env, &other), "-");
    // Both rules match the last lines: blocked comes first.
    std::fs::write(&flag, "").unwrap();
    env.wait_for_screen(&pane, "Allow execution?");
    assert_eq!(state_of(&env, &pane), "blocked");
    assert!(
        env.ok(["status"]).contains("[blocked]"),
        "{}",
        env.ok(["status"])
    );
    // A hook's stamp wins over the screen.
    assert!(hook_in(&env, &pane, &["scr", "working"], "")
        .status
        .success());
    assert_eq!(state_of(&env, &pane), "working");
}

/// send and close refuse a pane its screen rules read as blocked, as they
/// refuse one a hook stamped blocked: nothing is typed into the question.
#[test]
fn send_and_close_refuse_a_pane_its_screen_shows_blocked() {
    let env = TestEnv::new();
    let pane = spawned_asking(&env);
    for args in [vec!["send", "alice", "yes"], vec!["close", "alice"]] {
        let out = env.run(&args);
        assert_eq!(exit_of(&out), Exit::Blocked, "{args:?}: {}", describe(&out));
        assert!(
            stderr(&out).contains("(%1) is blocked: it is waiting for a person"),
            "{args:?}: {}",
            describe(&out)
        );
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let screen = env.screen(&pane);
    assert!(
        !screen.contains("yes") && !screen.contains("/quit"),
        "{screen}"
    );
}

/// wait-done's last look: a preset pane with no hook report that times
/// out says the state its screen shows, not that it never reported one.
#[test]
fn wait_done_on_a_preset_pane_times_out_naming_the_state_its_screen_shows() {
    let env = TestEnv::new();
    let pane = spawned_asking(&env);
    let out = env.run(["wait-done", "alice", "1"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "roost wait-done: 'alice' ({pane}) is still blocked after 1s (its screen shows it)\n"
        )
    );
}
