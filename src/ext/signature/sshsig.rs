//! An SSH signature (OpenSSH's SSHSIG format) checked in process against
//! the public key it carries, over the commit object without its signature
//! header, in the "git" namespace: ring (already in the build for TLS)
//! does the arithmetic for Ed25519, ECDSA P-256/P-384 and RSA keys. Who
//! holds the key is not something a signature can say; its SHA256
//! fingerprint is what is recorded.

use super::armor;
use super::reader::Reader;
use ring::digest;
use ring::signature::{self as sig, UnparsedPublicKey};

/// What an SSH signature came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// `SHA256:` and the base64 of the key blob's digest, as ssh-keygen -l
    /// prints it; `None` when no key could be read out of it.
    pub fingerprint: Option<String>,
    /// `None` when the signature verifies against that key; else why not.
    pub fails: Option<String>,
}

/// The namespace git signs commits in.
const NAMESPACE: &[u8] = b"git";

/// Checks the armoured SSHSIG `body` over `message`.
pub fn check(body: &[&str], message: &[u8]) -> Checked {
    let Some(blob) = armor::decode(body) else {
        return failed(None, "its armour is not base64");
    };
    let mut r = Reader::new(&blob);
    if r.take(6) != Some(b"SSHSIG") || r.u32() != Some(1) {
        return failed(None, "it is not an SSHSIG signature of version 1");
    }
    let Some(key) = r.string() else {
        return failed(None, "it ends before its public key");
    };
    let fingerprint = Some(format!(
        "SHA256:{}",
        armor::encode(digest::digest(&digest::SHA256, key).as_ref())
    ));
    let fields = (|| Some((r.string()?, r.string()?, r.string()?, r.string()?)))();
    let Some((namespace, reserved, hash, signature)) = fields else {
        return failed(fingerprint, "it ends before its signature");
    };
    if namespace != NAMESPACE {
        return failed(fingerprint, "it was made for another namespace than git's");
    }
    let algorithm = match hash {
        b"sha256" => &digest::SHA256,
        b"sha512" => &digest::SHA512,
        _ => return failed(fingerprint, "it names a hash other than sha256 or sha512"),
    };
    let mut signed = b"SSHSIG".to_vec();
    for field in [
        namespace,
        reserved,
        hash,
        digest::digest(algorithm, message).as_ref(),
    ] {
        signed.extend_from_slice(&(field.len() as u32).to_be_bytes());
        signed.extend_from_slice(field);
    }
    match verify(key, signature, &signed) {
        None => Checked {
            fingerprint,
            fails: None,
        },
        Some(why) => failed(fingerprint, why.why()),
    }
}

fn failed(fingerprint: Option<String>, why: &str) -> Checked {
    Checked {
        fingerprint,
        fails: Some(why.to_string()),
    }
}

/// Why a signature blob did not verify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fails {
    Unreadable,
    Bad,
    Mismatch,
    Unsupported,
}

impl Fails {
    fn why(self) -> &'static str {
        match self {
            Fails::Unreadable => "its key or signature cannot be read",
            Fails::Bad => "the signature does not verify against the key it carries",
            Fails::Mismatch => "its signature is of another kind than its key",
            Fails::Unsupported => {
                "its kind of key is not one roost can check (Ed25519, ECDSA or RSA)"
            }
        }
    }
}

/// `signature` (an SSH signature blob) over `signed` by `key` (an SSH
/// public key blob): `None` when it verifies, else why not.
fn verify(key: &[u8], signature: &[u8], signed: &[u8]) -> Option<Fails> {
    match verdict(key, signature, signed) {
        Some(true) => None,
        Some(false) => Some(Fails::Bad),
        None if kinds(key, signature).is_some_and(|(k, s)| !matches(k, s)) => Some(Fails::Mismatch),
        None if kinds(key, signature).is_some_and(|(k, _)| !known(k)) => Some(Fails::Unsupported),
        None => Some(Fails::Unreadable),
    }
}

/// The key's and the signature's kinds.
fn kinds<'a>(key: &'a [u8], signature: &'a [u8]) -> Option<(&'a [u8], &'a [u8])> {
    Some((Reader::new(key).string()?, Reader::new(signature).string()?))
}

fn known(key_type: &[u8]) -> bool {
    matches!(
        key_type,
        b"ssh-ed25519" | b"ssh-rsa" | b"ecdsa-sha2-nistp256" | b"ecdsa-sha2-nistp384"
    )
}

/// Whether a signature of kind `sig_type` can come from a key of `key_type`.
fn matches(key_type: &[u8], sig_type: &[u8]) -> bool {
    match key_type {
        b"ssh-rsa" => matches!(sig_type, b"rsa-sha2-256" | b"rsa-sha2-512"),
        _ => key_type == sig_type || !known(key_type),
    }
}

