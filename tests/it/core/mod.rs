//! The built-in commands, run as the real binary against a throwaway tmux
//! server per test: one module per command, with the pane and server
//! helpers they share here.

mod close;
mod kill;
mod read;
mod reply;
mod send;
mod server;
mod spawn;
mod state;
mod status;
mod wait;
mod whoami;
mod words;

use crate::common::*;

use std::path::Path;
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
