//! The built-in commands: one file per verb, sharing the argument reader, the
//! context (server and paths) and target resolution defined here.

mod demo;
mod doctor;
mod help;
mod pane;
mod read;
mod send;
mod session;
mod spawn;
mod status;
mod target;
mod wait;

use crate::cli::Spec;
use crate::error::{Error, Result};
use crate::paths::Paths;
use crate::tmux::Tmux;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

pub use pane::STATES;

/// Runs the built-in command `spec` with the words after its name.
pub fn run(spec: &'static Spec, args: &[OsString]) -> Result<u8> {
    let mut a = Args::new(spec, args);
    let ctx = Ctx::new(spec.name);
    match spec.name {
        "up" => session::up(&ctx, &mut a, "main"),
        "session" => {
            a.options(&[])?;
            let name = a.required("NAME")?;
            session::up(&ctx, &mut a, &name)
        }
        "spawn" => spawn::run(&ctx, &mut a),
        "send" => send::run(&ctx, &mut a),
        "read" => read::read(&ctx, &mut a),
        "screen" => read::screen(&ctx, &mut a),
        "reply" => pane::reply(&ctx, &mut a),
        "state" => pane::state(&ctx, &mut a),
        "whoami" => pane::whoami(&ctx, &mut a),
        "wait-done" => wait::run(&ctx, &mut a),
        "status" => status::run(&ctx, &mut a),
        "kill" => session::kill(&ctx, &mut a),
        "doctor" => doctor::run(&ctx, &mut a),
        "demo" => demo::run(&mut a),
        "ext" => crate::ext::run(args),
        "completions" => help::completions(&mut a),
        "help" => help::help(&mut a),
        "version" => help::version(&mut a),
        // Every name in the table is routed above; a new one lands here.
        other => Err(Error::fail(other, "has no handler: a bug in roost")),
    }
}

/// What every command may need: roost's server and its paths.
pub struct Ctx {
    pub cmd: &'static str,
    pub tmux: Tmux,
    paths: std::result::Result<Paths, String>,
}

impl Ctx {
    fn new(cmd: &'static str) -> Ctx {
        Ctx {
            cmd,
            tmux: Tmux::from_env(),
            paths: Paths::from_env(),
        }
    }

    pub fn paths(&self) -> Result<&Paths> {
        self.paths
            .as_ref()
            .map_err(|e| Error::fail(self.cmd, e.clone()))
    }

    /// roost's files written out, and what a server start needs.
    pub fn server_start(&self) -> Result<crate::tmux::ServerStart> {
        let paths = self.paths()?;
        paths
            .check_writable()
            .map_err(|(msg, hint)| Error::fail(self.cmd, msg).hint(hint))?;
        crate::home::server_start(paths).map_err(|e| {
            Error::fail(
                self.cmd,
                format!(
                    "cannot write roost's files under {}: {e}",
                    paths.data.display()
                ),
            )
        })
    }

    /// For a command that found no server: a missing tmux is an error of
    /// its own, not "not running".
    pub fn require_tmux(&self) -> Result<()> {
        crate::tmux::installed().map_err(|e| self.tmux_err(e))
    }

    /// A tmux failure as this command's error.
    pub fn tmux_err(&self, e: crate::tmux::TmuxError) -> Error {
        Error::fail(self.cmd, e.0)
    }
}

/// The words after a command: leading options first (up to the first
/// positional word or `--`), then positionals.
pub struct Args {
    cmd: &'static str,
    raw: Vec<OsString>,
    flags: Vec<String>,
    rest: std::collections::VecDeque<OsString>,
}

impl Args {
    fn new(spec: &'static Spec, args: &[OsString]) -> Args {
        let mut rest: std::collections::VecDeque<OsString> = args.iter().cloned().collect();
        let mut flags = Vec::new();
        while let Some(word) = rest.front() {
            let bytes = word.as_bytes();
            if bytes == b"--" {
                rest.pop_front();
                break;
            }
            if bytes.len() < 2 || bytes[0] != b'-' {
                break;
            }
            flags.push(word.to_string_lossy().into_owned());
            rest.pop_front();
        }
        Args {
            cmd: spec.name,
            raw: args.to_vec(),
            flags,
            rest,
        }
    }

    /// Accepts exactly these options; anything else is a usage error.
    pub fn options(&self, known: &[&str]) -> Result<()> {
        match self.flags.iter().find(|f| !known.contains(&f.as_str())) {
            Some(f) => Err(Error::usage(self.cmd, format!("unknown option {f}"))),
            None => Ok(()),
        }
    }

    pub fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }

    /// The next positional word, which must be text.
    pub fn optional(&mut self, what: &str) -> Result<Option<String>> {
        match self.rest.pop_front() {
            None => Ok(None),
            Some(w) => w
                .into_string()
                .map(Some)
                .map_err(|_| Error::usage(self.cmd, format!("{what} is not valid UTF-8"))),
        }
    }

    pub fn required(&mut self, what: &str) -> Result<String> {
        self.optional(what)?
            .ok_or_else(|| Error::usage(self.cmd, format!("missing {what}")))
    }

    /// An optional positive number (a line count or seconds).
    pub fn number(&mut self, what: &str, default: u64) -> Result<u64> {
        match self.optional(what)? {
            None => Ok(default),
            Some(n) => match n.parse::<u64>() {
                Ok(v) if v > 0 => Ok(v),
                _ => Err(Error::usage(
                    self.cmd,
                    format!("{what} must be a positive whole number, not '{n}'"),
                )),
            },
        }
    }

    /// Every word after the command, options included, as given (for
    /// commands whose words are all text).
    pub fn raw(&self) -> Vec<OsString> {
        self.raw.clone()
    }

    /// Everything left, as given.
    pub fn rest(&mut self) -> Vec<OsString> {
        self.rest.drain(..).collect()
    }

    /// Refuses leftover words.
    pub fn done(&self) -> Result<()> {
        match self.rest.front() {
            Some(extra) => Err(Error::usage(
                self.cmd,
                format!("unexpected argument '{}'", extra.to_string_lossy()),
            )),
            None => Ok(()),
        }
    }
}
