//! OWNER/REPO and refs: `names::parse_repo` and `names::check_ref` never
//! panic, accept exactly by the written rules (contract §7, git
//! check-ref-format plus no leading '-'), and a refusal is printable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roost::testing::names;

/// Contract §7: exactly one '/'; each part `[A-Za-z0-9._-]+`, not starting
/// with '-', not `.` or `..`, at most 255 bytes.
fn repo_ok(s: &str) -> Option<(String, String)> {
    let (owner, repo) = s.split_once('/')?;
    let part_ok = |p: &str| {
        !p.is_empty()
            && p.len() <= 255
            && p != "."
            && p != ".."
            && !p.starts_with('-')
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
    };
    (part_ok(owner) && part_ok(repo)).then(|| (owner.to_string(), repo.to_string()))
}

/// git check-ref-format, component by component, plus no leading '-'.
fn ref_ok(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with('-')
        && s.split('/')
            .all(|c| !c.is_empty() && !c.starts_with('.') && !c.ends_with(".lock"))
        && !s.contains("..")
        && !s.contains("@{")
        && s != "@"
        && !s.ends_with('.')
        && !s
            .chars()
            .any(|c| "~^:?*[\\".contains(c) || c.is_whitespace() || c.is_control())
}

fuzz_target!(|data: &[u8]| {
    // Non-UTF-8 input is read lossily: the functions take `&str`.
    let s = String::from_utf8_lossy(data);

    let repo = names::parse_repo(&s);
    assert_eq!(repo.clone().ok(), repo_ok(&s), "parse_repo({s:?}) -> {repo:?}");
    if let Err(e) = &repo {
        assert!(!e.chars().any(char::is_control), "refusal not printable: {e:?}");
    }

    let r = names::check_ref(&s);
    assert_eq!(r.is_ok(), ref_ok(&s), "check_ref({s:?}) -> {r:?}");
    if let Err(e) = &r {
        assert!(!e.chars().any(char::is_control), "refusal not printable: {e:?}");
    }

    let _ = names::is_full_sha(&s);
});
