//! What a pack will cost to unpack, read from the pack as it arrives: the
//! objects its header announces, refused past `limits::MAX_PACK_OBJECTS`,
//! and each entry's header, and for a delta the size its result declares,
//! summed and refused past `limits::MAX_UNPACKED_BYTES` before gix
//! resolves any of it.
//!
//! Why this bound: gix inflates every entry as the pack arrives, then
//! resolves every delta (allocating and hashing its whole result) before
//! roost can look at what the pack holds. A few hundred bytes of delta can
//! declare "the previous object, plus one byte", so a 90 KB pack can chain
//! 64 MiB objects, each under the one-object limit, into any amount of work.
//! The work is linear in the sizes summed here: an entry's inflated size (its
//! header says it, and gix refuses an entry that inflates to another) and a
//! delta's result. A pinned commit's own objects are its files (256 MiB at
//! most), its trees and itself, so four times that leaves room for a server
//! that sends the history too. Counting the headers in the pack's own order
//! needs no object and holds one entry's inflate state at a time.

use super::cause::GitError;
use super::limits::{size, MAX_PACK_OBJECTS, MAX_UNPACKED_BYTES};

/// Where the count is in the pack.
enum At {
    /// The 12-byte pack header: "PACK", version, entry count.
    Header,
    /// An entry's type-and-size header, `shift` bits of size read so far.
    Entry { kind: u8, size: u64, shift: u32 },
    /// An offset delta's base offset (a varint).
    BaseOffset { size: u64 },
    /// A reference delta's base id (20 bytes left of it).
    BaseId { size: u64, left: usize },
    /// An entry's zlib data, `size` bytes once inflated.
    Data { delta: bool, size: u64 },
    /// The checksum after the last entry, and nothing else counts.
    Trailer,
}

/// The running count over one pack.
pub struct Tally {
    at: At,
    /// The pack header while it arrives.
    header: Vec<u8>,
    /// Entries not yet finished.
    left: u32,
    /// Bytes the entries and delta results come to so far.
    unpacked: u64,
    inflate: gix::zlib::Decompress,
    /// Where an entry inflates to; only a delta's first bytes are kept.
    scratch: Vec<u8>,
    /// A delta's first inflated bytes: its base size and result size.
    delta_head: Vec<u8>,
    /// Whether the delta's result size was counted.
    counted: bool,
}

/// A delta header is two varints of at most 10 bytes each.
const DELTA_HEAD: usize = 20;

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            at: At::Header,
            header: Vec::with_capacity(12),
            left: 0,
            unpacked: 0,
            inflate: gix::zlib::Decompress::new(),
            scratch: vec![0; 64 << 10],
            delta_head: Vec::with_capacity(DELTA_HEAD),
            counted: false,
        }
    }
}

fn malformed(what: &str) -> GitError {
    GitError::new(format!("the pack is malformed ({what})"))
}

