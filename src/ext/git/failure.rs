//! A remote's failure in one line a person can act on: what happened
//! (offline or a name that does not resolve, a connection refused or timed
//! out, a repository not found or private, authentication, TLS) and what to
//! do about it. The whole chain of causes is kept for `-v`.

/// What went wrong with a remote, for people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// One line: what happened.
    pub what: String,
    /// One line: what to do, when there is something to say.
    pub hint: Option<String>,
    /// The whole chain, for `-v`.
    pub detail: String,
}

impl Failure {
    /// As command `cmd`'s error: the line, the hint, and the chain for -v.
    pub fn error(&self, cmd: &'static str) -> crate::error::Error {
        let e = crate::error::Error::fail(cmd, self.what.clone()).detail(self.detail.clone());
        match &self.hint {
            Some(hint) => e.hint(hint.clone()),
            None => e,
        }
    }
}

/// Explains `chain` (an error and its causes, as gix gave them) from talking
/// to `url`; `doing` says what roost was doing, up to the URL ("cannot
/// resolve HEAD at", "cannot fetch 1234 from").
pub fn explain(doing: &str, url: &str, chain: impl AsRef<str>) -> Failure {
    let chain = chain.as_ref();
    let host = host(url);
    let text = scrubbed(chain, url);
    let has = |needles: &[&str]| needles.iter().any(|n| mentions(&text, n));
    let (what, hint) = if has(&[
        "failed to lookup address",
        "name or service not known",
        "temporary failure in name resolution",
        "could not resolve host",
        "no address associated",
        "dns error",
    ]) {
        (
            format!("{host} could not be found (no network, or a misspelt address)"),
            "check your connection and the address, then try again".to_string(),
        )
    } else if has(&[
        "connection refused",
        "network is unreachable",
        "no route to host",
        "timed out",
        "connection reset",
    ]) {
        (
            format!("{host} could not be reached ({})", reason(&text)),
            "check your connection, a proxy or firewall, and the address, then try again"
                .to_string(),
        )
    } else if has(&[
        "certificate",
        "tls",
        "ssl",
        "handshake failure",
        "received corrupt message",
    ]) {
        (
            format!("a secure (TLS) connection to {host} failed"),
            "check the system's certificates and clock, and that the address is an https git server"
                .to_string(),
        )
    } else if has(&[
        "401",
        "403",
        "authentication",
        "permission denied",
        "credentials",
        "host key verification failed",
    ]) {
        (
            format!("{host} refused access: authentication failed"),
            "set up ssh keys or git credentials for it (roost never asks for a password); a private repository needs them"
                .to_string(),
        )
    } else if url.starts_with("file://") && has(&["no repository there"]) {
        // A local path: roost's own words already name it exactly.
        (first_cause(chain), "check the path".to_string())
    } else if has(&[
        "404",
        "not found",
        "does not exist",
        "no repository there",
        "does not appear to be a git repository",
    ]) {
        (
            "no repository there (it does not exist, or it is private)".to_string(),
            "check the repository's name; a private one needs ssh keys or git credentials"
                .to_string(),
        )
    } else if has(&["transport", "io error"]) {
        // Something else went wrong in the conversation: its innermost cause.
        (
            first_cause(chain),
            "run it again with -v (or ROOST_VERBOSE=1) for the whole error".to_string(),
        )
    } else {
        // roost's own words (a refusal, a limit): as they are.
        return Failure {
            what: format!("{doing} {url}: {chain}"),
            hint: None,
            detail: chain.to_string(),
        };
    };
    Failure {
        what: format!("{doing} {url}: {what}"),
        hint: Some(hint),
        detail: chain.to_string(),
    }
}

/// `chain` in lower case without what names the repository or a commit
/// (the URL, a local path, hex ids), so that only the words of the failure
/// itself are matched: a commit 4030000… is no HTTP 403, a directory named
/// tls no TLS failure.
fn scrubbed(chain: &str, url: &str) -> String {
    let mut text = chain.to_string();
    let path = url.strip_prefix("file://");
    for name in [Some(url), path].into_iter().flatten() {
        if !name.is_empty() {
            text = text.replace(name, " ");
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        if run.len() < 7 {
            out.push_str(&run);
        } else {
            out.push('#');
        }
        run.clear();
        out.push(c);
    }
    out.pop();
    out.to_ascii_lowercase()
}

/// Whether `text` holds `needle`; a number only as a whole number (403, not
/// 14030).
fn mentions(text: &str, needle: &str) -> bool {
    if !needle.bytes().all(|b| b.is_ascii_digit()) {
        return text.contains(needle);
    }
    text.match_indices(needle).any(|(at, _)| {
        let before = text[..at].bytes().next_back();
        let after = text[at + needle.len()..].bytes().next();
        !before.is_some_and(|b| b.is_ascii_alphanumeric())
            && !after.is_some_and(|b| b.is_ascii_alphanumeric())
    })
}

fn reason(text: &str) -> &'static str {
    if text.contains("connection refused") {
        "connection refused"
    } else if text.contains("timed out") {
        "timed out"
    } else if text.contains("reset") {
        "connection reset"
    } else {
        "no route"
    }
}

/// The innermost cause gix named (its last, most specific part).
fn first_cause(chain: &str) -> String {
    chain
        .rsplit(": ")
        .find(|p| !p.trim().is_empty())
        .unwrap_or(chain)
        .trim()
        .to_string()
}

