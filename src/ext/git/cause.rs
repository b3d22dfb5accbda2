//! The git layer's error, made where the operation failed: a check that
//! said no, a step that broke (both in words), or a conversation with a
//! remote that went wrong, classified then from the transport's typed
//! errors (an I/O error's kind, an HTTP status, a TLS error, a line the
//! server sent as an error) while they are still in hand, never from the
//! words of a message (`chain` makes the words, for `-v`).
//! `failure::explain` says each kind to a person.

use gix::protocol::transport::packetline;
use std::error::Error;
use std::fmt;
use std::io::ErrorKind;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitError {
    /// A check said no (a bound met, a commit the repository does not
    /// publish, objects it should not have sent), in roost's own words.
    Refused(String),
    /// A step failed, or the repository lacks what was asked for: roost's
    /// words, or a local operation's error and its causes on one line.
    Failed(String),
    /// Talking to the remote went wrong in the way `trouble` says; `chain`
    /// is the whole error, for `-v`.
    Remote { trouble: Trouble, chain: String },
}

/// How a conversation with a remote went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trouble {
    /// The host could not be reached: why, in a few words (the connection's
    /// own, or the line ssh printed, which is what names the host).
    Unreachable(String),
    /// The secure (TLS) connection failed.
    Tls,
    /// The remote wants credentials, or refused the ones it got.
    Auth,
    /// No repository there: at this path on this machine (file://), or
    /// a server's "not found" (`None`).
    NoRepository(Option<String>),
    /// The server answered with an error line of its own: what it said.
    ServerSaid(String),
    /// The remote hung up while roost was still talking.
    HungUp,
    /// An object in the pack needed more memory than one object may have.
    TooLarge,
    /// Anything else: the innermost cause.
    Other(String),
}

pub type Result<T> = std::result::Result<T, GitError>;

impl GitError {
    /// A step that failed, in roost's own words.
    pub fn new(text: impl Into<String>) -> GitError {
        GitError::Failed(text.into())
    }

    /// A check that said no, in roost's own words.
    pub fn refused(text: impl Into<String>) -> GitError {
        GitError::Refused(text.into())
    }

