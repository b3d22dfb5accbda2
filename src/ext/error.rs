//! The extension domain's one error type: refused (the input, the state or
//! a check says no) or failed (something broke), with its one-line message,
//! the hint that says what to do, and the whole chain for `-v`, all made
//! once where the problem happens. Every module of `ext/` below the verbs
//! returns it (the git layer returns `GitError`, which becomes one); a verb
//! turns it into the command's error with `at`, the kind kept, so that
//! `--json` can say which it was.

use crate::error::{Error, Kind};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtError {
    kind: Kind,
    msg: String,
    hint: Option<String>,
    detail: Option<String>,
}

pub type Result<T> = std::result::Result<T, ExtError>;

impl ExtError {
    /// The input or the state says no.
    pub fn refused(msg: impl Into<String>) -> ExtError {
        ExtError {
            kind: Kind::Refused,
            msg: msg.into(),
            hint: None,
            detail: None,
        }
    }

    /// Something broke (a file that cannot be written, a lock not taken).
    pub fn failed(msg: impl Into<String>) -> ExtError {
        ExtError {
            kind: Kind::Failed,
            ..ExtError::refused(msg)
        }
    }

    /// Adds the second line: what the user can do about it.
    pub fn hint(mut self, text: impl Into<String>) -> ExtError {
        self.hint = Some(text.into());
        self
    }

    /// Adds the whole error, printed only when verbose.
    pub fn detail(mut self, text: impl Into<String>) -> ExtError {
        self.detail = Some(text.into());
        self
    }

    /// The same error with its message said again by `say` (given the old
    /// one); kind, hint and detail are kept.
    pub fn reword(mut self, say: impl FnOnce(&str) -> String) -> ExtError {
        self.msg = say(&self.msg);
        self
    }

    /// The same error, its message after `what: `.
    pub fn within(self, what: impl fmt::Display) -> ExtError {
        self.reword(|msg| format!("{what}: {msg}"))
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.msg
    }

    /// The second line, if there is one.
    pub fn what_to_do(&self) -> Option<&str> {
        self.hint.as_deref()
    }

    /// The whole chain, if it says more than the message.
    pub fn whole(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// As command `cmd`'s error: the message, its hint and its detail.
    pub fn at(self, cmd: &'static str) -> Error {
        let mut e = Error::fail(cmd, self.msg).with_kind(self.kind);
        if let Some(hint) = self.hint {
            e = e.hint(hint);
        }
        if let Some(detail) = self.detail {
            e = e.detail(detail);
        }
        e
    }
}

impl fmt::Display for ExtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for ExtError {}

/// A domain result as the command `cmd`'s: `installed::chosen(..).at(CMD)?`.
pub trait At<T> {
    fn at(self, cmd: &'static str) -> crate::error::Result<T>;
}

impl<T> At<T> for Result<T> {
    fn at(self, cmd: &'static str) -> crate::error::Result<T> {
        self.map_err(|e| e.at(cmd))
    }
}

/// Tests compare an error with the message they expect.
impl PartialEq<&str> for ExtError {
    fn eq(&self, other: &&str) -> bool {
        self.msg == *other
    }
}

impl PartialEq<String> for ExtError {
    fn eq(&self, other: &String) -> bool {
        &self.msg == other
    }
}

#[cfg(test)]
mod tests {
    use super::ExtError;
    use crate::error::Kind;

    #[test]
    fn the_command_error_carries_the_message_hint_and_kind() {
        let e = ExtError::refused("x is not installed")
            .hint("see roost ext list")
            .within("cannot remove");
        assert_eq!(e.to_string(), "cannot remove: x is not installed");
        let top = e.at("ext remove");
        assert_eq!(top.kind(), Kind::Refused);
        assert_eq!(
            top.to_string(),
            "roost ext remove: cannot remove: x is not installed\nsee roost ext list\n"
        );
        assert_eq!(ExtError::failed("disk").at("ext").kind(), Kind::Failed);
    }
}
