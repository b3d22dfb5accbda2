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
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&CLAUDE);
}

#[test]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&CLAUDE);
}

#[test]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&CLAUDE);
}

#[test]
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
