//! Who signed the commit an extension is pinned to, read from the commit
//! object roost already holds (its `gpgsig` header) with nothing run: no
//! gpg, no ssh-keygen, nothing of the user's git configuration. A
//! signature says which key made that commit object; it says nothing of
//! who wrote the lines in it or what the code does. `armor` reads the
//! armour, `sshsig` checks an SSH signature against the key it carries,
//! `openpgp` reads the issuer of an OpenPGP one (not checked: the key is
//! not in the commit), `x509` the identity a certificate claims; `change`
//! compares the signer with the one recorded at the last pin.

mod armor;
pub mod change;
mod openpgp;
mod reader;
mod sshsig;
mod x509;

/// The most bytes a `gpgsig` header may hold to be read (real ones are
/// under 4 KiB; an X.509 one with its chain under 16 KiB).
pub const MAX_SIGNATURE_BYTES: usize = 64 << 10;

/// The most characters of a claimed identity that are kept.
const MAX_CLAIMED: usize = 200;

/// GitHub's web-flow OpenPGP keys (the current one, and the one before
/// it), as the issuer of the signatures on commits made on github.com.
const WEB_FLOW_KEYS: &[&str] = &["B5690EEEBB952194", "4AEE18F83AFDEB23"];

/// What signed a commit object, as far as can be said without a keyring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signer {
    Unsigned,
    /// An SSH signature that verifies against the key it carries.
    Ssh {
        fingerprint: String,
    },
    /// An SSH signature that does not verify (or cannot be read): why.
    SshFails {
        fingerprint: Option<String>,
        why: String,
    },
    /// An OpenPGP signature: its issuer, in hex; not checked.
    OpenPgp {
        issuer: String,
    },
    /// GitHub's own web-flow OpenPGP signature on a commit GitHub made.
    GitHubWebFlow {
        issuer: String,
    },
    /// An X.509 signature: the identity its certificate claims.
    X509 {
        claimed: String,
    },
    /// A signature header roost cannot read: why.
    Unreadable {
        why: String,
    },
}

impl Signer {
    /// The signer as one word of printable ASCII: what ext.lock and a set
    /// file record, and what `--accept-signer` names.
    pub fn id(&self) -> String {
        match self {
            Signer::Unsigned => "unsigned".into(),
            Signer::Ssh { fingerprint } => format!("ssh:{fingerprint}"),
            Signer::SshFails {
                fingerprint: Some(f),
                ..
            } => format!("ssh-not-verifying:{f}"),
            Signer::SshFails { .. } => "ssh-not-verifying".into(),
            Signer::OpenPgp { issuer } => format!("openpgp:{issuer}"),
            Signer::GitHubWebFlow { issuer } => format!("github-web-flow:{issuer}"),
            Signer::X509 { claimed } => format!("x509:{claimed}"),
            Signer::Unreadable { .. } => "unreadable-signature".into(),
        }
    }

    /// What it is, in words for the consent block (one line).
    pub fn describe(&self) -> String {
        match self {
            Signer::Unsigned => "unsigned (the commit carries no signature)".into(),
            Signer::Ssh { fingerprint } => {
                format!("SSH key {fingerprint}: the signature verifies against the key it carries")
            }
            Signer::SshFails { fingerprint, why } => format!(
                "an SSH signature that does NOT verify ({why}){}",
                fingerprint
                    .as_ref()
                    .map(|f| format!("; the key it carries is {f}"))
                    .unwrap_or_default()
            ),
            Signer::OpenPgp { issuer } => {
                format!("OpenPGP key {issuer}, not checked: the key is not in the commit")
            }
            Signer::GitHubWebFlow { issuer } => format!(
                "GitHub's web-flow key {issuer}, not checked: GitHub made this commit \
                 object on github.com; it does not say who wrote the code"
            ),
            Signer::X509 { claimed } => format!(
                "an X.509 certificate that claims to be {claimed} (as claimed, not checked)"
            ),
            Signer::Unreadable { why } => format!("a signature roost cannot read ({why})"),
        }
    }

    /// Whether there is a signature at all.
    pub fn is_signed(&self) -> bool {
        *self != Signer::Unsigned
    }
}

/// The signer of the raw commit object `commit`.
pub fn of_commit(commit: &[u8]) -> Signer {
    let Some(split) = split(commit) else {
        return Signer::Unsigned;
    };
    let Split {
        signature,
        payload,
        committer,
    } = split;
    if signature.len() > MAX_SIGNATURE_BYTES {
        return Signer::Unreadable {
            why: format!("longer than {MAX_SIGNATURE_BYTES} bytes"),
        };
    }
    let Ok(text) = std::str::from_utf8(&signature) else {
        return Signer::Unreadable {
            why: "not text".into(),
        };
    };
    let unknown = || Signer::Unreadable {
        why: "not an SSH, OpenPGP or X.509 signature".into(),
    };
    let Some((kind, body)) = armor::body(text) else {
        return unknown();
    };
    match kind {
        armor::Kind::Ssh => {
            let checked = sshsig::check(&body, &payload);
            match (checked.fails, checked.fingerprint) {
                (None, Some(fingerprint)) => Signer::Ssh { fingerprint },
                (why, fingerprint) => Signer::SshFails {
                    fingerprint,
                    why: why.unwrap_or_default(),
                },
            }
        }
        armor::Kind::OpenPgp => match openpgp::issuer(&body) {
            Some(issuer) if web_flow(committer, &issuer) => Signer::GitHubWebFlow { issuer },
            Some(issuer) => Signer::OpenPgp { issuer },
            None => Signer::Unreadable {
                why: "an OpenPGP signature whose issuer cannot be read".into(),
            },
        },
        armor::Kind::X509 => match x509::claimed(&body) {
            Some(claimed) => Signer::X509 {
                claimed: word(&claimed),
            },
            None => Signer::Unreadable {
                why: "an X.509 signature whose certificate names no one roost can read".into(),
            },
        },
    }
}