/// The host of a URL (`github.com`), or the path of a local one.
fn host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    if url.starts_with("file://") {
        return rest.to_string();
    }
    let authority = rest.split('/').next().unwrap_or(rest);
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    authority.to_string()
}

#[cfg(test)]
mod tests {
    use super::explain;

    /// Chains as gix and its transports gave them here.
    const REFUSED: &str = "Transport handshake failed: An IO error occurred when talking to the server: error sending request for url (https://127.0.0.1:1/o/r/info/refs?service=git-upload-pack): client error (Connect): tcp connect error: Connection refused (os error 111)";
    const SSH_REFUSED: &str = "Transport handshake failed: An IO error occurred when talking to the server: ssh: connect to host 127.0.0.1 port 1: Connection refused";
    const DNS: &str = "Transport handshake failed: An IO error occurred when talking to the server: error sending request for url (https://nonexistent.invalid/o/r/info/refs?service=git-upload-pack): client error (Connect): dns error: error resolving DNS: failed to lookup address information: Name or service not known";
    const TLS: &str = "Transport handshake failed: An IO error occurred when talking to the server: error sending request for url (https://127.0.0.1:8766/o/r/info/refs?service=git-upload-pack): client error (Connect): invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))";
    const NOT_FOUND: &str = "Transport handshake failed: An IO error occurred when talking to the server: Received HTTP status 404";
    const MISSING: &str = "no repository there (/nonexistent/o/r does not exist)";
    const DENIED: &str = "Transport handshake failed: An IO error occurred when talking to the server: git@github.com: Permission denied (publickey).";

    #[test]
    fn each_kind_is_one_line_naming_the_host_and_what_to_do() {
        let cases = [
            (
                "https://127.0.0.1:1/o/r",
                REFUSED,
                "127.0.0.1:1 could not be reached (connection refused)",
            ),
            (
                "ssh://127.0.0.1:1/o/r",
                SSH_REFUSED,
                "127.0.0.1:1 could not be reached (connection refused)",
            ),
            (
                "https://nonexistent.invalid/o/r",
                DNS,
                "nonexistent.invalid could not be found",
            ),
            (
                "https://127.0.0.1:8766/o/r",
                TLS,
                "a secure (TLS) connection to 127.0.0.1:8766 failed",
            ),
            (
                "https://github.com/o/r",
                NOT_FOUND,
                "no repository there (it does not exist, or it is private)",
            ),
            (
                "file:///nonexistent/o/r",
                MISSING,
                "no repository there (/nonexistent/o/r does not exist)",
            ),
            (
                "ssh://git@github.com/o/r",
                DENIED,
                "github.com refused access: authentication failed",
            ),
        ];
        for (url, chain, want) in cases {
            let f = explain("cannot resolve HEAD at", url, chain);
            assert!(
                f.what
                    .starts_with(&format!("cannot resolve HEAD at {url}: {want}")),
                "{url}: {}",
                f.what
            );
            assert!(!f.what.contains('\n') && f.hint.is_some());
            assert!(f.what.len() < 160, "{}", f.what);
        }
    }

    /// A commit id, a path or a URL that happens to hold a status code or a
    /// word of some kind of failure does not make the failure that kind.
    #[test]
    fn names_and_ids_in_the_chain_are_not_read_as_the_failure() {
        let sha = "4030000000000000000000000000000000000000";
        let own = format!("the repository has no commit {sha}");
        let f = explain(&format!("cannot fetch {sha} from"), "file:///srv/o/r", &own);
        assert_eq!(
            f.what,
            format!("cannot fetch {sha} from file:///srv/o/r: {own}")
        );
        assert_eq!(f.hint, None);
        let own = format!("the repository hung up when asked for commit {sha}");
        let f = explain(&format!("cannot fetch {sha} from"), "file:///srv/o/r", &own);
        assert_eq!(f.hint, None, "the caller says what the hang-up means");
        let url = "file:///home/tls-401/o/r";
        let chain = "no repository there (/home/tls-401/o/r does not exist)";
        let f = explain("cannot resolve HEAD at", url, chain);
        assert_eq!(f.what, format!("cannot resolve HEAD at {url}: {chain}"));
        assert_eq!(f.hint.as_deref(), Some("check the path"));
        let url = "https://h/404/r";
        let f = explain("cannot resolve HEAD at", url, "Received HTTP status 403");
        assert!(
            f.what.ends_with("h refused access: authentication failed"),
            "{}",
            f.what
        );
        let f = explain("cannot resolve HEAD at", url, "Received HTTP status 14030");
        assert!(!f.what.contains("refused access"), "{}", f.what);
    }

    #[test]
    fn anything_else_keeps_its_innermost_cause_and_points_to_verbose() {
        let f = explain(
            "cannot fetch at",
            "https://h/o/r",
            "Transport: something odd: the pack ended early",
        );
        assert_eq!(
            f.what,
            "cannot fetch at https://h/o/r: the pack ended early"
        );
        assert!(f.hint.unwrap().contains("-v"));
        let own = "commit 1234 is not reachable from any branch or tag: refusing";
        let f = explain("cannot resolve 1234 at", "https://h/o/r", own);
        assert_eq!(
            f.what,
            format!("cannot resolve 1234 at https://h/o/r: {own}")
        );
        assert_eq!(f.hint, None);
    }
}
