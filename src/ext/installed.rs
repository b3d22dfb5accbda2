//! Which installed extensions a verb's NAME picks: the one named (installed,
//! and for a verb that changes it, readable), or all of them; and the error
//! for a name that is not installed.

use super::error::{ExtError, Result};
use super::lock::{Entry, Lock};

/// A name from the command line or ext.lock that is not a valid extension
/// name never becomes a path: it is simply not installed.
pub fn no_such(name: &str) -> ExtError {
    ExtError::refused(format!(
        "no such extension: {}",
        crate::untrusted::printable(name.as_bytes())
    ))
    .hint("roost ext list shows what is installed")
}

/// The one extension NAME names (which must be installed), or all of them.
pub fn chosen(lock: &Lock, name: Option<String>) -> Result<Vec<String>> {
    match name {
        Some(name) if crate::index::valid_name(name.as_bytes()) && lock.get(&name).is_some() => {
            Ok(vec![name])
        }
        Some(name) => Err(no_such(&name)),
        None => Ok(lock.valid_names().map(String::from).collect()),
    }
}

/// NAME's entry, which must be installed and readable.
pub fn readable<'a>(lock: &'a Lock, name: &str) -> Result<&'a Entry> {
    if !crate::index::valid_name(name.as_bytes()) {
        return Err(no_such(name));
    }
    let slot = lock.get(name).ok_or_else(|| no_such(name))?;
    slot.typed().map_err(|u| unreadable(name, &u.why))
}

/// NAME's entry is in ext.lock but cannot be read: the record stands in
/// the way.
pub fn unreadable(name: &str, why: &str) -> ExtError {
    ExtError::failed(format!("{name}: its ext.lock entry cannot be read: {why}"))
        .hint(format!("roost ext remove {name}, then install it again"))
}
