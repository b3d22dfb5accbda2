//! Property tests for the parsers and validators that read hostile input:
//! ext.index lines, OWNER/REPO, refs, manifests, ext.lock and the `roost`
//! version range. Each property states the written rule it checks; the
//! oracles here are written from the contract, not from the code.

use crate::oracles::*;
use proptest::prelude::*;
use roost::index::{self, Entry};
use roost::testing::{lock::Lock, manifest, names};
use serde_json::{json, Map, Value};

// ------------------------------------------------------------- ext.index

/// Bytes that make index lines collide often: a few letters, TAB, newline.
fn index_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![b'a', b'b', b'\t', b'\n', b'/', b' ', b'f']),
        0..160,
    )
}

fn word() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(vec![b'a', b'b', b'f', b'\t', b'\n']),
        0..4,
    )
}

/// A field of an index line: no TAB, no newline.
fn field(min: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        any::<u8>().prop_filter("no TAB/LF", |b| *b != b'\t' && *b != b'\n'),
        min..24,
    )
}

proptest! {
    /// Parsing, lookup and streaming never panic, whatever the bytes.
    #[test]
    fn index_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..300), w in prop::collection::vec(any::<u8>(), 0..8)) {
        let _ = Entry::parse(&bytes);
        let _ = index::lookup(&bytes, &w);
        let _ = index::read_line(&bytes[..], &w);
        let _ = index::valid_name(&w);
    }

    /// Lookup finds exactly the first line whose first field equals the word
    /// (never a prefix, never another field), and the streaming reader finds
    /// the same line.
    #[test]
    fn lookup_finds_the_first_exact_match(idx in index_bytes(), w in word()) {
        let found = index::lookup(&idx, &w);
        prop_assert_eq!(&found, &oracle_lookup(&idx, &w));
        if let Some(e) = &found {
            prop_assert_eq!(e.command, &w[..]);
        }
        let streamed = index::read_line(&idx[..], &w);
        prop_assert_eq!(streamed.as_deref().and_then(Entry::parse), found);
    }

    /// The same on well-formed indexes with shared prefixes and duplicates.
    #[test]
    fn lookup_in_rendered_indexes(
        lines in prop::collection::vec((prop::sample::select(vec!["a", "ab", "abc", "b", "ba"]), "[a-z]{1,3}", "/[a-z/]{1,6}", prop::sample::select(vec!["", "fleet", "fleet x"])), 0..8),
        w in prop::sample::select(vec!["a", "ab", "abc", "b", "ba", "c", "/", "fleet"]),
    ) {
        let mut text = Vec::new();
        for (c, e, p, a) in &lines {
            text.extend_from_slice(format!("{c}\t{e}\t{p}\t{a}\n").as_bytes());
        }
        let want = lines.iter().find(|l| l.0 == w);
        let got = index::lookup(&text, w.as_bytes());
        match want {
            None => prop_assert!(got.is_none()),
            Some((c, e, p, a)) => {
                let got = got.unwrap();
                prop_assert_eq!(got.command, c.as_bytes());
                prop_assert_eq!(got.extension, e.as_bytes());
                prop_assert_eq!(got.path, p.as_bytes());
                prop_assert_eq!(got.authorities, a.as_bytes());
            }
        }
    }

    /// A rendered line (four fields, TAB-separated, newline-terminated)
    /// parses back to the same fields.
    #[test]
    fn a_rendered_line_parses_back(c in field(1), e in field(1), p in field(1), a in field(0)) {
        let entry = Entry { command: &c, extension: &e, path: &p, authorities: &a };
        let text = index::render(std::slice::from_ref(&entry));
        prop_assert_eq!(text.last(), Some(&b'\n'));
        prop_assert_eq!(Entry::parse(&text[..text.len() - 1]), Some(entry.clone()));
        prop_assert_eq!(index::lookup(&text, &c), Some(entry));
    }

    /// The name grammar: `[a-z][a-z0-9-]*`, at most 32 bytes.
    #[test]
    fn the_name_grammar(s in "[a-z0-9A-Z_./-]{0,40}") {
        let b = s.as_bytes();
        let want = !b.is_empty()
            && b.len() <= 32
            && b[0].is_ascii_lowercase()
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-');
        prop_assert_eq!(index::valid_name(b), want);
    }
}

