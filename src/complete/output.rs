//! What a query prints for the shell scripts: one candidate a line, with
//! `TAB description` for zsh and fish; or one marker that hands the word
//! over to the script (a directory, a command name, a command line).

use crate::cli::model::Shell;
use crate::untrusted::printable;

/// One completion: what is inserted, and what zsh and fish show beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub value: String,
    pub about: String,
}

pub fn cand(value: impl Into<String>, about: impl Into<String>) -> Candidate {
    Candidate {
        value: value.into(),
        about: about.into(),
    }
}

/// The one candidate that tells the shell script to complete directory
/// names itself (no window or extension name can hold a TAB).
pub const DIRS: &str = "\tdirs";

/// The one candidate that tells the shell script to complete file names
/// itself (an extension's `file` argument).
pub const FILES: &str = "\tfiles";

/// The one candidate that tells the script the word is a command name
/// (spawn's CMD): the shell completes it from its commands.
pub const COMMANDS: &str = "\tcommands";

/// `LINE` then K: the word belongs to a command line that began K words
/// before it (spawn's CMD and its arguments); the shell completes it as
/// it would that command's.
pub const LINE: &str = "\tline ";

/// A candidate that hands the word over to the shell script.
pub fn handed_over(all: &[Candidate]) -> bool {
    all.first().is_some_and(|c| c.value.starts_with('\t'))
}

/// The bytes `shell`'s script reads for `all`.
pub fn render(shell: Shell, all: &[Candidate]) -> Vec<u8> {
    let mut out = Vec::new();
    if handed_over(all) {
        out.extend_from_slice(all[0].value.as_bytes());
        out.push(b'\n');
        return out;
    }
    for c in all {
        // Window names are anyone's text: one that would need escaping (a
        // control or direction character, a TAB, a newline) is not offered.
        if printable(c.value.as_bytes()) != c.value {
            continue;
        }
        out.extend_from_slice(c.value.as_bytes());
        if shell != Shell::Bash && !c.about.is_empty() {
            out.push(b'\t');
            out.extend_from_slice(printable(c.about.as_bytes()).as_bytes());
        }
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_gets_values_zsh_and_fish_descriptions_and_a_marker_stands_alone() {
        let all = [cand("a", "first"), cand("b\u{1b}", "x"), cand("c", "")];
        assert_eq!(render(Shell::Bash, &all), b"a\nc\n");
        assert_eq!(render(Shell::Zsh, &all), b"a\tfirst\nc\n");
        assert_eq!(render(Shell::Fish, &all), b"a\tfirst\nc\n");
        assert_eq!(
            render(Shell::Zsh, &[cand(DIRS, ""), cand("x", "y")]),
            b"\tdirs\n"
        );
    }
}
