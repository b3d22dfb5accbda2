//! The hook benchmark: what `roost hook claude Stop` (a typical payload)
//! costs the agent that runs it, in a real pane of a private roost server,
//! against one `tmux set-option` alone: with no subscriber, and with one
//! whose handler sleeps 5 s on every `agent.done`.
//!
//!     cargo bench --bench hook [-- ROUNDS]   (default 25)
//!
//! Each round puts the pane back to `working` first (untimed), so every
//! Stop is a real change and, with the subscriber, starts its handler. The
//! figure is the median time from starting the process to its exit, and
//! the number of tmux client processes one call starts, counted by a
//! `tmux` first on PATH that logs each start (in rounds of their own, so
//! the wrapper's cost is not timed). ROOST_BENCH_BIN compares another
//! build (an older roost takes the same words).

mod common;
use common::*;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PAYLOAD: &str = r#"{"session_id":"0b8e6c1e-5d0a-4c1b-9f5e-2d3c4b5a6978","transcript_path":"","cwd":"/work","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done: the tests pass and the change is committed."}"#;

fn main() {
    let args = args();
    let rounds: usize = number(&args, 0, 25);
    let roost = roost_bin();
    let sandbox = sandbox_dir();
    let sb = sandbox.path();
    let env = sandbox_env(sb);
    let socket = sb.join("roost");
    let tmux = |words: &[&str]| {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(words)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let out = Command::new(&roost)
        .args(["spawn", "agent", "sleep 100000"])
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k.as_str(), v)))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pane = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let server = tmux(&["display-message", "-p", "#{pid}"]);
    let inside = format!("{},{server},0", socket.display());
    // A tmux first on PATH that logs each start.
    let counting = sb.join("counting");
    let calls = sb.join("tmux-calls");
    let real = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v tmux"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    write(
        &counting.join("tmux"),
        &format!(
            "#!/bin/sh\necho x >> '{}'\nexec '{}' \"$@\"\n",
            calls.display(),
            real.trim()
        ),
    );
    chmod_x(&counting.join("tmux"));
    let path_of = |count: bool| {
        let path = env
            .iter()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.to_string_lossy().into_owned())
            .unwrap_or_default();
        if count {
            format!("{}:{path}", counting.display())
        } else {
            path
        }
    };
    let hook = |count: bool| {
        tmux(&["set-option", "-p", "-t", &pane, "@agent_state", "working"]);
        let started = Instant::now();
        let mut child = Command::new(&roost)
            .args(["hook", "claude", "Stop"])
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k.as_str(), v)))
            .env("PATH", path_of(count))
            .env("TMUX", &inside)
            .env("TMUX_PANE", &pane)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(PAYLOAD.as_bytes())
            .unwrap();
        assert!(child.wait().unwrap().success());
        started.elapsed()
    };
    let set_option = |count: bool| {
        let started = Instant::now();
        let status = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(["set-option", "-p", "-t", &pane, "@bench", "1"])
            .env("PATH", path_of(count))
            .status()
            .unwrap();
        assert!(status.success());
        started.elapsed()
    };
    let measure = |what: &dyn Fn(bool) -> Duration| {
        what(false);
        let mut times: Vec<Duration> = (0..rounds).map(|_| what(false)).collect();
        times.sort();
        let _ = std::fs::remove_file(&calls);
        for _ in 0..5 {
            what(true);
        }
        let count = std::fs::read_to_string(&calls).map_or(0, |t| t.lines().count());
        (times[times.len() / 2], count as f64 / 5.0)
    };
    let plain = {
        // `tmux set-option` is counted as the one client it is.
        let mut times: Vec<Duration> = (0..rounds).map(|_| set_option(false)).collect();
        times.sort();
        (times[times.len() / 2], 1.0)
    };
    let none = measure(&hook);
    // A subscriber whose handler sleeps 5 s on every agent.done.
    let ext = sb.join("data/roost/ext/slow");
    write(&ext.join("bin/roost-events"), "#!/bin/sh\nsleep 5\n");
    chmod_x(&ext.join("bin/roost-events"));
    write(
        &sb.join("state/roost/ext.events"),
        &format!(
            "slow\t{}\t10\tagent.done\tevents\t0000000000000000000000000000000000000000\ton\n",
            ext.join("bin/roost-events").display()
        ),
    );
    let slow = measure(&hook);
    let version = Command::new("tmux").arg("-V").output().unwrap();
    tmux(&["kill-server"]);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{} ({rounds} rounds; median; tmux clients per call):",
        String::from_utf8_lossy(&version.stdout).trim()
    );
    println!(
        "  tmux set-option alone:               {:6.1} ms  {:.1}",
        ms(plain.0),
        plain.1
    );
    println!(
        "  roost hook claude Stop, no subscriber: {:6.1} ms  {:.1}",
        ms(none.0),
        none.1
    );
    println!(
        "  roost hook claude Stop, slow handler:  {:6.1} ms  {:.1}",
        ms(slow.0),
        slow.1
    );
}
