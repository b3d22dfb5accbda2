//! aider (PyPI `aider-chat`, in a venv) against the stand-in OpenAI chat
//! completions API, through litellm's `openai/` provider.

use super::*;
use crate::common::model_server::ModelServer;

fn vars(server: &ModelServer) -> Vec<(String, String)> {
    [
        ("OPENAI_API_BASE", format!("{}/v1", server.url())),
        ("OPENAI_API_KEY", "sk-stand-in".into()),
        // litellm would fetch its model price list at import.
        ("LITELLM_LOCAL_MODEL_COST_MAP", "True".into()),
        ("LITELLM_TELEMETRY", "False".into()),
        ("AIDER_ANALYTICS_DISABLE", "true".into()),
        ("AIDER_CHECK_UPDATE", "false".into()),
        ("AIDER_SHOW_RELEASE_NOTES", "false".into()),
        ("AIDER_SHOW_MODEL_WARNINGS", "false".into()),
        ("AIDER_GIT", "false".into()),
        ("AIDER_GITIGNORE", "false".into()),
        ("AIDER_AUTO_COMMITS", "false".into()),
        ("AIDER_CHECK_MODEL_ACCEPTS_SETTINGS", "false".into()),
        ("AIDER_DETECT_URLS", "false".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn args(_: &Rig) -> Vec<String> {
    [
        "--model",
        "openai/stand-in",
        "--no-stream",
        "--model-settings-file",
        "../home/.aider.model.settings.yml",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// No onboarding beyond the environment (analytics off, no update check,
/// no release notes, no git), and its cache of model metadata filled with
/// the stand-in model, so it fetches no price list at start.
fn prepare(rig: &Rig) {
    let info = serde_json::json!({
        "max_tokens": 4096, "max_input_tokens": 100000, "max_output_tokens": 4096,
        "input_cost_per_token": 0, "output_cost_per_token": 0,
        "litellm_provider": "openai", "mode": "chat",
    });
    let cache = serde_json::json!({"stand-in": info, "openai/stand-in": info});
    rig.env.write(
        "home/.aider/caches/model_prices_and_context_window.json",
        &cache.to_string(),
    );
    // Its edit-format reminder as a system message of its own, not appended
    // to the user's prompt.
    rig.env.write(
        "home/.aider.model.settings.yml",
        "- name: openai/stand-in\n  edit_format: whole\n  reminder: sys\n",
    );
}

/// `--notifications-command` runs at the end of each turn; the script it
/// runs records the last answer in the chat history file as the reply (its
/// `> ` lines are aider's own notes, such as the token counts).
fn own_hooks(rig: &Rig) {
    rig.env.write(
        "home/aider-done.py",
        "import subprocess\n\
         text = open('.aider.chat.history.md', encoding='utf-8').read()\n\
         lines = text.rstrip('\\n').split('\\n')\n\
         last = max(i for i, l in enumerate(lines) if l.startswith('#### '))\n\
         body = [l for l in lines[last + 1:] if not l.startswith('> ')]\n\
         answer = '\\n'.join(body).strip()\n\
         subprocess.run(['roost', 'reply', '-'], input=answer.encode())\n\
         subprocess.run(['roost', 'state', 'done'])\n",
    );
}

pub static AIDER: Agent = Agent {
    name: "aider",
    bin: "aider/bin/aider",
    // Its prompt, alone on a line under a rule.
    ready: &["\n>\n"],
    args,
    own_args: &[
        "--notifications",
        "--notifications-command",
        "python3 ../home/aider-done.py",
    ],
    own_prompt_hook: false,
    vars,
    prepare,
    own_hooks,
    known_fetches: &[],
    config: &["home/.aider.conf.yml", "work/.aider.conf.yml"],
};

#[test]
#[cfg_attr(
    not(roost_agent = "aider"),
    ignore = "aider is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&AIDER);
}

#[test]
#[cfg_attr(
    not(roost_agent = "aider"),
    ignore = "aider is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&AIDER);
}

/// Without its model flags aider would not reach the stand-in at all.
#[test]
#[cfg_attr(
    not(roost_agent = "aider"),
    ignore = "aider is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&AIDER);
}

#[test]
#[cfg_attr(
    not(roost_agent = "aider"),
    ignore = "aider is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn hooks_remove_restores_the_configuration() {
    let user = "# mine\nmodel: openai/stand-in\ndark-mode: true\n";
    super::hooks_remove_restores_the_configuration(&AIDER, &[("home/.aider.conf.yml", user)]);
}

#[test]
#[cfg_attr(
    not(roost_agent = "aider"),
    ignore = "aider is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn kill_leaves_no_process_of_the_pane() {
    super::kill_leaves_no_process_of_the_pane(&AIDER);
}

#[test]
#[cfg_attr(
    not(roost_agent = "aider"),
    ignore = "aider is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_from_spawn() {
    super::takes_its_first_message_from_spawn(&AIDER);
}
