//! How a commit and a source are shown to people: the short commit, the
//! source URL without its scheme.

/// The first 7 hex digits of a commit, for people.
pub fn short(commit: &str) -> &str {
    commit.get(..7).unwrap_or(commit)
}

/// `https://github.com/o/r` → `github.com/o/r`; other URLs as they are.
pub fn source(url: &str) -> String {
    url.strip_prefix("https://").unwrap_or(url).to_string()
}
