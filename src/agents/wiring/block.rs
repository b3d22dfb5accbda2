//! A block of lines roost owns inside a file of another format (aider's
//! YAML), between two comment lines that name it. Installing replaces the
//! block (or appends it); removing cuts exactly its lines. Keys the block
//! sets may not also be set outside it.

pub const BEGIN: &str =
    "# >>> roost: written by `roost hooks install`; `roost hooks remove` takes it out";
pub const END: &str = "# <<< roost";

/// The file's lines outside roost's block, byte for byte, and whether it
/// had one. Bytes are bytes here: a line that is not UTF-8 outside the
/// block is kept as it is.
fn split(text: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(text.len());
    let mut inside = false;
    let mut found = false;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let bare = trim_eol(line);
        if !inside && bare == BEGIN.as_bytes() {
            inside = true;
            found = true;
        } else if inside && bare == END.as_bytes() {
            inside = false;
        } else if !inside {
            out.extend_from_slice(line);
        }
    }
    (out, found)
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Whether the file has roost's block, and its lines.
pub fn block_of(text: &[u8]) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !inside && line == BEGIN.as_bytes() {
            inside = true;
        } else if inside && line == END.as_bytes() {
            return Some(lines);
        } else if inside {
            lines.push(String::from_utf8_lossy(line).into_owned());
        }
    }
    None
}

/// A key roost's block sets is set outside it too: which.
#[derive(Debug, PartialEq, Eq)]
pub struct SetOutside(pub String);

impl std::fmt::Display for SetOutside {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "it sets {} already (outside roost's block)", self.0)
    }
}

/// The text with roost's block holding `body` (lines without newlines).
/// `keys` are the top-level keys the block sets: one of them set outside
/// the block is refused, naming it.
pub fn install(text: &[u8], body: &[String], keys: &[&str]) -> Result<Vec<u8>, SetOutside> {
    let (mut rest, _) = split(text);
    for line in rest.split(|&b| b == b'\n') {
        for key in keys {
            if line
                .strip_prefix(key.as_bytes())
                .is_some_and(|r| r.trim_ascii_start().starts_with(b":"))
            {
                return Err(SetOutside(key.to_string()));
            }
        }
    }
    if !rest.is_empty() && !rest.ends_with(b"\n") {
        rest.push(b'\n');
    }
    for line in [BEGIN]
        .into_iter()
        .chain(body.iter().map(String::as_str))
        .chain([END])
    {
        rest.extend_from_slice(line.as_bytes());
        rest.push(b'\n');
    }
    Ok(rest)
}

/// The text without roost's block.
pub fn remove(text: &[u8]) -> Vec<u8> {
    split(text).0
}

/// Whether `after` (a file with roost's block removed) is `before` (the
/// file before roost's first change), but for the newline roost added.
pub fn same(after: &[u8], before: &[u8]) -> bool {
    after == before || after.strip_suffix(b"\n") == Some(before)
}

/// A YAML double-quoted scalar.
pub fn yaml_quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body() -> Vec<String> {
        vec![
            "notifications: true".into(),
            "notifications-command: \"roost hook aider done\"".into(),
        ]
    }
    const KEYS: &[&str] = &["notifications", "notifications-command"];

    #[test]
    fn a_fresh_file_gets_the_block_alone() {
        let t = install(b"", &body(), KEYS).unwrap();
        assert!(t.starts_with(BEGIN.as_bytes()) && t.ends_with(b"# <<< roost\n"));
        assert_eq!(remove(&t), b"");
    }

    #[test]
    fn other_lines_are_kept_byte_for_byte_and_install_is_idempotent() {
        let before = b"model: sonnet\n# mine\nauto-commits: false";
        let once = install(before, &body(), KEYS).unwrap();
        let twice = install(&once, &body(), KEYS).unwrap();
        assert_eq!(once, twice);
        assert_eq!(block_of(&once).unwrap(), body());
        let after = remove(&twice);
        assert!(same(&after, before));
        assert!(after.starts_with(b"model: sonnet\n# mine\n"));
        // A byte that is not UTF-8, added after install, stays itself.
        let mut edited = once.clone();
        edited.extend_from_slice(b"# caf\xe9\n");
        assert_eq!(
            remove(&edited),
            b"model: sonnet\n# mine\nauto-commits: false\n# caf\xe9\n"
        );
    }

    #[test]
    fn a_key_the_block_sets_may_not_be_set_outside_it() {
        let err = install(b"notifications-command: say done\n", &body(), KEYS).unwrap_err();
        assert_eq!(err, SetOutside("notifications-command".into()));
        assert!(install(b"notifications_x: 1\n", &body(), KEYS).is_ok());
    }

    #[test]
    fn yaml_quoting_escapes_quotes_and_backslashes() {
        assert_eq!(yaml_quote(r#"a "b" \c"#), r#""a \"b\" \\c""#);
    }
}
