//! The run log: every handler run, skip and drop of an extension, one JSON
//! object a line in `events/NAME/log` (owner-only), rotated to `log.1` past
//! `MAX_LOG`. It holds what happened and the head and tail of the output,
//! never an argument value or a prompt. The reader is what `roost ext log`,
//! `ext list`, `ext info` and `doctor` call.

use crate::fsutil;
use crate::paths::Paths;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The size past which the log is rotated (one older file is kept).
pub const MAX_LOG: u64 = 256 << 10;

/// What became of one moment for one extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Exit(i32),
    Signal(i32),
    Timeout,
    SpawnError(String),
    Skipped(String),
    Dropped(u64),
    Paused(u32),
}

impl Outcome {
    pub fn words(&self) -> String {
        match self {
            Outcome::Exit(n) => format!("exit {n}"),
            Outcome::Signal(n) => format!("signal {n}"),
            Outcome::Timeout => "timeout".into(),
            Outcome::SpawnError(why) => format!("spawn error: {why}"),
            Outcome::Skipped(why) => format!("skipped: {why}"),
            Outcome::Dropped(n) => format!("dropped {n}"),
            Outcome::Paused(n) => format!("paused after {n} failures in a row"),
        }
    }

    /// A run that counts against the handler.
    pub fn failed(&self) -> bool {
        match self {
            Outcome::Exit(code) => *code != 0,
            Outcome::Signal(_) | Outcome::Timeout | Outcome::SpawnError(_) => true,
            Outcome::Skipped(_) | Outcome::Dropped(_) | Outcome::Paused(_) => false,
        }
    }
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub seq: u64,
    pub event: String,
    #[serde(default)]
    pub pane: String,
    /// UTC, RFC 3339.
    pub start: String,
    pub duration_ms: u64,
    pub outcome: String,
    pub failed: bool,
    #[serde(default)]
    pub head: String,
    #[serde(default)]
    pub tail: String,
    #[serde(default)]
    pub cut: u64,
    pub commit: String,
}

pub fn file(paths: &Paths, name: &str) -> PathBuf {
    super::place::dir(paths, name).join("log")
}

/// Appends `record` to `name`'s log, rotating it first when it is past
/// the bound.
pub fn append(paths: &Paths, name: &str, record: &Record) -> std::io::Result<()> {
    let path = file(paths, name);
    if let Some(dir) = path.parent() {
        fsutil::make_dirs(dir, 0o700)?;
    }
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.len() > MAX_LOG) {
        std::fs::rename(&path, path.with_extension("1"))?;
    }
    let mut line = serde_json::to_string(record).unwrap_or_default();
    line.push('\n');
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::File::options()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(&path)?;
    f.write_all(line.as_bytes())
}

fn records(path: &Path) -> Vec<Record> {
    match fsutil::read_regular(path, 2 * MAX_LOG) {
        Ok(Some(bytes)) => String::from_utf8_lossy(&bytes)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect(),
        _ => Vec::new(),
    }
}

/// The last `n` records of `name` (oldest first), only failed ones with
/// `failed`.
pub fn last(paths: &Paths, name: &str, n: usize, failed: bool) -> Vec<Record> {
    let path = file(paths, name);
    let mut all = records(&path.with_extension("1"));
    all.extend(records(&path));
    all.retain(|r| !failed || r.failed);
    let from = all.len().saturating_sub(n);
    all.split_off(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(seq: u64, failed: bool) -> Record {
        Record {
            seq,
            event: "agent.done".into(),
            pane: "%1".into(),
            start: "2026-01-01T00:00:00Z".into(),
            duration_ms: 1,
            outcome: if failed { "exit 1" } else { "exit 0" }.into(),
            failed,
            head: "x".repeat(4000),
            tail: String::new(),
            cut: 0,
            commit: "c".into(),
        }
    }

    #[test]
    fn the_log_is_rotated_and_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let p = Paths::under(dir.path(), dir.path(), dir.path());
        for seq in 1..=200 {
            append(&p, "n", &rec(seq, seq % 10 == 0)).unwrap();
        }
        let main = std::fs::metadata(file(&p, "n")).unwrap();
        assert!(main.len() <= MAX_LOG + 5000);
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(main.permissions().mode() & 0o777, 0o600);
        let last = last(&p, "n", 3, false);
        assert_eq!(
            last.iter().map(|r| r.seq).collect::<Vec<_>>(),
            [198, 199, 200]
        );
        let failed = super::last(&p, "n", 2, true);
        assert_eq!(failed.iter().map(|r| r.seq).collect::<Vec<_>>(), [190, 200]);
        assert!(Outcome::Timeout.failed() && !Outcome::Exit(0).failed());
        assert!(!Outcome::Skipped("x".into()).failed());
    }
}
