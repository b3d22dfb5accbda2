//! What the user types into `roost ext install`: the source (OWNER/REPO or
//! a git URL) and `--ref`, checked before anything touches the network;
//! and the same checks on what ext.lock records. Pure; every refusal is one
//! line that names the input (escaped) and what is wrong with it.

use super::error::ExtError;
use crate::untrusted::printable;

/// Longest OWNER or REPO accepted: a path component (NAME_MAX) when the
/// base is a `file://` directory, and far beyond any forge's limit. The
/// same bound holds for each segment of a URL's path.
const MAX_PART: usize = 255;

/// Longest URL accepted as a source.
const MAX_URL: usize = 2048;

/// Segments a URL's path may have.
const MAX_SEGMENTS: usize = 32;

/// What `roost ext install SOURCE` names, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// How ext.lock, the consent block and `list` name it: OWNER/REPO, or
    /// HOST/PATH for a URL that is not GitHub's (`.git` and any user left
    /// out).
    pub repo: String,
    /// The URL to fetch from. `None`: OWNER/REPO, fetched from
    /// `${ROOST_EXT_GIT_BASE:-https://github.com/}` + OWNER/REPO.
    pub url: Option<String>,
}

/// SOURCE as given to `roost ext install`:
///
/// - `OWNER/REPO` (see `parse_repo`);
/// - `https://github.com/OWNER/REPO`, with or without `.git` or a trailing
///   `/`: the same as OWNER/REPO (so ROOST_EXT_GIT_BASE, when set, stands in
///   for GitHub as it does for OWNER/REPO);
/// - any other `https://HOST[:PORT]/PATH` or `ssh://[USER@]HOST[:PORT]/PATH`,
///   and the scp-like `[USER@]HOST:PATH` ssh form, fetched from where it
///   says.
///
/// A URL is plain ASCII: no spaces or control characters, no credentials
/// (`user@` in https, `user:password@` anywhere), no query or fragment, no
/// percent-escapes, no `.`, `..` or empty path segments, and no host, user
/// or path segment that starts with `-` (which ssh or git could read as an
/// option). Each path segment is letters, digits, `.`, `_` and `-`.
/// `file://` is not a SOURCE: local repositories are reached through
/// ROOST_EXT_GIT_BASE.
pub fn parse_source(s: &str) -> Result<Source, ExtError> {
    if let Some((scheme, rest)) = s.split_once("://") {
        let url = parse_url(s, scheme, rest)?;
        if let Some((owner, repo)) = url.github() {
            let repo = format!("{owner}/{repo}");
            parse_repo(&repo).map_err(|e| e.within(format!("\"{}\"", printable(s.as_bytes()))))?;
            return Ok(Source { repo, url: None });
        }
        if url.scheme == "https" && url.host.eq_ignore_ascii_case("github.com") {
            return Err(ExtError::refused(format!(
                "\"{}\": a GitHub repository is https://github.com/OWNER/REPO (nothing after REPO)",
                printable(s.as_bytes())
            )));
        }
        return Ok(Source {
            repo: url.display(),
            url: Some(url.to_string()),
        });
    }
    if is_scp_like(s) {
        let url = parse_scp(s)?;
        return Ok(Source {
            repo: url.display(),
            url: Some(url.to_string()),
        });
    }
    if s.contains('@') && !s.contains('/') {
        return Err(ExtError::refused(format!(
            "\"{}\" is neither OWNER/REPO nor a URL (the ssh form is USER@HOST:PATH)",
            printable(s.as_bytes())
        )));
    }
    let (owner, repo) = parse_repo(s)?;
    Ok(Source {
        repo: format!("{owner}/{repo}"),
        url: None,
    })
}

/// `[USER@]HOST:PATH`: a colon before any `/` (OWNER/REPO has none).
fn is_scp_like(s: &str) -> bool {
    s.split_once(':')
        .is_some_and(|(before, _)| !before.contains('/'))
}

/// A checked https or ssh URL, in parts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Url {
    scheme: &'static str,
    user: Option<String>,
    host: String,
    port: Option<u16>,
    /// The path's segments (never empty).
    segments: Vec<String>,
    /// The scp-like form: a path relative to the login directory unless
    /// `absolute`.
    scp: bool,
    absolute: bool,
}

