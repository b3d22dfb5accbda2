//! The manifest's advisory `roost` range: `manifest::check_range` never
//! panics and answers exactly as contract §2 says: only `*` and
//! `>=A.B.C <D.E.F` (at most 64 bytes) are understood; a version
//! `A.B.C[-pre][+build]` is in range when at least the low bound and below
//! the high one, a pre-release sorting just below its own `A.B.C`.
//!
//! Input: range and version separated by the first NUL byte (no NUL: the
//! whole input is the range, checked against this roost's own version).
#![no_main]

// Each target uses some of the shared oracles.
#[allow(dead_code)]
#[path = "../../tests/it/oracles/mod.rs"]
mod oracles;

use libfuzzer_sys::fuzz_target;
use oracles::range_oracle;
use roost::testing::manifest::{self, RangeCheck};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (range, version) = match text.split_once('\0') {
        Some((r, v)) => (r, v),
        None => (&text[..], roost::VERSION),
    };
    let got = manifest::check_range(Some(range), version);
    assert_eq!(
        got,
        range_oracle(range, version),
        "check_range({range:?}, {version:?})"
    );
    assert_eq!(manifest::check_range(None, version), RangeCheck::Absent);
});
