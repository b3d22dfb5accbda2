//! The set file `export` writes and `sync` reads: one line per pinned
//! extension, sorted by name, its fields separated by one space, so that
//! two sets diff line by line. Pure: reading the file (bounded, as a
//! regular file) is the caller's. Every field is checked as ext.lock's are
//! (the file is untrusted input), and a line that fails is kept, with its
//! number and why, for `sync` to list.

use super::error::{ExtError, Result};
use super::lock::{Entry, Lock, Pin, Source};
use super::names;
use std::collections::BTreeMap;

/// The first line, naming the format (a later format gets another number).
pub const HEADER: &str = "# roost extension set, format 1";

/// The second line: the fields, in order.
pub const FIELDS: &str = "# name repo ref commit tree authority disabled signer url settings";

/// The most bytes a set file may hold (`sync` reads no more).
pub const MAX_BYTES: u64 = 1 << 20;

/// The most extensions one set may list.
pub const MAX_LINES: usize = 10_000;

/// A field that holds nothing (no authority, no signer recorded, no URL).
const NONE: &str = "-";

/// The most bytes a signer field may hold.
const MAX_SIGNER: usize = 256;

/// One extension as the set lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub name: String,
    /// Its repository, ref, commit, tree and URL, as ext.lock records a pin.
    pub pin: Pin,
    /// The authority it was granted, sorted.
    pub authority: Vec<String>,
    pub disabled: bool,
    /// Who signed the pinned commit, as recorded; `None` when nothing is.
    pub signer: Option<String>,
    /// The settings set for it (never a secret), by key, as text.
    pub settings: BTreeMap<String, String>,
}

/// A line `sync` cannot read: its number (from 1) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub number: usize,
    pub why: String,
}

/// A set file, read.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Set {
    /// By name.
    pub lines: BTreeMap<String, Line>,
    pub unreadable: Vec<Unreadable>,
}

/// What `export` leaves out: linked extensions (nothing is pinned) and
/// entries it cannot read, by name, with why.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Left {
    pub linked: Vec<String>,
    pub unreadable: Vec<(String, String)>,
}

/// The signer ext.lock records for an entry (its pin's `signer`; none
/// for an entry written before roost recorded signers): what export
/// writes and `sync` compares the file's with.
pub fn recorded_signer(entry: &Entry) -> Option<String> {
    match &entry.source {
        Source::Pinned(pin) => pin.signer.clone(),
        _ => None,
    }
}

/// Where export takes each extension's settings from: its name and entry
/// to the values set for it (never a secret).
pub type SettingsOf<'a> = &'a dyn Fn(&str, &Entry) -> BTreeMap<String, String>;

/// The line for one ext.lock entry, or `None` for a linked one.
pub fn line_for(name: &str, entry: &Entry, settings_of: SettingsOf) -> Option<Line> {
    let Source::Pinned(pin) = &entry.source else {
        return None;
    };
    let mut authority = entry.needs.clone();
    authority.sort();
    authority.dedup();
    Some(Line {
        name: name.to_string(),
        pin: Pin {
            signer: None,
            signers: Vec::new(),
            ..pin.clone()
        },
        authority,
        disabled: entry.disabled,
        signer: recorded_signer(entry),
        settings: settings_of(name, entry),
    })
}

/// The set file for everything pinned in `lock`, and what was left out.
pub fn export(lock: &Lock, settings_of: SettingsOf) -> (String, Left) {
    let mut left = Left::default();
    let mut lines = Vec::new();
    for name in lock.invalid_names() {
        let shown = crate::untrusted::printable(name.as_bytes());
        left.unreadable
            .push((shown, "it is not a name install writes".to_string()));
    }
    for name in lock.valid_names() {
        match lock.get(name).map(|s| s.typed()) {
            Some(Ok(entry)) => match line_for(name, entry, settings_of) {
                Some(line) => lines.push(line),
                None => left.linked.push(name.to_string()),
            },
            Some(Err(u)) => left.unreadable.push((
                name.to_string(),
                format!("its ext.lock entry cannot be read: {}", u.why),
            )),
            None => {}
        }
    }
    lines.sort_by(|a, b| a.name.cmp(&b.name));
    (render(&lines), left)
}

