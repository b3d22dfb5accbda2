//! opencode (npm `opencode-ai`) against the stand-in chat completions API,
//! as an OpenAI-compatible provider of its own in opencode.json.

use super::*;
use crate::common::model_server::ModelServer;
use serde_json::json;

fn vars(_: &ModelServer) -> Vec<(String, String)> {
    [
        ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
        ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
        ("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"),
        ("OPENCODE_DISABLE_SHARE", "1"),
        ("OPENCODE_DISABLE_TERMINAL_TITLE", "1"),
        ("OPENCODE_DISABLE_CLAUDE_CODE", "1"),
        ("OPENCODE_DISABLE_EXTERNAL_SKILLS", "1"),
        ("OPENCODE_DISABLE_MOUSE", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// The stand-in as the only provider, for the main and the small (title)
/// model; no updates, no sharing.
fn prepare(rig: &Rig) {
    let config = json!({
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": false,
        "share": "disabled",
        "model": "standin/stand-in",
        "small_model": "standin/stand-in",
        "enabled_providers": ["standin"],
        "provider": {"standin": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Stand-in",
            "options": {"baseURL": format!("{}/v1", rig.server.url()), "apiKey": "sk-stand-in"},
            "models": {"stand-in": {"name": "Stand-in", "limit": {"context": 100000, "output": 4096}}},
        }},
    });
    rig.env
        .write("config/opencode/opencode.json", &config.to_string());
}

/// opencode runs no commands on events; a plugin of its own does: working
/// when the session is busy, and on idle the last assistant text as the
/// reply, then done.
fn own_hooks(rig: &Rig) {
    rig.env.write(
        "config/opencode/plugin/roost.js",
        r#"export const Roost = async ({ $ }) => {
  const roles = new Map();
  let last = "";
  return {
    event: async ({ event }) => {
      const p = event.properties || {};
      if (event.type === "message.updated" && p.info) roles.set(p.info.id, p.info.role);
      if (event.type === "message.part.updated" && p.part && p.part.type === "text"
          && roles.get(p.part.messageID) === "assistant") last = p.part.text;
      if (event.type === "session.status" && p.status && p.status.type === "busy")
        await $`roost state working`.nothrow().quiet();
      if (event.type === "session.idle") {
        await $`roost reply ${last}`.nothrow().quiet();
        await $`roost state done`.nothrow().quiet();
      }
    },
  };
};
"#,
    );
}

pub static OPENCODE: Agent = Agent {
    name: "opencode",
    bin: "node_modules/.bin/opencode",
    ready: &["ctrl+p", "tab agents", "enter send"],
    args: |_| Vec::new(),
    own_args: &[],
    own_prompt_hook: true,
    vars,
    prepare,
    own_hooks,
    // The plugin package it installs from npm into a config directory that
    // holds a plugin; refused here, it carries on without it.
    known_fetches: &["CONNECT registry.npmjs.org:443"],
    config: &[
        "config/opencode/opencode.json",
        "config/opencode/plugin/roost.js",
        "work/.opencode/plugin/roost.js",
    ],
};

#[test]
#[cfg_attr(
    not(roost_agent = "opencode"),
    ignore = "opencode is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&OPENCODE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "opencode"),
    ignore = "opencode is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&OPENCODE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "opencode"),
    ignore = "opencode is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&OPENCODE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "opencode"),
    ignore = "opencode is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn hooks_remove_restores_the_configuration() {
    let user =
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"tokyonight\"\n}\n";
    super::hooks_remove_restores_the_configuration(
        &OPENCODE,
        &[("config/opencode/opencode.json", user)],
    );
}

#[test]
#[cfg_attr(
    not(roost_agent = "opencode"),
    ignore = "opencode is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn kill_leaves_no_process_of_the_pane() {
    super::kill_leaves_no_process_of_the_pane(&OPENCODE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "opencode"),
    ignore = "opencode is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_from_spawn() {
    super::takes_its_first_message_from_spawn(&OPENCODE);
}
