//! The entries of ext.lock by name: parsed into typed entries, what cannot
//! be read kept as found, edited, and serialized (sorted keys at every
//! depth, 2-space indent, trailing newline).

use super::entry::Entry;
use crate::ext::error::ExtError;
use crate::ext::manifest::type_name;
use crate::index::valid_name;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;

/// ext.lock: one entry per installed extension, keyed by its name. The file
/// has no other keys.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Lock {
    pub(super) entries: BTreeMap<String, Slot>,
}

/// One entry as found in the file.
#[derive(Debug, Clone, PartialEq)]
pub enum Slot {
    /// Boxed: an entry is several times the size of an unreadable one.
    Typed(Box<Entry>),
    /// An entry install could not have written (a hand edit): kept exactly
    /// as found, so that rewriting the file loses nothing; reported, never
    /// run.
    Unreadable(Unreadable),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    pub raw: Value,
    /// Why it cannot be read, printable and short.
    pub why: String,
}

/// The longest reason kept for an unreadable entry (serde quotes the
/// offending value, which may be long).
const MAX_WHY: usize = 100;

impl Serialize for Slot {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Slot::Typed(entry) => entry.serialize(s),
            Slot::Unreadable(u) => u.raw.serialize(s),
        }
    }
}

impl Slot {
    fn read(raw: Value) -> Slot {
        match Entry::deserialize(&raw) {
            Ok(entry) => Slot::Typed(Box::new(entry)),
            Err(e) => {
                let mut why = crate::untrusted::printable(e.to_string().as_bytes());
                if let Some((cut, _)) = why.char_indices().nth(MAX_WHY) {
                    why.truncate(cut);
                    why.push('…');
                }
                Slot::Unreadable(Unreadable { raw, why })
            }
        }
    }

    /// The typed entry, or why there is none.
    pub fn typed(&self) -> Result<&Entry, &Unreadable> {
        match self {
            Slot::Typed(entry) => Ok(entry),
            Slot::Unreadable(u) => Err(u),
        }
    }
}

impl Lock {
    /// The lock's text. Empty (or blank) text is an empty lock; anything
    /// else must be a JSON object. An entry that cannot be read is kept as
    /// found (see `Slot::Unreadable`): it never fails the whole file.
    pub fn parse(bytes: &[u8]) -> Result<Lock, ExtError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Lock::default());
        }
        match serde_json::from_slice(bytes) {
            Ok(Value::Object(entries)) => Ok(Lock {
                entries: entries
                    .into_iter()
                    .map(|(name, raw)| (name, Slot::read(raw)))
                    .collect(),
            }),
            Ok(other) => Err(ExtError::refused(format!(
                "ext.lock must be a JSON object, not {}",
                type_name(&other)
            ))),
            Err(e) => Err(ExtError::refused(format!(
                "ext.lock is not valid JSON: {e}"
            ))),
        }
    }

    /// The file's bytes: sorted keys at every depth, 2-space indent,
    /// trailing newline. (An empty lock is deleted, not written: the caller
    /// checks `is_empty` first.)
    ///
    /// Through `Value`, whose maps are `BTreeMap`s (serde_json's
    /// `preserve_order` feature is off), so keys come out sorted at every
    /// depth whatever order the types declare them in; a test below fails
    /// if that ever changes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let value =
            serde_json::to_value(self).expect("string keys and JSON values always serialize");
        let mut out = serde_json::to_vec_pretty(&value)
            .expect("a JSON value serializes into memory without error");
        out.push(b'\n');
        out
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry's name, sorted, as found (not necessarily valid names).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// The names that pass the name grammar: the only ones that ever
    /// become paths.
    pub fn valid_names(&self) -> impl Iterator<Item = &str> {
        self.names().filter(|n| valid_name(n.as_bytes()))
    }

    /// The names install could never have written (`../x`, `A B`): a hand
    /// edit. They never become paths and are never run, but they are
    /// reported, not hidden.
    pub fn invalid_names(&self) -> impl Iterator<Item = &str> {
        self.names().filter(|n| !valid_name(n.as_bytes()))
    }

    /// NAME's entry, readable or not.
    pub fn get(&self, name: &str) -> Option<&Slot> {
        self.entries.get(name)
    }

    /// NAME's entry, when it can be read.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.get(name)?.typed().ok()
    }

    /// Records an install, replacing any previous entry of that name
    /// entirely; every other entry is left exactly as it was.
    pub fn insert(&mut self, name: &str, entry: Entry) {
        self.entries
            .insert(name.to_string(), Slot::Typed(Box::new(entry)));
    }

    /// Drops an entry; false if there was none.
    pub fn remove(&mut self, name: &str) -> bool {
        self.entries.remove(name).is_some()
    }

    /// Every claimed command and the extension that claims it: the first by
    /// name, if a hand edit made two claim it (the same one the index
    /// keeps). An entry that cannot be read claims nothing: it never runs.
    /// Nor does a disabled one: its commands are free for another extension
    /// while it is off, and `enable` checks them again. One pass, so
    /// checking a manifest against many installed commands stays linear.
    pub fn claims(&self) -> std::collections::HashMap<&str, &str> {
        let mut claims = std::collections::HashMap::new();
        for (name, slot) in &self.entries {
            if let Slot::Typed(entry) = slot {
                if entry.disabled {
                    continue;
                }
                for command in &entry.commands {
                    claims.entry(command.as_str()).or_insert(name.as_str());
                }
            }
        }
        claims
    }
}

