//! codex (npm `@openai/codex`) against the stand-in OpenAI Responses API, as
//! a model provider of its own in `$CODEX_HOME/config.toml`.

use super::*;
use crate::common::model_server::ModelServer;

fn vars(_: &ModelServer) -> Vec<(String, String)> {
    [
        ("STANDIN_API_KEY", "sk-stand-in"),
        ("OPENAI_API_KEY", "sk-stand-in"),
        ("CODEX_TUI_DISABLE_KEYBOARD_ENHANCEMENT", "1"),
        ("NO_COLOR", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// The config every wiring starts from: the stand-in as the model provider,
/// the work directory trusted, no update check, no analytics or feedback,
/// and none of what fetches from the network at start: the announcement
/// tips, the curated plugins and apps, the in-app updates.
fn base(rig: &Rig) -> String {
    format!(
        r#"model = "stand-in"
model_provider = "standin"
approval_policy = "never"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false

[model_providers.standin]
name = "Stand-in"
base_url = "{url}/v1"
env_key = "STANDIN_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[projects."{work}"]
trust_level = "trusted"

[tui]
show_tooltips = false

[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false
in_app_updates = false
tool_suggest = false
daemon_auto_start = false

[analytics]
enabled = false

[feedback]
enabled = false

[history]
persistence = "save-all"
"#,
        url = rig.server.url(),
        work = rig.work().display()
    )
}

fn prepare(rig: &Rig) {
    rig.env.write("home/.codex/config.toml", &base(rig));
}

/// notify runs at the end of each turn with the turn as JSON in its last
/// argument: its `last-assistant-message` becomes the reply. It also runs
/// for the task-title side request, which is told by its prompt and left
/// out. There is no prompt hook in this wiring, so nothing says working.
fn own_hooks(rig: &Rig) {
    let script = rig.env.write(
        "home/notify.py",
        "import json, subprocess, sys\n\
         turn = json.loads(sys.argv[-1])\n\
         asked = ''.join(turn.get('input-messages') or [])\n\
         title = asked.startswith('Generate a concise, single-line task title')\n\
         if turn.get('type') == 'agent-turn-complete' and not title:\n    \
             msg = turn.get('last-assistant-message') or ''\n    \
             subprocess.run(['roost', 'reply', '-'], input=msg.encode())\n    \
             subprocess.run(['roost', 'state', 'done'])\n",
    );
    let notify = format!("notify = [\"python3\", \"{}\"]\n", script.display());
    rig.env
        .write("home/.codex/config.toml", &format!("{notify}{}", base(rig)));
}

pub static CODEX: Agent = Agent {
    name: "codex",
    bin: "node_modules/.bin/codex",
    ready: &["? for shortcuts", "⏎ send", "Ask Codex"],
    args: |_| Vec::new(),
    own_args: &["--no-daemon"],
    own_prompt_hook: false,
    vars,
    prepare,
    own_hooks,
    // Its announcement tip, fetched at start whatever show_tooltips says.
    known_fetches: &["CONNECT raw.githubusercontent.com:443"],
    config: &[
        "home/.codex/config.toml",
        "home/.codex/hooks.json",
        "work/.codex/hooks.json",
    ],
};

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&CODEX);
}

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_every_prompt_with_roost_hooks() {
    super::takes_every_prompt_with_roost_hooks(&CODEX);
}

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session() {
    super::resumes_the_same_session(&CODEX);
}

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn hooks_remove_restores_the_configuration() {
    let user = "# my settings\nmodel = \"gpt-5\"\n\n[tui]\nanimations = false\n";
    super::hooks_remove_restores_the_configuration(&CODEX, &[("home/.codex/config.toml", user)]);
}

/// Two codex panes at once, spawned by name with roost's hooks and codex's
/// own default for its shared background server (the daemon starts on its
/// own): each prompt is taken, each pane reaches done through its own hook
/// and `read` gives its own reply; roost's `--no-daemon` alone keeps each
/// pane's turns, and hooks, in that pane.
#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn two_panes_at_once_each_report_through_their_own_hooks() {
    let rig = Rig::new(&CODEX);
    let config = base(&rig).replace("daemon_auto_start = false\n", "");
    assert!(!config.contains("daemon_auto_start"));
    rig.env.write("home/.codex/config.toml", &config);
    rig.install_hooks();
    let panes: Vec<(String, &str)> = [("a", "Pane a asks this"), ("b", "Pane b asks that")]
        .into_iter()
        .map(|(name, prompt)| (rig.spawn(name, &[]), prompt))
        .collect();
    for (pane, prompt) in &panes {
        rig.send(pane, prompt);
    }
    // Pane a's turn may well be over by the time b's prompt is sent, so
    // its working stamp can be gone when first looked at: the single-pane
    // tests hold that a prompt stamps working; here each pane's own reply
    // and done, through its own hooks, are what is checked.
    for (pane, prompt) in &panes {
        rig.finish_as(pane, prompt, false);
        assert_eq!(rig.ok(["read", pane]).trim_end(), format!("ACK: {prompt}"));
    }
    rig.stayed_local();
}

/// Trusts roost's new hooks in codex's own dialog, as a person does once
/// after `roost hooks install codex` (codex keeps the trust in its home).
pub fn trust_hooks(rig: &Rig) {
    let pane = rig.spawn("trust", &[]);
    answer_trust_dialog(rig, &pane);
    rig.env.tmux_ok(&["kill-window", "-t", &pane]);
}

/// Chooses "Trust all and continue" in the dialog codex opens `pane` with.
/// A key pressed while codex draws the dialog can be lost, so each key is
/// pressed again until the screen shows it took: the cursor on "Trust
/// all", then the dialog gone and codex at its prompt.
fn answer_trust_dialog(rig: &Rig, pane: &str) {
    let mut screen = String::new();
    let asked = wait_until(Duration::from_secs(120), || {
        screen = rig.env.screen(pane);
        screen.contains("Trust all and continue")
    });
    assert!(
        asked,
        "codex never asked to trust the hooks; screen:\n{screen}"
    );
    let trusted = wait_until(Duration::from_secs(60), || {
        screen = rig.env.screen(pane);
        let key = if !screen.contains("Trust all and continue") {
            return true;
        } else if screen.contains("\u{203a} 2. Trust all") {
            "Enter"
        } else {
            "Down"
        };
        rig.env.tmux_ok(&["send-keys", "-t", pane, key]);
        // Time for codex to draw what the key did before looking again.
        std::thread::sleep(Duration::from_millis(700));
        false
    });
    assert!(
        trusted,
        "codex's trust dialog never took the keys; screen:\n{screen}"
    );
    let t = std::time::Instant::now();
    rig.ready(pane, t);
}

/// With roost's hooks installed and not yet trusted, codex opens with its
/// "Hooks need review" dialog. A send, even right after spawn and with
/// --force, types nothing into it and exits 3 saying what the dialog is
/// and what the person does; `status` shows the pane blocked and `next`
/// names it; --when-idle waits for the answer and says the dialog still
/// showed when the time ran out. Once a person has trusted the hooks, the
/// same prompt is delivered, confirmed by the hook, and answered.
#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn a_pane_in_codex_hooks_dialog_waits_for_a_person() {
    let rig = Rig::new(&CODEX);
    rig.ok(["hooks", "install", "codex"]);
    let pane = rig.spawn("alice", &[]);
    let told = format!(
        "roost send: '{pane}' shows codex's \"Hooks need review\" dialog: it is waiting for a person, \
         and what is typed there would answer the dialog, not reach the prompt; nothing was typed\n\
         answer it in the pane first (roost screen {pane} shows it): trust the hooks there \
         (Trust all and continue) so they run, or continue without them\n"
    );
    let out = rig.run(["send", "--wait", "120", &pane, "Never typed"]);
    assert_eq!(
        exit_of(&out),
        Exit::Blocked,
        "{}\nscreen:\n{}",
        describe(&out),
        rig.env.screen(&pane)
    );
    assert_eq!(stderr(&out), told);
    let out = rig.run(["send", "--force", &pane, "Never typed"]);
    assert_eq!(exit_of(&out), Exit::Blocked, "{}", describe(&out));
    let screen = rig.env.screen(&pane);
    assert!(
        screen.contains("\u{203a} 1. Review hooks") && !screen.contains("Never typed"),
        "the dialog was typed into:\n{screen}"
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
    assert!(rig.ok(["next"]).starts_with(&format!("{pane} ")));
    let out = rig.run(["send", "--when-idle", "--wait", "2", &pane, "Never typed"]);
    assert_eq!(exit_of(&out), Exit::Blocked, "{}", describe(&out));
    assert!(
        stderr(&out).starts_with(&format!(
            "roost send: '{pane}' was still showing codex's \"Hooks need review\" dialog after 2s:"
        )),
        "{}",
        describe(&out)
    );
    // A person trusts the hooks; the pane is an agent's prompt again.
    answer_trust_dialog(&rig, &pane);
    let prompt = "Now that the hooks are trusted";
    rig.turn(&pane, prompt);
    assert!(!rig.env.screen(&pane).contains("Never typed"));
    rig.stayed_local();
}

/// `roost ARGS` as codex's own sandbox runs a command of the agent's (its
/// shell tool): `codex sandbox -- roost ARGS`, in the agent's environment.
fn in_codex_sandbox(rig: &Rig, args: &[&str]) -> std::process::Output {
    let roost = rig.roost(args);
    let mut cmd = Command::new(agents_dir().join(CODEX.bin));
    cmd.env_clear()
        .current_dir(rig.work())
        .stdin(std::process::Stdio::null())
        .args(["sandbox", "--"])
        .arg(roost.get_program())
        .args(roost.get_args());
    for (k, v) in roost.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    cmd.output().unwrap()
}

/// codex's sandbox forbids connecting to Unix sockets (0.171: a permission
/// profile's `unix_sockets` list alone does not lift it on Linux), so a
/// `roost` the agent runs cannot reach the fleet. It is told exactly that,
/// with exit 1: never "not running", never a target "not found".
#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn a_roost_command_in_codex_sandbox_is_told_the_sandbox_keeps_it_out() {
    let rig = Rig::new(&CODEX);
    let pane = rig.ok(["spawn", "a", "cat"]).trim().to_string();
    let socket = rig.env.socket_file();
    let dir = socket.parent().unwrap();
    let told = format!(
        "cannot connect to roost's server at {}: Operation not permitted; a sandbox around this command \
         (a coding agent's, say) forbids Unix sockets: allow {} in it, or run roost outside it\n",
        socket.display(),
        dir.display()
    );
    for (verb, args) in [
        ("status", &["status"][..]),
        ("send", &["send", "a", "hello"][..]),
        ("kill", &["kill", "a"][..]),
    ] {
        let out = in_codex_sandbox(&rig, args);
        // codex's own word about its helper binaries comes first.
        let said: String = exits(&out, Exit::Failed)
            .split_inclusive('\n')
            .filter(|l| !l.starts_with("WARNING: proceeding"))
            .collect();
        assert_eq!(said, format!("roost {verb}: {told}"), "{}", describe(&out));
    }
    // Outside the sandbox the fleet is as it was: nothing was typed or ended.
    assert_eq!(rig.env.screen(&pane).trim(), "");
    let status: serde_json::Value = serde_json::from_str(&rig.ok(["status", "--json"])).unwrap();
    assert_eq!(super::find_pane(&status, "a"), Some(pane));
}

