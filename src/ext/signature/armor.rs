//! The ASCII armour a commit's signature is written in: its kind, read
//! from the first line, and its base64 body decoded (standard alphabet,
//! padding optional, line breaks skipped). Written by hand: it is a few
//! lines, and no base64 crate is otherwise needed.

/// What the first line of a `gpgsig` header says the signature is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Ssh,
    OpenPgp,
    X509,
}

/// The kind of signature `text` begins with, and its armoured body (the
/// lines between the BEGIN and END lines); `None` for anything else.
pub fn body(text: &str) -> Option<(Kind, Vec<&str>)> {
    let mut lines = text.lines();
    let first = lines.next()?.trim_end();
    let (kind, end) = match first {
        "-----BEGIN SSH SIGNATURE-----" => (Kind::Ssh, "-----END SSH SIGNATURE-----"),
        "-----BEGIN PGP SIGNATURE-----" => (Kind::OpenPgp, "-----END PGP SIGNATURE-----"),
        "-----BEGIN SIGNED MESSAGE-----" => (Kind::X509, "-----END SIGNED MESSAGE-----"),
        _ => return None,
    };
    let mut inner = Vec::new();
    for line in lines {
        let line = line.trim_end();
        if line == end {
            return Some((kind, inner));
        }
        inner.push(line);
    }
    None
}

/// The bytes `lines` of base64 decode to; `None` when a character is not
/// base64 or the padding is wrong.
pub fn decode(lines: &[&str]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    let mut padding = 0usize;
    for c in lines.iter().flat_map(|l| l.bytes()) {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padding += 1;
                continue;
            }
            _ => return None,
        };
        if padding > 0 {
            return None;
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    (padding <= 2).then_some(out)
}

/// `bytes` in base64 without padding, as SSH writes a key's fingerprint.
pub fn encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_length() {
        for n in 0..10u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(decode(&[&encode(&bytes)]).unwrap(), bytes);
        }
        assert_eq!(encode(b"any carnal pleas"), "YW55IGNhcm5hbCBwbGVhcw");
        assert_eq!(
            decode(&["YW55", "IGNhcm5hbCBwbGVhcw=="]).unwrap(),
            b"any carnal pleas"
        );
        assert_eq!(decode(&["YW5*"]), None);
    }
}