impl Url {
    /// OWNER and REPO (without `.git`) of `https://github.com/OWNER/REPO`.
    fn github(&self) -> Option<(String, String)> {
        if self.scheme != "https" || !self.host.eq_ignore_ascii_case("github.com") {
            return None;
        }
        if self.port.is_some() || self.segments.len() != 2 {
            return None;
        }
        let repo = &self.segments[1];
        let repo = repo.strip_suffix(".git").unwrap_or(repo);
        Some((self.segments[0].clone(), repo.to_string()))
    }

    /// HOST[:PORT]/PATH, the last segment without `.git`: how people name
    /// the repository.
    fn display(&self) -> String {
        let mut segments = self.segments.clone();
        if let Some(last) = segments.last_mut() {
            if let Some(bare) = last.strip_suffix(".git").filter(|b| !b.is_empty()) {
                *last = bare.to_string();
            }
        }
        let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
        format!(
            "{}{port}/{}",
            self.host.to_ascii_lowercase(),
            segments.join("/")
        )
    }
}

impl std::fmt::Display for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let user = self
            .user
            .as_ref()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        let path = self.segments.join("/");
        if self.scp {
            let slash = if self.absolute { "/" } else { "" };
            return write!(f, "{user}{}:{slash}{path}", self.host);
        }
        let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
        write!(f, "{}://{user}{}{port}/{path}", self.scheme, self.host)
    }
}

/// `SCHEME://AUTHORITY/PATH`, checked.
fn parse_url(s: &str, scheme: &str, rest: &str) -> Result<Url, ExtError> {
    let shown = printable(s.as_bytes());
    let bad = |why: ExtError| why.within(format!("\"{shown}\""));
    let scheme = match scheme.to_ascii_lowercase().as_str() {
        "https" => "https",
        "ssh" => "ssh",
        "file" => {
            return Err(bad(ExtError::refused(
                "a file:// URL is not a source; to install from a local bare repository, set \
                 ROOST_EXT_GIT_BASE=file:///DIR/ and give OWNER/REPO (or link a checkout with --link DIR)"
                    .to_string(),
            )))
        }
        _ => {
            return Err(bad(ExtError::refused(format!(
                "the {}:// scheme is not accepted: give OWNER/REPO, or an https:// or ssh:// URL",
                printable(scheme.as_bytes())
            ))))
        }
    };
    url_chars(s).map_err(bad)?;
    let Some((authority, path)) = rest.split_once('/') else {
        return Err(bad(ExtError::refused(
            "it names no repository (no path after the host)".to_string(),
        )));
    };
    let (user, host_port) = match authority.rsplit_once('@') {
        None => (None, authority),
        Some(_) if scheme == "https" => {
            return Err(bad(ExtError::refused(
                "credentials in an https URL (user@ or user:password@) are not accepted: \
                 roost never sends credentials; give the URL without them"
                    .to_string(),
            )))
        }
        Some((user, host_port)) => (Some(check_user(user).map_err(bad)?), host_port),
    };
    let (host, port) = match host_port.split_once(':') {
        None => (host_port, None),
        Some((host, port)) => (host, Some(check_port(port).map_err(bad)?)),
    };
    check_host(host).map_err(bad)?;
    Ok(Url {
        scheme,
        user,
        host: host.to_string(),
        port,
        segments: check_path(path).map_err(bad)?,
        scp: false,
        absolute: true,
    })
}

/// `[USER@]HOST:PATH`, checked.
fn parse_scp(s: &str) -> Result<Url, ExtError> {
    let shown = printable(s.as_bytes());
    let bad = |why: ExtError| why.within(format!("\"{shown}\""));
    url_chars(s).map_err(bad)?;
    let (login, path) = s.split_once(':').expect("scp-like: it has a colon");
    let (user, host) = match login.rsplit_once('@') {
        None => (None, login),
        Some((user, host)) => (Some(check_user(user).map_err(bad)?), host),
    };
    check_host(host).map_err(bad)?;
    let absolute = path.starts_with('/');
    Ok(Url {
        scheme: "ssh",
        user,
        host: host.to_string(),
        port: None,
        segments: check_path(path.strip_prefix('/').unwrap_or(path)).map_err(bad)?,
        scp: true,
        absolute,
    })
}