/// Whether the signature verifies; `None` when the key or the signature
/// cannot be read or are of kinds that do not go together.
fn verdict(key: &[u8], signature: &[u8], signed: &[u8]) -> Option<bool> {
    let mut k = Reader::new(key);
    let mut s = Reader::new(signature);
    let key_type = k.string()?;
    let sig_type = s.string()?;
    let sig_bytes = s.string()?;
    if !known(key_type) || !matches(key_type, sig_type) {
        return None;
    }
    let verified = match key_type {
        b"ssh-ed25519" => {
            let point = k.string()?;
            UnparsedPublicKey::new(&sig::ED25519, point).verify(signed, sig_bytes)
        }
        b"ssh-rsa" => {
            let e = k.string()?;
            let n = k.string()?;
            let params = match sig_type {
                b"rsa-sha2-256" => &sig::RSA_PKCS1_2048_8192_SHA256,
                _ => &sig::RSA_PKCS1_2048_8192_SHA512,
            };
            sig::RsaPublicKeyComponents {
                n: unsigned(n),
                e: unsigned(e),
            }
            .verify(params, signed, sig_bytes)
        }
        _ => {
            let (params, width): (&sig::EcdsaVerificationAlgorithm, usize) = match key_type {
                b"ecdsa-sha2-nistp256" => (&sig::ECDSA_P256_SHA256_FIXED, 32),
                _ => (&sig::ECDSA_P384_SHA384_FIXED, 48),
            };
            k.string()?;
            let point = k.string()?;
            let mut rs = Reader::new(sig_bytes);
            let mut fixed = Vec::with_capacity(2 * width);
            for _ in 0..2 {
                let n = unsigned(rs.string()?);
                if n.len() > width {
                    return Some(false);
                }
                fixed.extend(std::iter::repeat_n(0, width - n.len()));
                fixed.extend_from_slice(n);
            }
            UnparsedPublicKey::new(params, point).verify(signed, &fixed)
        }
    };
    Some(verified.is_ok())
}

/// An SSH `mpint` without the leading zero that keeps it positive.
fn unsigned(mut n: &[u8]) -> &[u8] {
    while let [0, rest @ ..] = n {
        n = rest;
    }
    n
}

/// SSHSIG blobs made here with ring's own Ed25519 signer, framed by hand
/// as the format says: one that verifies, and every way one is broken.
#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{Ed25519KeyPair, KeyPair};

    fn string(out: &mut Vec<u8>, field: &[u8]) {
        out.extend_from_slice(&(field.len() as u32).to_be_bytes());
        out.extend_from_slice(field);
    }

    /// The armoured body of a signature over `message` in `namespace`.
    fn sign(message: &[u8], namespace: &[u8]) -> (String, Vec<u8>) {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng).unwrap();
        let pair = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap();
        let mut key = Vec::new();
        string(&mut key, b"ssh-ed25519");
        string(&mut key, pair.public_key().as_ref());
        let mut signed = b"SSHSIG".to_vec();
        string(&mut signed, namespace);
        string(&mut signed, b"");
        string(&mut signed, b"sha512");
        string(
            &mut signed,
            digest::digest(&digest::SHA512, message).as_ref(),
        );
        let mut sig = Vec::new();
        string(&mut sig, b"ssh-ed25519");
        string(&mut sig, pair.sign(&signed).as_ref());
        let mut blob = b"SSHSIG".to_vec();
        blob.extend_from_slice(&1u32.to_be_bytes());
        string(&mut blob, &key);
        string(&mut blob, namespace);
        string(&mut blob, b"");
        string(&mut blob, b"sha512");
        string(&mut blob, &sig);
        (armor::encode(&blob), key)
    }

    #[test]
    fn a_signature_verifies_over_its_message_alone_and_in_git_s_namespace() {
        let (body, key) = sign(b"the commit", b"git");
        let checked = check(&[&body], b"the commit");
        assert_eq!(checked.fails, None);
        let want = armor::encode(digest::digest(&digest::SHA256, &key).as_ref());
        assert_eq!(checked.fingerprint, Some(format!("SHA256:{want}")));
        let other = check(&[&body], b"the commit!");
        assert_eq!(
            other.fails.as_deref(),
            Some("the signature does not verify against the key it carries")
        );
        assert_eq!(other.fingerprint, checked.fingerprint);
        let (file, _) = sign(b"the commit", b"file");
        assert_eq!(
            check(&[&file], b"the commit").fails.as_deref(),
            Some("it was made for another namespace than git's")
        );
    }

    #[test]
    fn a_blob_cut_anywhere_does_not_verify_and_does_not_panic() {
        let (body, _) = sign(b"m", b"git");
        let blob = armor::decode(&[&body]).unwrap();
        for n in 0..blob.len() {
            let cut = armor::encode(&blob[..n]);
            assert!(check(&[&cut], b"m").fails.is_some(), "{n}");
        }
        assert!(check(&["not base64!"], b"m").fails.is_some());
    }
}
