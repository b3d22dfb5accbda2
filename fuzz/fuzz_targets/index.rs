//! ext.index: `Entry::parse`, `lookup`, `read_line` and `valid_name` never
//! panic, and lookup finds exactly the first line whose first TAB-separated
//! field is the word (contract §5.2), the streaming reader agreeing.
//!
//! Input: the first byte is the word's length (mod 33); the next that many
//! bytes are the word; the rest is the index text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roost::index::{self, Entry};
use std::io::Read;

/// Contract §5.2, written from the rule, not the code.
fn oracle_lookup<'a>(index: &'a [u8], word: &[u8]) -> Option<Entry<'a>> {
    if word.is_empty() || word.contains(&b'\t') || word.contains(&b'\n') {
        return None;
    }
    let line = index.split(|&b| b == b'\n').find(|line| {
        let mut parts = line.splitn(2, |&b| b == b'\t');
        parts.next() == Some(word) && parts.next().is_some()
    })?;
    let fields: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
    if !(3..=4).contains(&fields.len()) || fields[..3].iter().any(|f| f.is_empty()) {
        return None;
    }
    Some(Entry {
        command: fields[0],
        extension: fields[1],
        path: fields[2],
        authorities: fields.get(3).copied().unwrap_or_default(),
    })
}

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

fn valid_name_oracle(b: &[u8]) -> bool {
    !b.is_empty()
        && b.len() <= 32
        && b[0].is_ascii_lowercase()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
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
    assert_eq!(index::valid_name(word), valid_name_oracle(word), "valid_name({word:?})");

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
    assert_eq!(streamed.as_deref().and_then(Entry::parse), found, "read_line({word:?})");
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
