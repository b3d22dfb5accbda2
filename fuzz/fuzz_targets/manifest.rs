//! roost-ext.json: `manifest::parse` never panics on any bytes, a refusal is
//! one printable line, and whenever the bytes are a JSON object it accepts
//! exactly when every rule of contract §2 holds, reading the fields written.
#![no_main]

// Each target uses some of the shared oracles.
#[allow(dead_code)]
#[path = "../../tests/it/oracles/mod.rs"]
mod oracles;

use libfuzzer_sys::fuzz_target;
use oracles::manifest_oracle;
use roost::testing::manifest;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let got = manifest::parse(data);
    if let Err(e) = &got {
        assert!(
            !e.to_string().chars().any(char::is_control),
            "refusal not printable: {e:?}"
        );
    }
    if data.len() <= manifest::MAX_BYTES {
        if let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(data) {
            let want = manifest_oracle(&m);
            assert_eq!(
                got.clone().ok(),
                want,
                "{} -> {:?}",
                String::from_utf8_lossy(data),
                got
            );
        } else {
            assert!(got.is_err(), "accepted what is not a JSON object");
        }
    }
    // Whatever range was kept, checking it never panics, and a range that
    // was shortened is never read.
    if let Ok(m) = &got {
        let r = manifest::check_range(m.roost.as_deref(), roost::VERSION);
        if m.roost.as_deref().is_some_and(|s| s.ends_with('…')) {
            assert_eq!(r, manifest::RangeCheck::Unreadable);
        }
    }
});