/// Made by GitHub on github.com: its committer and its key.
fn web_flow(committer: Option<&[u8]>, issuer: &str) -> bool {
    let github = committer.is_some_and(|c| c.starts_with(b"GitHub <noreply@github.com> "));
    github && WEB_FLOW_KEYS.iter().any(|k| issuer.ends_with(k))
}

/// A claimed identity as one word of printable ASCII: anything else
/// becomes '?', and it is cut at `MAX_CLAIMED` characters.
fn word(text: &str) -> String {
    text.chars()
        .take(MAX_CLAIMED)
        .map(|c| if c.is_ascii_graphic() { c } else { '?' })
        .collect()
}

/// A signed commit object taken apart.
struct Split<'a> {
    /// The `gpgsig` header's value, its continuation lines joined.
    signature: Vec<u8>,
    /// The object without its signature headers: what was signed.
    payload: Vec<u8>,
    /// The committer header's value.
    committer: Option<&'a [u8]>,
}

/// The commit's signature and what it was made over; `None` when it has
/// no `gpgsig` header. Headers end at the first empty line; a header's
/// continuation lines start with a space. Every `gpgsig` header (the
/// SHA-256 one too) is left out of the payload, as git signs it.
fn split(commit: &[u8]) -> Option<Split<'_>> {
    let mut payload = Vec::with_capacity(commit.len());
    let mut signature: Option<Vec<u8>> = None;
    let mut committer = None;
    let mut in_signature = None::<bool>;
    let mut rest = commit;
    while !rest.is_empty() {
        let end = rest
            .iter()
            .position(|b| *b == b'\n')
            .map_or(rest.len(), |i| i + 1);
        let (line, tail) = rest.split_at(end);
        if line == b"\n" {
            payload.extend_from_slice(rest);
            break;
        }
        rest = tail;
        if let (Some(ours), Some(cont)) = (in_signature, line.strip_prefix(b" ")) {
            if ours {
                let sig = signature.get_or_insert_with(Vec::new);
                sig.extend_from_slice(cont);
            }
            continue;
        }
        in_signature = None;
        if let Some(value) = line.strip_prefix(b"gpgsig ") {
            if signature.is_none() {
                signature = Some(value.to_vec());
                in_signature = Some(true);
            } else {
                in_signature = Some(false);
            }
            continue;
        }
        if line.starts_with(b"gpgsig-") {
            in_signature = Some(false);
            continue;
        }
        if let Some(value) = line.strip_prefix(b"committer ") {
            committer = Some(value);
        }
        payload.extend_from_slice(line);
    }
    Some(Split {
        signature: signature?,
        payload,
        committer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_without_gpgsig_is_unsigned_and_others_are_named_by_kind() {
        let plain = b"tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor a <a@b> 1 +0000\ncommitter a <a@b> 1 +0000\n\nmsg\n";
        assert_eq!(of_commit(plain), Signer::Unsigned);
        assert_eq!(of_commit(b""), Signer::Unsigned);
        let odd = b"tree 4b82\ngpgsig hello\n world\n\nmsg\n";
        assert_eq!(
            of_commit(odd),
            Signer::Unreadable {
                why: "not an SSH, OpenPGP or X.509 signature".into()
            }
        );
        let mut huge = b"tree 4b82\ngpgsig x".to_vec();
        huge.extend(std::iter::repeat_n(b'a', MAX_SIGNATURE_BYTES));
        huge.extend_from_slice(b"\n\nmsg\n");
        assert!(matches!(of_commit(&huge), Signer::Unreadable { .. }));
    }

    #[test]
    fn the_payload_is_the_object_without_its_signature_headers() {
        let object = b"tree t\nparent p\nauthor a\ncommitter c 1 +0000\ngpgsig -----BEGIN X-----\n \n abc\n -----END X-----\ngpgsig-sha256 other\n more\n\nmsg\n gpgsig in the message\n";
        let s = split(object).unwrap();
        assert_eq!(
            s.payload,
            b"tree t\nparent p\nauthor a\ncommitter c 1 +0000\n\nmsg\n gpgsig in the message\n"
        );
        assert_eq!(s.signature, b"-----BEGIN X-----\n\nabc\n-----END X-----\n");
        assert_eq!(s.committer, Some(&b"c 1 +0000\n"[..]));
    }

    #[test]
    fn ids_are_one_printable_word() {
        assert_eq!(word("J\u{e9}r\u{f4}me <j@x>\x1b[31m"), "J?r?me?<j@x>?[31m");
        assert_eq!(word(&"x".repeat(500)).len(), MAX_CLAIMED);
        let web = Signer::GitHubWebFlow {
            issuer: "B5690EEEBB952194".into(),
        };
        assert_eq!(web.id(), "github-web-flow:B5690EEEBB952194");
        assert!(web_flow(
            Some(b"GitHub <noreply@github.com> 1700000000 +0100\n"),
            "968479A1AFF927E37D1A566BB5690EEEBB952194"
        ));
        assert!(!web_flow(
            Some(b"Mallory <m@x> 1 +0000\n"),
            "B5690EEEBB952194"
        ));
    }
}
