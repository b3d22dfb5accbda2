//! `roost close` against each real agent CLI, with roost's hooks: after a
//! turn, the agent exits on its own exit command within close's default
//! time, its window is ended, no process of its pane is left, and
//! `resume` leaves it be.

use super::*;

/// The processes whose session `leader` leads (the pane's own processes
/// and those they started), as /proc lists them: `PID NAME` each.
fn in_session(leader: &str) -> Vec<String> {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in procs.flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        // After the name: state, parent, process group, session.
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        if fields.first() != Some(&"Z") && fields.get(3) == Some(&leader) {
            found.push(format!("{pid} {}", &stat[open + 1..close]));
        }
    }
    found
}

fn closes_by_its_exit_command(agent: &'static Agent) {
    let rig = Rig::new(agent);
    rig.install_hooks();
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    rig.ready(&pane, t);
    rig.turn(&pane, "A turn before closing");
    let leader = rig
        .env
        .tmux_ok(&["display-message", "-p", "-t", &pane, "#{pane_pid}"])
        .trim()
        .to_string();
    assert!(!in_session(&leader).is_empty(), "no process leads {leader}");
    let t = Instant::now();
    let out = rig.run(["close", "alice"]);
    let took = t.elapsed();
    assert!(out.status.success(), "{}", describe(&out));
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    let exited = format!("roost close: 'alice' ({pane}): {} exited on ", agent.name);
    assert!(
        said.starts_with(&exited) && said.ends_with("; its window ended\n"),
        "{said}"
    );
    rig.report("close (exit command to window ended)", took);
    let status: serde_json::Value = serde_json::from_str(&rig.ok(["status", "--json"])).unwrap();
    assert_eq!(find_pane(&status, "alice"), None, "{status}");
    // The agent ended its own processes as it exited.
    let mut left = in_session(&leader);
    let gone = wait_until(Duration::from_secs(5), || {
        left = in_session(&leader);
        left.is_empty()
    });
    assert!(gone, "{} left running: {left:?}", agent.name);
    // Closed on purpose: resume does not bring it back.
    rig.ok(["resume"]);
    let status: serde_json::Value = serde_json::from_str(&rig.ok(["status", "--json"])).unwrap();
    assert_eq!(find_pane(&status, "alice"), None, "{status}");
}

#[test]
#[cfg_attr(
    not(roost_agent = "claude"),
    ignore = "Claude Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn claude() {
    closes_by_its_exit_command(&super::claude::CLAUDE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "codex"),
    ignore = "codex is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn codex() {
    closes_by_its_exit_command(&super::codex::CODEX);
}

#[test]
#[cfg_attr(
    not(roost_agent = "gemini"),
    ignore = "Gemini CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn gemini() {
    closes_by_its_exit_command(&super::gemini::GEMINI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "opencode"),
    ignore = "opencode is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn opencode() {
    closes_by_its_exit_command(&super::opencode::OPENCODE);
}

#[test]
#[cfg_attr(
    not(roost_agent = "aider"),
    ignore = "aider is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn aider() {
    closes_by_its_exit_command(&super::aider::AIDER);
}

#[test]
#[cfg_attr(
    not(roost_agent = "copilot"),
    ignore = "GitHub Copilot CLI is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn copilot() {
    closes_by_its_exit_command(&super::copilot::COPILOT);
}

#[test]
#[cfg_attr(
    not(roost_agent = "pi"),
    ignore = "pi is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn pi() {
    closes_by_its_exit_command(&super::pi::PI);
}

#[test]
#[cfg_attr(
    not(roost_agent = "qwen"),
    ignore = "Qwen Code is not installed: scripts/install-agents puts it in target/agents (or $ROOST_TEST_AGENTS)"
)]
fn qwen() {
    closes_by_its_exit_command(&super::qwen::QWEN);
}