/// With roost's hooks and codex's `approval_policy = "on-request"`, a
/// command the model asks to run outside the sandbox: the pane goes blocked
/// at codex's approval question (its PermissionRequest hook), a send
/// without --force exits 3 with nothing typed, the command has not run; a
/// person's yes runs it, and the turn ends done, its prompt seen once.
#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn blocked_while_a_command_waits_for_a_person() {
    let rig = Rig::new(&CODEX);
    let asks = base(&rig).replace(
        "approval_policy = \"never\"",
        "approval_policy = \"on-request\"",
    );
    rig.env.write("home/.codex/config.toml", &asks);
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
        .wait_for_screen(&pane, "Would you like to run the following command?");
    assert!(!made.exists(), "the command ran before anyone said yes");
    let refused = rig.run(["send", &pane, "--", "Never typed"]);
    assert_eq!(exit_of(&refused), Exit::Blocked, "{}", describe(&refused));
    // A person says yes: `y` is the dialog's "Yes, proceed".
    rig.env.tmux_ok(&["send-keys", "-t", &pane, "y"]);
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

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn kill_leaves_no_process_of_the_pane() {
    super::kill_leaves_no_process_of_the_pane(&CODEX);
}

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_from_spawn() {
    super::takes_its_first_message_from_spawn(&CODEX);
}

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn reaching_done_fires_agent_done() {
    super::reaching_done_fires_agent_done(&CODEX);
}
