//! A block of lines roost owns inside a file of another format (aider's
//! YAML), between two comment lines that name it. Installing replaces the
//! block (or appends it); removing cuts exactly its lines. Keys the block
//! sets may not also be set outside it.

pub const BEGIN: &str =
    "# >>> roost: written by `roost hooks install`; `roost hooks remove` takes it out";
pub const END: &str = "# <<< roost";

/// The file's lines outside roost's block, and whether it had one.
fn split(text: &str) -> (String, bool) {
    let mut out = String::new();
    let mut inside = false;
    let mut found = false;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if !inside && bare == BEGIN {
            inside = true;
            found = true;
        } else if inside && bare == END {
            inside = false;
        } else if !inside {
            out.push_str(line);
        }
    }
    (out, found)
}

/// Whether the file has roost's block, and its lines.
pub fn block_of(text: &str) -> Option<Vec<String>> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if !inside && line == BEGIN {
            inside = true;
        } else if inside && line == END {
            return Some(lines);
        } else if inside {
            lines.push(line.to_string());
        }
    }
    None
}

/// The text with roost's block holding `body` (lines without newlines).
/// `keys` are the top-level keys the block sets: one of them set outside
/// the block is refused, naming it.
pub fn install(text: &str, body: &[String], keys: &[&str]) -> Result<String, String> {
    let (mut rest, _) = split(text);
    for line in rest.lines() {
        for key in keys {
            if line
                .strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with(':'))
            {
                return Err(format!("it sets {key} already (outside roost's block)"));
            }
        }
    }
    if !rest.is_empty() && !rest.ends_with('\n') {
        rest.push('\n');
    }
    rest.push_str(BEGIN);
    rest.push('\n');
    for line in body {
        rest.push_str(line);
        rest.push('\n');
    }
    rest.push_str(END);
    rest.push('\n');
    Ok(rest)
}

/// The text without roost's block.
pub fn remove(text: &str) -> String {
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
        let t = install("", &body(), KEYS).unwrap();
        assert!(t.starts_with(BEGIN) && t.ends_with("# <<< roost\n"));
        assert_eq!(remove(&t), "");
    }

    #[test]
    fn other_lines_are_kept_byte_for_byte_and_install_is_idempotent() {
        let before = "model: sonnet\n# mine\nauto-commits: false";
        let once = install(before, &body(), KEYS).unwrap();
        let twice = install(&once, &body(), KEYS).unwrap();
        assert_eq!(once, twice);
        assert_eq!(block_of(&once).unwrap(), body());
        let after = remove(&twice);
        assert!(same(after.as_bytes(), before.as_bytes()));
        assert!(after.starts_with("model: sonnet\n# mine\n"));
    }

    #[test]
    fn a_key_the_block_sets_may_not_be_set_outside_it() {
        let err = install("notifications-command: say done\n", &body(), KEYS).unwrap_err();
        assert!(err.contains("notifications-command"), "{err}");
        assert!(install("notifications_x: 1\n", &body(), KEYS).is_ok());
    }

    #[test]
    fn yaml_quoting_escapes_quotes_and_backslashes() {
        assert_eq!(yaml_quote(r#"a "b" \c"#), r#""a \"b\" \\c""#);
    }
}
