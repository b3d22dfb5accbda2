//! Qwen Code (npm `@qwen-code/qwen-code`), which roost does not know: the
//! preset of `share/examples/roost-qwen` teaches it, installed linked as a
//! user would. Against the stand-in OpenAI Chat Completions API, with its
//! own hooks wired as the example prints them (`roost hook qwen EVENT`).

use super::*;
use crate::common::model_server::ModelServer;
use serde_json::json;

fn vars(server: &ModelServer) -> Vec<(String, String)> {
    [
        ("OPENAI_BASE_URL", format!("{}/v1", server.url())),
        ("OPENAI_API_KEY", "stand-in-key".into()),
        ("OPENAI_MODEL", "stand-in".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn settings(hooks: serde_json::Value) -> String {
    json!({
        "security": {"auth": {"selectedType": "openai"}},
        "model": {"name": "stand-in"},
        "general": {"enableAutoUpdate": false},
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "ui": {"hideTips": true, "hideBanner": true},
        "ide": {"enabled": false, "hasSeenNudge": true},
        "hooks": hooks,
    })
    .to_string()
}

/// The API chosen, updates and statistics off, and the example extension
/// installed: `qwen` is then a preset roost spawns by its word.
fn prepare(rig: &Rig) {
    rig.env
        .write("home/.qwen/settings.json", &settings(json!({})));
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("share/examples/roost-qwen");
    rig.ok([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        example.as_os_str(),
        "--yes".as_ref(),
    ]);
}

/// The hooks the example extension prints (`roost qwen-hooks`), wired as
/// its README says: merged into Qwen Code's settings.json. They report as
/// the agent `qwen`, with Qwen Code's own payloads.
fn own_hooks(rig: &Rig) {
    let block = rig.ok(["qwen-hooks"]);
    let hooks: serde_json::Value = serde_json::from_str(&format!("{{{block}}}"))
        .unwrap_or_else(|e| panic!("roost qwen-hooks printed no JSON member ({e}):\n{block}"));
    assert!(block.contains("roost hook qwen done"), "{block}");
    rig.env.write(
        "home/.qwen/settings.json",
        &settings(hooks["hooks"].clone()),
    );
}

pub static QWEN: Agent = Agent {
    name: "qwen",
    bin: "node_modules/.bin/qwen",
    ready: &["Type your message"],
    args: |_| Vec::new(),
    own_args: &[],
    own_prompt_hook: true,
    vars,
    prepare,
    own_hooks,
    known_fetches: &[],
    config: &["home/.qwen/settings.json"],
};

#[test]
#[cfg_attr(
    not(roost_agent = "qwen"),
    ignore = "Qwen Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn answers_a_line_with_its_own_hooks() {
    super::answers_a_line_with_its_own_hooks(&QWEN);
}

/// Spawned by its preset's word, a turn, `roost kill`, `roost resume`: it
/// comes back by the preset's resume template with the exact session id
/// its hook reported, and its next turn carries the first one's history.
#[test]
#[cfg_attr(
    not(roost_agent = "qwen"),
    ignore = "Qwen Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn resumes_the_same_session_by_its_preset() {
    let rig = Rig::new(&QWEN);
    own_hooks(&rig);
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    assert_eq!(rig.option(&pane, "@roost-agent"), "qwen");
    rig.report("spawn-to-ready", rig.ready(&pane, t));
    let first = "Remember the word kestrel";
    rig.turn(&pane, first);
    // Its hooks report as the preset's agent, so the preset keeps applying.
    assert_eq!(rig.option(&pane, "@roost-agent"), "qwen");
    let session = rig.option(&pane, "@roost-session-id");
    assert!(!session.is_empty(), "no session id was recorded");
    rig.ok(["kill"]);
    let t = Instant::now();
    let out = rig.ok(["resume"]);
    assert!(
        out.trim_end()
            .ends_with(&format!("(qwen --resume {session})")),
        "{out}"
    );
    let status: serde_json::Value = serde_json::from_str(&rig.ok(["status", "--json"])).unwrap();
    let pane = find_pane(&status, "alice")
        .unwrap_or_else(|| panic!("resume brought no window alice back: {status}"));
    rig.report("resume-to-ready", rig.ready(&pane, t));
    let second = "Which word did I ask you to remember";
    rig.turn(&pane, second);
    let carried = rig
        .server
        .log()
        .iter()
        .any(|l| !l.side && l.prompt.as_deref() == Some(second) && l.body.contains(first));
    assert!(
        carried,
        "the resumed turn did not carry the first one:\n{}",
        rig.server.describe()
    );
    assert_eq!(rig.option(&pane, "@roost-session-id"), session);
}

/// `spawn --message`: the preset says Qwen Code takes its first message
/// after `-i`; it reaches the model once, and the turn ends done with its
/// reply, reported by the example's hooks.
#[test]
#[cfg_attr(
    not(roost_agent = "qwen"),
    ignore = "Qwen Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn takes_its_first_message_after_its_preset_s_option() {
    let rig = Rig::new(&QWEN);
    own_hooks(&rig);
    let prompt = "Start with this first message";
    let t = Instant::now();
    let pane = rig.spawn_with_message("alice", prompt);
    rig.finish(&pane, prompt);
    rig.report("spawn --message to done", t.elapsed());
    rig.stayed_local();
}

/// Without hooks, the preset's screen rules give the state: idle at its
/// prompt, blocked at its permission question for a command the model
/// asks to run (which has not run); send types nothing into the question.
#[test]
#[cfg_attr(
    not(roost_agent = "qwen"),
    ignore = "Qwen Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn without_hooks_its_screen_rules_read_idle_then_blocked() {
    let rig = Rig::new(&QWEN);
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    rig.report("spawn-to-ready (no hooks)", rig.ready(&pane, t));
    let state = |rig: &Rig| {
        let json: serde_json::Value = serde_json::from_str(&rig.ok(["status", "--json"])).unwrap();
        let mut found = None;
        walk(&json, &mut |v| {
            if v.get("id").and_then(|i| i.as_str()) == Some(pane.as_str()) {
                found = v.get("state").and_then(|s| s.as_str()).map(str::to_string);
            }
        });
        found.unwrap_or_default()
    };
    let mut seen = String::new();
    assert!(
        wait_until(Duration::from_secs(30), || {
            seen = state(&rig);
            seen == "idle"
        }),
        "not read idle ({seen:?}); screen:\n{}",
        rig.env.screen(&pane)
    );
    let made = rig.work().join("granted");
    let prompt = format!("TOOL: touch {}", made.display());
    rig.send(&pane, &prompt);
    let t = Instant::now();
    let asked = wait_until(Duration::from_secs(120), || {
        seen = state(&rig);
        seen == "blocked"
    });
    assert!(
        asked,
        "never read blocked ({seen:?}); screen:\n{}\nmodel server:\n{}",
        rig.env.screen(&pane),
        rig.server.describe()
    );
    rig.report("send-to-blocked (screen rules)", t.elapsed());
    assert!(!made.exists(), "the command ran before anyone said yes");
    let refused = rig.run(["send", &pane, "--", "Never typed"]);
    assert_eq!(exit_of(&refused), Exit::Blocked, "{}", describe(&refused));
    assert!(!rig.env.screen(&pane).contains("Never typed"));
}
