//! What the user types into `roost ext install`: OWNER/REPO and `--ref`,
//! checked before anything touches the network. Pure; every refusal is one
//! line that names the input (escaped) and what is wrong with it.

use crate::untrusted::printable;

/// Longest OWNER or REPO accepted: a path component (NAME_MAX) when the
/// base is a `file://` directory, and far beyond any forge's limit.
const MAX_PART: usize = 255;

/// `OWNER/REPO` split into its two parts, or why it is not one.
///
/// Each part is `[A-Za-z0-9._-]+`, does not start with `-`, and is not `.`
/// or `..`; exactly one `/`. That leaves no room for a URL, a path that
/// climbs out, an option to git, or anything a shell would interpret.
pub fn parse_repo(s: &str) -> Result<(String, String), String> {
    if s.is_empty() {
        return Err("the repository is empty: give it as OWNER/REPO".to_string());
    }
    let shown = printable(s.as_bytes());
    if s.contains("://") || s.starts_with("git@") {
        return Err(format!(
            "\"{shown}\" is a URL: give the repository as OWNER/REPO"
        ));
    }
    let parts: Vec<&str> = s.split('/').collect();
    let [owner, repo] = parts[..] else {
        return Err(format!(
            "\"{shown}\" is not OWNER/REPO: it must contain exactly one '/'"
        ));
    };
    for (label, part) in [("OWNER", owner), ("REPO", repo)] {
        if let Some(problem) = part_problem(part) {
            return Err(format!("\"{shown}\" is not OWNER/REPO: {label} {problem}"));
        }
    }
    Ok((owner.to_string(), repo.to_string()))
}

/// What is wrong with one side of OWNER/REPO, if anything.
fn part_problem(part: &str) -> Option<String> {
    let shown = printable(part.as_bytes());
    if part.is_empty() {
        return Some("is empty".to_string());
    }
    if part == "." || part == ".." {
        return Some(format!("may not be \"{shown}\""));
    }
    if part.starts_with('-') {
        return Some(format!("\"{shown}\" may not start with '-'"));
    }
    if let Some(c) = part.chars().find(|&c| !is_repo_char(c)) {
        let c = printable(c.to_string().as_bytes());
        return Some(format!(
            "\"{shown}\" contains '{c}' (only letters, digits, '.', '_' and '-' are allowed)"
        ));
    }
    if part.len() > MAX_PART {
        return Some(format!("is longer than {MAX_PART} characters"));
    }
    None
}

fn is_repo_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// Checks that `s` is a plain git ref name (`v0.1.0`, `main`, `feature/x`,
/// `refs/tags/v1`, a commit SHA): git's own ref-name rules, plus no leading
/// `-` so that it can never be read as an option.
pub fn check_ref(s: &str) -> Result<(), String> {
    match ref_problem(s) {
        None => Ok(()),
        Some(problem) => Err(format!(
            "invalid ref \"{}\": {problem}",
            printable(s.as_bytes())
        )),
    }
}

/// What is wrong with a ref name, if anything (git check-ref-format's rules).
fn ref_problem(s: &str) -> Option<String> {
    if s.is_empty() {
        return Some("it is empty".to_string());
    }
    if s.starts_with('-') {
        return Some("it may not start with '-'".to_string());
    }
    if s.starts_with('/') {
        return Some("it may not start with '/'".to_string());
    }
    if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("it may not contain spaces or control characters".to_string());
    }
    if let Some(c) = s.chars().find(|c| "~^:?*[\\".contains(*c)) {
        return Some(format!("it may not contain '{c}'"));
    }
    for bad in ["..", "@{", "//"] {
        if s.contains(bad) {
            return Some(format!("it may not contain \"{bad}\""));
        }
    }
    if s == "@" {
        return Some("it may not be \"@\"".to_string());
    }
    for bad in ["/", ".lock", "."] {
        if s.ends_with(bad) {
            return Some(format!("it may not end with \"{bad}\""));
        }
    }
    if s.split('/').any(|part| part.starts_with('.')) {
        return Some("no part of it may start with '.'".to_string());
    }
    if s.split('/').any(|part| part.ends_with(".lock")) {
        return Some("no part of it may end with \".lock\"".to_string());
    }
    None
}

