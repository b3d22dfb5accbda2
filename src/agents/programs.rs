//! The agent CLIs on PATH, and which version each says it is: every
//! program is asked at once, each bounded in time and in output (it is a
//! program roost did not write, and a cold Node start on a loaded
//! two-core machine takes seconds).

use super::Agent;
use crate::child::{self, Ran};
use std::path::PathBuf;
use std::time::Duration;

/// How long `AGENT --version` may take: the slowest cold start measured
/// (3.3 s, Gemini CLI on a loaded two-core machine) several times over.
pub const VERSION_TIME: Duration = Duration::from_secs(15);

/// The most of `AGENT --version`'s output read.
pub const VERSION_OUTPUT: usize = 64 << 10;

/// The known agents whose program is on `path`.
pub fn on_path(path: &std::ffi::OsStr) -> Vec<(Agent, PathBuf)> {
    Agent::ALL
        .into_iter()
        .filter_map(|a| crate::fsutil::find_program(a.name(), path).map(|p| (a, p)))
        .collect()
}

/// Why a program's version could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum NoVersion {
    /// It answered, with no dotted number.
    NoNumber,
    /// It printed more than the bound, with no dotted number in it.
    TooMuch,
    /// It did not answer within the bound.
    TimedOut,
    /// It could not be started: why.
    NotStarted(String),
    /// Asking it failed in roost.
    Lost,
}

impl std::fmt::Display for NoVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NoVersion::NoNumber => f.write_str("its --version printed no version number"),
            NoVersion::TooMuch => write!(
                f,
                "its --version printed more than {} and no version number",
                crate::fsutil::size_words(VERSION_OUTPUT as u64)
            ),
            NoVersion::TimedOut => write!(
                f,
                "its --version did not answer within {} s",
                VERSION_TIME.as_secs()
            ),
            NoVersion::NotStarted(why) => write!(f, "it could not be started: {why}"),
            NoVersion::Lost => f.write_str("its version could not be read"),
        }
    }
}

/// Each program's version (its first dotted number), or why there is none,
/// in the order given; the programs run side by side.
pub fn versions(programs: &[(Agent, PathBuf)]) -> Vec<Result<String, NoVersion>> {
    let runs: Vec<_> = programs
        .iter()
        .map(|(_, program)| {
            let program = program.clone();
            std::thread::spawn(move || {
                let mut cmd = std::process::Command::new(&program);
                cmd.arg("--version");
                child::run(cmd, VERSION_TIME, VERSION_OUTPUT)
            })
        })
        .collect();
    runs.into_iter()
        .map(|r| match r.join() {
            Ok(Ran::Exited(out)) => first_version(&out).ok_or(NoVersion::NoNumber),
            Ok(Ran::TooMuch(out)) => first_version(&out).ok_or(NoVersion::TooMuch),
            Ok(Ran::TimedOut) => Err(NoVersion::TimedOut),
            Ok(Ran::NotStarted(why)) => Err(NoVersion::NotStarted(why)),
            Err(_) => Err(NoVersion::Lost),
        })
        .collect()
}

/// The first dotted number of three parts or more in `out`, without the
/// full stop of a sentence it ends (`GitHub Copilot CLI 1.0.102.`).
fn first_version(out: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(out);
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map(|w| w.trim_matches('.'))
        .find(|w| w.split('.').filter(|p| !p.is_empty()).count() >= 3)
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_first_dotted_number_is_the_version() {
        assert_eq!(
            super::first_version(b"2.1.332 (Claude Code)\n").as_deref(),
            Some("2.1.332")
        );
        assert_eq!(
            super::first_version(b"codex-cli 0.171.0").as_deref(),
            Some("0.171.0")
        );
        assert_eq!(super::first_version(b"v1.2 beta"), None);
        assert_eq!(
            super::first_version(b"GitHub Copilot CLI 1.0.102.\nRun 'copilot update'.\n")
                .as_deref(),
            Some("1.0.102")
        );
    }
}
