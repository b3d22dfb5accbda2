//! One ext.lock entry, typed: the fields every entry has, what kind of
//! entry it is (pinned to a commit, or linked to an author's checkout),
//! whether it is disabled, the pin an update replaced, and every field this
//! roost does not know, kept as found. It reads and writes exactly the JSON
//! keys ext.lock has always had (and the two it adds) through `Wire`; the
//! pin's keys are `Pin`'s own, shared by an entry and its `previous`.

use crate::ext::error::ExtError;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// One installed extension as ext.lock records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Wire", into = "Wire")]
pub struct Entry {
    /// The commands it claims.
    pub commands: Vec<String>,
    /// The authorities it was granted (`fleet`), none when empty.
    pub needs: Vec<String>,
    pub contract: Contract,
    /// `YYYY-MM-DDTHH:MM:SSZ` (see `utc_timestamp`).
    pub installed: String,
    pub source: Source,
    /// `roost ext disable`: kept with its pin, clone and data, but it
    /// contributes no ext.index line (written as `"disabled": true`, and
    /// left out when false).
    pub disabled: bool,
    /// The pin `update` (or `rollback`) replaced: what `rollback` returns to.
    pub previous: Option<Box<Previous>>,
    /// Fields this roost does not know (a later roost's, or a hand edit's):
    /// written back exactly as they were read.
    pub extra: BTreeMap<String, Value>,
}

/// The pinned entry an update replaced, as it was recorded (its own
/// `disabled` and `previous` aside: one step back is kept, not a history).
/// Written under `previous` with the keys of a pinned entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Previous {
    pub commands: Vec<String>,
    pub needs: Vec<String>,
    pub contract: Contract,
    pub installed: String,
    pub pin: Pin,
    /// Fields this roost does not know, inside `previous`: kept, and given
    /// back to the entry by a rollback.
    pub extra: BTreeMap<String, Value>,
}

/// Where an extension's files come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Fetched from a git repository at one commit.
    Pinned(Pin),
    /// An author's checkout (`install --link DIR`): nothing is pinned.
    Linked { dir: String },
}

/// What a git install pinned: written with these keys (`ref` for
/// `git_ref`) in an entry and in its `previous`, the one place they are
/// named. A field added here is read and written in both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    /// OWNER/REPO as the user gave it.
    pub repo: String,
    /// What the user asked for (`HEAD` when no `--ref`).
    #[serde(rename = "ref")]
    pub git_ref: String,
    /// The pinned commit, 40 hex.
    pub commit: String,
    /// The git tree hash of the installed directory, `.git` excluded.
    pub tree: String,
    /// The source actually fetched from (later updates use it, not today's
    /// `ROOST_EXT_GIT_BASE`); entries written before it was recorded have
    /// none.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub url: Option<String>,
    /// Who signed the pinned commit (`Signer::id`: `unsigned`,
    /// `ssh:SHA256:...`, `openpgp:HEX`, ...); entries written before
    /// signers were recorded have none.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub signer: Option<String>,
    /// Every signer the user agreed to for this extension, sorted: a
    /// later commit by one of them needs no `--accept-signer`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signers: Vec<String>,
}

impl Pin {
    /// Its keys as written: a linked entry holding any of them is refused.
    /// (A unit test holds this list to the struct.)
    const KEYS: &'static [&'static str] =
        &["repo", "ref", "commit", "tree", "url", "signer", "signers"];
}

/// `contract`, written as a number; a string of digits (as a manifest may
/// give it) is read too, and written back as a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contract {
    pub number: u64,
    quoted: bool,
}

impl Contract {
    pub fn new(number: u64) -> Contract {
        Contract {
            number,
            quoted: false,
        }
    }
}

impl Entry {
    /// The checkout a linked extension runs from.
    pub fn linked(&self) -> Option<&str> {
        match &self.source {
            Source::Linked { dir } => Some(dir),
            Source::Pinned(_) => None,
        }
    }

    /// The pin of a git install.
    pub fn pin(&self) -> Option<&Pin> {
        match &self.source {
            Source::Pinned(pin) => Some(pin),
            Source::Linked { .. } => None,
        }
    }

    /// This entry as the `previous` of the one that replaces it; `None` for
    /// a linked entry, which has no pin to return to.
    pub fn as_previous(&self) -> Option<Previous> {
        Some(Previous {
            commands: self.commands.clone(),
            needs: self.needs.clone(),
            contract: self.contract,
            installed: self.installed.clone(),
            pin: self.pin()?.clone(),
            extra: self.extra.clone(),
        })
    }
}

