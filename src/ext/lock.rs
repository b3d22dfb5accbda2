//! ext.lock, the record of what is installed: parse,
//! typed reads, edits that keep every field roost does not know, the
//! serialization (sorted keys at every depth, 2-space indent, trailing
//! newline), and the ext.index lines derived from it. Pure: reading and
//! writing the files, and locking them, belong to the caller.

use super::manifest::type_name;
use crate::index::{self, valid_name};
use serde_json::{Map, Value};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// ext.lock: one entry per installed extension, keyed by its name.
///
/// `serde_json::Map` is a `BTreeMap` (the crate's `preserve_order` feature
/// is off), so keys come out sorted at every depth; a test below fails if
/// that ever changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    entries: Map<String, Value>,
}

/// The fields roost writes for one git install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    /// OWNER/REPO as the user gave it.
    pub repo: String,
    /// What the user asked for (`HEAD` when no `--ref`).
    pub git_ref: String,
    /// The pinned commit, 40 hex.
    pub commit: String,
    /// The git tree hash of the installed directory, `.git` excluded.
    pub tree: String,
    pub commands: Vec<String>,
    pub needs: Vec<String>,
    pub contract: u32,
    /// `YYYY-MM-DDTHH:MM:SSZ` (see `utc_timestamp`).
    pub installed: String,
    /// The source actually fetched from (later updates use it, not today's
    /// `ROOST_EXT_GIT_BASE`); `None` for a linked checkout.
    pub url: Option<String>,
}

/// One ext.index line derived from the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    pub command: String,
    pub extension: String,
    /// `clone_dir(extension)/bin/roost-COMMAND`.
    pub path: PathBuf,
    /// The entry's `needs`, space-separated; empty for none.
    pub authorities: String,
}

impl IndexLine {
    /// The line as `index::render` takes it.
    pub fn entry(&self) -> index::Entry<'_> {
        index::Entry {
            command: self.command.as_bytes(),
            extension: self.extension.as_bytes(),
            path: self.path.as_os_str().as_bytes(),
            authorities: self.authorities.as_bytes(),
        }
    }
}

/// The ext.index text for these lines.
pub fn render_index(lines: &[IndexLine]) -> Vec<u8> {
    let entries: Vec<index::Entry<'_>> = lines.iter().map(IndexLine::entry).collect();
    index::render(&entries)
}

