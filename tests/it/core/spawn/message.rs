//! `spawn --message TEXT`: the first message goes on the command line
//! where the agent's preset says so (never into what `resume` gives back),
//! else it is sent once the program reads, as `roost send` sends it.

use crate::common::*;

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

const READER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/paste-reader");

/// A program `rec` on a PATH of its own that writes its arguments, one a
/// line, to `args-WINDOW` in the test's directory, then waits.
fn recorder(env: &TestEnv) -> String {
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let rec = bin.join("rec");
    let dir = env.path("");
    std::fs::write(
        &rec,
        format!(
            "#!/bin/sh\nw=$(tmux display-message -p -t \"$TMUX_PANE\" '#{{window_name}}')\nprintf '%s\\n' \"$@\" > '{}'/args-\"$w\"\nexec sleep 100000\n",
            dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&rec, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

fn preset(name: &str, first_message: serde_json::Value) -> serde_json::Value {
    serde_json::json!({
        "name": name, "program": "rec", "args": ["--fixed"],
        "first_message": first_message,
        "resume": ["--resume", "{id}"],
        "state": {"hooks": true},
        "send": {"bracketed_paste": true, "settle_ms": 0}
    })
}

#[test]
fn a_preset_s_first_message_goes_after_its_option_or_last_and_is_not_recorded() {
    let env = TestEnv::new();
    crate::ext::install::ext_with(
        &env,
        "owner/roost-rec",
        serde_json::json!({"name": "rec", "contract": 1, "commands": ["rec-tool"],
        "agents": [
            preset("reco", serde_json::json!({"by": "option", "option": "-i"})),
            preset("reca", serde_json::json!({"by": "argument"})),
        ]}),
        &["rec-tool"],
    );
    env.ok(["ext", "install", "owner/roost-rec", "--yes"]);
    let path = recorder(&env);
    let text = "hi there; $(touch no) 'quoted' -x";
    for (window, word) in [("o", "reco"), ("a", "reca")] {
        let out = env
            .roost(["spawn", "--message", text, window, word, "a b", "-c"])
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        assert!(stdout(&out).starts_with('%'), "{}", describe(&out));
    }
    let args = |w: &str| {
        let file = env.path(&format!("args-{w}"));
        assert!(
            wait_until(Duration::from_secs(10), || file.exists()),
            "{w} never started"
        );
        wait_until(Duration::from_secs(2), || {
            std::fs::read_to_string(&file).is_ok_and(|s| s.ends_with("-x\n"))
        });
        std::fs::read_to_string(&file).unwrap()
    };
    assert_eq!(args("o"), format!("--fixed\na b\n-c\n-i\n{text}\n"));
    assert_eq!(args("a"), format!("--fixed\na b\n-c\n{text}\n"));
    assert!(!env.path("no").exists());
    // resume gives back what the user gave after the word, not the message.
    let roster = std::fs::read_to_string(env.path("state/roost/agents.json")).unwrap();
    let roster: serde_json::Value = serde_json::from_str(&roster).unwrap();
    let entries: Vec<&serde_json::Value> = roster["servers"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|l| l.as_array().unwrap())
        .collect();
    assert_eq!(entries.len(), 2, "{roster}");
    for e in entries {
        assert_eq!(e["args"], serde_json::json!(["a b", "-c"]), "{roster}");
    }
}

#[test]
fn a_first_message_is_otherwise_sent_once_the_program_reads() {
    if !on_path("python3") {
        skip_without("python3 is not installed");
        return;
    }
    let env = TestEnv::new();
    let log = env.path("rd.log");
    // It reads its terminal only after a second, as a program starting.
    let out = env.run([
        "spawn",
        "--message",
        "hello there",
        "rd",
        READER,
        log.to_str().unwrap(),
        "1",
    ]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let pane = stdout(&out);
    assert!(pane.starts_with('%') && pane.lines().count() == 1, "{pane}");
    let got = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
    assert_eq!(got.matches("hello there").count(), 1, "{got:?}");
    assert!(got.ends_with('\r'), "{got:?}");
}

#[test]
fn an_empty_first_message_is_a_usage_error_and_makes_no_window() {
    let env = TestEnv::new();
    let out = env.run(["spawn", "--message", "", "x", "sleep", "100"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
    assert_eq!(
        stderr(&out).lines().next(),
        Some("roost spawn: --message is empty")
    );
    assert!(!env.server_running());
}
