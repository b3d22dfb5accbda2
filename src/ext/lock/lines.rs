//! The ext.index lines a lock stands for: only what could
//! never become a wrong path or break a line or field gets in.

use super::file::{Lock, Slot};
use crate::index::{self, valid_name};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// One ext.index line derived from the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    pub command: String,
    pub extension: String,
    /// `clone_dir(extension)/bin/roost-COMMAND`.
    pub path: PathBuf,
    /// The entry's `needs`, space-separated; empty for none.
    pub authorities: String,
}

impl IndexLine {
    /// The line as `index::render` takes it.
    pub fn entry(&self) -> index::Entry<'_> {
        index::Entry {
            command: self.command.as_bytes(),
            extension: self.extension.as_bytes(),
            path: self.path.as_os_str().as_bytes(),
            authorities: self.authorities.as_bytes(),
        }
    }
}

/// The ext.index text for these lines.
pub fn render_index(lines: &[IndexLine]) -> Vec<u8> {
    let entries: Vec<index::Entry<'_>> = lines.iter().map(IndexLine::entry).collect();
    index::render(&entries)
}

impl Lock {
    /// The ext.index lines this lock stands for, sorted by command.
    /// `clone_dir(name)` is where extension `name` is cloned.
    ///
    /// Nothing from the lock becomes a path unless it is a valid name, and
    /// nothing that could break a line or field of the index gets in: an
    /// invalid extension name or command is skipped, and an entry that
    /// cannot be read, or whose `needs` holds an invalid name, is left out
    /// whole, so it never runs with authorities other than those it
    /// declared. A disabled entry contributes no line. A command claimed
    /// twice keeps its first claimant (by extension name).
    pub fn index_entries(&self, clone_dir: impl Fn(&str) -> PathBuf) -> Vec<IndexLine> {
        let mut lines: Vec<IndexLine> = Vec::new();
        let mut taken = std::collections::HashSet::new();
        for (name, slot) in &self.entries {
            let Slot::Typed(entry) = slot else {
                continue;
            };
            if entry.disabled {
                continue;
            }
            if !valid_name(name.as_bytes()) || !entry.needs.iter().all(|n| valid_name(n.as_bytes()))
            {
                continue;
            }
            let authorities = entry.needs.join(" ");
            let base = match entry.linked() {
                None => clone_dir(name),
                Some(dir) if Path::new(dir).is_absolute() => PathBuf::from(dir),
                Some(_) => continue,
            };
            for command in &entry.commands {
                if !valid_name(command.as_bytes()) || taken.contains(command) {
                    continue;
                }
                let path = crate::contract::program(&base, command);
                let bytes = path.as_os_str().as_bytes();
                if bytes.contains(&b'\t') || bytes.contains(&b'\n') {
                    continue;
                }
                taken.insert(command);
                lines.push(IndexLine {
                    command: command.to_string(),
                    extension: name.clone(),
                    path,
                    authorities: authorities.clone(),
                });
            }
        }
        lines.sort_by(|a, b| a.command.cmp(&b.command));
        lines
    }
}
