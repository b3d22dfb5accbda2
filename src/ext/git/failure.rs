//! A remote's failure in one line a person can act on: what happened (the
//! host could not be reached, TLS, authentication, no repository there, the
//! server's own error) and what to do about it, said for each kind of
//! `GitError` (matched by its variant: the kind was read from typed errors
//! where it was made). The whole chain of causes is kept for `-v`.

use super::cause::{GitError, Trouble};
use crate::ext::error::ExtError;

/// Explains `e` from talking to `url`; `doing` says what roost was doing,
/// up to the URL ("cannot resolve HEAD at", "cannot fetch 1234 from").
pub fn explain(doing: &str, url: &str, e: &GitError) -> ExtError {
    let (trouble, chain) = match e {
        // roost's own words: as they are, with nothing to add.
        GitError::Refused(text) => {
            return ExtError::refused(format!("{doing} {url}: {text}")).detail(text.clone())
        }
        GitError::Failed(text) => {
            return ExtError::failed(format!("{doing} {url}: {text}")).detail(text.clone())
        }
        GitError::Remote { trouble, chain } => (trouble, chain),
    };
    let host = host(url);
    let (what, hint) = match trouble {
        Trouble::Unreachable(why) => (
            format!("{host} could not be reached ({why})"),
            "check your connection, a proxy or firewall, and the address, then try again",
        ),
        Trouble::Tls => (
            format!("a secure (TLS) connection to {host} failed"),
            "check the system's certificates and clock, and that the address is an https git server",
        ),
        Trouble::Auth => (
            format!("{host} refused access: authentication failed"),
            "set up ssh keys or git credentials for it (roost never asks for a password); a private repository needs them",
        ),
        // A local path: roost's words name it exactly.
        Trouble::NoRepository(Some(path)) => (
            format!("no repository there ({path} does not exist)"),
            "check the path",
        ),
        Trouble::NoRepository(None) => (
            "no repository there (it does not exist, or it is private)".to_string(),
            "check the repository's name; a private one needs ssh keys or git credentials",
        ),
        Trouble::ServerSaid(said) => (
            format!("the server said: {said}"),
            "run it again with -v (or ROOST_VERBOSE=1) for the whole error",
        ),
        Trouble::HungUp => (
            "the remote hung up".to_string(),
            "run it again with -v (or ROOST_VERBOSE=1) for the whole error",
        ),
        // A bound met: refused, in the bound's words.
        Trouble::TooLarge => {
            return ExtError::refused(format!(
                "{doing} {url}: an object in the pack is larger than {}, the limit for one object",
                super::limits::size(2 * super::limits::MAX_FILE_BYTES)
            ))
            .detail(chain.clone())
        }
        Trouble::Other(innermost) => (
            innermost.clone(),
            "run it again with -v (or ROOST_VERBOSE=1) for the whole error",
        ),
    };
    ExtError::failed(format!("{doing} {url}: {what}"))
        .hint(hint)
        .detail(chain.clone())
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
    use crate::error::Kind;
    use crate::ext::git::cause::{GitError, Trouble};

    fn remote(trouble: Trouble) -> GitError {
        GitError::Remote {
            trouble,
            chain: "the whole chain".into(),
        }
    }

    #[test]
    fn each_kind_is_one_line_naming_the_host_and_what_to_do() {
        let cases = [
            (
                "https://127.0.0.1:1/o/r",
                Trouble::Unreachable("connection refused".into()),
                "127.0.0.1:1 could not be reached (connection refused)",
            ),
            (
                "ssh://git@127.0.0.1:1/o/r",
                Trouble::Unreachable("ssh: connect to host 127.0.0.1 port 1".into()),
                "127.0.0.1:1 could not be reached (ssh: connect to host 127.0.0.1 port 1)",
            ),
            (
                "https://127.0.0.1:8766/o/r",
                Trouble::Tls,
                "a secure (TLS) connection to 127.0.0.1:8766 failed",
            ),
            (
                "https://github.com/o/r",
                Trouble::NoRepository(None),
                "no repository there (it does not exist, or it is private)",
            ),
            (
                "file:///nonexistent/o/r",
                Trouble::NoRepository(Some("/nonexistent/o/r".into())),
                "no repository there (/nonexistent/o/r does not exist)",
            ),
            (
                "ssh://git@github.com/o/r",
                Trouble::Auth,
                "github.com refused access: authentication failed",
            ),
            (
                "https://h/o/r",
                Trouble::Other("the pack ended early".into()),
                "the pack ended early",
            ),
        ];
        for (url, trouble, want) in cases {
            let e = explain("cannot resolve HEAD at", url, &remote(trouble));
            assert_eq!(
                e.message(),
                format!("cannot resolve HEAD at {url}: {want}"),
                "{url}"
            );
            assert_eq!(e.kind(), Kind::Failed);
            let top = e.at("ext install").to_string();
            assert_eq!(top.lines().count(), 2, "{top}");
        }
    }

    /// roost's own words are shown as they are, refused or failed, with no
    /// hint but the caller's.
    #[test]
    fn roost_s_own_words_are_kept_with_their_kind() {
        let own = "commit 1234 is on no branch or tag of this repository; refusing";
        let e = explain(
            "cannot resolve 1234 at",
            "https://h/o/r",
            &GitError::refused(own),
        );
        assert_eq!(
            e.message(),
            format!("cannot resolve 1234 at https://h/o/r: {own}")
        );
        assert_eq!(e.kind(), Kind::Refused);
        assert_eq!(e.at("x").to_string().lines().count(), 1);
        let e = explain(
            "cannot fetch at",
            "file:///srv/o/r",
            &GitError::new("no HEAD"),
        );
        assert_eq!(e.kind(), Kind::Failed);
    }
}