/// The entry as JSON keys (roost-ext(1), FILES); `linked` replaces the
/// pin's (`Pin`). A key that is present must hold a value of its type (a
/// `null` is refused, so nothing read is written back otherwise).
///
/// Written in this order; read with the pin's keys left among `rest`, then
/// taken out of it (`Pinned`), so that a key missing or of the wrong type
/// is named as serde names it.
#[derive(Serialize, Deserialize)]
struct Wire {
    commands: Vec<String>,
    needs: Vec<String>,
    contract: ContractWire,
    installed: String,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    linked: Option<String>,
    #[serde(flatten, skip_deserializing)]
    pin: Option<Pin>,
    #[serde(
        default,
        deserialize_with = "present_bool",
        skip_serializing_if = "std::ops::Not::not"
    )]
    disabled: bool,
    #[serde(
        default,
        deserialize_with = "present_value",
        skip_serializing_if = "Option::is_none"
    )]
    previous: Option<Value>,
    /// Read: the pin's keys and every key this roost does not know.
    /// Written: the keys this roost does not know.
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

/// A pin and the keys beside it that this roost does not know.
#[derive(Deserialize)]
struct Pinned {
    #[serde(flatten)]
    pin: Pin,
    #[serde(flatten)]
    extra: BTreeMap<String, Value>,
}

/// `previous` as JSON keys: those of a pinned entry, every one required
/// (`url` aside, as in an entry).
#[derive(Serialize, Deserialize)]
struct PreviousWire {
    commands: Vec<String>,
    needs: Vec<String>,
    contract: ContractWire,
    installed: String,
    #[serde(flatten)]
    pin: Pin,
    #[serde(flatten)]
    extra: BTreeMap<String, Value>,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged, expecting = "a number or a string of digits")]
enum ContractWire {
    Number(u64),
    Text(String),
}

/// A key that is present holds a string (`null` is not "absent").
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

/// A key that is present holds `true` or `false`.
fn present_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    bool::deserialize(d)
}

/// A key that is present holds a value (`null` is not "absent").
fn present_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Err(serde::de::Error::custom(
            "invalid type: null, expected a map",
        )),
        v => Ok(Some(v)),
    }
}

impl ContractWire {
    fn read(self) -> Result<Contract, ExtError> {
        match self {
            ContractWire::Number(number) => Ok(Contract::new(number)),
            ContractWire::Text(text) => match text.parse::<u64>() {
                Ok(number) if number.to_string() == text => Ok(Contract {
                    number,
                    quoted: true,
                }),
                _ => Err(ExtError::refused("`contract` is not a number")),
            },
        }
    }

    fn of(contract: Contract) -> ContractWire {
        if contract.quoted {
            ContractWire::Text(contract.number.to_string())
        } else {
            ContractWire::Number(contract.number)
        }
    }
}

impl Previous {
    /// `previous` as found in the file; the reason names the key.
    fn read(raw: &Value) -> Result<Previous, ExtError> {
        let w = PreviousWire::deserialize(raw)
            .map_err(|e| ExtError::refused(format!("`previous`: {e}")))?;
        Ok(Previous {
            commands: w.commands,
            needs: w.needs,
            contract: w.contract.read().map_err(|e| e.within("`previous`"))?,
            installed: w.installed,
            pin: w.pin,
            extra: w.extra,
        })
    }

    fn write(self) -> Value {
        let w = PreviousWire {
            commands: self.commands,
            needs: self.needs,
            contract: ContractWire::of(self.contract),
            installed: self.installed,
            pin: self.pin,
            extra: self.extra,
        };
        serde_json::to_value(w).expect("strings and JSON values always serialize")
    }
}

impl TryFrom<Wire> for Entry {
    type Error = ExtError;

    fn try_from(w: Wire) -> Result<Entry, ExtError> {
        let contract = w.contract.read()?;
        let previous = match &w.previous {
            Some(raw) => Some(Box::new(Previous::read(raw)?)),
            None => None,
        };
        let (source, extra) = match w.linked {
            Some(_) if w.rest.keys().any(|k| Pin::KEYS.contains(&k.as_str())) => {
                return Err(ExtError::refused("it is both linked and pinned"))
            }
            Some(dir) => (Source::Linked { dir }, w.rest),
            None => {
                let rest = Value::Object(w.rest.into_iter().collect());
                let Pinned { pin, extra } =
                    Pinned::deserialize(rest).map_err(|e| ExtError::refused(e.to_string()))?;
                (Source::Pinned(pin), extra)
            }
        };
        Ok(Entry {
            commands: w.commands,
            needs: w.needs,
            contract,
            installed: w.installed,
            source,
            disabled: w.disabled,
            previous,
            extra,
        })
    }
}

