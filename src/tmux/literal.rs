//! Arguments that reach tmux exactly as given. tmux reads the words of a
//! command line given as arguments once more: a word that ends in `;` ends
//! the command there (the rest becomes another command), and some arguments
//! are formats (`new-window -n` and `-c`, `new-session -s`, `-n` and `-c`),
//! where `#{…}` expands and `#(…)` runs a shell command. Every string roost
//! did not write itself (a name, a directory, a program's words, a target)
//! goes through `word`, and through `format` where tmux expands it.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// `arg` as one tmux word: a final `;` is written `\;`, which tmux reads as
/// a plain `;` (and `\;` as `\;`, since only the last `\` before the final
/// `;` is taken away).
pub fn word(arg: impl AsRef<OsStr>) -> OsString {
    let bytes = arg.as_ref().as_bytes();
    match bytes.split_last() {
        Some((b';', head)) => {
            let mut out = head.to_vec();
            out.extend_from_slice(b"\\;");
            OsString::from_vec(out)
        }
        _ => OsString::from_vec(bytes.to_vec()),
    }
}

/// `arg` as one tmux word in a place where tmux expands formats: every `#`
/// doubled (tmux expands `##` to `#` and nothing else in it), then `word`.
pub fn format(arg: impl AsRef<OsStr>) -> OsString {
    let mut out = Vec::with_capacity(arg.as_ref().len());
    for &b in arg.as_ref().as_bytes() {
        out.push(b);
        if b == b'#' {
            out.push(b'#');
        }
    }
    word(OsString::from_vec(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_final_semicolon_is_escaped_and_nothing_else_changes() {
        assert_eq!(word("plain"), "plain");
        assert_eq!(word(";"), "\\;");
        assert_eq!(word("a;"), "a\\;");
        assert_eq!(word("a\\;"), "a\\\\;");
        assert_eq!(word("a;b"), "a;b");
        assert_eq!(word(""), "");
    }

    #[test]
    fn hashes_are_doubled_where_formats_expand() {
        assert_eq!(format("/tmp/#(cd;touch c)"), "/tmp/##(cd;touch c)");
        assert_eq!(format("a##b#{x}"), "a####b##{x}");
        assert_eq!(format("dir#;"), "dir##\\;");
    }
}
