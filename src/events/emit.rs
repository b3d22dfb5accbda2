//! How a moment is handed to the runner: the shell command tmux (or roost
//! itself) starts, made only of words roost trusts (its own path, the event
//! word, a pane id, formats that print a known word or a number, numbers
//! roost computed). Nothing a pane can set reaches it: the runner reads
//! names from tmux itself, later.

use super::event::Event;
use crate::contract::env;
use crate::tmux::{AgentState, Batch};
use std::time::{SystemTime, UNIX_EPOCH};

/// The hidden command the runner answers to.
pub const COMMAND: &str = "__event";

/// Carried by a handler's environment: how many handlers deep a moment is.
pub const DEPTH: &str = "ROOST_EVENT_DEPTH";

/// Who fires: this roost's path, how deep in handlers it runs, and whether
/// extensions are switched off in its environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitter {
    program: String,
    pub depth: u32,
    pub no_ext: bool,
}

/// Whether roost's own path can stand in a shell command that tmux reads
/// as it is: plain characters only (no blank, quote, `$`, `#`, `~`).
fn plain_path(path: &str) -> bool {
    path.starts_with('/')
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._+-@,:=".contains(&b))
}

/// A pane id as tmux gives it: `%` and digits.
pub fn is_pane_id(pane: &str) -> bool {
    pane.strip_prefix('%')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Nanoseconds since the epoch: the order of moments.
pub fn now() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}

impl Emitter {
    /// This process as an emitter; `None` when its path cannot be put in a
    /// command safely (then nothing fires from tmux: see the docs).
    pub fn from_env() -> Option<Emitter> {
        // Nothing subscribes: nothing to start (one stat).
        let paths = crate::paths::Paths::from_env().ok()?;
        std::fs::symlink_metadata(super::index::file(&paths)).ok()?;
        Emitter::this()
    }

    /// This process as an emitter, whether or not anything subscribes
    /// (for the hooks a server is started with).
    pub fn this() -> Option<Emitter> {
        let exe = std::env::current_exe().ok()?;
        let program = exe.to_str()?.to_string();
        plain_path(&program).then(|| Emitter {
            program,
            depth: std::env::var(DEPTH)
                .ok()
                .and_then(|d| d.parse::<u32>().ok())
                .map_or(0, |d| d.saturating_add(1)),
            no_ext: std::env::var_os(env::NO_EXT).is_some_and(|v| !v.is_empty()),
        })
    }

    /// The shell command a tmux hook of the server runs for `event`: no
    /// time (the runner takes its own), depth 0, and `extra` words, formats
    /// of tmux's that print a pane id or a number.
    pub fn hook_command(&self, event: Event, extra: &[&str]) -> String {
        let mut line = format!("{} {COMMAND} fire {} --depth=0", self.program, event.word());
        for w in extra {
            line.push(' ');
            line.push_str(w);
        }
        line
    }

    /// The runner's arguments for `event`, after `roost __event`:
    /// `fire EVENT --time T --depth D [--no-ext] [--pane %N] [EXTRA...]`.
    /// Each extra word is `--KEY=VALUE` with a value roost trusts (a format
    /// of known words, a number).
    pub fn args(&self, event: Event, pane: Option<&str>, extra: &[String]) -> Vec<String> {
        let mut words = vec![
            "fire".to_string(),
            event.word().to_string(),
            format!("--time={}", now()),
            format!("--depth={}", self.depth),
        ];
        if self.no_ext {
            words.push("--no-ext".into());
        }
        if let Some(pane) = pane.filter(|p| is_pane_id(p)) {
            words.push(format!("--pane={pane}"));
        }
        words.extend(extra.iter().cloned());
        words
    }

    /// The shell command that runs the runner for `event`: see `args`.
    pub fn command(&self, event: Event, pane: Option<&str>, extra: &[String]) -> String {
        let mut line = format!("{} {COMMAND}", self.program);
        for w in self.args(event, pane, extra) {
            line.push(' ');
            line.push_str(&w);
        }
        line
    }

    /// The shell command that records pane `pane`'s new session id.
    pub fn session_command(&self, pane: &str) -> Option<String> {
        is_pane_id(pane).then(|| format!("{} {COMMAND} session --pane={pane}", self.program))
    }

    /// Starts the runner for `event` from roost itself, detached: its own
    /// session, no terminal, stdin, stdout and stderr on /dev/null, not
    /// waited for (for a moment after which tmux runs no job: the server's
    /// end).
    /// `extra` words go to the runner as arguments, never through a shell
    /// (names: `--window=NAME`, `--session=NAME`; `--size=N`).
    pub fn detached(&self, event: Event, pane: Option<&str>, extra: &[String]) {
        use std::os::unix::process::CommandExt;
        use std::process::{Command, Stdio};
        let mut cmd = Command::new(&self.program);
        cmd.arg(COMMAND)
            .args(self.args(event, pane, extra))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: setsid is async-signal-safe and allocates nothing.
        unsafe {
            cmd.pre_exec(|| {
                nix::unistd::setsid()
                    .map(drop)
                    .map_err(std::io::Error::from)
            });
        }
        // The runner is reaped by init once this process ends.
        let _ = cmd.spawn();
    }
}

/// Adds to `batch` the stamp of `state` on `pane` that fires the state's
/// event on a real change (see `Batch::stamp`).
pub fn stamp(batch: &mut Batch, pane: &str, state: AgentState, emitter: Option<&Emitter>) {
    let event = Event::of_state(state);
    match emitter {
        Some(em) => {
            let fire =
                |previous: &str| em.command(event, Some(pane), &[format!("--previous={previous}")]);
            batch.stamp(pane, state, Some(&fire));
        }
        None => batch.stamp(pane, state, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_words_reach_the_command() {
        assert!(plain_path("/usr/local/bin/roost"));
        for bad in [
            "rel/roost",
            "/a b/roost",
            "/a'b",
            "/a$b",
            "/a#b",
            "/~/r",
            "/a\"b",
            "/a\\b",
        ] {
            assert!(!plain_path(bad), "{bad}");
        }
        assert!(is_pane_id("%12"));
        for bad in ["%", "12", "%1;", "%$(x)", "%1 2"] {
            assert!(!is_pane_id(bad), "{bad}");
        }
        let e = Emitter {
            program: "/r/roost".into(),
            depth: 2,
            no_ext: true,
        };
        let line = e.command(Event::Done, Some("%3;touch x"), &["--previous=x".into()]);
        assert!(
            line.starts_with("/r/roost __event fire agent.done --time="),
            "{line}"
        );
        assert!(line.ends_with(" --depth=2 --no-ext --previous=x"), "{line}");
        assert_eq!(
            e.session_command("%3").unwrap(),
            "/r/roost __event session --pane=%3"
        );
        assert_eq!(e.session_command("%3 x"), None);
    }
}