impl From<Entry> for Wire {
    fn from(e: Entry) -> Wire {
        let (linked, pin) = match e.source {
            Source::Linked { dir } => (Some(dir), None),
            Source::Pinned(pin) => (None, Some(pin)),
        };
        Wire {
            commands: e.commands,
            needs: e.needs,
            contract: ContractWire::of(e.contract),
            installed: e.installed,
            linked,
            pin,
            disabled: e.disabled,
            previous: e.previous.map(|p| p.write()),
            rest: e.extra,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Entry, serde_json::Error> {
        Entry::deserialize(&v)
    }

    /// Why `v` is no entry.
    fn why(v: Value) -> String {
        read(v).unwrap_err().to_string()
    }

    fn pinned() -> Value {
        json!({"commands": ["mark"], "needs": [], "contract": 1, "installed": "t",
               "repo": "o/r", "ref": "HEAD", "commit": "c", "tree": "t"})
    }

    /// `Pin::KEYS` is what a pin is written with, every field included.
    #[test]
    fn the_pin_keys_are_the_pin_fields() {
        let pin = Pin {
            url: Some("u".into()),
            signer: Some("unsigned".into()),
            signers: vec!["unsigned".into()],
            ..read(pinned()).unwrap().pin().unwrap().clone()
        };
        let written = serde_json::to_value(pin).unwrap();
        let mut keys: Vec<&str> = written
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut want = Pin::KEYS.to_vec();
        keys.sort();
        want.sort();
        assert_eq!(keys, want);
    }

    #[test]
    fn a_linked_entry_with_any_pin_key_is_refused() {
        for key in Pin::KEYS {
            let mut v = json!({"commands": [], "needs": [], "contract": 1,
                               "installed": "t", "linked": "/src/mark"});
            v[*key] = "x".into();
            assert_eq!(why(v), "it is both linked and pinned", "{key}");
        }
    }

    #[test]
    fn the_kind_of_entry_is_a_type() {
        let e = read(pinned()).unwrap();
        assert_eq!(e.pin().map(|p| p.repo.as_str()), Some("o/r"));
        assert_eq!(e.linked(), None);
        let linked = json!({"commands": ["mark"], "needs": ["fleet"], "contract": 1,
                            "installed": "t", "linked": "/src/mark"});
        let e = read(linked.clone()).unwrap();
        assert_eq!(
            e.source,
            Source::Linked {
                dir: "/src/mark".into()
            }
        );
        assert_eq!(serde_json::to_value(&e).unwrap(), linked);
    }

    #[test]
    fn what_is_read_is_written_back_unchanged() {
        let mut v = pinned();
        v["url"] = "file:///r".into();
        v["zz"] = json!({"b": 1.5, "a": [null]});
        v["contract"] = "1".into();
        let mut previous = pinned();
        previous["url"] = "file:///old".into();
        previous["later"] = json!([1]);
        previous["contract"] = "1".into();
        v["previous"] = previous;
        v["disabled"] = true.into();
        let e = read(v.clone()).unwrap();
        assert!(e.disabled);
        let p = e.previous.as_deref().unwrap();
        assert_eq!(p.pin.url.as_deref(), Some("file:///old"));
        assert_eq!(p.extra.len(), 1);
        assert_eq!(e.contract.number, 1);
        assert_eq!(e.extra.len(), 1);
        assert_eq!(serde_json::to_value(&e).unwrap(), v);
    }

    #[test]
    fn entries_roost_could_not_have_written_are_refused_with_a_reason() {
        let with = |key: &str, value: Value| {
            let mut v = pinned();
            v[key] = value;
            why(v)
        };
        let without = |key: &str| {
            let mut v = pinned();
            v.as_object_mut().unwrap().remove(key);
            why(v)
        };
        assert_eq!(without("tree"), "missing field `tree`");
        assert_eq!(without("ref"), "missing field `ref`");
        assert_eq!(without("commands"), "missing field `commands`");
        assert_eq!(without("needs"), "missing field `needs`");
        assert!(with("commands", "mark".into()).starts_with("invalid type: string"));
        assert!(with("needs", json!(["fleet", 2])).starts_with("invalid type: integer"));
        assert!(with("needs", Value::Null).starts_with("invalid type: null"));
        assert!(with("url", Value::Null).starts_with("invalid type: null"));
        assert_eq!(with("contract", "01".into()), "`contract` is not a number");
        assert_eq!(
            with("contract", json!(1.0)),
            "a number or a string of digits"
        );
        assert_eq!(with("linked", "/x".into()), "it is both linked and pinned");
        assert!(why(json!("x")).starts_with("invalid type: string"));
    }
}