/// The text of a set holding `lines` (in the order given).
pub fn render(lines: &[Line]) -> String {
    let mut out = format!("{HEADER}\n{FIELDS}\n");
    for l in lines {
        let authority = match l.authority.is_empty() {
            true => NONE.to_string(),
            false => l.authority.join(","),
        };
        let fields = [
            l.name.as_str(),
            &l.pin.repo,
            &l.pin.git_ref,
            &l.pin.commit,
            &l.pin.tree,
            &authority,
            if l.disabled { "yes" } else { "no" },
            &l.signer
                .as_deref()
                .map(encode)
                .unwrap_or_else(|| NONE.into()),
            l.pin.url.as_deref().unwrap_or(NONE),
            &render_settings(&l.settings),
        ];
        out.push_str(&fields.join(" "));
        out.push('\n');
    }
    out
}

/// The settings field: `-`, or `KEY=VALUE` pairs joined by `,`, each
/// value encoded (and `,` and `=` in it too).
fn render_settings(settings: &BTreeMap<String, String>) -> String {
    if settings.is_empty() {
        return NONE.to_string();
    }
    let pairs: Vec<String> = settings
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v).replace(',', "%2C").replace('=', "%3D")))
        .collect();
    pairs.join(",")
}

/// The settings a field holds, or why it cannot be read.
fn parse_settings(name: &str, field: &str) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    if field == NONE {
        return Ok(out);
    }
    use super::settings::declaration::{valid_key, MAX_SETTINGS};
    for pair in field.split(',') {
        let bad = || {
            ExtError::refused(format!(
                "{name}: '{}' is not a setting as KEY=VALUE, the key [a-z][a-z0-9_]*, \
                 the value written %XX where it is not printable ASCII",
                crate::untrusted::printable(pair.as_bytes())
            ))
        };
        let (key, value) = pair.split_once('=').ok_or_else(bad)?;
        if !valid_key(key) || out.contains_key(key) || out.len() >= MAX_SETTINGS {
            return Err(bad());
        }
        let value = decode(value, super::settings::declaration::MAX_VALUE).ok_or_else(bad)?;
        out.insert(key.to_string(), value);
    }
    Ok(out)
}

/// A signer (or a setting's value) as its field holds it: printable ASCII
/// but `%` as it is, every other byte (a space in a certificate's name,
/// say) as `%XX`, so that a field never holds a space and a line stays
/// one line.
fn encode(signer: &str) -> String {
    let mut out = String::new();
    for b in signer.bytes() {
        match b {
            b'%' => out.push_str("%25"),
            b if b.is_ascii_graphic() => out.push(char::from(b)),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The text a field holds; `None` when it is not one `encode` writes
/// (a bad escape, not UTF-8, or over `max` bytes).
fn decode(field: &str, max: usize) -> Option<String> {
    let bytes = field.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return None;
                }
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b if b.is_ascii_graphic() => {
                out.push(b);
                i += 1;
            }
            _ => return None,
        }
    }
    (out.len() <= max).then_some(())?;
    String::from_utf8(out).ok()
}

