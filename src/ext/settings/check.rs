//! A value checked against its setting's type: one given on the command
//! line (text), or one read from JSON (a default, or values.json). Every
//! refusal names the rule. Pure.

use super::kind::{Kind, MAX_VALUE};
use crate::ext::error::ExtError;
use crate::untrusted::printable;
use serde_json::{Number, Value};

/// A JSON value of type `kind`, as it is stored.
pub fn value(kind: &Kind, v: &Value) -> Result<Value, ExtError> {
    match (kind, v) {
        (Kind::Bool, Value::Bool(_)) => Ok(v.clone()),
        (Kind::Bool, _) => Err(ExtError::refused("the value must be true or false")),
        (Kind::Number { .. }, Value::Number(n)) => number(kind, n.clone()),
        (Kind::Number { .. }, _) => Err(ExtError::refused("the value must be a number")),
        (Kind::String { .. } | Kind::Enum { .. } | Kind::Secret, Value::String(s)) => text(kind, s),
        _ => Err(ExtError::refused("the value must be a string")),
    }
}

/// Text given for a setting of type `kind` (the command line, stdin).
pub fn text(kind: &Kind, s: &str) -> Result<Value, ExtError> {
    if s.contains('\0') {
        return Err(ExtError::refused("the value contains a NUL byte"));
    }
    match kind {
        Kind::Bool => match s {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(ExtError::refused(format!(
                "\"{}\" is not true or false",
                printable(s.as_bytes())
            ))),
        },
        Kind::Number { .. } => {
            let n: Number = s
                .parse::<i64>()
                .map(Number::from)
                .ok()
                .or_else(|| s.parse::<f64>().ok().and_then(Number::from_f64))
                .ok_or_else(|| {
                    ExtError::refused(format!("\"{}\" is not a number", printable(s.as_bytes())))
                })?;
            number(kind, n)
        }
        Kind::Enum { options } => {
            if options.iter().any(|o| o == s) {
                Ok(Value::String(s.into()))
            } else {
                Err(ExtError::refused(format!(
                    "\"{}\" is not one of {}",
                    printable(s.as_bytes()),
                    printable(options.join(", ").as_bytes())
                )))
            }
        }
        Kind::String { max_length } => {
            let n = s.chars().count();
            if n > *max_length {
                Err(ExtError::refused(format!(
                    "the value is {n} characters; the limit is {max_length}"
                )))
            } else if s.len() > MAX_VALUE {
                Err(ExtError::refused(format!(
                    "the value is {} bytes; the limit is {MAX_VALUE}",
                    s.len()
                )))
            } else {
                Ok(Value::String(s.into()))
            }
        }
        Kind::Secret => {
            if s.is_empty() {
                Err(ExtError::refused("the value is empty"))
            } else if s.len() > MAX_VALUE {
                Err(ExtError::refused(format!(
                    "the value is {} bytes; the limit is {MAX_VALUE}",
                    s.len()
                )))
            } else {
                Ok(Value::String(s.into()))
            }
        }
    }
}

/// A number against its bounds and wholeness.
fn number(kind: &Kind, n: Number) -> Result<Value, ExtError> {
    let Kind::Number { integer, min, max } = kind else {
        return Err(ExtError::refused("the value must be a number"));
    };
    let f = n
        .as_f64()
        .ok_or_else(|| ExtError::refused("the value is not a number"))?;
    if *integer && (f.fract() != 0.0 || n.is_f64() && !f.is_finite()) {
        return Err(ExtError::refused(format!("{n} is not a whole number")));
    }
    // A whole value given as 3.0 is kept as 3.
    let n = if *integer && n.is_f64() {
        Number::from(f as i64)
    } else {
        n
    };
    if let Some(lo) = min {
        if f < lo.as_f64().unwrap_or(f64::MIN) {
            return Err(ExtError::refused(format!("{n} is below the minimum, {lo}")));
        }
    }
    if let Some(hi) = max {
        if f > hi.as_f64().unwrap_or(f64::MAX) {
            return Err(ExtError::refused(format!("{n} is above the maximum, {hi}")));
        }
    }
    Ok(Value::Number(n))
}

/// A stored value as settings.env and people read it: text as it is,
/// `true`/`false`, a number as JSON writes it.
pub fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(min: i64, max: i64) -> Kind {
        Kind::Number {
            integer: true,
            min: Some(min.into()),
            max: Some(max.into()),
        }
    }

    #[test]
    fn each_type_refuses_naming_the_rule() {
        assert_eq!(
            text(&Kind::Bool, "yes").unwrap_err().to_string(),
            "\"yes\" is not true or false"
        );
        assert_eq!(text(&Kind::Bool, "true").unwrap(), Value::Bool(true));
        assert_eq!(
            text(&int(1, 300), "0").unwrap_err().to_string(),
            "0 is below the minimum, 1"
        );
        assert_eq!(
            text(&int(1, 300), "301").unwrap_err().to_string(),
            "301 is above the maximum, 300"
        );
        assert_eq!(
            text(&int(1, 300), "1.5").unwrap_err().to_string(),
            "1.5 is not a whole number"
        );
        assert_eq!(
            text(&int(1, 300), "ten").unwrap_err().to_string(),
            "\"ten\" is not a number"
        );
        assert_eq!(text(&int(1, 300), "10").unwrap(), Value::from(10));
        let any = Kind::Number {
            integer: false,
            min: None,
            max: None,
        };
        assert_eq!(text(&any, "2.5").unwrap(), Value::from(2.5));
        let e = Kind::Enum {
            options: vec!["all".into(), "blocked".into()],
        };
        assert_eq!(
            text(&e, "some").unwrap_err().to_string(),
            "\"some\" is not one of all, blocked"
        );
        let s = Kind::String { max_length: 3 };
        assert_eq!(
            text(&s, "abcd").unwrap_err().to_string(),
            "the value is 4 characters; the limit is 3"
        );
        assert_eq!(
            text(&s, "a\0").unwrap_err().to_string(),
            "the value contains a NUL byte"
        );
        assert_eq!(
            text(&Kind::Secret, "").unwrap_err().to_string(),
            "the value is empty"
        );
    }
}
