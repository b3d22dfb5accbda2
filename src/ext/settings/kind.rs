//! A setting's type and what it allows, and how it reads in a message.

use crate::untrusted::printable;
use serde_json::Number;

/// The longest string (and secret) value, in bytes: the bound on what
/// settings.env and a secret file hold. A string's `max_length` may only
/// lower it.
pub const MAX_VALUE: usize = 4096;

/// A setting's type, with what it allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Text of at most `max_length` characters.
    String {
        max_length: usize,
    },
    Bool,
    /// One of `options`.
    Enum {
        options: Vec<String>,
    },
    /// A number within the bounds; `integer`: a whole one.
    Number {
        integer: bool,
        min: Option<Number>,
        max: Option<Number>,
    },
    /// Read from stdin or a prompt, kept in its own owner-only file.
    Secret,
}

impl Kind {
    /// The type's name as a manifest writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::String { .. } => "string",
            Kind::Bool => "bool",
            Kind::Enum { .. } => "enum",
            Kind::Number { .. } => "number",
            Kind::Secret => "secret",
        }
    }

    /// The type as people read it: `enum (all|blocked)`, `number (integer,
    /// 1 to 300)`, `string (at most 200 characters)`.
    pub fn describe(&self) -> String {
        match self {
            Kind::String { max_length } => format!("string (at most {max_length} characters)"),
            Kind::Bool => "bool (true|false)".into(),
            Kind::Enum { options } => format!("enum ({})", printable(options.join("|").as_bytes())),
            Kind::Number { integer, min, max } => {
                let what = if *integer { "integer" } else { "number" };
                match (min, max) {
                    (Some(a), Some(b)) => format!("{what} ({a} to {b})"),
                    (Some(a), None) => format!("{what} (at least {a})"),
                    (None, Some(b)) => format!("{what} (at most {b})"),
                    (None, None) => what.to_string(),
                }
            }
            Kind::Secret => "secret".into(),
        }
    }
}
