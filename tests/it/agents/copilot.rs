//! GitHub Copilot CLI (npm `@github/copilot`) against the stand-in chat
//! completions API, as its own model provider (BYOK: no GitHub sign-in),
//! offline.

use super::*;
use crate::common::model_server::ModelServer;
use serde_json::json;

fn vars(server: &ModelServer) -> Vec<(String, String)> {
    [
        ("COPILOT_PROVIDER_BASE_URL", format!("{}/v1", server.url())),
        ("COPILOT_PROVIDER_API_KEY", "sk-stand-in".into()),
        ("COPILOT_MODEL", "stand-in".into()),
        ("COPILOT_PROVIDER_MAX_PROMPT_TOKENS", "100000".into()),
        ("COPILOT_PROVIDER_MAX_OUTPUT_TOKENS", "4096".into()),
        // No sign-in, telemetry, web tools or update check: the provider
        // alone is reached.
        ("COPILOT_OFFLINE", "true".into()),
        ("COPILOT_AUTO_UPDATE", "false".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The work directory trusted (copilot asks once per folder), no banner
/// and no tips.
fn prepare(rig: &Rig) {
    let config = json!({"trustedFolders": [rig.work().to_string_lossy()]});
    rig.env
        .write("home/.copilot/config.json", &config.to_string());
    rig.env.write(
        "home/.copilot/settings.json",
        &json!({"banner": "never", "showTipsOnStartup": false, "autoUpdate": false}).to_string(),
    );
}

/// A hooks file of the test's own: working when a prompt is submitted; at
/// the end of a turn its last assistant message as the reply, then done.
/// copilot writes the turn to its transcript (`events.jsonl`) a moment
/// after the stop hook starts: the script waits for the hook's own line
/// there, stamped as the payload is, and reads back from it to the prompt.
fn own_hooks(rig: &Rig) {
    let script = rig.env.write(
        "home/copilot-stop.py",
        "import json, subprocess, sys, time\n\
         p = json.load(sys.stdin)\n\
         said = ''\n\
         for _ in range(100):\n    \
             events = [json.loads(l) for l in open(p['transcript_path']) if l.strip()]\n    \
             stop = [i for i, e in enumerate(events) if e.get('type') == 'hook.start' and e.get('timestamp') == p['timestamp']]\n    \
             if stop:\n        \
                 for e in reversed(events[:stop[-1]]):\n            \
                     if e.get('type') == 'user.message':\n                \
                         break\n            \
                     if e.get('type') == 'assistant.message' and e['data'].get('content'):\n                \
                         said = e['data']['content']\n                \
                         break\n        \
                 break\n    \
             time.sleep(0.05)\n\
         subprocess.run(['roost', 'reply', '-'], input=said.encode())\n\
         subprocess.run(['roost', 'state', 'done'])\n",
    );
    let stop = format!("python3 '{}'", script.display());
    let hook = |cmd: &str| json!([{"type": "command", "bash": cmd, "timeoutSec": 30}]);
    let hooks = json!({"version": 1, "hooks": {
        "UserPromptSubmit": hook("roost state working"),
        "Stop": hook(&stop),
    }});
    rig.env
        .write("home/.copilot/hooks/own.json", &hooks.to_string());
}

pub static COPILOT: Agent = Agent {
    name: "copilot",
    bin: "node_modules/.bin/copilot",
    ready: &["/ commands"],
    args: |_| Vec::new(),
    own_args: &[],
    own_prompt_hook: true,
    vars,
    prepare,
    own_hooks,
    known_fetches: &[],
    config: &[
        "home/.copilot/settings.json",
        "home/.copilot/hooks/roost.json",
        "work/.github/hooks/roost.json",
    ],
};

#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&COPILOT);
}

#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&COPILOT);
}

#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&COPILOT);
}

#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn hooks_remove_restores_the_configuration() {
    let user = "{\n  \"theme\": \"dim\",\n  \"hooks\": {\"agentStop\": [{\"type\": \"command\", \"bash\": \"echo mine\"}]}\n}\n";
    super::hooks_remove_restores_the_configuration(
        &COPILOT,
        &[("home/.copilot/settings.json", user)],
    );
}

