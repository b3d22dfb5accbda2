//! Handlers that keep failing: after `MAX_FAILURES` failed runs in a row
//! an extension's handler is paused (`events/NAME/paused`), its moments
//! logged as skipped, until `roost ext enable NAME` resumes it.

use crate::fsutil;
use crate::paths::Paths;
use std::path::PathBuf;

/// Failed runs in a row that pause a handler.
pub const MAX_FAILURES: u32 = 5;

fn failures_file(paths: &Paths, name: &str) -> PathBuf {
    super::place::dir(paths, name).join("failures")
}

fn paused_file(paths: &Paths, name: &str) -> PathBuf {
    super::place::dir(paths, name).join("paused")
}

pub fn is_paused(paths: &Paths, name: &str) -> bool {
    std::fs::symlink_metadata(paused_file(paths, name)).is_ok()
}

fn failures(paths: &Paths, name: &str) -> u32 {
    fsutil::read_regular(&failures_file(paths, name), 64)
        .ok()
        .flatten()
        .and_then(|b| String::from_utf8_lossy(&b).trim().parse().ok())
        .unwrap_or(0)
}

/// Counts one run; returns `Some(n)` when this failure paused the handler.
pub fn count(paths: &Paths, name: &str, failed: bool) -> Option<u32> {
    let n = if failed { failures(paths, name) + 1 } else { 0 };
    let _ = fsutil::write_atomic(
        &failures_file(paths, name),
        format!("{n}\n").as_bytes(),
        0o600,
    );
    if n >= MAX_FAILURES && !is_paused(paths, name) {
        let _ = fsutil::write_atomic(&paused_file(paths, name), b"", 0o600);
        return Some(n);
    }
    None
}

/// Resumes a paused handler (`roost ext enable NAME`); whether it was
/// paused.
pub fn resume(paths: &Paths, name: &str) -> std::io::Result<bool> {
    let was = is_paused(paths, name);
    for f in [paused_file(paths, name), failures_file(paths, name)] {
        match std::fs::remove_file(f) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(was)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_failures_in_a_row_pause_and_a_success_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let p = Paths::under(dir.path(), dir.path(), dir.path());
        fsutil::make_dirs(&super::super::place::dir(&p, "n"), 0o700).unwrap();
        for _ in 0..4 {
            assert_eq!(count(&p, "n", true), None);
        }
        assert_eq!(count(&p, "n", false), None);
        for _ in 0..4 {
            assert_eq!(count(&p, "n", true), None);
        }
        assert_eq!(count(&p, "n", true), Some(5));
        assert!(is_paused(&p, "n"));
        assert_eq!(count(&p, "n", true), None);
        assert!(resume(&p, "n").unwrap());
        assert!(!is_paused(&p, "n"));
        assert!(!resume(&p, "n").unwrap());
    }
}