impl Lock {
    /// The lock's text. Empty (or blank) text is an empty lock; anything
    /// else must be a JSON object. Entries are kept as found, whatever they
    /// hold, so that rewriting the file loses nothing.
    pub fn parse(bytes: &[u8]) -> Result<Lock, String> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Lock::default());
        }
        match serde_json::from_slice(bytes) {
            Ok(Value::Object(entries)) => Ok(Lock { entries }),
            Ok(other) => Err(format!(
                "ext.lock must be a JSON object, not {}",
                type_name(&other)
            )),
            Err(e) => Err(format!("ext.lock is not valid JSON: {e}")),
        }
    }

    /// The file's bytes: sorted keys at every depth, 2-space indent,
    /// trailing newline. (An empty lock is deleted, not written: the caller
    /// checks `is_empty` first.)
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(&self.entries)
            .expect("a JSON map serializes into memory without error");
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

    pub fn get(&self, name: &str) -> Option<LockEntry<'_>> {
        self.entries.get(name).map(|value| LockEntry { value })
    }

    /// Records an install, replacing any previous entry of that name
    /// entirely; every other entry is left exactly as it was.
    pub fn insert(&mut self, name: &str, entry: &NewEntry) {
        let strings = |items: &[String]| Value::from(items.to_vec());
        let mut fields = Map::new();
        fields.insert("commands".into(), strings(&entry.commands));
        fields.insert("commit".into(), entry.commit.clone().into());
        fields.insert("contract".into(), entry.contract.into());
        fields.insert("installed".into(), entry.installed.clone().into());
        fields.insert("needs".into(), strings(&entry.needs));
        fields.insert("ref".into(), entry.git_ref.clone().into());
        fields.insert("repo".into(), entry.repo.clone().into());
        fields.insert("tree".into(), entry.tree.clone().into());
        if let Some(url) = &entry.url {
            fields.insert("url".into(), url.clone().into());
        }
        self.entries.insert(name.to_string(), Value::Object(fields));
    }

    /// Records an extension linked to an author's checkout (`install --link`):
    /// no repo, ref, commit or tree, because nothing is pinned.
    pub fn insert_linked(&mut self, name: &str, dir: &str, entry: &NewEntry) {
        let strings = |items: &[String]| Value::from(items.to_vec());
        let mut fields = Map::new();
        fields.insert("commands".into(), strings(&entry.commands));
        fields.insert("contract".into(), entry.contract.into());
        fields.insert("installed".into(), entry.installed.clone().into());
        fields.insert("linked".into(), dir.into());
        fields.insert("needs".into(), strings(&entry.needs));
        self.entries.insert(name.to_string(), Value::Object(fields));
    }

    /// Drops an entry; false if there was none.
    pub fn remove(&mut self, name: &str) -> bool {
        self.entries.remove(name).is_some()
    }

    /// Every claimed command and the extension that claims it: the first by
    /// name, if a hand edit made two claim it (the same one the index
    /// keeps). One pass, so checking a manifest against many installed
    /// commands stays linear.
    pub fn claims(&self) -> std::collections::HashMap<&str, &str> {
        let mut claims = std::collections::HashMap::new();
        for (name, value) in &self.entries {
            for command in (LockEntry { value }).commands().unwrap_or_default() {
                claims.entry(command).or_insert(name.as_str());
            }
        }
        claims
    }

    /// The ext.index lines this lock stands for, sorted by command.
    /// `clone_dir(name)` is where extension `name` is cloned.
    ///
    /// Nothing from the lock becomes a path unless it is a valid name, and
    /// nothing that could break a line or field of the index gets in: an
    /// invalid extension name or command is skipped, and an entry whose
    /// `commands` or `needs` is malformed is left out whole, so it never
    /// runs with authorities other than those it declared. A command claimed
    /// twice keeps its first claimant (by extension name).
    pub fn index_entries(&self, clone_dir: impl Fn(&str) -> PathBuf) -> Vec<IndexLine> {
        let mut lines: Vec<IndexLine> = Vec::new();
        let mut taken = std::collections::HashSet::new();
        for (name, value) in &self.entries {
            let entry = LockEntry { value };
            let (Some(commands), Some(needs)) = (entry.commands(), entry.needs()) else {
                continue;
            };
            if !valid_name(name.as_bytes()) || !needs.iter().all(|n| valid_name(n.as_bytes())) {
                continue;
            }
            let authorities = needs.join(" ");
            let base = match entry.linked() {
                None => clone_dir(name),
                Some(dir) if std::path::Path::new(dir).is_absolute() => PathBuf::from(dir),
                Some(_) => continue,
            };
            let bin = base.join("bin");
            for command in commands {
                if !valid_name(command.as_bytes()) || taken.contains(command) {
                    continue;
                }
                let path = bin.join(format!("roost-{command}"));
                if path.as_os_str().as_bytes().contains(&b'\t')
                    || path.as_os_str().as_bytes().contains(&b'\n')
                {
                    continue;
                }
                taken.insert(command);
                lines.push(IndexLine {
                    command: command.to_string(),
                    extension: name.clone(),
                    path,
                    authorities: authorities.clone(),
                });
            }
        }
        lines.sort_by(|a, b| a.command.cmp(&b.command));
        lines
    }
}

/// A read-only view of one entry. Every accessor tolerates a hand-edited
/// entry: a missing or mistyped field reads as `None`.
#[derive(Debug, Clone, Copy)]
pub struct LockEntry<'a> {
    value: &'a Value,
}

impl<'a> LockEntry<'a> {
    /// The entry as stored, unknown fields included (for `info --json`).
    pub fn raw(&self) -> &'a Value {
        self.value
    }

    pub fn repo(&self) -> Option<&'a str> {
        self.string("repo")
    }

    /// `ref`: what the user asked for.
    /// Where it was fetched from, when this roost recorded it (entries
    /// written before carry only `repo`).
    pub fn url(&self) -> Option<&'a str> {
        self.value.get("url")?.as_str()
    }

    pub fn git_ref(&self) -> Option<&'a str> {
        self.string("ref")
    }

    pub fn commit(&self) -> Option<&'a str> {
        self.string("commit")
    }

    pub fn tree(&self) -> Option<&'a str> {
        self.string("tree")
    }

    /// The author's checkout this extension runs from, when linked.
    pub fn linked(&self) -> Option<&'a str> {
        self.string("linked")
    }

    pub fn installed(&self) -> Option<&'a str> {
        self.string("installed")
    }

    /// `contract`, written as a number; a string of digits is read too.
    pub fn contract(&self) -> Option<u64> {
        match self.value.get("contract")? {
            Value::Number(n) => n.as_u64(),
            Value::String(s) if s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
            _ => None,
        }
    }

    /// `commands`; `None` when it is not an array of strings.
    pub fn commands(&self) -> Option<Vec<&'a str>> {
        self.strings("commands")
    }

    /// `needs`: absent or `null` is none; `None` when it is not an array of
    /// strings.
    pub fn needs(&self) -> Option<Vec<&'a str>> {
        self.strings("needs")
    }

    fn string(&self, key: &str) -> Option<&'a str> {
        self.value.get(key)?.as_str()
    }

    /// An array-of-strings field; absent or `null` reads as empty.
    fn strings(&self, key: &str) -> Option<Vec<&'a str>> {
        match self.value.get(key) {
            None | Some(Value::Null) => Some(Vec::new()),
            Some(Value::Array(items)) => items.iter().map(Value::as_str).collect(),
            Some(_) => None,
        }
    }
}