/// A full commit id: exactly 40 hex digits (either case).
pub fn is_full_sha(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_repo_accepts_plain_owner_and_repo() {
        assert_eq!(
            parse_repo("owner/roost-note"),
            Ok(("owner".to_string(), "roost-note".to_string()))
        );
        assert_eq!(
            parse_repo("Org.Name/repo_1.x"),
            Ok(("Org.Name".to_string(), "repo_1.x".to_string()))
        );
        assert!(parse_repo("example.invalid/roost-note").is_ok());
        assert!(parse_repo("o/r.git").is_ok());
        assert!(parse_repo("a-/...").is_ok());
    }

    #[test]
    fn parse_repo_refuses_everything_else() {
        for bad in [
            "../..",
            "-x/y",
            "x/-y",
            "https://host/o/r",
            "a b/c",
            "./..",
            "o/..",
            "o/.",
            "o/r/x",
            "o/r;id",
            "",
            "o/",
            "/r",
            "o",
            "/",
            "o//r",
            "git@github.com:o/r",
            "o/r\n",
            "o/$(id)",
            "o/r`x`",
            "o/r|x",
            "o/r&",
            "o/r>x",
            "~/r",
            "o/r\u{e9}",
            "o/\u{202e}r",
        ] {
            assert!(parse_repo(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn parse_repo_refuses_overlong_parts() {
        let long = "r".repeat(MAX_PART);
        assert!(parse_repo(&format!("o/{long}")).is_ok());
        let err = parse_repo(&format!("o/{long}r")).unwrap_err();
        assert!(err.ends_with("REPO is longer than 255 characters"), "{err}");
    }

    #[test]
    fn parse_repo_says_what_is_wrong_with_which_part() {
        let cases = [
            ("", "the repository is empty: give it as OWNER/REPO"),
            (
                "https://host/o/r",
                "\"https://host/o/r\" is a URL: give the repository as OWNER/REPO",
            ),
            (
                "o/r/x",
                "\"o/r/x\" is not OWNER/REPO: it must contain exactly one '/'",
            ),
            (
                "o",
                "\"o\" is not OWNER/REPO: it must contain exactly one '/'",
            ),
            ("o/", "\"o/\" is not OWNER/REPO: REPO is empty"),
            ("/r", "\"/r\" is not OWNER/REPO: OWNER is empty"),
            (
                "../..",
                "\"../..\" is not OWNER/REPO: OWNER may not be \"..\"",
            ),
            ("o/..", "\"o/..\" is not OWNER/REPO: REPO may not be \"..\""),
            (
                "-x/y",
                "\"-x/y\" is not OWNER/REPO: OWNER \"-x\" may not start with '-'",
            ),
            (
                "o/r;id",
                "\"o/r;id\" is not OWNER/REPO: REPO \"r;id\" contains ';' \
                 (only letters, digits, '.', '_' and '-' are allowed)",
            ),
            (
                "a b/c",
                "\"a b/c\" is not OWNER/REPO: OWNER \"a b\" contains ' ' \
                 (only letters, digits, '.', '_' and '-' are allowed)",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(parse_repo(input).unwrap_err(), want, "{input:?}");
        }
    }

    #[test]
    fn refusals_escape_control_characters_and_stay_one_line() {
        let err = parse_repo("o/r\x1b[2J\nx").unwrap_err();
        assert!(!err.chars().any(char::is_control), "{err:?}");
        assert!(err.contains("\\x1b[2J\\x0ax"), "{err}");
        let err = check_ref("v1\x1b]0;x\x07").unwrap_err();
        assert!(!err.chars().any(char::is_control), "{err:?}");
    }

    #[test]
    fn check_ref_accepts_plain_ref_names() {
        for ok in [
            "v0.1.0",
            "main",
            "HEAD",
            "feature/x",
            "refs/tags/v1",
            "refs/heads/release-1.x",
            "0123456789abcdef0123456789abcdef01234567",
            "caf\u{e9}",
            "a@b",
            "x.locked",
        ] {
            assert_eq!(check_ref(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn check_ref_refuses_what_git_or_an_option_parser_would_misread() {
        for bad in [
            "-x",
            "--upload-pack=evil",
            "a..b",
            "/abs",
            "a b",
            "",
            "a\tb",
            "a\nb",
            "a\x7fb",
            "a\u{85}b",
            "a~1",
            "a^",
            "a:b",
            "a?",
            "a*",
            "a[b",
            "a\\b",
            "a@{1}",
            "@",
            "a/",
            "a.lock",
            "a.",
            "a//b",
            ".hidden",
            "a/.b",
            "a.lock/b",
        ] {
            assert!(check_ref(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn check_ref_names_the_reason() {
        assert_eq!(
            check_ref("-x").unwrap_err(),
            "invalid ref \"-x\": it may not start with '-'"
        );
        assert_eq!(
            check_ref("a..b").unwrap_err(),
            "invalid ref \"a..b\": it may not contain \"..\""
        );
        assert_eq!(check_ref("").unwrap_err(), "invalid ref \"\": it is empty");
        assert_eq!(
            check_ref("a b").unwrap_err(),
            "invalid ref \"a b\": it may not contain spaces or control characters"
        );
        assert_eq!(
            check_ref("/abs").unwrap_err(),
            "invalid ref \"/abs\": it may not start with '/'"
        );
    }

    #[test]
    fn full_shas_are_exactly_40_hex_digits() {
        assert!(is_full_sha("0123456789abcdef0123456789abcdef01234567"));
        assert!(is_full_sha("0123456789ABCDEF0123456789abcdef01234567"));
        assert!(!is_full_sha("0123456789abcdef0123456789abcdef0123456"));
        assert!(!is_full_sha("0123456789abcdef0123456789abcdef012345678"));
        assert!(!is_full_sha("0123456789abcdef0123456789abcdef0123456g"));
        assert!(!is_full_sha(""));
        assert!(!is_full_sha("v0.1.0"));
    }
}
