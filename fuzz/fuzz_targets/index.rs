//! ext.index: `Entry::parse`, `lookup`, `read_line` and `valid_name` never
//! panic, and lookup finds exactly the first line whose first TAB-separated
//! field is the word (contract §5.2), the streaming reader agreeing.
//!
//! Input: the first byte is the word's length (mod 33); the next that many
//! bytes are the word; the rest is the index text.
#![no_main]

// Each target uses some of the shared oracles.
#[allow(dead_code)]
#[path = "../../tests/it/oracles/mod.rs"]
mod oracles;

use libfuzzer_sys::fuzz_target;
use oracles::{oracle_lookup, valid_name};
use roost::index::{self, Entry};
use std::io::Read;

/// A reader that hands out at most `n` bytes per read, so the streaming
/// reader's chunk boundaries land everywhere.
struct Trickle<'a> {
    data: &'a [u8],
    n: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.n.min(buf.len()).min(self.data.len());
        buf[..k].copy_from_slice(&self.data[..k]);
        self.data = &self.data[k..];
        Ok(k)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = (n as usize % 33).min(rest.len());
    let (word, idx) = rest.split_at(n);

    // Never panics, whatever the bytes.
    let parsed = Entry::parse(idx);
    if let Some(e) = &parsed {
        assert!(!e.command.is_empty() && !e.extension.is_empty() && !e.path.is_empty());
        assert!(!e.authorities.contains(&b'\t'));
    }
    assert_eq!(
        index::valid_name(word),
        std::str::from_utf8(word).is_ok_and(valid_name),
        "valid_name({word:?})"
    );

    let found = index::lookup(idx, word);
    assert_eq!(found, oracle_lookup(idx, word), "lookup({word:?})");
    if let Some(e) = &found {
        // A found line is the word followed by TAB, at the start of a line.
        assert_eq!(e.command, word);
        let line_start = e.command.as_ptr() as usize - idx.as_ptr() as usize;
        assert!(line_start == 0 || idx[line_start - 1] == b'\n');
        assert_eq!(idx.get(line_start + word.len()), Some(&b'\t'));
    }

    // The streaming reader finds the same line, in one read or in many.
    let streamed = index::read_line(idx, word);
    assert_eq!(
        streamed.as_deref().and_then(Entry::parse),
        found,
        "read_line({word:?})"
    );
    if let Some(line) = &streamed {
        assert!(line.starts_with(word) && line.get(word.len()) == Some(&b'\t'));
        assert!(!line.contains(&b'\n'));
    }
    let step = 1 + data.len() % 7;
    let trickled = index::read_line(Trickle { data: idx, n: step }, word);
    assert_eq!(trickled, streamed, "read_line in {step}-byte reads");

    // A rendered found entry parses back to itself.
    if let Some(e) = found {
        let text = index::render(std::slice::from_ref(&e));
        assert_eq!(text.last(), Some(&b'\n'));
        assert_eq!(index::lookup(&text, word), Some(e));
    }
});