#[cfg(test)]
mod tests {
    use super::super::{render_index, Contract, Pin, Source};
    use super::*;
    use crate::index;
    use serde_json::json;
    use std::path::{Path, PathBuf};

    const SHA: &str = "0123456789abcdef0123456789abcdef01234567";
    const TREE: &str = "89abcdef0123456789abcdef0123456789abcdef";

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn pinned(commands: &[&str], needs: &[&str]) -> Entry {
        Entry {
            commands: strings(commands),
            needs: strings(needs),
            contract: Contract::new(1),
            installed: "2026-09-08T10:14:22Z".into(),
            source: Source::Pinned(Pin {
                repo: "owner/roost-mark".into(),
                git_ref: "v0.1.0".into(),
                commit: SHA.into(),
                tree: TREE.into(),
                url: None,
                signer: None,
                signers: Vec::new(),
            }),
            disabled: false,
            previous: None,
            extra: BTreeMap::new(),
        }
    }

    /// A pinned entry as JSON, for fixtures that are then edited by hand.
    fn pinned_json(commands: Value, needs: Value) -> Value {
        let mut v = serde_json::to_value(pinned(&[], &[])).unwrap();
        v["commands"] = commands;
        v["needs"] = needs;
        v
    }

    fn clone_dir(name: &str) -> PathBuf {
        Path::new("/data/roost/ext").join(name)
    }

    fn lock(text: &str) -> Lock {
        Lock::parse(text.as_bytes()).unwrap()
    }

    fn lock_of(entries: Value) -> Lock {
        lock(&entries.to_string())
    }