/// Reads a set file's bytes. Refused whole when it is not a set file at
/// all (no header, or another format); otherwise each line that cannot be
/// read is kept in `unreadable`.
pub fn parse(bytes: &[u8]) -> Result<Set> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ExtError::refused("it is not UTF-8 text, so it is not a set file"))?;
    let mut lines = text.split_terminator('\n');
    match lines.next() {
        Some(HEADER) => {}
        Some(first) if first.starts_with("# roost extension set") => {
            return Err(ExtError::refused(format!(
                "its first line is '{}': a format this roost does not read",
                crate::untrusted::printable(first.as_bytes())
            ))
            .hint("export the set again with this roost's `roost ext export`"))
        }
        _ => {
            return Err(ExtError::refused(format!(
                "its first line is not '{HEADER}', so it is not a set file"
            ))
            .hint("`roost ext export --output FILE` writes one"))
        }
    }
    let mut set = Set::default();
    let mut count = 0;
    for (i, raw) in lines.enumerate() {
        let number = i + 2;
        if raw.starts_with('#') || raw.is_empty() {
            continue;
        }
        count += 1;
        if count > MAX_LINES {
            return Err(ExtError::refused(format!(
                "it lists more than {MAX_LINES} extensions, the limit for one set"
            )));
        }
        match parse_line(raw) {
            Ok(line) if set.lines.contains_key(&line.name) => set.unreadable.push(Unreadable {
                number,
                why: format!("{} is listed twice", line.name),
            }),
            Ok(line) => {
                set.lines.insert(line.name.clone(), line);
            }
            Err(e) => set.unreadable.push(Unreadable {
                number,
                why: e.message().to_string(),
            }),
        }
    }
    Ok(set)
}