/// What no URL may hold, whatever its part: named by the first character
/// that is not allowed.
fn url_chars(s: &str) -> Result<(), ExtError> {
    if s.len() > MAX_URL {
        return Err(ExtError::refused(format!(
            "a URL may be at most {MAX_URL} characters long"
        )));
    }
    match s.chars().find(|&c| !is_repo_char(c) && !"/:@".contains(c)) {
        None => Ok(()),
        Some(c @ ('?' | '#')) => Err(ExtError::refused(format!(
            "a URL with a query or fragment ('{c}') does not name a repository; leave it out"
        ))),
        Some('%') => Err(ExtError::refused(
            "percent-escapes ('%') are not accepted; write the URL plainly",
        )),
        Some(c) if c.is_whitespace() || c.is_control() => Err(ExtError::refused(
            "a URL may not contain spaces or control characters",
        )),
        Some(c) => Err(ExtError::refused(format!(
            "a URL may not contain '{}' (only letters, digits, '.', '_', '-', '/', ':' and '@')",
            printable(c.to_string().as_bytes())
        ))),
    }
}

/// An ssh login name: a plain word; never a password, never an option.
fn check_user(user: &str) -> Result<String, ExtError> {
    if user.contains(':') {
        return Err(ExtError::refused(
            "a password in a URL (user:password@) is not accepted: roost never sends credentials",
        ));
    }
    if user.is_empty() || user.contains('@') {
        return Err(ExtError::refused(
            "the user before '@' must be one plain name",
        ));
    }
    if user.starts_with('-') {
        return Err(ExtError::refused("the user may not start with '-'"));
    }
    Ok(user.to_string())
}

fn check_port(port: &str) -> Result<u16, ExtError> {
    match port.parse::<u16>() {
        Ok(n) if n > 0 && port.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ExtError::refused(format!(
            "the port '{}' is not a number from 1 to 65535",
            printable(port.as_bytes())
        ))),
    }
}

/// A host name or IPv4 address: dot-separated labels of letters, digits
/// and '-', none empty, none starting with '-'.
fn check_host(host: &str) -> Result<(), ExtError> {
    if host.is_empty() {
        return Err(ExtError::refused("the host is empty"));
    }
    if host.starts_with('-') {
        return Err(ExtError::refused("the host may not start with '-'"));
    }
    if let Some(c) = host
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
    {
        return Err(ExtError::refused(format!(
            "the host may not contain '{}'",
            printable(c.to_string().as_bytes())
        )));
    }
    if host
        .split('.')
        .any(|label| label.is_empty() || label.starts_with('-'))
        || host.len() > 253
    {
        return Err(ExtError::refused(format!(
            "'{}' is not a host name",
            printable(host.as_bytes())
        )));
    }
    Ok(())
}

/// A URL's path without its leading '/': one or more segments, a trailing
/// '/' allowed and dropped.
fn check_path(path: &str) -> Result<Vec<String>, ExtError> {
    let path = path.strip_suffix('/').unwrap_or(path);
    if path.is_empty() {
        return Err(ExtError::refused(
            "it names no repository (the path is empty)",
        ));
    }
    let segments: Vec<&str> = path.split('/').collect();
    if segments.len() > MAX_SEGMENTS {
        return Err(ExtError::refused(format!(
            "the path has more than {MAX_SEGMENTS} segments"
        )));
    }
    for segment in &segments {
        if segment.is_empty() {
            return Err(ExtError::refused("the path has an empty segment ('//')"));
        }
        if let Some(problem) = part_problem(segment) {
            return Err(ExtError::refused(format!("a path segment {problem}")));
        }
    }
    Ok(segments.iter().map(|s| s.to_string()).collect())
}

/// ext.lock's `repo`, which only names the source: OWNER/REPO, or the
/// HOST[:PORT]/PATH a URL install records.
pub fn check_recorded_repo(repo: &str) -> Result<(), ExtError> {
    if parse_repo(repo).is_ok() {
        return Ok(());
    }
    let shown = printable(repo.as_bytes());
    let not = || ExtError::refused(format!("\"{shown}\" is neither OWNER/REPO nor HOST/PATH"));
    let (host_port, path) = repo.split_once('/').ok_or_else(not)?;
    let host = match host_port.split_once(':') {
        Some((host, port)) => {
            check_port(port).map_err(|_| not())?;
            host
        }
        None => host_port,
    };
    check_host(host).map_err(|_| not())?;
    check_path(path).map_err(|_| not())?;
    Ok(())
}