    /// The whole error on one line.
    pub fn as_str(&self) -> &str {
        match self {
            GitError::Refused(text) | GitError::Failed(text) => text,
            GitError::Remote { chain, .. } => chain,
        }
    }
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::error::Error for GitError {}

/// roost's own words: a step that failed.
impl From<String> for GitError {
    fn from(text: String) -> GitError {
        GitError::Failed(text)
    }
}

impl From<&str> for GitError {
    fn from(text: &str) -> GitError {
        GitError::Failed(text.to_string())
    }
}

/// Tests compare an error with the words they expect.
impl PartialEq<String> for GitError {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for GitError {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// As the domain's error: refused or failed as it was, a remote's trouble
/// a failure (`failure::explain` says it better, knowing the URL).
impl From<GitError> for crate::ext::error::ExtError {
    fn from(e: GitError) -> crate::ext::error::ExtError {
        use crate::ext::error::ExtError;
        match e {
            GitError::Refused(text) => ExtError::refused(text),
            GitError::Failed(text) => ExtError::failed(text),
            GitError::Remote { chain, .. } => ExtError::failed(chain),
        }
    }
}

/// How many errors of a tree are looked at, at most.
const MAX_CAUSES: usize = 64;

/// Every error in `e`'s tree: an I/O error's payload (which its `source`
/// skips) and gix's nested errors included.
fn causes<'a>(e: &'a (dyn Error + 'static)) -> Vec<&'a (dyn Error + 'static)> {
    let mut found = Vec::new();
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        if found.len() == MAX_CAUSES {
            break;
        }
        found.push(e);
        if let Some(g) = e.downcast_ref::<gix::Error>() {
            todo.extend(g.iter_errors());
        } else if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if let Some(inner) = io.get_ref() {
                todo.push(inner);
            }
        } else if let Some(s) = e.source() {
            todo.push(s);
        }
    }
    found
}

/// The most specific cause: down the one line of causes to its end.
fn innermost(e: &(dyn Error + 'static)) -> String {
    let mut at = e;
    for _ in 0..MAX_CAUSES {
        let next = if let Some(g) = at.downcast_ref::<gix::Error>() {
            Some(g.probable_cause()).filter(|c| !std::ptr::addr_eq(*c, at))
        } else if let Some(io) = at.downcast_ref::<std::io::Error>() {
            io.get_ref().map(|inner| inner as &(dyn Error + 'static))
        } else {
            at.source()
        };
        match next {
            Some(n) => at = n,
            None => break,
        }
    }
    at.to_string().trim().to_string()
}

impl Trouble {
    /// What the typed errors in `e`'s tree say went wrong, the most telling
    /// first: a line the server sent as an error, TLS, an HTTP status, an
    /// I/O error's kind, then what the HTTP client knows of its request.
    pub fn of(e: &(dyn Error + 'static)) -> Trouble {
        let all = causes(e);
        let find =
            |f: &dyn Fn(&(dyn Error + 'static)) -> Option<Trouble>| all.iter().find_map(|c| f(*c));
        find(&|c| {
            c.downcast_ref::<packetline::read::Error>()
                .map(|said| Trouble::ServerSaid(crate::untrusted::printable(&said.message)))
        })
        .or_else(|| find(&|c| c.downcast_ref::<rustls::Error>().map(|_| Trouble::Tls)))
        .or_else(|| find(&|c| c.downcast_ref::<reqwest::Error>().and_then(by_status)))
        .or_else(|| find(&|c| c.downcast_ref::<std::io::Error>().and_then(by_kind)))
        .or_else(|| find(&|c| c.downcast_ref::<reqwest::Error>().and_then(by_request)))
        .or_else(|| {
            gix::error::classify(e)
                .is_resource_exhausted()
                .then_some(Trouble::TooLarge)
        })
        .unwrap_or_else(|| Trouble::Other(innermost(e)))
    }
}

fn by_status(e: &reqwest::Error) -> Option<Trouble> {
    match e.status()?.as_u16() {
        401 | 403 => Some(Trouble::Auth),
        404 => Some(Trouble::NoRepository(None)),
        _ => None,
    }
}

/// The HTTP client's own account: a request that timed out, or a
/// connection never made (a name that does not resolve ends here: the
/// resolver's error carries no kind).
fn by_request(e: &reqwest::Error) -> Option<Trouble> {
    if e.is_timeout() {
        Some(Trouble::Unreachable("timed out".into()))
    } else if e.is_connect() {
        Some(Trouble::Unreachable(innermost(e)))
    } else {
        None
    }
}

/// An I/O error's kind. One the system made names itself in a few words;
/// one made from a line ssh printed (gix gives such a line a kind: refused
/// for a name that does not resolve, not found for a host it cannot
/// connect to) is said in ssh's own words.
fn by_kind(e: &std::io::Error) -> Option<Trouble> {
    let said = |words: &str| match e.raw_os_error() {
        Some(_) => words.to_string(),
        None => e.to_string(),
    };
    Some(match e.kind() {
        ErrorKind::PermissionDenied => Trouble::Auth,
        ErrorKind::ConnectionRefused => Trouble::Unreachable(said("connection refused")),
        ErrorKind::TimedOut => Trouble::Unreachable(said("timed out")),
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted => {
            Trouble::Unreachable(said("connection reset"))
        }
        ErrorKind::NetworkUnreachable | ErrorKind::HostUnreachable => {
            Trouble::Unreachable(said("no route"))
        }
        ErrorKind::NotFound if e.raw_os_error().is_none() && e.get_ref().is_some() => {
            Trouble::Unreachable(e.to_string())
        }
        ErrorKind::BrokenPipe => Trouble::HungUp,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(e: impl Error + 'static) -> Trouble {
        Trouble::of(&e)
    }

    #[test]
    fn the_kind_is_read_from_the_io_error_not_its_words() {
        let refused = std::io::Error::from_raw_os_error(libc::ECONNREFUSED);
        assert_eq!(
            of(refused),
            Trouble::Unreachable("connection refused".into())
        );
        // The words say refused; the kind says nothing of the kind.
        let words = std::io::Error::other("Connection refused, 403, certificate");
        assert_eq!(
            of(words),
            Trouble::Other("Connection refused, 403, certificate".into())
        );
        let ssh = "ssh: connect to host 127.0.0.1 port 1: Connection refused";
        let line = std::io::Error::new(ErrorKind::NotFound, ssh);
        assert_eq!(of(line), Trouble::Unreachable(ssh.into()));
        let denied = std::io::Error::new(ErrorKind::PermissionDenied, "x: Permission denied");
        assert_eq!(of(denied), Trouble::Auth);
        let pipe = std::io::Error::from_raw_os_error(libc::EPIPE);
        assert_eq!(of(pipe), Trouble::HungUp);
    }

    #[test]
    fn a_cause_inside_an_io_error_is_found() {
        let err = packetline::read::Error {
            message: "upload-pack: not our ref 1234".into(),
        };
        let wrapped = std::io::Error::other(err);
        assert_eq!(
            of(wrapped),
            Trouble::ServerSaid("upload-pack: not our ref 1234".into())
        );
        let tls = std::io::Error::new(ErrorKind::InvalidData, rustls::Error::General("bad".into()));
        assert_eq!(of(tls), Trouble::Tls);
    }
}