// ------------------------------------------------------------ OWNER/REPO

proptest! {
    /// `parse_repo` accepts exactly the OWNER/REPO rule and returns the parts.
    #[test]
    fn parse_repo_follows_the_rule(s in "[aZ09._@:/ -]{0,12}|\\PC{0,12}|[a.-]{1,3}/[a.-]{1,3}") {
        prop_assert_eq!(names::parse_repo(&s).ok(), repo_ok(&s));
    }

    /// Long parts: the 255-byte limit.
    #[test]
    fn parse_repo_limits_part_length(n in 250usize..260, m in 1usize..4) {
        let s = format!("{}/{}", "o".repeat(m), "r".repeat(n));
        prop_assert_eq!(names::parse_repo(&s).is_ok(), n <= 255);
    }

    /// A refusal is one line with no control character in it.
    #[test]
    fn parse_repo_refusals_are_printable(s in "\\PC{0,8}[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{202e}]\\PC{0,8}") {
        let err = names::parse_repo(&s).unwrap_err();
        prop_assert!(!err.message().chars().any(char::is_control), "{:?}", err);
    }

    /// `check_ref` accepts exactly git's ref-name rules plus no leading '-'.
    #[test]
    fn check_ref_follows_the_rule(s in "[a./@{~^:?*\\[\\\\ -]{0,8}|[a-z./@-]{0,6}(\\.lock)?/?[a-z.]{0,3}|\\PC{0,10}") {
        let got = names::check_ref(&s);
        prop_assert_eq!(got.is_ok(), ref_ok(&s), "{:?}", got);
        if let Err(e) = got {
            prop_assert!(!e.message().chars().any(char::is_control), "{:?}", e);
        }
    }
}

// -------------------------------------------------------------- manifest

/// Some name-ish strings: valid, invalid, core commands, with controls.
fn name_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        12 => "[a-z][a-z0-9-]{0,12}".prop_map(Value::from),
        2 => "[a-z][a-z0-9-]{28,34}".prop_map(Value::from),
        2 => prop::sample::select(vec!["send", "stop", "ext", "note", "Note", "2x", "-x", "a_b", "", "a\u{1b}", "a\u{9b}", "fleet"]).prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!(7)),
    ]
}

fn names_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::collection::vec(name_value(), 0..4).prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!("note")),
        1 => Just(json!({})),
    ]
}

fn needs_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!([])),
        Just(json!(["fleet"])),
        Just(json!(["fleet", "fleet"])),
        Just(json!(["net"])),
        Just(json!(["Fleet"])),
        Just(json!(["fleet", 1])),
        Just(json!("fleet")),
        Just(json!(["fle\u{7f}et"])),
        Just(Value::Null),
    ]
}

fn contract_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => Just(json!(1)),
        2 => Just(json!("1")),
        1 => prop::sample::select(vec![json!(2), json!("2"), json!("01"), json!(1.0), json!(-1), json!(true), Value::Null, json!([1]), json!("one"), json!("")]),
    ]
}

fn text_value(max: usize) -> impl Strategy<Value = Value> {
    prop_oneof![
        16 => prop::string::string_regex(&format!("[a-z <>=.0-9*\u{e9}]{{0,{max}}}")).unwrap().prop_map(Value::from),
        2 => "\\PC{0,10}[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{2028}\\u{2029}\\u{202e}]\\PC{0,10}".prop_map(Value::from),
        1 => Just(Value::Null),
        1 => Just(json!(12)),
        1 => Just(json!(["*"])),
    ]
}