/// ext.lock's `url`, the source fetched from: an https or ssh URL that
/// would pass as a SOURCE, or a `file://` URL (what a file:// base gives),
/// which may hold no control characters.
pub fn check_recorded_url(url: &str) -> Result<(), ExtError> {
    let shown = printable(url.as_bytes());
    if let Some(path) = url.strip_prefix("file://") {
        if !path.starts_with('/') || url.chars().any(char::is_control) {
            return Err(ExtError::refused(format!(
                "\"{shown}\" is not a file:// URL roost would have written"
            )));
        }
        return Ok(());
    }
    match url.split_once("://") {
        Some((scheme, rest)) => parse_url(url, scheme, rest).map(|_| ()),
        None if is_scp_like(url) => parse_scp(url).map(|_| ()),
        None => Err(ExtError::refused(format!("\"{shown}\" is not a URL"))),
    }
}

/// `OWNER/REPO` split into its two parts, or why it is not one.
///
/// Each part is `[A-Za-z0-9._-]+`, does not start with `-`, and is not `.`
/// or `..`; exactly one `/`. That leaves no room for a URL, a path that
/// climbs out, an option to git, or anything a shell would interpret.
pub fn parse_repo(s: &str) -> Result<(String, String), ExtError> {
    if s.is_empty() {
        return Err(ExtError::refused(
            "the repository is empty: give it as OWNER/REPO",
        ));
    }
    let shown = printable(s.as_bytes());
    if s.contains("://") || s.starts_with("git@") {
        return Err(ExtError::refused(format!(
            "\"{shown}\" is a URL: give the repository as OWNER/REPO"
        )));
    }
    let parts: Vec<&str> = s.split('/').collect();
    let [owner, repo] = parts[..] else {
        return Err(ExtError::refused(format!(
            "\"{shown}\" is not OWNER/REPO: it must contain exactly one '/'"
        )));
    };
    for (label, part) in [("OWNER", owner), ("REPO", repo)] {
        if let Some(problem) = part_problem(part) {
            return Err(ExtError::refused(format!(
                "\"{shown}\" is not OWNER/REPO: {label} {problem}"
            )));
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
pub fn check_ref(s: &str) -> Result<(), ExtError> {
    match ref_problem(s) {
        None => Ok(()),
        Some(problem) => Err(ExtError::refused(format!(
            "invalid ref \"{}\": {problem}",
            printable(s.as_bytes())
        ))),
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
        let err = parse_repo(&format!("o/{long}r")).unwrap_err().to_string();
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
        let err = parse_repo("o/r\x1b[2J\nx").unwrap_err().to_string();
        assert!(!err.chars().any(char::is_control), "{err:?}");
        assert!(err.contains("\\x1b[2J\\x0ax"), "{err}");
        let err = check_ref("v1\x1b]0;x\x07").unwrap_err().to_string();
        assert!(!err.chars().any(char::is_control), "{err:?}");
    }

    fn source(repo: &str, url: Option<&str>) -> Source {
        Source {
            repo: repo.to_string(),
            url: url.map(String::from),
        }
    }

    #[test]
    fn a_github_url_is_owner_repo() {
        for s in [
            "o/r",
            "https://github.com/o/r",
            "https://github.com/o/r/",
            "https://github.com/o/r.git",
            "https://github.com/o/r.git/",
            "HTTPS://GitHub.com/o/r",
        ] {
            assert_eq!(parse_source(s), Ok(source("o/r", None)), "{s}");
        }
        // OWNER/REPO as typed keeps its `.git`; only the URL form drops it.
        assert_eq!(parse_source("o/r.git"), Ok(source("o/r.git", None)));
    }

    #[test]
    fn other_https_and_ssh_urls_are_fetched_from_where_they_say() {
        let cases = [
            (
                "https://gitlab.example/group/sub/roost-note.git",
                "gitlab.example/group/sub/roost-note",
                "https://gitlab.example/group/sub/roost-note.git",
            ),
            (
                "https://git.example:8443/o/r/",
                "git.example:8443/o/r",
                "https://git.example:8443/o/r",
            ),
            (
                "ssh://git@github.com/o/r.git",
                "github.com/o/r",
                "ssh://git@github.com/o/r.git",
            ),
            (
                "ssh://host.example:2222/srv/git/r",
                "host.example:2222/srv/git/r",
                "ssh://host.example:2222/srv/git/r",
            ),
            (
                "git@github.com:o/r.git",
                "github.com/o/r",
                "git@github.com:o/r.git",
            ),
            (
                "host.example:/srv/r/",
                "host.example/srv/r",
                "host.example:/srv/r",
            ),
            ("10.0.0.7:o/r", "10.0.0.7/o/r", "10.0.0.7:o/r"),
        ];
        for (input, repo, url) in cases {
            assert_eq!(parse_source(input), Ok(source(repo, Some(url))), "{input}");
            assert_eq!(check_recorded_url(url), Ok(()), "{url}");
            assert_eq!(check_recorded_repo(repo), Ok(()), "{repo}");
        }
    }

    #[test]
    fn a_url_is_refused_for_anything_odd_in_it_naming_what() {
        let cases = [
            ("https://user:pw@host/o/r", "credentials in an https URL"),
            ("https://token@host/o/r", "credentials in an https URL"),
            ("ssh://user:pw@host/o/r", "a password in a URL"),
            ("https://host/o/r?x=1", "query or fragment ('?')"),
            ("https://host/o/r#main", "query or fragment ('#')"),
            ("https://host/o/r%2e", "percent-escapes"),
            ("https://host/o/r x", "spaces or control characters"),
            ("https://host/o/\x1b[2J", "spaces or control characters"),
            ("https://host/o/r\u{e9}", "may not contain '\u{e9}'"),
            ("https://host/o/../r", "a path segment may not be \"..\""),
            ("https://host/o/./r", "a path segment may not be \".\""),
            ("https://host//o/r", "an empty segment"),
            ("https://host/", "the path is empty"),
            ("https://host", "no path after the host"),
            ("https://-host/o/r", "the host may not start with '-'"),
            ("ssh://-oProxyCommand=x/o/r", "may not contain '='"),
            (
                "ssh://-oProxyCommand/o/r",
                "the host may not start with '-'",
            ),
            ("ssh://-u@host/o/r", "the user may not start with '-'"),
            (
                "ssh://host/-o/r",
                "a path segment \"-o\" may not start with '-'",
            ),
            ("-oProxyCommand:o/r", "the host may not start with '-'"),
            ("host:-x/r", "a path segment \"-x\" may not start with '-'"),
            ("host:", "the path is empty"),
            ("https://host:0/o/r", "the port '0'"),
            ("https://host:99999/o/r", "the port '99999'"),
            ("https://a..b/o/r", "is not a host name"),
            ("https://[::1]/o/r", "may not contain '['"),
            ("file:///srv/git/o/r", "ROOST_EXT_GIT_BASE=file:///DIR/"),
            ("http://host/o/r", "the http:// scheme is not accepted"),
            ("git://host/o/r", "the git:// scheme is not accepted"),
            (
                "ext::sh -c x://y",
                "the ext::sh -c x:// scheme is not accepted",
            ),
            (
                "https://github.com/o/r/tree/main",
                "https://github.com/OWNER/REPO",
            ),
            ("https://github.com/o", "https://github.com/OWNER/REPO"),
            ("https://github.com/o/.git", "REPO is empty"),
            ("git@github.com", "neither OWNER/REPO nor a URL"),
        ];
        for (input, want) in cases {
            let err = parse_source(input).unwrap_err().to_string();
            let shown = printable(input.as_bytes());
            assert!(err.starts_with(&format!("\"{shown}\"")), "{input}: {err}");
            assert!(err.contains(want), "{input}: {err}");
            assert!(!err.chars().any(char::is_control), "{err:?}");
        }
        let long = format!("https://host/{}", "a/".repeat(MAX_URL));
        assert!(parse_source(&long)
            .unwrap_err()
            .message()
            .contains("at most 2048 characters"));
    }

    #[test]
    fn what_ext_lock_records_is_checked_as_strictly() {
        assert_eq!(check_recorded_url("file:///tmp/remote/o/r"), Ok(()));
        assert_eq!(check_recorded_repo("o/r"), Ok(()));
        for bad in [
            "--upload-pack=x",
            "file://relative",
            "file:///a\nb",
            "ssh://-oProxyCommand/x",
            "http://host/o/r",
            "o/r",
        ] {
            assert!(check_recorded_url(bad).is_err(), "{bad}");
        }
        for bad in [
            "../../etc",
            "-o/r",
            "https://example.invalid/o/r",
            "host/a/../b",
            "",
        ] {
            assert!(check_recorded_repo(bad).is_err(), "{bad}");
        }
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