/// One extension's line, or why it cannot be read.
fn parse_line(raw: &str) -> Result<Line> {
    let fields: Vec<&str> = raw.split(' ').collect();
    let [name, repo, git_ref, commit, tree, authority, disabled, signer, url, settings] =
        fields[..]
    else {
        return Err(ExtError::refused(format!(
            "it has {} fields separated by single spaces; a set line has 10",
            fields.len()
        )));
    };
    if !crate::index::valid_name(name.as_bytes()) {
        return Err(ExtError::refused(format!(
            "'{}' is not an extension name",
            crate::untrusted::printable(name.as_bytes())
        )));
    }
    let why = |what: &str, e: ExtError| e.within(format!("{name}: its {what}"));
    names::check_recorded_repo(repo).map_err(|e| why("repo", e))?;
    if git_ref != "HEAD" {
        names::check_ref(git_ref).map_err(|e| why("ref", e))?;
    }
    for (what, id) in [("commit", commit), ("tree", tree)] {
        if !names::is_full_sha(id) || id.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(ExtError::refused(format!(
                "{name}: its {what} '{}' is not 40 lowercase hex digits",
                crate::untrusted::printable(id.as_bytes())
            )));
        }
    }
    let authority: Vec<String> = match authority {
        NONE => Vec::new(),
        list => list.split(',').map(String::from).collect(),
    };
    if let Some(a) = authority
        .iter()
        .find(|a| !crate::contract::AUTHORITIES.contains(&a.as_str()))
    {
        return Err(ExtError::refused(format!(
            "{name}: '{}' is not an authority this roost knows",
            crate::untrusted::printable(a.as_bytes())
        )));
    }
    let disabled = match disabled {
        "yes" => true,
        "no" => false,
        other => {
            return Err(ExtError::refused(format!(
                "{name}: disabled is '{}', not yes or no",
                crate::untrusted::printable(other.as_bytes())
            )))
        }
    };
    let signer = match signer {
        NONE => None,
        s => Some(decode(s, MAX_SIGNER).ok_or_else(|| {
            ExtError::refused(format!(
                "{name}: the signer '{}' is not UTF-8 of at most {MAX_SIGNER} bytes, \
                 each space, control byte, % or non-ASCII byte written %XX",
                crate::untrusted::printable(s.as_bytes())
            ))
        })?),
    };
    let url = match url {
        NONE => None,
        u => {
            names::check_recorded_url(u).map_err(|e| why("url", e))?;
            Some(u.to_string())
        }
    };
    let mut sorted = authority.clone();
    sorted.sort();
    sorted.dedup();
    Ok(Line {
        name: name.to_string(),
        pin: Pin {
            repo: repo.to_string(),
            git_ref: git_ref.to_string(),
            commit: commit.to_string(),
            tree: tree.to_string(),
            url,
            // The signer stands in `Line`: what is recorded is what the
            // fetched commit carries, held to this.
            signer: None,
            signers: Vec::new(),
        },
        authority: sorted,
        disabled,
        signer,
        settings: parse_settings(name, settings)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str) -> Line {
        Line {
            name: name.into(),
            pin: Pin {
                repo: "owner/roost-x".into(),
                git_ref: "main".into(),
                commit: "a".repeat(40),
                tree: "b".repeat(40),
                url: Some("https://example.com/owner/roost-x".into()),
                signer: None,
                signers: Vec::new(),
            },
            authority: vec!["fleet".into()],
            disabled: true,
            signer: None,
            settings: BTreeMap::new(),
        }
    }

    #[test]
    fn a_rendered_set_reads_back_as_it_was() {
        let lines = vec![line("a"), line("b")];
        let text = render(&lines);
        assert!(text.starts_with(&format!("{HEADER}\n{FIELDS}\n")));
        assert!(text.contains(&format!(
            "a owner/roost-x main {} {} fleet yes - https://example.com/owner/roost-x -\n",
            "a".repeat(40),
            "b".repeat(40)
        )));
        let set = parse(text.as_bytes()).unwrap();
        assert_eq!(set.unreadable, vec![]);
        assert_eq!(set.lines.values().cloned().collect::<Vec<_>>(), lines);
    }

    #[test]
    fn a_signer_with_spaces_or_any_byte_stays_one_field() {
        for signer in [
            "unsigned",
            "ssh:SHA256:ab+c/d=",
            "x509:Jane Doe <j@x>",
            "100%",
            "é\tx",
        ] {
            let field = encode(signer);
            assert!(field.bytes().all(|b| b.is_ascii_graphic()), "{field}");
            assert_eq!(decode(&field, MAX_SIGNER).as_deref(), Some(signer));
        }
        assert_eq!(encode("x509:Jane Doe"), "x509:Jane%20Doe");
        for bad in ["%", "%2", "%zz", "%FF", &"a".repeat(MAX_SIGNER + 1)] {
            assert_eq!(decode(bad, MAX_SIGNER), None, "{bad}");
        }
    }

    #[test]
    fn each_bad_line_is_kept_with_its_number_and_why() {
        let good = render(&[line("a")]);
        let text = format!(
            "{good}a x\nb owner/roost-x main {} {} fleet maybe - - -\n{}",
            "a".repeat(40),
            "b".repeat(40),
            good.lines().nth(2).unwrap()
        );
        let set = parse(text.as_bytes()).unwrap();
        let whys: Vec<(usize, &str)> = set
            .unreadable
            .iter()
            .map(|u| (u.number, u.why.as_str()))
            .collect();
        assert_eq!(
            whys,
            vec![
                (
                    4,
                    "it has 2 fields separated by single spaces; a set line has 10"
                ),
                (5, "b: disabled is 'maybe', not yes or no"),
                (6, "a is listed twice"),
            ]
        );
        assert!(parse(b"name repo\n").is_err());
        assert!(parse(b"# roost extension set, format 9\n").is_err());
    }

    #[test]
    fn settings_stay_one_field_and_read_back() {
        let mut l = line("x");
        l.settings
            .insert("cmd".into(), "echo a,b=c d%e\u{e9}".into());
        l.settings.insert("level".into(), "all".into());
        let text = render(std::slice::from_ref(&l));
        let last = text.lines().last().unwrap();
        assert!(
            last.ends_with(" cmd=echo%20a%2Cb%3Dc%20d%25e%C3%A9,level=all"),
            "{last}"
        );
        assert_eq!(parse(text.as_bytes()).unwrap().lines["x"], l);
        for bad in ["Cmd=1", "cmd", "cmd=1,cmd=2", "cmd=%zz", "=1"] {
            let broken = text.replace(
                " cmd=echo%20a%2Cb%3Dc%20d%25e%C3%A9,level=all",
                &format!(" {bad}"),
            );
            assert_eq!(
                parse(broken.as_bytes()).unwrap().unreadable.len(),
                1,
                "{bad}"
            );
        }
    }
}