    #[test]
    fn an_inserted_entry_is_written_as_the_contract_shows() {
        let mut l = Lock::default();
        l.insert("mark", pinned(&["mark", "marks"], &["fleet"]));
        let want = format!(
            r#"{{
  "mark": {{
    "commands": [
      "mark",
      "marks"
    ],
    "commit": "{SHA}",
    "contract": 1,
    "installed": "2026-09-08T10:14:22Z",
    "needs": [
      "fleet"
    ],
    "ref": "v0.1.0",
    "repo": "owner/roost-mark",
    "tree": "{TREE}"
  }}
}}
"#
        );
        assert_eq!(String::from_utf8(l.to_bytes()).unwrap(), want);
        assert_eq!(Lock::parse(want.as_bytes()).unwrap(), l);
    }

    #[test]
    fn a_linked_entry_is_written_with_linked_in_place_of_the_pin() {
        let mut l = Lock::default();
        let mut e = pinned(&["mark"], &[]);
        e.source = Source::Linked {
            dir: "/src/mark".into(),
        };
        l.insert("mark", e);
        let want = r#"{
  "mark": {
    "commands": [
      "mark"
    ],
    "contract": 1,
    "installed": "2026-09-08T10:14:22Z",
    "linked": "/src/mark",
    "needs": []
  }
}
"#;
        assert_eq!(String::from_utf8(l.to_bytes()).unwrap(), want);
        assert_eq!(Lock::parse(want.as_bytes()).unwrap(), l);
    }

    #[test]
    fn keys_are_sorted_at_every_depth_and_unknown_fields_survive() {
        let mut typed = pinned_json(json!(["t"]), json!([]));
        typed["zz"] = json!({"b": [2, {"y": 0, "x": 0}], "a": null});
        typed["url"] = "file:///r".into();
        let l = lock(&format!(
            r#"{{"zed": {{"z": 1, "kind": "link", "extra": {{"b": [2, {{"y": 0, "x": 0}}], "a": null}}}},
                "abc": 7, "mark": {{"repo": "o/r", "commands": ["mark"]}}, "typed": {typed}}}"#,
        ));
        assert!(matches!(l.get("typed"), Some(Slot::Typed(_))));
        let want = format!(
            r#"{{
  "abc": 7,
  "mark": {{
    "commands": [
      "mark"
    ],
    "repo": "o/r"
  }},
  "typed": {{
    "commands": [
      "t"
    ],
    "commit": "{SHA}",
    "contract": 1,
    "installed": "2026-09-08T10:14:22Z",
    "needs": [],
    "ref": "v0.1.0",
    "repo": "owner/roost-mark",
    "tree": "{TREE}",
    "url": "file:///r",
    "zz": {{
      "a": null,
      "b": [
        2,
        {{
          "x": 0,
          "y": 0
        }}
      ]
    }}
  }},
  "zed": {{
    "extra": {{
      "a": null,
      "b": [
        2,
        {{
          "x": 0,
          "y": 0
        }}
      ]
    }},
    "kind": "link",
    "z": 1
  }}
}}
"#
        );
        assert_eq!(String::from_utf8(l.to_bytes()).unwrap(), want);
        let mut edited = l.clone();
        edited.insert("new", pinned(&["new"], &[]));
        assert!(edited.remove("new"));
        assert_eq!(edited.to_bytes(), l.to_bytes());
    }

    #[test]
    fn insert_replaces_only_its_own_entry() {
        let mut l = lock(r#"{"mark": {"old": true}, "other": {"keep": [1, 2]}}"#);
        l.insert("mark", pinned(&["mark"], &[]));
        let mark = l.entry("mark").unwrap();
        assert!(mark.extra.is_empty());
        assert_eq!(mark.pin().unwrap().commit, SHA);
        let Some(Slot::Unreadable(other)) = l.get("other") else {
            panic!("{:?}", l.get("other"));
        };
        assert_eq!(other.raw, json!({"keep": [1, 2]}));
    }

    #[test]
    fn parse_refuses_anything_but_an_object() {
        assert_eq!(
            Lock::parse(b"[]").unwrap_err(),
            "ext.lock must be a JSON object, not an array"
        );
        assert_eq!(
            Lock::parse(b"null").unwrap_err(),
            "ext.lock must be a JSON object, not null"
        );
        assert!(Lock::parse(b"{\"a\":")
            .unwrap_err()
            .message()
            .starts_with("ext.lock is not valid JSON: "));
        assert!(Lock::parse(b"").unwrap().is_empty());
        assert!(Lock::parse(b" \n").unwrap().is_empty());
        assert!(Lock::parse(b"{}\n").unwrap().is_empty());
    }

    #[test]
    fn names_come_sorted_and_remove_reports_what_it_did() {
        let mut l = lock(r#"{"b": {}, "a": {}, "c": 1}"#);
        assert_eq!(l.names().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert!(l.get("b").is_some());
        assert!(l.remove("b"));
        assert!(!l.remove("b"));
        assert!(l.get("b").is_none());
        assert!(l.remove("a") && l.remove("c"));
        assert!(l.is_empty());
        assert_eq!(l.to_bytes(), b"{}\n");
    }

    #[test]
    fn entries_that_cannot_be_read_are_kept_with_a_printable_reason() {
        let mut l = Lock::default();
        l.insert("mark", pinned(&["mark", "marks"], &["fleet"]));
        let e = l.entry("mark").unwrap();
        assert_eq!(e.commands, ["mark", "marks"]);
        assert_eq!(e.needs, ["fleet"]);
        assert_eq!(e.contract.number, 1);
        assert!(l.entry("nope").is_none());

        let long = "x\u{1b}".repeat(200);
        let l = lock_of(json!({
            "odd": pinned_json(json!("mark"), json!([])),
            "bare": "x",
            "half": pinned_json(json!(["a", 2]), json!([true])),
            "long": pinned_json(json!(long), json!([])),
            "good": pinned_json(json!(["good"]), json!([])),
        }));
        let why = |name: &str| l.get(name).unwrap().typed().unwrap_err().why.clone();
        assert!(l.entry("odd").is_none());
        assert!(
            why("odd").starts_with("invalid type: string \"mark\""),
            "{}",
            why("odd")
        );
        assert!(
            why("bare").starts_with("invalid type: string \"x\""),
            "{}",
            why("bare")
        );
        assert!(
            why("half").starts_with("invalid type: integer `2`"),
            "{}",
            why("half")
        );
        let long = why("long");
        assert!(
            !long.contains('\u{1b}') && long.starts_with("invalid type: string"),
            "{long}"
        );
        assert_eq!(long.chars().count(), MAX_WHY + 1, "{long}");
        assert!(l.entry("good").is_some());
        assert_eq!(l.claims().keys().collect::<Vec<_>>(), [&"good"]);
    }

    #[test]
    fn the_index_is_derived_sorted_with_authorities() {
        let mut l = Lock::default();
        l.insert("mark", pinned(&["mark", "marks"], &["fleet"]));
        l.insert("note", pinned(&["note", "anote"], &[]));
        let lines = l.index_entries(clone_dir);
        let rendered = String::from_utf8(render_index(&lines)).unwrap();
        assert_eq!(
            rendered,
            "anote\tnote\t/data/roost/ext/note/bin/roost-anote\t\n\
             mark\tmark\t/data/roost/ext/mark/bin/roost-mark\tfleet\n\
             marks\tmark\t/data/roost/ext/mark/bin/roost-marks\tfleet\n\
             note\tnote\t/data/roost/ext/note/bin/roost-note\t\n"
        );
        let found = index::lookup(rendered.as_bytes(), b"marks").unwrap();
        assert_eq!(found, lines[2].entry());
        assert!(Lock::default().index_entries(clone_dir).is_empty());
    }

    #[test]
    fn nothing_invalid_in_the_lock_becomes_a_path_or_breaks_a_line() {
        let e = |commands: Value, needs: Value| pinned_json(commands, needs);
        let mut linked_rel = e(json!(["rel"]), json!([]));
        for key in ["repo", "ref", "commit", "tree"] {
            linked_rel.as_object_mut().unwrap().remove(key);
        }
        linked_rel["linked"] = "relative/dir".into();
        let l = lock_of(json!({
            "../evil": e(json!(["evil"]), json!([])),
            "Caps": e(json!(["caps"]), json!([])),
            "a b": e(json!(["ab"]), json!([])),
            "good": e(json!(["good", "../../bin/sh", "x\ty", "Up"]), json!(["fleet"])),
            "tabbed": e(json!(["tabbed"]), json!(["fleet\tx"])),
            "spaced": e(json!(["spaced"]), json!(["fleet net"])),
            "mistyped": e(json!(["mistyped"]), json!("fleet")),
            "unread": {"commands": ["unread"], "needs": []},
            "linked-rel": linked_rel,
            "unknown": e(json!(["unknown"]), json!(["fleet", "net"])),
        }));
        let lines = l.index_entries(clone_dir);
        let summary: Vec<(&str, &str, &str)> = lines
            .iter()
            .map(|l| {
                (
                    l.command.as_str(),
                    l.extension.as_str(),
                    l.authorities.as_str(),
                )
            })
            .collect();
        // An unknown but well-formed authority is kept for the dispatcher
        // to refuse; everything else above is left out.
        assert_eq!(
            summary,
            [
                ("good", "good", "fleet"),
                ("unknown", "unknown", "fleet net")
            ]
        );
        for line in &lines {
            let path = line.path.to_str().unwrap();
            assert!(path.starts_with("/data/roost/ext/"), "{path}");
            assert!(!path.contains(".."), "{path}");
        }
    }

    #[test]
    fn a_disabled_entry_is_kept_but_contributes_no_line_and_no_claim() {
        let mut l = Lock::default();
        l.insert("mark", pinned(&["mark"], &["fleet"]));
        let mut off = pinned(&["note"], &[]);
        off.disabled = true;
        l.insert("note", off);
        let lines = l.index_entries(clone_dir);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].command, "mark");
        assert_eq!(l.claims().get("note"), None);
        let text = String::from_utf8(l.to_bytes()).unwrap();
        assert!(text.contains("\"disabled\": true"), "{text}");
        assert_eq!(text.matches("disabled").count(), 1, "{text}");
        let read = Lock::parse(text.as_bytes()).unwrap();
        assert_eq!(read, l);
        assert!(read.entry("note").unwrap().disabled);
    }

    #[test]
    fn the_pin_an_update_replaced_is_written_as_a_pinned_entry_under_previous() {
        let old = pinned(&["mark"], &[]);
        let mut new = pinned(&["mark", "marks"], &["fleet"]);
        if let Source::Pinned(pin) = &mut new.source {
            pin.commit = TREE.into();
        }
        new.previous = old.as_previous().map(Box::new);
        let mut l = Lock::default();
        l.insert("mark", new);
        let v: Value = serde_json::from_slice(&l.to_bytes()).unwrap();
        assert_eq!(
            v["mark"]["previous"],
            json!({"commands": ["mark"], "commit": SHA, "contract": 1,
                   "installed": "2026-09-08T10:14:22Z", "needs": [],
                   "ref": "v0.1.0", "repo": "owner/roost-mark", "tree": TREE})
        );
        assert_eq!(Lock::parse(&l.to_bytes()).unwrap(), l);
        let back = l.entry("mark").unwrap().previous.as_deref().unwrap();
        assert_eq!(back.pin.commit, SHA);
        // A linked entry has no pin to go back to.
        let mut linked = pinned(&["mark"], &[]);
        linked.source = Source::Linked { dir: "/src".into() };
        assert!(linked.as_previous().is_none());
    }

    #[test]
    fn an_entry_whose_previous_pin_cannot_be_read_is_kept_as_found() {
        let mut e = pinned_json(json!(["mark"]), json!([]));
        let mut previous = pinned_json(json!(["mark"]), json!([]));
        previous.as_object_mut().unwrap().remove("tree");
        e["previous"] = previous;
        let mut bad_disabled = pinned_json(json!(["b"]), json!([]));
        bad_disabled["disabled"] = "yes".into();
        let mut null_previous = pinned_json(json!(["c"]), json!([]));
        null_previous["previous"] = Value::Null;
        let l = lock_of(json!({"mark": e, "b": bad_disabled, "c": null_previous}));
        let why = |name: &str| l.get(name).unwrap().typed().unwrap_err().why.clone();
        assert_eq!(why("mark"), "`previous`: missing field `tree`");
        assert!(why("b").starts_with("invalid type: string"), "{}", why("b"));
        assert!(why("c").starts_with("invalid type: null"), "{}", why("c"));
        assert!(l.index_entries(clone_dir).is_empty());
    }

    #[test]
    fn a_clone_dir_that_would_break_the_index_is_left_out() {
        let mut l = Lock::default();
        l.insert("mark", pinned(&["mark"], &[]));
        assert!(l.index_entries(|n| Path::new("/x\ty").join(n)).is_empty());
        assert!(l.index_entries(|n| Path::new("/x\ny").join(n)).is_empty());
    }

    #[test]
    fn a_command_claimed_twice_keeps_its_first_claimant() {
        let l = lock_of(json!({
            "zed": pinned_json(json!(["dup", "z"]), json!([])),
            "abe": pinned_json(json!(["dup"]), json!([])),
            "bad": pinned_json(json!("dup"), json!([])),
        }));
        let lines = l.index_entries(clone_dir);
        let owners: Vec<(&str, &str)> = lines
            .iter()
            .map(|l| (l.command.as_str(), l.extension.as_str()))
            .collect();
        assert_eq!(owners, [("dup", "abe"), ("z", "zed")]);
        let claims = l.claims();
        assert_eq!(claims.get("dup"), Some(&"abe"));
        assert_eq!(claims.get("z"), Some(&"zed"));
        assert_eq!(claims.get("d"), None);
        assert_eq!(claims.get("zed"), None);
    }
}
