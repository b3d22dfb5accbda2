//! The git layer's error: what a git operation could not do, with its
//! causes, on one line (as gix gave them, or in roost's own words for a
//! refusal); `failure::explain` turns one from a remote into words a
//! person can act on.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitError(String);

pub type Result<T> = std::result::Result<T, GitError>;

impl GitError {
    /// In roost's own words.
    pub fn new(text: impl Into<String>) -> GitError {
        GitError(text.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GitError {}

/// roost's own words.
impl From<String> for GitError {
    fn from(text: String) -> GitError {
        GitError(text)
    }
}

impl From<&str> for GitError {
    fn from(text: &str) -> GitError {
        GitError(text.to_string())
    }
}

/// Tests compare an error with the words they expect.
impl PartialEq<String> for GitError {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<&str> for GitError {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl AsRef<str> for GitError {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// An error and its causes on one line.
pub fn chain(e: &(dyn std::error::Error + 'static)) -> GitError {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    GitError(parts.join(": "))
}

/// What could not be done, and the I/O error that stopped it.
pub fn io(what: &str, e: std::io::Error) -> GitError {
    GitError(format!("{what}: {e}"))
}
