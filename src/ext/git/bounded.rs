//! The pack as it arrives from the server, read through its bounds: its
//! size, what it will cost to unpack, the watchdog, and the progress line.

use super::limits::{size, MAX_PACK_BYTES};
use super::unpack::Tally;

/// The pack as it arrives, refused once it passes `MAX_PACK_BYTES`: a
/// server cannot fill the disk or the memory however much it sends. What
/// it will cost to unpack is counted as it passes, and it is refused once
/// that passes `MAX_UNPACKED_BYTES`.
pub struct Bounded<'a> {
    inner: &'a mut dyn std::io::BufRead,
    read: u64,
    tally: Tally,
    /// Bytes at the start of the inner buffer already counted: each byte is
    /// counted when first seen, before it is handed on, so what passes the
    /// bound never reaches gix.
    counted: usize,
    refused: Option<String>,
}

impl<'a> Bounded<'a> {
    pub fn new(inner: &'a mut dyn std::io::BufRead) -> Bounded<'a> {
        Bounded {
            inner,
            read: 0,
            tally: Default::default(),
            counted: 0,
            refused: None,
        }
    }

    /// Why the pack was refused, if it was: the whole refusal, without
    /// the layers of gix's error around it.
    pub fn refusal(&self) -> Option<String> {
        if self.read > MAX_PACK_BYTES {
            return Some(self.over().to_string());
        }
        self.refused.clone()
    }

    fn over(&self) -> std::io::Error {
        std::io::Error::other(format!(
            "the server sent more than {} of pack, the limit for one extension",
            size(MAX_PACK_BYTES)
        ))
    }
}

impl std::io::Read for Bounded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = std::io::BufRead::fill_buf(self)?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.inner.fill_buf()?[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl std::io::BufRead for Bounded<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.read > MAX_PACK_BYTES {
            return Err(self.over());
        }
        super::watchdog::check()?;
        if let Some(why) = &self.refused {
            return Err(std::io::Error::other(why.clone()));
        }
        let buf = self.inner.fill_buf()?;
        if buf.len() > self.counted {
            if let Err(why) = self.tally.feed(&buf[self.counted..]) {
                self.refused = Some(why.to_string());
                return Err(std::io::Error::other(why));
            }
            self.counted = buf.len();
        }
        Ok(buf)
    }

    fn consume(&mut self, n: usize) {
        self.counted = self.counted.saturating_sub(n);
        self.read += n as u64;
        if n > 0 {
            super::watchdog::progressed();
        }
        super::progress::bytes(self.read);
        self.inner.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ext::git::limits::MAX_UNPACKED_BYTES;
    use std::io::Read;

    #[test]
    fn a_pack_past_the_limit_is_an_error_not_a_buffer() {
        // A pack of one blob declared just under the unpacked bound, whose
        // zlib data is stored blocks of 'x' that never end.
        struct Endless(Vec<u8>, usize);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.1 == 0 {
                    let declared = MAX_UNPACKED_BYTES - 1;
                    let mut head = b"PACK\0\0\0\x02\0\0\0\x01".to_vec();
                    head.push(0x80 | (3 << 4) | (declared & 0x0F) as u8);
                    let mut rest = declared >> 4;
                    while rest > 0 {
                        head.push((rest & 0x7F) as u8 | if rest > 0x7F { 0x80 } else { 0 });
                        rest >>= 7;
                    }
                    head.extend([0x78, 0x01]);
                    self.1 = 1;
                    buf[..head.len()].copy_from_slice(&head);
                    return Ok(head.len());
                }
                let n = buf.len().min(self.0.len() - (self.1 - 1));
                buf[..n].copy_from_slice(&self.0[self.1 - 1..][..n]);
                self.1 = (self.1 - 1 + n) % self.0.len() + 1;
                Ok(n)
            }
        }
        let block = [&[0x00, 0xFF, 0xFF, 0x00, 0x00][..], &[b'x'; 0xFFFF]].concat();
        let mut endless = std::io::BufReader::with_capacity(1 << 20, Endless(block, 0));
        let mut bounded = Bounded::new(&mut endless);
        let mut sink = [0u8; 1 << 16];
        let mut total = 0u64;
        let err = loop {
            match bounded.read(&mut sink) {
                Ok(n) => total += n as u64,
                Err(e) => break e,
            }
        };
        assert!(total > MAX_PACK_BYTES && total <= MAX_PACK_BYTES + (1 << 20));
        assert!(
            err.to_string().contains("more than 320.0 MiB of pack"),
            "{err}"
        );
    }
}
