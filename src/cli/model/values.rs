//! The kinds of value the model's arguments take, named once for help and
//! for completion, and the number parser they share.

use clap::ValueHint;

/// The hint on an argument that names an installed extension (completion
/// offers the installed names).
pub const INSTALLED: ValueHint = ValueHint::Other;

/// The value names completion fills from what runs or is known: the model
/// names its arguments with `name`, completion reads them back with `named`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A pane or window: `%N`, `@N`, `SESSION:WINDOW[.PANE]` or a name.
    Target,
    /// A session's name.
    Session,
    /// An agent state word.
    State,
    /// A command, and for ext a verb (`help`'s).
    Command,
    /// An authority an extension may be granted.
    Authority,
}

impl ValueKind {
    pub const ALL: [ValueKind; 5] = [
        ValueKind::Target,
        ValueKind::Session,
        ValueKind::State,
        ValueKind::Command,
        ValueKind::Authority,
    ];

    /// The value name, as help and usage lines show it.
    pub const fn name(self) -> &'static str {
        match self {
            ValueKind::Target => "TARGET",
            ValueKind::Session => "SESSION",
            ValueKind::State => "STATE",
            ValueKind::Command => "COMMAND",
            ValueKind::Authority => "AUTHORITY",
        }
    }

    /// The kind a value name stands for, if any.
    pub fn named(name: &str) -> Option<ValueKind> {
        ValueKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// The longest wait a command takes: a year, in seconds. Far beyond any
/// real wait, and far below what a clock can add without overflowing.
pub const MAX_SECONDS: u64 = 365 * 24 * 60 * 60;

/// A count (of lines): a whole number above zero. One too large to hold
/// is refused naming the bound, not as if it were no number at all.
pub(super) fn positive(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ if text.bytes().all(|b| b.is_ascii_digit())
            && !text.trim_start_matches('0').is_empty() =>
        {
            Err(format!("must be at most {}, not '{text}'", u64::MAX))
        }
        _ => Err(format!("must be a positive whole number, not '{text}'")),
    }
}

/// `--grant AUTHORITY`: one this roost knows (contract::AUTHORITIES).
pub(super) fn authority(text: &str) -> Result<String, UnknownAuthority> {
    match crate::contract::AUTHORITIES.contains(&text) {
        true => Ok(text.to_string()),
        false => Err(UnknownAuthority(text.to_string())),
    }
}

/// A `--grant` naming an authority this roost does not know.
#[derive(Debug)]
pub struct UnknownAuthority(String);

impl std::fmt::Display for UnknownAuthority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: not an authority this roost knows ({})",
            crate::untrusted::printable(self.0.as_bytes()),
            crate::contract::AUTHORITIES.join(", ")
        )
    }
}

impl std::error::Error for UnknownAuthority {}

/// A number of seconds: a whole number from 1 to `MAX_SECONDS`.
pub(super) fn seconds(text: &str) -> Result<u64, String> {
    match positive(text) {
        Ok(n) if n <= MAX_SECONDS => Ok(n),
        Err(e) if !e.starts_with("must be at most") => Err(e),
        _ => Err(format!(
            "must be at most {MAX_SECONDS} (a year), not '{text}'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{positive, seconds, MAX_SECONDS};

    #[test]
    fn counts_and_seconds_are_whole_numbers_above_zero_and_seconds_bounded() {
        assert_eq!(positive("40"), Ok(40));
        assert_eq!(
            positive("99999999999999999999"),
            Err("must be at most 18446744073709551615, not '99999999999999999999'".into())
        );
        for bad in ["0", "000", "", "-1", "1.5", "x"] {
            assert!(positive(bad).is_err(), "{bad}");
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("31536000"), Ok(MAX_SECONDS));
        assert_eq!(
            seconds("99999999999999999999"),
            Err("must be at most 31536000 (a year), not '99999999999999999999'".into())
        );
    }
}