/// `time` as `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds, rounded down).
pub fn utc_timestamp(time: SystemTime) -> String {
    let seconds = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        Err(e) => {
            let before = e.duration();
            let whole = i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
            -whole - i64::from(before.subsec_nanos() > 0)
        }
    };
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    let of_day = seconds.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are in range by construction: day 1..=31, month 1..=12.
    (year, month as u32, day as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::time::Duration;

    const SHA: &str = "0123456789abcdef0123456789abcdef01234567";
    const TREE: &str = "89abcdef0123456789abcdef0123456789abcdef";

    fn new_entry(commands: &[&str], needs: &[&str]) -> NewEntry {
        NewEntry {
            repo: "owner/roost-mark".into(),
            git_ref: "v0.1.0".into(),
            commit: SHA.into(),
            tree: TREE.into(),
            commands: commands.iter().map(|c| c.to_string()).collect(),
            needs: needs.iter().map(|n| n.to_string()).collect(),
            contract: 1,
            installed: "2026-09-08T10:14:22Z".into(),
            url: None,
        }
    }

    fn clone_dir(name: &str) -> PathBuf {
        Path::new("/data/roost/ext").join(name)
    }

    fn lock(text: &str) -> Lock {
        Lock::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn an_inserted_entry_is_written_as_the_contract_shows() {
        let mut l = Lock::default();
        l.insert("mark", &new_entry(&["mark", "marks"], &["fleet"]));
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
    fn keys_are_sorted_at_every_depth_and_unknown_fields_survive() {
        let l = lock(
            r#"{"zed": {"z": 1, "kind": "link", "extra": {"b": [2, {"y": 0, "x": 0}], "a": null}},
                "abc": 7, "mark": {"repo": "o/r", "commands": ["mark"]}}"#,
        );
        let want = r#"{
  "abc": 7,
  "mark": {
    "commands": [
      "mark"
    ],
    "repo": "o/r"
  },
  "zed": {
    "extra": {
      "a": null,
      "b": [
        2,
        {
          "x": 0,
          "y": 0
        }
      ]
    },
    "kind": "link",
    "z": 1
  }
}
"#;
        assert_eq!(String::from_utf8(l.to_bytes()).unwrap(), want);
        let mut edited = l.clone();
        edited.insert("new", &new_entry(&["new"], &[]));
        assert!(edited.remove("new"));
        assert_eq!(edited.to_bytes(), l.to_bytes());
    }

    #[test]
    fn insert_replaces_only_its_own_entry() {
        let mut l = lock(r#"{"mark": {"old": true}, "other": {"keep": [1, 2]}}"#);
        l.insert("mark", &new_entry(&["mark"], &[]));
        let mark = l.get("mark").unwrap();
        assert_eq!(mark.raw().get("old"), None);
        assert_eq!(mark.commit(), Some(SHA));
        assert_eq!(
            l.get("other").unwrap().raw(),
            &serde_json::json!({"keep": [1, 2]})
        );
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
    fn entry_fields_read_typed_and_tolerate_hand_edits() {
        let mut l = Lock::default();
        l.insert("mark", &new_entry(&["mark", "marks"], &["fleet"]));
        let e = l.get("mark").unwrap();
        assert_eq!(e.repo(), Some("owner/roost-mark"));
        assert_eq!(e.git_ref(), Some("v0.1.0"));
        assert_eq!(e.commit(), Some(SHA));
        assert_eq!(e.tree(), Some(TREE));
        assert_eq!(e.installed(), Some("2026-09-08T10:14:22Z"));
        assert_eq!(e.contract(), Some(1));
        assert_eq!(e.commands(), Some(vec!["mark", "marks"]));
        assert_eq!(e.needs(), Some(vec!["fleet"]));
        assert!(l.get("nope").is_none());

        let l = lock(
            r#"{"odd": {"repo": 5, "contract": "1", "commands": "mark", "needs": null},
                "bare": "x", "half": {"commands": ["a", 2], "needs": [true]}}"#,
        );
        let odd = l.get("odd").unwrap();
        assert_eq!(odd.repo(), None);
        assert_eq!(odd.contract(), Some(1));
        assert_eq!(odd.commands(), None);
        assert_eq!(odd.needs(), Some(vec![]));
        let bare = l.get("bare").unwrap();
        assert_eq!((bare.commit(), bare.commands()), (None, Some(vec![])));
        let half = l.get("half").unwrap();
        assert_eq!((half.commands(), half.needs()), (None, None));
    }

    #[test]
    fn the_index_is_derived_sorted_with_authorities() {
        let mut l = Lock::default();
        l.insert("mark", &new_entry(&["mark", "marks"], &["fleet"]));
        l.insert("note", &new_entry(&["note", "anote"], &[]));
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
        let l = lock(
            r#"{
              "../evil": {"commands": ["evil"]},
              "Caps": {"commands": ["caps"]},
              "a b": {"commands": ["ab"]},
              "good": {"commands": ["good", "../../bin/sh", "x\ty", "Up"], "needs": ["fleet"]},
              "tabbed": {"commands": ["tabbed"], "needs": ["fleet\tx"]},
              "spaced": {"commands": ["spaced"], "needs": ["fleet net"]},
              "mistyped": {"commands": ["mistyped"], "needs": "fleet"},
              "unknown": {"commands": ["unknown"], "needs": ["fleet", "net"]}
            }"#,
        );
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
    fn a_clone_dir_that_would_break_the_index_is_left_out() {
        let mut l = Lock::default();
        l.insert("mark", &new_entry(&["mark"], &[]));
        assert!(l.index_entries(|n| Path::new("/x\ty").join(n)).is_empty());
        assert!(l.index_entries(|n| Path::new("/x\ny").join(n)).is_empty());
    }

    #[test]
    fn a_command_claimed_twice_keeps_its_first_claimant() {
        let l = lock(
            r#"{"zed": {"commands": ["dup", "z"]}, "abe": {"commands": ["dup"]},
                "bad": {"commands": "dup"}}"#,
        );
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

    #[test]
    fn timestamps_are_utc_iso_8601_seconds() {
        let at = |secs: u64| utc_timestamp(UNIX_EPOCH + Duration::from_secs(secs));
        // Each checked with `date -u -d @SECONDS +%Y-%m-%dT%H:%M:%SZ`.
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(1_788_862_462), "2026-09-08T10:14:22Z");
        assert_eq!(at(68_169_600), "1972-02-29T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_709_208_000), "2024-02-29T12:00:00Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
        assert_eq!(at(253_402_300_799), "9999-12-31T23:59:59Z");
        let sub_second = UNIX_EPOCH + Duration::from_millis(1_788_862_462_999);
        assert_eq!(utc_timestamp(sub_second), "2026-09-08T10:14:22Z");
    }

    #[test]
    fn timestamps_before_1970_round_down() {
        let before = |d: Duration| utc_timestamp(UNIX_EPOCH - d);
        assert_eq!(before(Duration::from_secs(1)), "1969-12-31T23:59:59Z");
        assert_eq!(before(Duration::from_millis(500)), "1969-12-31T23:59:59Z");
        assert_eq!(before(Duration::from_secs(86_400)), "1969-12-31T00:00:00Z");
    }

    #[test]
    fn every_day_of_four_centuries_follows_the_previous_one() {
        let mut previous = civil_from_days(-1);
        assert_eq!(previous, (1969, 12, 31));
        for days in 0..146_097 {
            let (y, m, d) = civil_from_days(days);
            let (py, pm, pd) = previous;
            let next_day = (y, m) == (py, pm) && d == pd + 1;
            let next_month = y == py && m == pm + 1 && d == 1;
            let next_year = y == py + 1 && (m, d, pm, pd) == (1, 1, 12, 31);
            assert!(
                next_day || next_month || next_year,
                "{days}: {previous:?} -> {:?}",
                (y, m, d)
            );
            previous = (y, m, d);
        }
        assert_eq!(previous, (2369, 12, 31));
    }
}
