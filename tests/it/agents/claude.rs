//! Claude Code (npm `@anthropic-ai/claude-code`) against the stand-in
//! Anthropic Messages API.

use super::*;
use crate::common::model_server::ModelServer;
use serde_json::json;

const KEY: &str = "sk-ant-api03-stand-in-key-for-roost-tests-000000000000";

fn vars(server: &ModelServer) -> Vec<(String, String)> {
    [
        ("ANTHROPIC_BASE_URL", server.url()),
        ("ANTHROPIC_API_KEY", KEY.to_string()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
        ("DISABLE_AUTOUPDATER", "1".into()),
        ("DISABLE_UPDATES", "1".into()),
        // It would clone its plugin marketplace from the network at start,
        // and read a model catalog from its download site.
        (
            "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL",
            "1".into(),
        ),
        ("CLAUDE_CODE_MODEL_CATALOG", "off".into()),
        ("DISABLE_TELEMETRY", "1".into()),
        ("DISABLE_ERROR_REPORTING", "1".into()),
        ("CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY", "1".into()),
        ("CLAUDE_CODE_DISABLE_TERMINAL_TITLE", "1".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Onboarding done, the key approved, the work directory trusted.
fn prepare(rig: &Rig) {
    let work = rig.work().to_string_lossy().into_owned();
    let state = json!({
        "hasCompletedOnboarding": true,
        "lastOnboardingVersion": "2.1.332",
        "numStartups": 1,
        "theme": "dark",
        "autoUpdates": false,
        "customApiKeyResponses": {"approved": [&KEY[KEY.len() - 20..]], "rejected": []},
        "projects": {work: {
            "hasTrustDialogAccepted": true,
            "hasCompletedProjectOnboarding": true,
            "allowedTools": [],
        }},
    });
    rig.env.write("home/.claude.json", &state.to_string());
}

/// UserPromptSubmit says working; Stop records the payload's last message
/// as the reply and says done.
fn own_hooks(rig: &Rig) {
    let reply = "python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin).get(\"last_assistant_message\") or \"\")' | roost reply - && roost state done";
    let hook = |cmd: &str| json!([{"hooks": [{"type": "command", "command": cmd}]}]);
    let settings = json!({"hooks": {
        "UserPromptSubmit": hook("roost state working"),
        "Stop": hook(reply),
    }});
    rig.env
        .write("home/.claude/settings.json", &settings.to_string());
}

pub static CLAUDE: Agent = Agent {
    name: "claude",
    bin: "node_modules/.bin/claude",
    ready: &["? for shortcuts", "shift+tab to cycle"],
    args: |_| Vec::new(),
    own_args: &[],
    own_prompt_hook: true,
    vars,
    prepare,
    own_hooks,
    known_fetches: &[],
    config: &["home/.claude/settings.json", "work/.claude/settings.json"],
};

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&CLAUDE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&CLAUDE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&CLAUDE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn hooks_remove_restores_the_configuration() {
    let settings = r#"{
  "model": "sonnet",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}
    ]
  }
}
"#;
    super::hooks_remove_restores_the_configuration(
        &CLAUDE,
        &[("home/.claude/settings.json", settings)],
    );
}

/// With roost's hooks and Claude Code's default permission mode, a tool
/// call that needs a person's yes: the pane goes blocked (its permission
/// hook), a send without --force is refused with exit 3 and nothing
/// typed, the command has not run; a person's yes in the dialog runs it,
/// and the turn ends done with the model's answer, its prompt seen once.
#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn blocked_while_a_tool_waits_for_a_person() {
    let rig = Rig::new(&CLAUDE);
    // Claude Code's own default is auto mode, which runs what it judges
    // low-risk without asking; with auto mode off it asks before a command
    // (naming "default" as the mode instead makes it offer auto mode first).
    let asks = json!({"permissions": {"disableAutoMode": "disable"}});
    rig.env
        .write("home/.claude/settings.json", &asks.to_string());
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
    // What a person sees: Claude Code's question, the command not yet run.
    rig.env.wait_for_screen(&pane, "Do you want to proceed?");
    assert!(!made.exists(), "the command ran before anyone said yes");
    let status = rig.ok(["status"]);
    let fields = status_fields(&status, &pane).unwrap_or_default();
    assert!(
        fields.iter().any(|f| f.contains("blocked")),
        "status: {status}"
    );
    let refused = rig.run(["send", &pane, "--", "Never typed"]);
    assert_eq!(exit_of(&refused), Exit::Blocked, "{}", describe(&refused));
    assert!(
        stderr(&refused).contains("blocked"),
        "{}",
        describe(&refused)
    );
    // A person says yes: Enter takes the dialog's first choice, "Yes".
    rig.env.tmux_ok(&["send-keys", "-t", &pane, "Enter"]);
    rig.finish_as(&pane, &prompt, false);
    assert!(made.exists(), "the command never ran after the yes");
    assert!(
        !rig.env.screen(&pane).contains("Never typed"),
        "the refused send was typed"
    );
    let results = rig.server.log().iter().filter(|l| l.tool_result).count();
    assert_eq!(results, 1, "{}", rig.server.describe());
    rig.stayed_local();
}

/// With roost's hooks, a turn the model's API refuses (HTTP 400 with an
/// error body): Claude Code's StopFailure hook stamps error, wait-done
/// exits 1 saying so, and the error is kept as the reply. (Claude Code
/// asks again several times before it gives up, so the prompt reaches the
/// model more than once.)
#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn error_when_the_api_refuses_the_turn() {
    let rig = Rig::new(&CLAUDE);
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
    assert!(
        stderr(&out).contains("reported an error"),
        "{}",
        describe(&out)
    );
    let reply = rig.option(&pane, "@roost-reply");
    assert!(!reply.is_empty(), "no error was kept as the reply");
    assert!(reply.contains("400"), "the reply kept: {reply:?}");
    assert!(
        rig.server.turns_with(prompt) >= 1,
        "{}",
        rig.server.describe()
    );
    rig.stayed_local();
}

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn kill_leaves_no_process_of_the_pane() {
    super::kill_leaves_no_process_of_the_pane(&CLAUDE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_from_spawn() {
    super::takes_its_first_message_from_spawn(&CLAUDE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn reaching_done_fires_agent_done() {
    super::reaching_done_fires_agent_done(&CLAUDE);
}
