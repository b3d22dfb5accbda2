//! How a JSON value's type reads in a refusal ("not a string"), for the
//! manifest's fields and the events declaration alike.

use serde_json::Value;

/// How a JSON value's type reads in a message.
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
