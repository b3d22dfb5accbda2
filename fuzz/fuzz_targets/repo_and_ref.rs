//! OWNER/REPO and refs: `names::parse_repo` and `names::check_ref` never
//! panic, accept exactly by the written rules (contract §7, git
//! check-ref-format plus no leading '-'), and a refusal is printable.
#![no_main]

// Each target uses some of the shared oracles.
#[allow(dead_code)]
#[path = "../../tests/it/oracles/mod.rs"]
mod oracles;

use libfuzzer_sys::fuzz_target;
use oracles::{ref_ok, repo_ok};
use roost::testing::names;

fuzz_target!(|data: &[u8]| {
    // Non-UTF-8 input is read lossily: the functions take `&str`.
    let s = String::from_utf8_lossy(data);

    let repo = names::parse_repo(&s);
    assert_eq!(
        repo.clone().ok(),
        repo_ok(&s),
        "parse_repo({s:?}) -> {repo:?}"
    );
    if let Err(e) = &repo {
        assert!(
            !e.to_string().chars().any(char::is_control),
            "refusal not printable: {e:?}"
        );
    }

    let r = names::check_ref(&s);
    assert_eq!(r.is_ok(), ref_ok(&s), "check_ref({s:?}) -> {r:?}");
    if let Err(e) = &r {
        assert!(
            !e.to_string().chars().any(char::is_control),
            "refusal not printable: {e:?}"
        );
    }

    let _ = names::is_full_sha(&s);
});
