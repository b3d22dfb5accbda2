//! The real agent CLIs (Claude Code, codex, aider, Gemini CLI, opencode,
//! GitHub Copilot CLI, pi, and Qwen Code through the preset of
//! share/examples/roost-qwen) in real roost panes, pointed at the stand-in
//! model server of `common::model_server`: spawn, send, working, done,
//! wait-done, read, the server's log, resume, close and the hooks' removal.
//! The CLIs come from `scripts/install-agents` (in $ROOST_TEST_AGENTS, else
//! target/agents). What does not run must not look passed: build.rs sets
//! `roost_agent = "NAME"` for each CLI installed there, and the tests of one
//! that is not are ignored, with the reason; under ROOST_TEST_REQUIRE_ALL=1
//! (CI) none is ignored, and a missing CLI fails its tests.
//!
//! Each agent has two wirings. Its own: the test writes the agent's hook or
//! notify configuration calling `roost state` and `roost reply`. roost's:
//! `roost hooks install AGENT`, after which `send` knows when the agent took
//! a prompt; the flows of every prompt shape, resume and removal use that.

mod aider;
mod claude;
mod close;
mod codex;
mod copilot;
mod gemini;
mod opencode;
mod pi;
mod qwen;

use crate::common::model_server::ModelServer;
use crate::common::procs::{pane_pid, processes_of, Proc};
use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// How long an agent may take to show its prompt (Node programs on a loaded
/// two-core machine start slowly).
const READY: Duration = Duration::from_secs(120);
/// How long one turn may take, send to done.
const TURN: &str = "180";

/// What a test needs to know of one agent CLI.
pub struct Agent {
    /// As roost knows it: `roost spawn NAME claude`, `roost hooks install claude`.
    pub name: &'static str,
    /// The program, relative to the agents directory.
    pub bin: &'static str,
    /// Text its screen shows once it is at its prompt (any one of them).
    pub ready: &'static [&'static str],
    /// Arguments after the program on every spawn.
    pub args: fn(&Rig) -> Vec<String>,
    /// More arguments with the agent's own wiring (none with roost's, which
    /// must make do with what `hooks install` wrote).
    pub own_args: &'static [&'static str],
    /// Whether the agent's own wiring has a prompt hook saying working.
    pub own_prompt_hook: bool,
    /// Environment for the agent: the model server, no telemetry, no updates.
    pub vars: fn(&ModelServer) -> Vec<(String, String)>,
    /// First-run state (onboarding done, the work directory trusted) and the
    /// model server in the agent's own configuration.
    pub prepare: fn(&Rig),
    /// The test's own hook or notify configuration.
    pub own_hooks: fn(&Rig),
    /// Requests for the network the agent makes whatever it is told (each
    /// refused by the model server as its proxy), as `METHOD TARGET`.
    pub known_fetches: &'static [&'static str],
    /// The agent's configuration files that `hooks install` may change,
    /// relative to the test directory.
    pub config: &'static [&'static str],
}

/// One test's world: the hermetic TestEnv, a model server, and the agent.
pub struct Rig {
    pub env: TestEnv,
    pub server: ModelServer,
    pub agent: &'static Agent,
    path: String,
}

/// Where scripts/install-agents put the CLIs.
pub fn agents_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os("ROOST_TEST_AGENTS") {
        Some(d) if !d.is_empty() => root.join(d),
        _ => root.join("target/agents"),
    }
}

/// Why an agent test runs although its agent is missing.
fn missing_why() -> &'static str {
    if std::env::var("ROOST_TEST_REQUIRE_ALL").as_deref() == Ok("1") {
        "ROOST_TEST_REQUIRE_ALL=1 requires it (scripts/install-agents installs it)"
    } else {
        "it was when the tests were built; touch build.rs, and cargo builds them again, ignored"
    }
}

