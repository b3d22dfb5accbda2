//! settings.env: every non-secret setting's effective value as
//! `ROOST_SETTING_<KEY>='…'`, one per line, quoted so that sourcing it from
//! sh assigns and runs nothing. The prefix is why no key can name a
//! variable that changes how a program runs (PATH, LD_*, BASH_ENV, …): every
//! name written starts with it, by construction.

use super::effective::{Origin, Row};
use serde_json::Value;

/// The file, in `$ROOST_EXT_CONFIG`.
pub const FILE: &str = "settings.env";

/// What every variable's name starts with.
pub const PREFIX: &str = "ROOST_SETTING_";

/// The variable that holds setting `key` (a valid key: `[a-z][a-z0-9_]*`).
pub fn variable(key: &str) -> String {
    format!("{PREFIX}{}", key.to_ascii_uppercase())
}

/// `text` in single quotes for sh: within them nothing is special but the
/// quote itself, which is closed, escaped and reopened. (NUL never gets
/// here: a value holding one is refused when it is set.)
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The file's content for `rows` (a header, then the declared non-secret
/// settings that have a value).
pub fn render(name: &str, rows: &[Row]) -> String {
    let mut out = format!(
        "# {name}'s settings, written by roost from values.json and the declaration\n\
         # consented to; change them with `roost ext config {name} KEY VALUE`.\n"
    );
    for row in rows {
        let (Some(kind), Some(value)) = (&row.kind, &row.value) else {
            continue;
        };
        if matches!(kind, super::Kind::Secret) || row.origin == Origin::NotDeclared {
            continue;
        }
        let text = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.push_str(&format!("{}={}\n", variable(&row.key), quote(&text)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_never_names_a_variable_without_the_prefix() {
        assert_eq!(variable("path"), "ROOST_SETTING_PATH");
        assert_eq!(variable("ld_preload"), "ROOST_SETTING_LD_PRELOAD");
    }

    #[test]
    fn quotes_close_and_reopen() {
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("$(x) `y`"), "'$(x) `y`'");
    }
}
