//! The captured screens an extension ships for its agent presets,
//! `screens/AGENT/STATE/FILE` with STATE one of blocked, working, idle or
//! none (no rule should match), each run through that agent's screen rules
//! as `roost ext check` shows them. Files are read as untrusted input:
//! regular files only, bounded, never blocking.

use super::presets::{Preset, ScreenState};
use crate::fsutil::read_regular;
use crate::untrusted::printable;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The largest screen fixture read: far more than any terminal holds.
pub const MAX_FIXTURE: u64 = 256 * 1024;
/// Fixtures read for one extension; the rest are not read, and said so.
pub const MAX_FIXTURES: usize = 256;

/// What one fixture reads as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// `screens/AGENT/STATE/FILE`, escaped for the terminal.
    pub path: String,
    /// What its directory says it shows: a state, or none.
    pub expected: Option<ScreenState>,
    /// The state and rule (1-based, with its text) that matched, if any.
    pub matched: Option<(ScreenState, usize, String)>,
    /// Why it could not be read, or why its directory is not a state.
    pub problem: Option<String>,
}

impl Reading {
    /// Whether the rules read it as its directory says.
    pub fn agrees(&self) -> bool {
        self.problem.is_none() && self.matched.as_ref().map(|m| m.0) == self.expected
    }

    /// One line: what it reads as, by which rule, and whether that is what
    /// its directory says.
    pub fn line(&self) -> String {
        if let Some(problem) = &self.problem {
            return format!("{}: {problem}", self.path);
        }
        let got = match &self.matched {
            Some((state, n, text)) => {
                format!(
                    "{}, by rule {n} \"{}\"",
                    state.name(),
                    printable(text.as_bytes())
                )
            }
            None => "no rule matched".to_string(),
        };
        if self.agrees() {
            format!("{}: {got}", self.path)
        } else {
            let want = self.expected.map_or("none", ScreenState::name);
            format!("{}: {got}, but its directory says {want}", self.path)
        }
    }
}

/// Every fixture under `dir`/screens for the presets that have rules, in
/// name order; at most `MAX_FIXTURES` (a last reading says what was left).
pub fn read_all(dir: &Path, presets: &[Preset]) -> Vec<Reading> {
    let mut out = Vec::new();
    for preset in presets.iter().filter(|p| p.screen.is_some()) {
        let base = dir.join("screens").join(&preset.name);
        for state_dir in sorted(&base) {
            let state_name = state_dir
                .file_name()
                .unwrap_or_default()
                .as_bytes()
                .to_vec();
            let expected = match state_name.as_slice() {
                b"none" => None,
                name => match ScreenState::ALL
                    .into_iter()
                    .find(|s| s.name().as_bytes() == name)
                {
                    Some(s) => Some(s),
                    None => {
                        out.push(Reading {
                            path: shown(dir, &state_dir),
                            expected: None,
                            matched: None,
                            problem: Some(
                                "not a state (blocked, working, idle or none)".to_string(),
                            ),
                        });
                        continue;
                    }
                },
            };
            for file in sorted(&state_dir) {
                if out.len() == MAX_FIXTURES {
                    out.push(Reading {
                        path: "screens".to_string(),
                        expected: None,
                        matched: None,
                        problem: Some(format!("only the first {MAX_FIXTURES} fixtures were read")),
                    });
                    return out;
                }
                out.push(read_one(dir, &file, preset, expected));
            }
        }
    }
    out
}

fn read_one(dir: &Path, file: &Path, preset: &Preset, expected: Option<ScreenState>) -> Reading {
    let mut reading = Reading {
        path: shown(dir, file),
        expected,
        matched: None,
        problem: None,
    };
    match read_regular(file, MAX_FIXTURE) {
        Ok(Some(bytes)) => {
            let screen = String::from_utf8_lossy(&bytes);
            let rules = preset.screen.as_ref().map(|s| &s.rules[..]).unwrap_or(&[]);
            reading.matched = preset.screen_state(&screen).map(|(state, rule)| {
                let n = rules
                    .iter()
                    .position(|r| std::ptr::eq(r, rule))
                    .unwrap_or(0)
                    + 1;
                (state, n, rule.text.clone())
            });
        }
        Ok(None) => reading.problem = Some("not there".to_string()),
        Err(e) => reading.problem = Some(format!("not read: {e}")),
    }
    reading
}

/// The entries of `dir`, in name order (none when it cannot be listed).
fn sorted(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .take(MAX_FIXTURES + 1)
        .collect();
    paths.sort();
    paths
}

fn shown(dir: &Path, path: &Path) -> String {
    printable(
        path.strip_prefix(dir)
            .unwrap_or(path)
            .as_os_str()
            .as_bytes(),
    )
}
