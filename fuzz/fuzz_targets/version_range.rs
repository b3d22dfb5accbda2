//! The manifest's advisory `roost` range: `manifest::check_range` never
//! panics and answers exactly as contract §2 says: only `*` and
//! `>=A.B.C <D.E.F` (at most 64 bytes) are understood; a version
//! `A.B.C[-pre][+build]` is in range when at least the low bound and below
//! the high one, a pre-release sorting just below its own `A.B.C`.
//!
//! Input: range and version separated by the first NUL byte (no NUL: the
//! whole input is the range, checked against this roost's own version).
#![no_main]

use libfuzzer_sys::fuzz_target;
use roost::testing::manifest::{self, RangeCheck};

type Triple = (u64, u64, u64);

/// `A.B.C`, each part one or more ASCII digits fitting 64 bits.
fn triple(s: &str) -> Option<Triple> {
    let parts: Vec<&str> = s.split('.').collect();
    let n = |p: &str| -> Option<u64> {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        p.parse().ok()
    };
    match parts[..] {
        [a, b, c] => Some((n(a)?, n(b)?, n(c)?)),
        _ => None,
    }
}

fn oracle(range: &str, version: &str) -> RangeCheck {
    use RangeCheck::*;
    if range == "*" {
        return Ok;
    }
    let bounds = (range.len() <= 64)
        .then(|| range.strip_prefix(">="))
        .flatten()
        .and_then(|r| r.split_once(" <"))
        .and_then(|(l, h)| Some((triple(l)?, triple(h)?)));
    let Some((low, high)) = bounds else {
        return Unreadable;
    };
    let core = version.split('+').next().unwrap();
    let (core, pre) = match core.split_once('-') {
        Some((c, _)) => (c, true),
        None => (core, false),
    };
    let Some(v) = triple(core) else {
        return Unreadable;
    };
    let key = |t: Triple, pre: bool| (t, !pre);
    if key(v, pre) >= key(low, false) && key(v, pre) < key(high, false) {
        Ok
    } else {
        OutOfRange
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (range, version) = match text.split_once('\0') {
        Some((r, v)) => (r, v),
        None => (&text[..], roost::VERSION),
    };
    let got = manifest::check_range(Some(range), version);
    assert_eq!(got, oracle(range, version), "check_range({range:?}, {version:?})");
    assert_eq!(manifest::check_range(None, version), RangeCheck::Absent);
});
