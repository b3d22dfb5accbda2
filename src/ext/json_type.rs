//! How a JSON value's type reads in a message, shared by the manifest's
//! checks, its presets' and ext.lock's.

use serde_json::Value;

/// "a string", "an array"…
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
