//! The built-in commands, run as the real binary against a throwaway tmux
//! server per test: one module per command (the house test holds that
//! every command of the table has one), with the pane and server helpers
//! they share here.

mod badge;
mod close;
mod completions;
mod demo;
mod doctor;
mod help;
mod hook;
mod hooks;
mod kill;
mod next;
mod read;
mod reply;
mod resume;
mod screen;
mod send;
mod session;
mod spawn;
mod state;
mod status;
mod up;
mod version;
mod wait_done;
mod whoami;
mod words;

use crate::common::*;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

pub(crate) fn pane_option(env: &TestEnv, pane: &str, name: &str) -> String {
    let out = env.tmux_ok(&["show-options", "-pqv", "-t", pane, name]);
    out.trim_end_matches('\n').to_string()
}

/// Waits until `roost read` prints a recorded reply (no notice) equal to `want`.
pub(crate) fn wait_for_reply(env: &TestEnv, pane: &str, want: &str) {
    let mut last = String::new();
    let ok = wait_until(Duration::from_secs(10), || {
        let out = env.run(["read", pane]);
        last = stdout(&out);
        out.stderr.is_empty() && last == want
    });
    assert!(ok, "{pane} never recorded {want:?} (last {last:?})");
}

pub(crate) fn wait_for_file(path: &Path) -> String {
    let mut text = String::new();
    let ok = wait_until(Duration::from_secs(10), || {
        text = std::fs::read_to_string(path).unwrap_or_default();
        text.ends_with('\n')
    });
    assert!(ok, "{} was never written", path.display());
    text
}

pub(crate) fn pane_ids(env: &TestEnv) -> Vec<String> {
    env.tmux_ok(&["list-panes", "-a", "-F", "#{pane_id}"])
        .lines()
        .map(str::to_string)
        .collect()
}

/// `roost hook ARGS` as the agent runs it inside `pane`, `payload` on stdin.
pub(crate) fn hook_in(
    env: &TestEnv,
    pane: &str,
    args: &[&str],
    payload: &str,
) -> std::process::Output {
    let tmux_var = format!(
        "{},{},0",
        env.socket,
        env.tmux_ok(&["display-message", "-p", "#{pid}"]).trim()
    );
    let mut cmd: Command = env.roost(["hook"].iter().chain(args));
    cmd.env("TMUX", tmux_var)
        .env("TMUX_PANE", pane)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}
