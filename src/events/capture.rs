//! A handler's output as the run log keeps it: the first and last
//! `KEEP` bytes and a count of what was cut between them; and the masking
//! of values that must never be kept (settings' secrets).

/// How much of the start and of the end of a handler's output is kept.
pub const KEEP: usize = 4 << 10;

/// Output read as it comes, bounded whatever its length.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Capture {
    pub head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    /// Bytes neither in the head nor in the tail.
    pub cut: u64,
}

impl Capture {
    pub fn push(&mut self, mut bytes: &[u8]) {
        let room = KEEP - self.head.len();
        if room > 0 {
            let n = room.min(bytes.len());
            self.head.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
        }
        for &b in bytes {
            if self.tail.len() == KEEP {
                self.tail.pop_front();
                self.cut += 1;
            }
            self.tail.push_back(b);
        }
    }

    pub fn tail(&self) -> Vec<u8> {
        self.tail.iter().copied().collect()
    }

    /// The head and the tail with each of `secrets` masked (each part on
    /// its own: a secret cut in two where a part ends keeps its other
    /// half, which is why a whole secret never reaches the log but a
    /// piece of one at a cut may).
    pub fn masked(mut self, secrets: &[&[u8]]) -> Capture {
        if secrets.is_empty() {
            return self;
        }
        self.head = mask(&self.head, secrets);
        self.tail = mask(&self.tail(), secrets).into();
        self
    }
}

/// `bytes` with every occurrence of each of `secrets` (empty ones aside)
/// replaced by `***`.
pub fn mask(bytes: &[u8], secrets: &[&[u8]]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        let mut masked = Vec::with_capacity(out.len());
        let mut i = 0;
        while i < out.len() {
            if out[i..].starts_with(secret) {
                masked.extend_from_slice(b"***");
                i += secret.len();
            } else {
                masked.push(out[i]);
                i += 1;
            }
        }
        out = masked;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_and_the_tail_are_kept_and_the_rest_counted() {
        let mut c = Capture::default();
        c.push(b"short");
        assert_eq!(
            (c.head.as_slice(), c.tail(), c.cut),
            (&b"short"[..], vec![], 0)
        );
        let mut c = Capture::default();
        let all: Vec<u8> = (0..3 * KEEP).map(|i| (i % 251) as u8).collect();
        for piece in all.chunks(1000) {
            c.push(piece);
        }
        assert_eq!(c.head, all[..KEEP]);
        assert_eq!(c.tail(), all[2 * KEEP..]);
        assert_eq!(c.cut, KEEP as u64);
    }

    #[test]
    fn secrets_are_masked() {
        assert_eq!(mask(b"tok=abc abcabc", &[b"abc", b""]), b"tok=*** ******");
        assert_eq!(mask(b"nothing", &[]), b"nothing");
    }
}
