//! pi (npm `@mariozechner/pi-coding-agent`) against the stand-in chat
//! completions API, as a provider of its own in `models.json`, offline.

use super::*;
use crate::common::model_server::ModelServer;
use serde_json::json;

fn vars(_: &ModelServer) -> Vec<(String, String)> {
    // Offline: no update check, no install ping, and no download of the
    // fd and ripgrep binaries it would otherwise fetch at start.
    [
        ("PI_OFFLINE", "1"),
        ("PI_SKIP_VERSION_CHECK", "1"),
        ("PI_TELEMETRY", "0"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// The stand-in as the only provider and the default model.
fn prepare(rig: &Rig) {
    let models = json!({"providers": {"standin": {
        "baseUrl": format!("{}/v1", rig.server.url()),
        "api": "openai-completions",
        "apiKey": "sk-stand-in",
        "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
        "models": [{"id": "stand-in", "contextWindow": 100000, "maxTokens": 4096}],
    }}});
    rig.env
        .write("home/.pi/agent/models.json", &models.to_string());
    rig.env.write(
        "home/.pi/agent/settings.json",
        &json!({"defaultProvider": "standin", "defaultModel": "stand-in",
                "enableInstallTelemetry": false})
        .to_string(),
    );
}

/// pi runs no commands on events; an extension of the test's own does:
/// working when a prompt is taken, and at the end of the agent's run the
/// last assistant text as the reply, then done.
fn own_hooks(rig: &Rig) {
    rig.env.write(
        "home/.pi/agent/extensions/own.ts",
        r#"import { spawnSync } from "node:child_process";

export default function (pi: any) {
  pi.on("input", async () => {
    spawnSync("roost", ["state", "working"]);
  });
  pi.on("agent_end", async (event: any) => {
    const last = (event.messages || []).filter((m: any) => m.role === "assistant").pop();
    const text = ((last && last.content) || []).filter((p: any) => p.type === "text").map((p: any) => p.text).join("\n");
    spawnSync("roost", ["reply", "-"], { input: text });
    spawnSync("roost", ["state", "done"]);
  });
}
"#,
    );
}

pub static PI: Agent = Agent {
    name: "pi",
    bin: "node_modules/.bin/pi",
    ready: &["escape interrupt"],
    args: |_| Vec::new(),
    own_args: &[],
    own_prompt_hook: true,
    vars,
    prepare,
    own_hooks,
    known_fetches: &[],
    config: &[
        "home/.pi/agent/settings.json",
        "home/.pi/agent/extensions/roost.ts",
        "work/.pi/extensions/roost.ts",
    ],
};

#[test]
#[cfg_attr(
    not(roost_agent = "pi"),
    ignore = "pi is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&PI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "pi"),
    ignore = "pi is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&PI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "pi"),
    ignore = "pi is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&PI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "pi"),
    ignore = "pi is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn hooks_remove_restores_the_configuration() {
    let user = "{\n  \"defaultProvider\": \"standin\",\n  \"theme\": \"light\"\n}\n";
    super::hooks_remove_restores_the_configuration(&PI, &[("home/.pi/agent/settings.json", user)]);
}

#[test]
#[cfg_attr(
    not(roost_agent = "pi"),
    ignore = "pi is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn kill_leaves_no_process_of_the_pane() {
    super::kill_leaves_no_process_of_the_pane(&PI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "pi"),
    ignore = "pi is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_from_spawn() {
    super::takes_its_first_message_from_spawn(&PI);
}