impl Tally {
    /// Counts the next `bytes` of the pack; an error once the count passes
    /// its bound or the pack cannot be read.
    pub fn feed(&mut self, mut bytes: &[u8]) -> Result<(), GitError> {
        loop {
            let data_pending = matches!(self.at, At::Data { .. });
            if bytes.is_empty() && !data_pending {
                return Ok(());
            }
            match self.at {
                At::Header => {
                    let n = (12 - self.header.len()).min(bytes.len());
                    self.header.extend_from_slice(&bytes[..n]);
                    bytes = &bytes[n..];
                    if self.header.len() == 12 {
                        let version = u32::from_be_bytes(self.header[4..8].try_into().unwrap());
                        if &self.header[..4] != b"PACK" || !(2..=3).contains(&version) {
                            return Err(malformed("no pack header"));
                        }
                        self.left = u32::from_be_bytes(self.header[8..12].try_into().unwrap());
                        if self.left > MAX_PACK_OBJECTS {
                            return Err(GitError::new(format!(
                                "the pack holds {} objects; the limit for one extension is {MAX_PACK_OBJECTS}",
                                self.left
                            )));
                        }
                        self.at = self.next_entry();
                    }
                }
                At::Entry {
                    ref mut kind,
                    ref mut size,
                    ref mut shift,
                } => {
                    let b = bytes[0];
                    bytes = &bytes[1..];
                    if *shift == 0 {
                        *kind = (b >> 4) & 7;
                        *size = u64::from(b & 0x0F);
                        *shift = 4;
                    } else if *shift > 57 {
                        return Err(malformed("an entry's size does not end"));
                    } else {
                        *size |= u64::from(b & 0x7F) << *shift;
                        *shift += 7;
                    }
                    if b & 0x80 == 0 {
                        let (kind, size) = (*kind, *size);
                        self.charge(size)?;
                        self.at = match kind {
                            1..=4 => At::Data { delta: false, size },
                            6 => At::BaseOffset { size },
                            7 => At::BaseId { size, left: 20 },
                            _ => return Err(malformed("an entry of unknown type")),
                        };
                        self.inflate.reset();
                        self.delta_head.clear();
                        self.counted = false;
                    }
                }
                At::BaseOffset { size } => {
                    let b = bytes[0];
                    bytes = &bytes[1..];
                    if b & 0x80 == 0 {
                        self.at = At::Data { delta: true, size };
                    }
                }
                At::BaseId { size, ref mut left } => {
                    let n = (*left).min(bytes.len());
                    *left -= n;
                    bytes = &bytes[n..];
                    if *left == 0 {
                        self.at = At::Data { delta: true, size };
                    }
                }
                At::Data { delta, size } => {
                    let (in_before, out_before) =
                        (self.inflate.total_in(), self.inflate.total_out());
                    let status = self
                        .inflate
                        .decompress(bytes, &mut self.scratch, gix::zlib::FlushDecompress::None)
                        .map_err(|_| malformed("an entry does not inflate"))?;
                    let used = (self.inflate.total_in() - in_before) as usize;
                    let made = (self.inflate.total_out() - out_before) as usize;
                    bytes = &bytes[used..];
                    if self.inflate.total_out() > size {
                        return Err(malformed("an entry inflates past its size"));
                    }
                    if delta && !self.counted {
                        let room = DELTA_HEAD - self.delta_head.len();
                        self.delta_head
                            .extend_from_slice(&self.scratch[..made.min(room)]);
                        if let Some(result) = delta_result(&self.delta_head) {
                            self.counted = true;
                            self.charge(result)?;
                        } else if self.delta_head.len() == DELTA_HEAD {
                            return Err(malformed("a delta's header does not end"));
                        }
                    }
                    match status {
                        gix::zlib::Status::StreamEnd => {
                            if delta && !self.counted {
                                return Err(malformed("a delta without a header"));
                            }
                            self.left -= 1;
                            self.at = self.next_entry();
                        }
                        // The output space was filled: more may be waiting.
                        _ if made == self.scratch.len() => {}
                        // More input is needed.
                        _ if bytes.is_empty() => return Ok(()),
                        _ if used == 0 && made == 0 => {
                            return Err(malformed("an entry does not inflate"))
                        }
                        _ => {}
                    }
                }
                At::Trailer => return Ok(()),
            }
        }
    }

    fn next_entry(&self) -> At {
        if self.left == 0 {
            At::Trailer
        } else {
            At::Entry {
                kind: 0,
                size: 0,
                shift: 0,
            }
        }
    }

    fn charge(&mut self, bytes: u64) -> Result<(), GitError> {
        self.unpacked = self.unpacked.saturating_add(bytes);
        if self.unpacked > MAX_UNPACKED_BYTES {
            return Err(GitError::new(format!(
                "the pack's objects unpack to more than {}, the limit for one extension",
                size(MAX_UNPACKED_BYTES)
            )));
        }
        Ok(())
    }
}

