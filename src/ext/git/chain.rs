//! The git layer's errors made from what gix and the transports returned:
//! an error and its causes on one line (the words `-v` shows), and an
//! error from a remote with its kind read from the typed causes
//! (`Trouble::of`).

use super::cause::{GitError, Trouble};
use std::error::Error;

/// An error and its causes on one line, as a step that failed.
pub fn chain(e: &(dyn Error + 'static)) -> GitError {
    GitError::Failed(one_line(e))
}

/// An error from talking to a remote: its kind read from the typed causes,
/// its chain kept for `-v`.
pub fn remote(e: &(dyn Error + 'static)) -> GitError {
    remote_said(e, one_line(e))
}

/// The same, with `chain` as the words kept for `-v`.
pub fn remote_said(e: &(dyn Error + 'static), chain: String) -> GitError {
    GitError::Remote {
        trouble: Trouble::of(e),
        chain,
    }
}

/// What could not be done, and the I/O error that stopped it.
pub fn io(what: &str, e: std::io::Error) -> GitError {
    GitError::Failed(format!("{what}: {e}"))
}

/// `e` and its causes joined with `: `, a cause left out when an earlier
/// part already says it.
fn one_line(e: &(dyn Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_is_one_line_without_repeats() {
        let e = std::io::Error::other("inner");
        assert_eq!(remote(&e).as_str(), "inner");
        assert_eq!(chain(&e), "inner");
    }
}
