//! Gemini CLI (npm `@google/gemini-cli`) against the stand-in Gemini API
//! (`streamGenerateContent?alt=sse`), with an API key.

use super::*;
use crate::common::model_server::ModelServer;
use serde_json::json;

fn vars(server: &ModelServer) -> Vec<(String, String)> {
    [
        ("GOOGLE_GEMINI_BASE_URL", server.url()),
        ("GEMINI_API_KEY", "stand-in-key".into()),
        ("GEMINI_CLI_NO_RELAUNCH", "true".into()),
        ("GEMINI_TELEMETRY_ENABLED", "false".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn settings(hooks: serde_json::Value) -> String {
    json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true, "enableAutoUpdate": false,
                    "enableAutoUpdateNotification": false},
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "ui": {"hideTips": true, "hideBanner": true},
        "ide": {"enabled": false, "hasSeenNudge": true},
        "hooks": hooks,
    })
    .to_string()
}

/// The API key chosen as the way to sign in, updates, statistics and
/// telemetry off, the work directory trusted.
fn prepare(rig: &Rig) {
    rig.env
        .write("home/.gemini/settings.json", &settings(json!({})));
    let trusted = json!({rig.work().to_string_lossy(): "TRUST_FOLDER"});
    rig.env
        .write("home/.gemini/trustedFolders.json", &trusted.to_string());
}

/// BeforeAgent says working; AfterAgent records the turn's last message in
/// the session transcript the payload names as the reply (its
/// `prompt_response` repeats each streamed piece after the first), and says
/// done.
fn own_hooks(rig: &Rig) {
    let reply = r#"python3 -c 'import json, sys
p = json.load(sys.stdin)
said = ""
for line in reversed(open(p["transcript_path"]).read().splitlines()):
    m = json.loads(line)
    if m.get("type") == "gemini" and m.get("content"):
        said = m["content"]
        break
sys.stdout.write(said)' | roost reply - && roost state done"#;
    let hook = |cmd: &str| json!([{"hooks": [{"type": "command", "command": cmd}]}]);
    rig.env.write(
        "home/.gemini/settings.json",
        &settings(json!({
            "BeforeAgent": hook("roost state working"),
            "AfterAgent": hook(reply),
        })),
    );
}

pub static GEMINI: Agent = Agent {
    name: "gemini",
    bin: "node_modules/.bin/gemini",
    ready: &["Type your message"],
    args: |_| Vec::new(),
    own_args: &[],
    own_prompt_hook: true,
    vars,
    prepare,
    own_hooks,
    known_fetches: &[],
    config: &["home/.gemini/settings.json", "work/.gemini/settings.json"],
};

#[test]
#[cfg_attr(
    not(roost_agent = "gemini"),
    ignore = "Gemini CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&GEMINI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "gemini"),
    ignore = "Gemini CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&GEMINI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "gemini"),
    ignore = "Gemini CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&GEMINI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "gemini"),
    ignore = "Gemini CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn hooks_remove_restores_the_configuration() {
    let user = "{\n  \"ui\": {\"theme\": \"GitHub\"},\n  \"hooks\": {\"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo mine\"}]}]}\n}\n";
    super::hooks_remove_restores_the_configuration(
        &GEMINI,
        &[("home/.gemini/settings.json", user)],
    );
}

#[test]
#[cfg_attr(
    not(roost_agent = "gemini"),
    ignore = "Gemini CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn kill_leaves_no_process_of_the_pane() {
    super::kill_leaves_no_process_of_the_pane(&GEMINI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "gemini"),
    ignore = "Gemini CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_from_spawn() {
    super::takes_its_first_message_from_spawn(&GEMINI);
}