/// Whether build.rs set `roost_agent = "NAME"`: the agent's tests were
/// built to run. (Each arm is a constant the build decides, so clippy may
/// read the match as `matches!`; it cannot be written as one.)
#[allow(clippy::match_like_matches_macro)]
fn built_to_run(name: &str) -> bool {
    match name {
        "claude" => cfg!(roost_agent = "claude"),
        "codex" => cfg!(roost_agent = "codex"),
        "gemini" => cfg!(roost_agent = "gemini"),
        "opencode" => cfg!(roost_agent = "opencode"),
        "aider" => cfg!(roost_agent = "aider"),
        "copilot" => cfg!(roost_agent = "copilot"),
        "pi" => cfg!(roost_agent = "pi"),
        "qwen" => cfg!(roost_agent = "qwen"),
        _ => false,
    }
}

/// Each agent's tests were built to run exactly where its CLI is installed
/// (or all of them, under ROOST_TEST_REQUIRE_ALL=1): none is ignored that
/// could run, and none runs, to fail, for want of its CLI, unless it is
/// required. Runs whatever is installed.
#[test]
fn the_agent_tests_run_exactly_where_their_agent_is_installed() {
    let required = std::env::var("ROOST_TEST_REQUIRE_ALL").as_deref() == Ok("1");
    let dir = agents_dir();
    for agent in [
        &claude::CLAUDE,
        &codex::CODEX,
        &gemini::GEMINI,
        &opencode::OPENCODE,
        &aider::AIDER,
        &copilot::COPILOT,
        &pi::PI,
        &qwen::QWEN,
    ] {
        let installed = dir.join(agent.bin).is_file();
        let built = built_to_run(agent.name);
        if required {
            assert!(
                built && installed,
                "ROOST_TEST_REQUIRE_ALL=1, and {} is {} in {}, its tests built {}",
                agent.name,
                if installed {
                    "installed"
                } else {
                    "not installed"
                },
                dir.display(),
                if built { "to run" } else { "to be ignored" }
            );
        } else {
            assert_eq!(
                built,
                installed,
                "{} is {} in {}, but its tests were built {}: build.rs runs again once it is touched (touch build.rs)",
                agent.name,
                if installed { "installed" } else { "not installed" },
                dir.display(),
                if built { "to run" } else { "to be ignored" }
            );
        }
    }
}

/// The timings of one turn.
pub struct Turn {
    pub send: Duration,
    pub done_to_wait_done: Duration,
}

impl Rig {
    /// A test runs only where its agent was installed when it was built, or
    /// under ROOST_TEST_REQUIRE_ALL=1: a missing agent fails it.
    pub fn new(agent: &'static Agent) -> Rig {
        let dir = agents_dir();
        assert!(
            dir.join(agent.bin).is_file(),
            "{} is not installed in {}: {}",
            agent.name,
            dir.display(),
            missing_why()
        );
        let bins = [dir.join("node_modules/.bin"), dir.join("aider/bin")];
        let mut path = std::env::join_paths(bins).unwrap();
        path.push(":");
        path.push(std::env::var_os("PATH").unwrap_or_default());
        let rig = Rig {
            env: TestEnv::new(),
            server: ModelServer::start(),
            agent,
            path: path.to_string_lossy().into_owned(),
        };
        (agent.prepare)(&rig);
        rig
    }

    pub fn work(&self) -> PathBuf {
        self.env.path("work")
    }

