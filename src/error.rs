//! Error kinds and their exit codes; the one place that prints an error.

use std::fmt;

pub use crate::exit::Exit;

/// The commands agents' hooks run: they never exit 2 (see `exit_code`).
pub use crate::cli::table::HOOK_COMMANDS;

/// Whether the input or the state said no (refused), or something broke
/// (failed). Both exit 1 unless a command documents another status; the
/// difference travels with the error for whoever handles it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Refused,
    Failed,
}

/// What went wrong, and how roost exits because of it.
#[derive(Debug)]
pub enum Error {
    /// A malformed command line (exit 2). `cmd` names the verb whose usage
    /// line follows the message; `None` means the top-level usage line alone.
    Usage { cmd: Option<String>, msg: String },
    /// A refusal or failure the user can act on: `Exit::Failed` unless a
    /// command documents another (send: no target, blocked, …).
    Fail {
        cmd: &'static str,
        kind: Kind,
        code: Exit,
        msg: String,
        hint: Option<String>,
        /// The whole chain of causes, shown with `-v` (or ROOST_VERBOSE).
        detail: Option<String>,
    },
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn usage(cmd: &'static str, msg: impl Into<String>) -> Error {
        Error::Usage {
            cmd: Some(cmd.to_string()),
            msg: msg.into(),
        }
    }

    pub fn fail(cmd: &'static str, msg: impl Into<String>) -> Error {
        Error::Fail {
            cmd,
            kind: Kind::Failed,
            code: Exit::Failed,
            msg: msg.into(),
            hint: None,
            detail: None,
        }
    }

    /// A refusal: the input or the state says no (exits 1, like a failure).
    pub fn refuse(cmd: &'static str, msg: impl Into<String>) -> Error {
        Error::fail(cmd, msg).with_kind(Kind::Refused)
    }

    /// The same error, marked refused or failed.
    pub fn with_kind(mut self, new: Kind) -> Error {
        if let Error::Fail { kind, .. } = &mut self {
            *kind = new;
        }
        self
    }

    /// Whether it was refused or failed (a malformed command line is refused).
    pub fn kind(&self) -> Kind {
        match self {
            Error::Usage { .. } => Kind::Refused,
            Error::Fail { kind, .. } => *kind,
        }
    }

    /// The same failure with a documented exit status other than 1.
    pub fn code(mut self, new: Exit) -> Error {
        if let Error::Fail { code, .. } = &mut self {
            *code = new;
        }
        self
    }

    /// Adds the second line: what the user can do about it.
    pub fn hint(mut self, text: impl Into<String>) -> Error {
        if let Error::Fail { hint, .. } = &mut self {
            *hint = Some(text.into());
        }
        self
    }

    /// The same failure with `more` added to the end of its message.
    pub fn append(mut self, more: impl AsRef<str>) -> Error {
        let (Error::Fail { msg, .. } | Error::Usage { msg, .. }) = &mut self;
        msg.push_str(more.as_ref());
        self
    }

    /// Adds the whole error, printed only when verbose.
    pub fn detail(mut self, text: impl Into<String>) -> Error {
        if let Error::Fail { detail, .. } = &mut self {
            *detail = Some(text.into());
        }
        self
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            // Run from agents' hooks, where Claude Code reads exit 2 as
            // "block": a malformed line there is a plain failure.
            Error::Usage { cmd: Some(cmd), .. } if HOOK_COMMANDS.contains(&cmd.as_str()) => {
                Exit::Failed.code()
            }
            Error::Usage { .. } => Exit::Usage.code(),
            Error::Fail { code, .. } => code.code(),
        }
    }

    /// Prints the error on stderr in the house format and returns the exit code.
    pub fn report(&self) -> u8 {
        eprint!("{self}");
        self.exit_code()
    }
}

static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `-v`/`--verbose` was given: errors carry their whole chain of causes.
pub fn set_verbose() {
    VERBOSE.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether errors show their whole chain: `-v`, or a non-empty
/// `ROOST_VERBOSE`.
pub fn verbose() -> bool {
    VERBOSE.load(std::sync::atomic::Ordering::Relaxed)
        || std::env::var_os("ROOST_VERBOSE").is_some_and(|v| !v.is_empty())
}

/// Messages carry text roost did not write (git's errors, paths, names from
/// a tree or the command line): neutralised here, where every error is
/// printed, newlines included, so the message and its hint are one line each
/// and nothing in them can print a line of its own (a file named
/// "x\ninstalled go at 1234567" cannot forge a success line).
fn shown(text: &str) -> String {
    crate::untrusted::printable(text.as_bytes())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage { cmd: None, msg } => {
                if !msg.is_empty() {
                    writeln!(f, "roost: {}", shown(msg))?;
                }
                writeln!(f, "{}", crate::cli::table::usage_line())
            }
            Error::Usage {
                cmd: Some(cmd),
                msg,
            } => {
                writeln!(f, "roost {cmd}: {}", shown(msg))?;
                writeln!(f, "{}", crate::cli::build::command_usage(cmd))
            }
            Error::Fail {
                cmd,
                msg,
                hint,
                detail,
                ..
            } => {
                writeln!(f, "roost {cmd}: {}", shown(msg))?;
                if let Some(hint) = hint {
                    writeln!(f, "{}", shown(hint))?;
                }
                if let Some(detail) = detail.as_ref().filter(|_| verbose()) {
                    writeln!(f, "roost {cmd}: the whole error: {}", shown(detail))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn an_error_and_its_hint_are_one_line_each_whatever_they_carry() {
        let e = Error::fail(
            "ext install",
            "refusing x: bin/a\ninstalled go at 1234567: roost go",
        )
        .hint("remove \u{1b}[2Jit\r\n");
        assert_eq!(
            e.to_string(),
            "roost ext install: refusing x: bin/a\\x0ainstalled go at 1234567: roost go\n\
             remove \\x1b[2Jit\\x0d\\x0a\n"
        );
    }
}