/// A manifest object that is valid more often than not.
fn near_manifest() -> impl Strategy<Value = Map<String, Value>> {
    (
        prop::option::weighted(0.95, name_value()),
        prop::option::weighted(0.95, contract_value()),
        prop::option::of(text_value(70)),
        prop::option::of(needs_value()),
        prop::option::weighted(0.95, names_value()),
        prop::option::of(text_value(210)),
        prop::option::weighted(0.2, ("\\PC{0,4}[\\x00-\\x1f\\u{85}]?", text_value(4))),
    )
        .prop_map(
            |(name, contract, roost, needs, commands, description, extra)| {
                let mut m = Map::new();
                for (k, v) in [
                    ("name", name),
                    ("contract", contract),
                    ("roost", roost),
                    ("needs", needs),
                    ("commands", commands),
                    ("description", description),
                ] {
                    if let Some(v) = v {
                        m.insert(k.to_string(), v);
                    }
                }
                if let Some((k, v)) = extra {
                    m.entry(k).or_insert(v);
                }
                m
            },
        )
}

proptest! {
    /// `manifest::parse` never panics on arbitrary bytes, and a refusal
    /// is one printable line.
    #[test]
    fn manifest_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Err(e) = manifest::parse(&bytes) {
            prop_assert!(!e.message().chars().any(char::is_control), "{:?}", e);
        }
    }

    /// Nor on JSON-looking text.
    #[test]
    fn manifest_never_panics_on_jsonish_text(s in "[{}\\[\\]\":,0-9a-z\\\\ -]{0,80}") {
        let _ = manifest::parse(s.as_bytes());
    }

    /// Accepted exactly when every manifest rule holds, and then the
    /// fields read are the ones written.
    #[test]
    fn manifest_accepts_exactly_by_the_rules(m in near_manifest()) {
        let bytes = serde_json::to_vec(&Value::Object(m.clone())).unwrap();
        let got = manifest::parse(&bytes);
        let want = manifest_oracle(&m);
        prop_assert_eq!(got.clone().ok(), want, "{} -> {:?}", String::from_utf8_lossy(&bytes), got);
        if let Err(e) = got {
            prop_assert!(!e.message().chars().any(char::is_control), "{:?}", e);
        }
    }

    /// The `roost` range never refuses a manifest, and what is kept is at
    /// most 64 characters (plus the ellipsis of a shortened value).
    #[test]
    fn the_roost_range_never_refuses(r in text_value(100)) {
        let m = json!({"name": "note", "contract": 1, "commands": ["note"], "roost": r});
        let parsed = manifest::parse(m.to_string().as_bytes());
        if any_control(&r) {
            prop_assert!(parsed.is_err());
        } else {
            let kept = parsed.unwrap().roost;
            prop_assert!(kept.is_none_or(|k| k.chars().count() <= 65));
        }
    }
}

// ------------------------------------------------------------------ lock

/// JSON leaves, floats included: roost builds serde_json with
/// `float_roundtrip`, so a float in an unknown lock field survives a rewrite
/// exactly (without it, -2.0321089878404417e140 came back one ulp off).
fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
            .prop_map(Value::from),
        "\\PC{0,8}|[\\x00-\\x1f\\u{9b}\\u{202e}]{0,3}".prop_map(Value::from),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("\\PC{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A lock entry as roost writes it (pinned, or linked to a checkout),
/// perturbed by hand edits: fields mistyped, missing or added.
fn lock_entry() -> impl Strategy<Value = Value> {
    (
        names_value(),
        needs_value(),
        "\\PC{0,10}",
        json_value(),
        contract_value(),
        prop::option::of("/\\PC{0,10}"),
        prop::collection::vec(
            prop::sample::select(vec!["commands", "needs", "ref", "tree", "installed", "url"]),
            0..2,
        ),
    )
        .prop_map(|(c, n, r, extra, contract, linked, dropped)| {
            let mut e = json!({"commands": c, "needs": n, "contract": contract,
                               "installed": "2026-09-08T10:14:22Z", "extra": extra});
            match linked {
                Some(dir) => e["linked"] = dir.into(),
                None => {
                    e["ref"] = r.into();
                    e["repo"] = "o/r".into();
                    e["commit"] = "0".repeat(40).into();
                    e["tree"] = "1".repeat(40).into();
                    e["url"] = "file:///o/r".into();
                }
            }
            for key in dropped {
                e.as_object_mut().unwrap().remove(key);
            }
            e
        })
}

fn lock_text() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::btree_map(
        prop_oneof!["[a-z][a-z0-9-]{0,6}", "\\PC{0,6}"],
        prop_oneof![3 => lock_entry(), 1 => json_value()],
        0..5,
    )
    .prop_map(|m| m.into_iter().collect())
}

