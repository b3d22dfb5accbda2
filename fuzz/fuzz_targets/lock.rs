//! ext.lock: `Lock::parse` never panics; whenever it succeeds,
//! parse(to_bytes(x)) == x, the bytes are stable on rewrite (sorted keys,
//! trailing newline) and keep every value found, and the ext.index derived
//! from the lock is lines of valid names that parse and look up back.
#![no_main]

// Each target uses some of the shared oracles.
#[allow(dead_code)]
#[path = "../../tests/it/oracles/mod.rs"]
mod oracles;

use libfuzzer_sys::fuzz_target;
use oracles::valid_name;
use roost::index::{self, Entry};
use roost::testing::lock::{self, Lock};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(parsed) = Lock::parse(data) else {
        return;
    };

    // Round trip.
    let bytes = parsed.to_bytes();
    assert_eq!(bytes.last(), Some(&b'\n'));
    let again = Lock::parse(&bytes).expect("to_bytes output must parse");
    assert_eq!(again, parsed, "parse(to_bytes(x)) != x");
    assert_eq!(again.to_bytes(), bytes, "rewrite not stable");

    // Nothing lost: the bytes hold the same JSON as the input (for a
    // non-blank input; blank input is the empty lock).
    if !data.iter().all(u8::is_ascii_whitespace) {
        let input: Value = serde_json::from_slice(data).unwrap();
        let output: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(output, input, "to_bytes lost or changed a value");
    } else {
        assert!(parsed.is_empty());
    }

    // Typed reads never panic; an entry that cannot be read says why on
    // one printable line.
    for name in parsed.names() {
        match parsed.get(name).unwrap().typed() {
            Ok(e) => {
                let _ = (e.pin(), e.linked(), e.as_previous());
            }
            Err(u) => assert!(!u.why.chars().any(char::is_control), "{:?}", u.why),
        }
    }
    let _ = parsed.claims();
    assert!(parsed.valid_names().all(valid_name));

    // The derived index: valid names, lines that parse back and are found.
    let lines = parsed.index_entries(|n| std::path::PathBuf::from("/data/ext").join(n));
    let text = lock::render_index(&lines);
    let rendered: Vec<_> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(Entry::parse)
        .collect();
    assert_eq!(rendered.len(), lines.len());
    for (line, e) in lines.iter().zip(rendered) {
        let e = e.expect("a rendered index line parses");
        assert!(valid_name(&line.command) && valid_name(&line.extension));
        assert_eq!(e, line.entry());
        assert_eq!(
            index::lookup(&text, line.command.as_bytes()),
            Some(line.entry())
        );
    }
});
