//! ext.complete, derived from ext.lock with ext.index (store.rs writes the
//! three together): the completion lines of every command ext.index runs.

use super::completion_data::{from_lock, lines_of, Completion};
use super::lock::{IndexLine, Lock};
use std::collections::BTreeMap;

/// ext.complete: the lines of every command ext.index runs (`index`),
/// from its extension's entry in `lock`, so a disabled extension or a
/// command another extension holds adds nothing.
pub fn render(lock: &Lock, index: &[IndexLine]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut read: BTreeMap<&str, Completion> = BTreeMap::new();
    for line in index {
        let Some(entry) = lock.entry(&line.extension) else {
            continue;
        };
        let completion = read
            .entry(&line.extension)
            .or_insert_with(|| from_lock(&entry.extra, &entry.commands));
        let Some(spec) = completion.get(&line.command) else {
            continue;
        };
        let one: Completion = [(line.command.clone(), spec.clone())].into();
        for text in lines_of(&one) {
            out.extend_from_slice(text.as_bytes());
            out.push(b'\n');
        }
    }
    out
}
