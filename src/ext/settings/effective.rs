//! Each setting's effective value and where it came from: set by the user,
//! the declared default, none, a value whose key is no longer declared, or
//! the default because the set value no longer fits a changed type. Pure:
//! the caller reads values.json and which secret files exist.

use super::check;
use super::declaration::{Kind, Setting};
use serde_json::{Map, Value};

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Set,
    Default,
    /// Neither set nor given a default.
    Unset,
    /// Set earlier; the declaration consented to no longer has the key.
    NotDeclared,
    /// The set value does not fit the type declared now: the default is
    /// used, and the reason kept.
    Fallback(String),
}

impl Origin {
    /// As `roost ext config` shows it.
    pub fn words(&self) -> String {
        match self {
            Origin::Set => "set".into(),
            Origin::Default => "default".into(),
            Origin::Unset => "not set".into(),
            Origin::NotDeclared => "no longer declared".into(),
            Origin::Fallback(why) => format!("default (the value set {why})"),
        }
    }
}

/// One key's row.
#[derive(Debug, Clone)]
pub struct Row {
    pub key: String,
    /// The declared type; none for a key no longer declared.
    pub kind: Option<Kind>,
    /// The effective value; never a secret's.
    pub value: Option<Value>,
    pub origin: Origin,
}

/// Every declared key in declaration order, then the set keys no longer
/// declared. `secret_set`: whether a secret's file exists.
pub fn rows(
    declared: &[Setting],
    values: &Map<String, Value>,
    secret_set: impl Fn(&str) -> bool,
) -> Vec<Row> {
    let mut out: Vec<Row> = declared
        .iter()
        .map(|s| {
            let row = |value: Option<Value>, origin| Row {
                key: s.key.clone(),
                kind: Some(s.kind.clone()),
                value,
                origin,
            };
            if s.kind == Kind::Secret {
                let origin = if secret_set(&s.key) {
                    Origin::Set
                } else {
                    Origin::Unset
                };
                return row(None, origin);
            }
            let fallback = |origin| match &s.default {
                Some(d) => row(Some(d.clone()), origin),
                None if origin == Origin::Default => row(None, Origin::Unset),
                None => row(None, origin),
            };
            match values.get(&s.key) {
                Some(v) => match check::value(&s.kind, v) {
                    Ok(v) => row(Some(v), Origin::Set),
                    Err(why) => fallback(Origin::Fallback(format!(
                        "({}) no longer fits {}: {}",
                        crate::untrusted::printable(check::as_text(v).as_bytes()),
                        s.kind.describe(),
                        why.message()
                    ))),
                },
                None => fallback(Origin::Default),
            }
        })
        .collect();
    for (key, v) in values {
        if !declared.iter().any(|s| &s.key == key) {
            out.push(Row {
                key: key.clone(),
                kind: None,
                value: Some(v.clone()),
                origin: Origin::NotDeclared,
            });
        }
    }
    out
}
