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

/// A count or a number of seconds: a whole number above zero.
pub(super) fn positive(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
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