proptest! {
    /// `Lock::parse` never panics on arbitrary bytes.
    #[test]
    fn lock_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(l) = Lock::parse(&bytes) {
            let _ = l.index_entries(|n| std::path::PathBuf::from("/d").join(n));
        }
    }

    /// Serialization loses nothing: parse(to_bytes(x)) == x, the bytes are
    /// stable on rewrite (sorted keys, trailing newline), and the index
    /// derived from any lock is lines of valid names that parse back.
    #[test]
    fn lock_round_trips(m in lock_text()) {
        let lock = Lock::parse(&serde_json::to_vec(&Value::Object(m.clone())).unwrap()).unwrap();
        let bytes = lock.to_bytes();
        prop_assert_eq!(bytes.last(), Some(&b'\n'));
        let again = Lock::parse(&bytes).unwrap();
        prop_assert_eq!(&again, &lock);
        prop_assert_eq!(again.to_bytes(), bytes.clone());
        let reread: Value = serde_json::from_slice(&bytes).unwrap();
        prop_assert_eq!(reread, Value::Object(m));

        let lines = lock.index_entries(|n| std::path::PathBuf::from("/data/ext").join(n));
        let text = roost::testing::lock::render_index(&lines);
        let parsed: Vec<_> = text.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(Entry::parse).collect();
        prop_assert_eq!(parsed.len(), lines.len());
        for (line, e) in lines.iter().zip(parsed) {
            let e = e.unwrap();
            prop_assert!(valid_name(&line.command) && valid_name(&line.extension));
            prop_assert_eq!(e, line.entry());
            prop_assert_eq!(index::lookup(&text, line.command.as_bytes()), Some(line.entry()));
        }
    }
}

// ---------------------------------------------------------- version range

fn triple_text() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (0u64..4, 0u64..4, 0u64..4).prop_map(|(a, b, c)| format!("{a}.{b}.{c}")),
        1 => prop::sample::select(vec!["0.1", "0.1.0.0", "1.x.0", "01.0.0", "+1.0.0", "99999999999999999999.0.0", "1.0.0-dev", ""]).prop_map(String::from),
    ]
}

fn range_text() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => (triple_text(), triple_text()).prop_map(|(l, h)| format!(">={l} <{h}")),
        1 => prop::sample::select(vec!["*", "**", "* ", "", "^0.1.0", ">=0.1.0", ">= 0.1.0 <0.2.0", ">=0.1.0  <0.2.0", "<0.2.0 >=0.1.0", ">=0.1.0 <=0.2.0"]).prop_map(String::from),
        1 => "\\PC{0,70}",
    ]
}

fn version_text() -> impl Strategy<Value = String> {
    (
        triple_text(),
        prop::sample::select(vec!["", "-dev", "+b.5", "-rc.1+b"]),
    )
        .prop_map(|(t, s)| t + s)
}

proptest! {
    /// `check_range` never panics and answers exactly as the rule says.
    #[test]
    fn check_range_follows_the_rule(r in range_text(), v in version_text()) {
        prop_assert_eq!(manifest::check_range(Some(&r), &v), range_oracle(&r, &v), "{:?} {:?}", r, v);
        prop_assert_eq!(manifest::check_range(None, &v), manifest::RangeCheck::Absent);
    }
}