/// With roost's hooks and copilot's own default (a command asks first), a
/// command the model asks to run: the pane goes blocked at copilot's
/// permission question (its permission_prompt notification); `send` and
/// `close` each exit 3 with nothing typed, the command has not run; a
/// person's yes runs it, and the turn ends done, its prompt seen once.
#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn blocked_while_a_command_waits_for_a_person() {
    let rig = Rig::new(&COPILOT);
    rig.install_hooks();
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    rig.report("spawn-to-ready", rig.ready(&pane, t));
    let made = rig.work().join("granted");
    let prompt = format!("TOOL: touch {}", made.display());
    rig.send(&pane, &prompt);
    let t = Instant::now();
    let mut seen = String::new();
    let asked = wait_until(Duration::from_secs(120), || {
        seen = rig.state(&pane);
        seen == "blocked" || seen == "done"
    });
    assert!(
        asked && seen == "blocked",
        "the pane never went blocked (state {seen:?}); screen:\n{}\nmodel server:\n{}",
        rig.env.screen(&pane),
        rig.server.describe()
    );
    rig.report("send-to-blocked", t.elapsed());
    rig.env
        .wait_for_screen(&pane, "Do you want to run this command?");
    assert!(!made.exists(), "the command ran before anyone said yes");
    let refused = rig.run(["send", &pane, "--", "Never typed"]);
    assert_eq!(exit_of(&refused), Exit::Blocked, "{}", describe(&refused));
    let refused = rig.run(["close", &pane]);
    assert_eq!(exit_of(&refused), Exit::Blocked, "{}", describe(&refused));
    assert!(
        stderr(&refused).contains("is blocked: it is waiting for a person; nothing was typed"),
        "{}",
        describe(&refused)
    );
    // A person says yes: Enter takes the question's first choice, "Yes".
    rig.env.tmux_ok(&["send-keys", "-t", &pane, "Enter"]);
    rig.finish_as(&pane, &prompt, false);
    assert!(made.exists(), "the command never ran after the yes");
    let screen = rig.env.screen(&pane);
    assert!(
        !screen.contains("Never typed") && !screen.contains("/exit"),
        "a refused command was typed:\n{screen}"
    );
    let results = rig.server.log().iter().filter(|l| l.tool_result).count();
    assert_eq!(results, 1, "{}", rig.server.describe());
    rig.stayed_local();
}

/// With roost's hooks, a turn the provider refuses (HTTP 400): copilot's
/// ErrorOccurred hook stamps error, wait-done exits 1 saying so, and the
/// error is kept as the reply.
#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn error_when_the_provider_refuses_the_turn() {
    let rig = Rig::new(&COPILOT);
    rig.install_hooks();
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    rig.report("spawn-to-ready", rig.ready(&pane, t));
    let prompt = "FAIL: 400";
    rig.send(&pane, prompt);
    let t = Instant::now();
    let mut seen = String::new();
    let failed = wait_until(Duration::from_secs(120), || {
        seen = rig.state(&pane);
        seen == "error" || seen == "done"
    });
    assert!(
        failed && seen == "error",
        "the pane never reported the error (state {seen:?}); screen:\n{}\nmodel server:\n{}",
        rig.env.screen(&pane),
        rig.server.describe()
    );
    rig.report("send-to-error", t.elapsed());
    let out = rig.run(["wait-done", &pane, "10"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let reply = rig.option(&pane, "@roost-reply");
    assert!(reply.contains("400"), "the reply kept: {reply:?}");
    rig.stayed_local();
}

#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn kill_leaves_no_process_of_the_pane() {
    super::kill_leaves_no_process_of_the_pane(&COPILOT);
}

#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_from_spawn() {
    super::takes_its_first_message_from_spawn(&COPILOT);
}

/// In a folder it was never told to trust, copilot opens with its "Confirm
/// folder trust" question before any hook runs. send and close type
/// nothing into it (exit 3), and status reads the pane blocked.
#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn its_folder_trust_question_is_never_typed_into() {
    let rig = Rig::new(&COPILOT);
    rig.install_hooks();
    let other = rig.env.path("other");
    std::fs::create_dir_all(&other).unwrap();
    let other = other.to_string_lossy().into_owned();
    let pane = rig
        .ok(["spawn", "--cwd", &other, "alice", "copilot"])
        .trim()
        .to_string();
    let mut screen = String::new();
    let asked = wait_until(READY, || {
        screen = rig.env.screen(&pane);
        screen.contains("Do you trust the files in this folder?")
    });
    assert!(asked, "copilot never asked; screen:\n{screen}");
    let refused = rig.run(["send", &pane, "--", "Never typed"]);
    assert_eq!(exit_of(&refused), Exit::Blocked, "{}", describe(&refused));
    assert!(
        stderr(&refused).contains("copilot's \"Confirm folder trust\" dialog"),
        "{}",
        describe(&refused)
    );
    let refused = rig.run(["close", &pane]);
    assert_eq!(exit_of(&refused), Exit::Blocked, "{}", describe(&refused));
    assert_eq!(
        stderr(&refused),
        format!(
            "roost close: '{pane}' shows copilot's \"Confirm folder trust\" dialog: it is waiting for a person; nothing was typed\n\
             answer it in the pane first (roost screen TARGET shows it): trust the folder there (1: for this session, 2: and remember it), or decline (3); or end it with roost kill TARGET\n"
        )
    );
    let status: serde_json::Value = serde_json::from_str(&rig.ok(["status", "--json"])).unwrap();
    let shown = status["sessions"][0]["panes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == pane.as_str())
        .cloned()
        .unwrap();
    assert_eq!(shown["state"], "blocked", "{status}");
    let screen = rig.env.screen(&pane);
    assert!(
        screen.contains("Do you trust the files in this folder?")
            && !screen.contains("Never typed")
            && !screen.contains("/exit"),
        "the question was typed into:\n{screen}"
    );
    rig.stayed_local();
}