/// The result size a delta's header declares (after its base size), once
/// `head` holds both varints.
fn delta_result(head: &[u8]) -> Option<u64> {
    let mut sizes = [0u64; 2];
    let mut i = 0;
    for size in &mut sizes {
        let mut shift = 0;
        loop {
            let b = *head.get(i)?;
            i += 1;
            if shift < 64 {
                *size |= u64::from(b & 0x7F) << shift;
            }
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
    }
    Some(sizes[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn deflate(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut z =
            gix::zlib::stream::deflate::Write::new(&mut out, gix::zlib::Compression::DEFAULT);
        z.write_all(data).unwrap();
        z.flush().unwrap();
        drop(z);
        out
    }

    fn entry_header(kind: u8, mut size: u64) -> Vec<u8> {
        let mut out = vec![(kind << 4) | (size & 0x0F) as u8];
        size >>= 4;
        while size > 0 {
            *out.last_mut().unwrap() |= 0x80;
            out.push((size & 0x7F) as u8);
            size >>= 7;
        }
        out
    }

    fn varint(mut n: u64) -> Vec<u8> {
        let mut out = Vec::new();
        loop {
            let b = (n & 0x7F) as u8;
            n >>= 7;
            if n == 0 {
                out.push(b);
                return out;
            }
            out.push(b | 0x80);
        }
    }

    /// A pack of one blob and a reference delta on it declaring `result`.
    fn pack(blob: &[u8], result: u64) -> Vec<u8> {
        let mut p = b"PACK\0\0\0\x02\0\0\0\x02".to_vec();
        p.extend(entry_header(3, blob.len() as u64));
        p.extend(deflate(blob));
        let delta = [varint(blob.len() as u64), varint(result), vec![1, b'x']].concat();
        p.extend(entry_header(7, delta.len() as u64));
        p.extend([7u8; 20]);
        p.extend(deflate(&delta));
        p.extend([0u8; 20]);
        p
    }

    /// Fed whole and fed a byte at a time, the same answer.
    fn count(pack: &[u8]) -> Result<u64, GitError> {
        let mut whole = Tally::default();
        whole.feed(pack)?;
        let mut bytes = Tally::default();
        for b in pack {
            bytes.feed(std::slice::from_ref(b))?;
        }
        assert_eq!(whole.unpacked, bytes.unpacked);
        assert!(matches!(whole.at, At::Trailer));
        Ok(whole.unpacked)
    }

    #[test]
    fn entries_and_delta_results_are_counted_however_the_pack_arrives() {
        let blob = vec![0u8; 300_000];
        // The blob, the delta's own 7 bytes, and the result it declares.
        assert_eq!(count(&pack(&blob, 1_000)), Ok(300_000 + 7 + 1_000));
    }

    #[test]
    fn a_delta_declaring_past_the_bound_is_refused_at_its_header() {
        let err = count(&pack(b"base\n", 12 << 30)).unwrap_err();
        assert_eq!(
            err,
            "the pack's objects unpack to more than 1.0 GiB, the limit for one extension"
        );
    }

    #[test]
    fn a_header_announcing_too_many_objects_is_refused_at_once() {
        let mut p = b"PACK\0\0\0\x02".to_vec();
        p.extend((MAX_PACK_OBJECTS + 1).to_be_bytes());
        assert_eq!(
            Tally::default().feed(&p),
            Err("the pack holds 500001 objects; the limit for one extension is 500000".into())
        );
        let mut p = b"PACK\0\0\0\x02".to_vec();
        p.extend(MAX_PACK_OBJECTS.to_be_bytes());
        assert_eq!(Tally::default().feed(&p), Ok(()));
    }

    #[test]
    fn what_is_not_a_pack_is_refused() {
        assert!(count(b"PACK\0\0\0\x09\0\0\0\x01")
            .unwrap_err()
            .as_str()
            .contains("malformed"));
        let mut p = b"PACK\0\0\0\x02\0\0\0\x01".to_vec();
        p.extend(entry_header(3, 2));
        p.extend(deflate(b"longer than two"));
        assert!(count(&p).unwrap_err().as_str().contains("past its size"));
    }
}