    /// `roost ARGS` with the agent's environment. The first one starts the
    /// tmux server, whose environment every pane inherits.
    pub fn roost<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = self.env.roost(args);
        // Anything an agent would fetch from the network goes to the model
        // server as its proxy, which refuses it and logs it (`escapes`).
        let proxy = self.server.url();
        for var in [
            "HTTPS_PROXY",
            "HTTP_PROXY",
            "ALL_PROXY",
            "https_proxy",
            "http_proxy",
            "all_proxy",
        ] {
            cmd.env(var, &proxy);
        }
        for var in ["NO_PROXY", "no_proxy"] {
            cmd.env(var, "127.0.0.1,localhost");
        }
        cmd.envs((self.agent.vars)(&self.server))
            .env("PATH", &self.path);
        cmd
    }

    pub fn run<I, S>(&self, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        self.roost(args).output().unwrap()
    }

    pub fn ok<I, S>(&self, args: I) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let out = self.run(args);
        assert!(out.status.success(), "{}", describe(&out));
        stdout(&out)
    }

    /// `roost spawn NAME AGENT ARGS…`; returns the pane id.
    pub fn spawn(&self, name: &str, more: &[&str]) -> String {
        let mut args = vec!["spawn".to_string(), name.into(), self.agent.name.into()];
        args.extend((self.agent.args)(self));
        args.extend(more.iter().map(|s| s.to_string()));
        self.ok(args).trim().to_string()
    }

    /// `roost spawn --message TEXT NAME AGENT ARGS…`; returns the pane id.
    pub fn spawn_with_message(&self, name: &str, text: &str) -> String {
        let mut args = vec!["spawn".to_string(), "--message".into(), text.into()];
        args.extend([name.to_string(), self.agent.name.into()]);
        args.extend((self.agent.args)(self));
        self.ok(args).trim().to_string()
    }

    /// Waits until the agent shows its prompt; returns how long that took.
    pub fn ready(&self, pane: &str, since: Instant) -> Duration {
        let mut last = String::new();
        let ok = wait_until(READY, || {
            last = self.env.screen(pane);
            self.agent.ready.iter().any(|m| last.contains(m))
        });
        assert!(
            ok,
            "{} never showed its prompt; screen:\n{last}\nmodel server:\n{}",
            self.agent.name,
            self.server.describe()
        );
        since.elapsed()
    }

    /// The pane's @agent_state, empty when unset.
    pub fn state(&self, pane: &str) -> String {
        let out = self
            .env
            .tmux(&["show-options", "-p", "-v", "-t", pane, "@agent_state"]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A pane option, empty when unset.
    pub fn option(&self, pane: &str, name: &str) -> String {
        let out = self
            .env
            .tmux(&["show-options", "-p", "-v", "-t", pane, name]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Sends `prompt` and insists that it was delivered (exit 0).
    pub fn send(&self, pane: &str, prompt: &str) -> Duration {
        let t = Instant::now();
        let out = self.run(["send", pane, "--", prompt]);
        let took = t.elapsed();
        assert!(
            out.status.success(),
            "send {prompt:?} to {}: {}\nscreen:\n{}",
            self.agent.name,
            describe(&out),
            self.env.screen(pane)
        );
        took
    }

    /// After a send: the state goes working, then done; `wait-done` returns
    /// 0; `read` prints the model's answer; the server saw the prompt once.
    /// Returns how long wait-done took to return after the state was done
    /// (the state is polled every few milliseconds beside the waiter).
    pub fn finish(&self, pane: &str, prompt: &str) -> Duration {
        // aider's wiring reports only that it waits for input: no working.
        self.finish_as(pane, prompt, self.agent.name != "aider")
    }

    /// `roost hooks install AGENT`, then what a person does once after it:
    /// codex runs new hooks only once they are trusted in its own dialog.
    pub fn install_hooks(&self) {
        if self.agent.name == "qwen" {
            // A preset's agent: roost writes none of its files; its hooks
            // are the ones its extension prints, wired as its README says.
            (self.agent.own_hooks)(self);
            return;
        }
        self.ok(["hooks", "install", self.agent.name]);
        if self.agent.name == "codex" {
            // codex runs them only once trusted, and roost says so until
            // codex has written its trust.
            let status = self.ok(["hooks", "status"]);
            assert!(status.contains("  user     not trusted "), "{status}");
            codex::trust_hooks(self);
            let status = self.ok(["hooks", "status"]);
            assert!(status.contains("  user     wired       "), "{status}");
        }
    }

    /// `finish`, where `working` says whether a prompt hook stamps working.
    pub fn finish_as(&self, pane: &str, prompt: &str, working: bool) -> Duration {
        let mut seen = String::new();
        let went = wait_until(Duration::from_secs(120), || {
            seen = self.state(pane);
            seen == "working" || seen == "done"
        });
        assert!(
            went && (seen == "working" || !working),
            "{} never went working for {prompt:?} (state {seen:?}); screen:\n{}\nmodel server:\n{}",
            self.agent.name,
            self.env.screen(pane),
            self.server.describe()
        );
        let waiter = self
            .roost(["wait-done", pane, TURN])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut done_at = None;
        let mut child = waiter;
        let status = loop {
            if done_at.is_none() && self.state(pane) == "done" {
                done_at = Some(Instant::now());
            }
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        let returned = Instant::now();
        let out = child.wait_with_output().unwrap();
        assert!(
            status.success(),
            "wait-done on {}: {}\nscreen:\n{}\nmodel server:\n{}",
            self.agent.name,
            describe(&out),
            self.env.screen(pane),
            self.server.describe()
        );
        assert_eq!(self.state(pane), "done");
        let done_at = done_at.unwrap_or(returned);
        let read = self.ok(["read", pane]);
        let recorded = self.option(pane, "@roost-reply");
        if self.agent.name == "aider" && recorded.is_empty() {
            // roost's aider wiring records no reply: read shows the screen,
            // which holds the answer. Nor does it report working, so the
            // done it reports can still be the previous turn's: wait for
            // this answer to show. aider wraps a long answer at blanks to
            // the pane's width, so blanks and line ends count as one.
            let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let answer = words(&format!("ACK: {}", prompt.lines().next().unwrap_or("")));
            let mut read = read;
            let shown = wait_until(Duration::from_secs(120), || {
                read = self.ok(["read", pane]);
                words(&read).contains(&answer)
            });
            assert!(shown, "aider's screen as read shows: {read}");
        } else {
            assert_eq!(
                read.trim_end(),
                format!("ACK: {prompt}"),
                "{}'s recorded reply; model server:\n{}",
                self.agent.name,
                self.server.describe()
            );
        }
        assert_eq!(
            self.server.turns_with(prompt),
            1,
            "the model server saw {prompt:?} other than once:\n{}",
            self.server.describe()
        );
        returned.duration_since(done_at)
    }

    /// One prompt, start to finish.
    pub fn turn(&self, pane: &str, prompt: &str) -> Turn {
        let send = self.send(pane, prompt);
        let done_to_wait_done = self.finish(pane, prompt);
        Turn {
            send,
            done_to_wait_done,
        }
    }

    /// The bytes of the agent's configuration files (None for a missing one).
    pub fn config(&self) -> Vec<(String, Option<Vec<u8>>)> {
        self.agent
            .config
            .iter()
            .map(|rel| (rel.to_string(), std::fs::read(self.env.path(rel)).ok()))
            .collect()
    }

    /// Nothing was meant for the network (see `ModelServer::escapes`) but
    /// the fetches the agent is known to try with no setting to stop them;
    /// those reached only the model server, which refused them.
    pub fn stayed_local(&self) {
        let unknown: Vec<String> = self
            .server
            .escapes()
            .into_iter()
            .filter(|e| !self.agent.known_fetches.contains(&e.as_str()))
            .collect();
        assert_eq!(
            unknown,
            Vec::<String>::new(),
            "{} reached for the network",
            self.agent.name
        );
    }

    /// The model server's log on stderr, with ROOST_TEST_AGENTS_LOG=1.
    pub fn show_log(&self) {
        if std::env::var("ROOST_TEST_AGENTS_LOG").as_deref() == Ok("1") {
            eprintln!(
                "model server, {}:\n{}",
                self.agent.name,
                self.server.describe()
            );
        }
    }

    pub fn report(&self, what: &str, figure: Duration) {
        eprintln!(
            "agents: {}: {what} {} ms",
            self.agent.name,
            figure.as_millis()
        );
    }
}

impl Drop for Rig {
    /// Ends what the agents left running outside the tmux server (codex's
    /// shared background server survives `roost kill`): every process whose
    /// environment names this test's HOME, found in /proc, killed by pid.
    fn drop(&mut self) {
        let _ = self.env.tmux(&["kill-server"]);
        let home = format!("HOME={}", self.env.path("home").display());
        let me = std::process::id().to_string();
        let Ok(procs) = std::fs::read_dir("/proc") else {
            return;
        };
        for entry in procs.flatten() {
            let pid = entry.file_name().to_string_lossy().into_owned();
            if !pid.bytes().all(|b| b.is_ascii_digit()) || pid == me {
                continue;
            }
            let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
                continue;
            };
            if environ.split(|&b| b == 0).any(|v| v == home.as_bytes()) {
                let _ = Command::new("kill").args(["-KILL", &pid]).status();
            }
        }
    }
}

/// A prompt of five lines.
pub const FIVE_LINES: &str = "line one\nline two\nline three\nline four\nline five";

/// One line wider than any agent's input box in an 80-column pane.
pub fn wide_line() -> String {
    let words: Vec<String> = (1..=30).map(|i| format!("word{i}")).collect();
    format!("a wide prompt: {}", words.join(" "))
}

/// With the agent's own hook configuration: one line to an agent at its
/// prompt, answered and recorded, seen once by the model server.
pub fn answers_a_line_with_its_own_hooks(agent: &'static Agent) {
    let rig = Rig::new(agent);
    (agent.own_hooks)(&rig);
    let t = Instant::now();
    let pane = rig.spawn("alice", agent.own_args);
    rig.report("spawn-to-ready", rig.ready(&pane, t));
    let prompt = "Say hello to the stand-in";
    let send = rig.send(&pane, prompt);
    rig.report("send (one line, own hooks)", send);
    let waited = rig.finish_as(&pane, prompt, agent.own_prompt_hook);
    rig.report("done-to-wait-done (own hooks)", waited);
    assert!(
        rig.server.log().iter().any(|l| !l.side),
        "no user turn reached the model server"
    );
    rig.show_log();
    rig.stayed_local();
}

/// `hooks install` → spawn → a prompt sent at once → working → done →
/// wait-done → read; then one line, five lines, a wide line, and two sends
/// at once. Each prompt reaches the model exactly once.
pub fn takes_every_prompt_with_roost_hooks(agent: &'static Agent) {
    let rig = Rig::new(agent);
    rig.install_hooks();
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    let first = "Right after spawn";
    let send = rig.send(&pane, first);
    rig.report("spawn-to-delivered (send right after spawn)", t.elapsed());
    rig.report("send right after spawn", send);
    rig.report("done-to-wait-done", rig.finish(&pane, first));
    let wide = wide_line();
    for prompt in ["One more line", FIVE_LINES, &wide] {
        let turn = rig.turn(&pane, prompt);
        let lines = prompt.lines().count();
        rig.report(
            &format!("send ({} bytes, {lines} lines)", prompt.len()),
            turn.send,
        );
        rig.report("done-to-wait-done", turn.done_to_wait_done);
    }
    // Two senders at once: each delivered, each prompt taken once.
    let (a, b) = ("First of two at once", "Second of two at once");
    let both: Vec<_> = [a, b]
        .into_iter()
        .map(|p| {
            rig.roost(["send", &pane, "--", p])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in both {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a send of two at once: {}",
            describe(&out)
        );
    }
    let ok = wait_until(Duration::from_secs(240), || {
        rig.server.turns_with(a) >= 1 && rig.server.turns_with(b) >= 1 && rig.state(&pane) == "done"
    });
    assert!(
        ok,
        "both prompts never reached the model:\n{}",
        rig.server.describe()
    );
    rig.ok(["wait-done", &pane, TURN]);
    let answers = [format!("ACK: {a}"), format!("ACK: {b}")];
    let mut read = String::new();
    let ok = wait_until(Duration::from_secs(120), || {
        read = rig.ok(["read", &pane]);
        if agent.name == "aider" {
            // No reply recorded: read shows the screen, with both answers.
            answers.iter().all(|x| read.contains(x.as_str()))
        } else {
            answers.contains(&read.trim_end().to_string())
        }
    });
    assert!(ok, "read after two sends: {read:?}");
    assert_eq!((rig.server.turns_with(a), rig.server.turns_with(b)), (1, 1));
}

/// A turn, `roost kill`, `roost resume`: the agent comes back in its window
/// with the same session id (aider, which has none, with its chat history)
/// and the arguments it was spawned with, and its next turn carries the
/// first one's history to the model.
pub fn resumes_the_same_session(agent: &'static Agent) {
    let rig = Rig::new(agent);
    rig.install_hooks();
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    rig.report("spawn-to-ready", rig.ready(&pane, t));
    let first = "Remember the word kestrel";
    rig.turn(&pane, first);
    let session = rig.option(&pane, "@roost-session-id");
    let ids = agent.name != "aider";
    assert!(!session.is_empty() || !ids, "no session id was recorded");
    rig.ok(["kill"]);
    assert!(!rig.env.server_running());
    let t = Instant::now();
    rig.ok(["resume"]);
    let pane = rig.ok(["status", "--json"]);
    let status: serde_json::Value = serde_json::from_str(&pane).unwrap();
    let pane = find_pane(&status, "alice")
        .unwrap_or_else(|| panic!("resume brought no window alice back: {status}"));
    // A send right after the resume waits for the agent's prompt hook, as
    // after a spawn: the pane is marked before the agent starts, where
    // roost's hooks are wired where it reads them at start (codex and aider
    // mark it from their start hook, later).
    if matches!(
        agent.name,
        "claude" | "gemini" | "opencode" | "copilot" | "pi"
    ) {
        assert_eq!(rig.option(&pane, "@roost-hooked"), agent.name);
    }
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
    let spawned_with = (agent.args)(&rig);
    let command = rig.env.tmux_ok(&[
        "display-message",
        "-p",
        "-t",
        &pane,
        "#{pane_start_command}",
    ]);
    for arg in &spawned_with {
        assert!(command.contains(arg.as_str()), "resumed as {command}");
    }
}

/// The pane id of window `name` in `status --json`.
pub fn find_pane(status: &serde_json::Value, name: &str) -> Option<String> {
    let mut found = None;
    walk(status, &mut |v| {
        let named = ["window", "window_name", "name"]
            .iter()
            .any(|k| v.get(k).and_then(|n| n.as_str()) == Some(name));
        if let (true, Some(id)) = (named, v.get("pane_id").or_else(|| v.get("id"))) {
            if let Some(id) = id.as_str().filter(|id| id.starts_with('%')) {
                found.get_or_insert_with(|| id.to_string());
            }
        }
    });
    found
}

fn walk(v: &serde_json::Value, f: &mut dyn FnMut(&serde_json::Value)) {
    f(v);
    match v {
        serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, f)),
        serde_json::Value::Object(o) => o.values().for_each(|x| walk(x, f)),
        _ => {}
    }
}

/// `hooks install` then `hooks remove` leaves the agent's configuration as
/// it was, byte for byte, the user's own settings and hooks included.
pub fn hooks_remove_restores_the_configuration(agent: &'static Agent, user: &[(&str, &str)]) {
    let rig = Rig::new(agent);
    for (rel, content) in user {
        rig.env.write(rel, content);
    }
    let before = rig.config();
    rig.ok(["hooks", "install", agent.name]);
    assert_ne!(rig.config(), before, "hooks install changed nothing");
    let status = rig.ok(["hooks", "status"]);
    assert!(status.contains(agent.name), "hooks status: {status}");
    rig.ok(["hooks", "install", agent.name]);
    rig.ok(["hooks", "remove", agent.name]);
    let after = rig.config();
    for ((rel, was), (_, is)) in before.iter().zip(&after) {
        assert_eq!(
            is.as_deref().map(String::from_utf8_lossy),
            was.as_deref().map(String::from_utf8_lossy),
            "{rel} after hooks remove"
        );
    }
}

/// After a turn, `roost kill NAME` leaves no process of the agent's pane
/// running, and touches no other pane's; then plain `roost kill` (the whole
/// server, as a script runs it) leaves none of any pane.
pub fn kill_leaves_no_process_of_the_pane(agent: &'static Agent) {
    let rig = Rig::new(agent);
    rig.install_hooks();
    let other = rig.ok(["spawn", "other", "sleep 1000"]).trim().to_string();
    let t = Instant::now();
    let pane = rig.spawn("alice", &[]);
    rig.ready(&pane, t);
    rig.turn(&pane, "Say hello before you go");
    let theirs = processes_of(pane_pid(&rig.env, &other));
    let before = processes_of(pane_pid(&rig.env, &pane));
    assert!(!before.is_empty(), "{} runs no process", agent.name);
    let out = rig.run(["kill", "alice"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let left: Vec<&Proc> = before.iter().filter(|p| p.alive()).collect();
    assert!(
        left.is_empty(),
        "roost kill alice left {left:?} of {}",
        agent.name
    );
    assert!(
        theirs.iter().all(Proc::alive),
        "roost kill alice ended another pane's process: {theirs:?}"
    );
    // The whole server: every pane's processes end with it.
    let t = Instant::now();
    let pane = rig.spawn("bob", &[]);
    rig.ready(&pane, t);
    let mut before = processes_of(pane_pid(&rig.env, &pane));
    before.extend(theirs);
    let out = rig.run(["kill"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(!rig.env.server_running());
    let left: Vec<&Proc> = before.iter().filter(|p| p.alive()).collect();
    assert!(
        left.is_empty(),
        "roost kill left {left:?} of {}",
        agent.name
    );
}

/// `spawn --message`: the first message reaches the model exactly once,
/// the turn ends done and `read` gives its reply, with the agent wired as
/// `takes_every_prompt_with_roost_hooks` wires it.
pub fn takes_its_first_message_from_spawn(agent: &'static Agent) {
    let rig = Rig::new(agent);
    rig.install_hooks();
    let t = Instant::now();
    let prompt = "Start with this first message";
    let pane = rig.spawn_with_message("alice", prompt);
    rig.report("spawn --message returned", t.elapsed());
    rig.finish(&pane, prompt);
    rig.report("spawn --message to done", t.elapsed());
    rig.stayed_local();
}

/// The agent's own end of a turn, reported by roost's hooks, fires
/// `agent.working` and `agent.done` to a subscribed extension's handler,
/// once each; the time from the stamp of done to the handler's run is
/// reported.
pub fn reaching_done_fires_agent_done(agent: &'static Agent) {
    use crate::common::events::{recording_handler, runs, subscribed};
    let rig = Rig::new(agent);
    rig.install_hooks();
    subscribed(
        &rig.env,
        "watch",
        &["agent.working", "agent.done"],
        &recording_handler(""),
        &[],
        10,
    );
    let pane = rig.spawn("alice", &[]);
    let prompt = "Tell the watcher";
    rig.send(&pane, prompt);
    rig.finish(&pane, prompt);
    let done_at = Instant::now();
    let mut seen = Vec::new();
    let fired = wait_until(Duration::from_secs(20), || {
        seen = runs(&rig.env, "watch");
        seen.iter().any(|r| r.starts_with("agent.done|"))
    });
    assert!(fired, "{} never fired agent.done: {seen:?}", agent.name);
    rig.report("done-to-handler (upper bound)", done_at.elapsed());
    // Once each for the one turn (the re-stamps of every tool call fire
    // nothing).
    std::thread::sleep(Duration::from_millis(500));
    let seen = runs(&rig.env, "watch");
    let count = |word: &str| seen.iter().filter(|r| r.starts_with(word)).count();
    assert_eq!(count("agent.done|"), 1, "{seen:?}");
    assert_eq!(count("agent.working|"), 1, "{seen:?}");
}
