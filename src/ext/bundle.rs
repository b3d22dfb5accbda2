//! The offline bundle `export --bundle` writes and `sync --from` reads: a
//! header line naming the format, then two sections, each a line `NAME
//! LENGTH` followed by exactly LENGTH bytes: `set`, the set file, then
//! `pack`, a git pack holding exactly each listed commit's own objects
//! (`git::bundle`). Nothing may follow. Read bounded, as a regular file.

use super::error::{ExtError, Result};
use super::git::{self, entries, limits};
use super::lock::Lock;
use super::set::{self, Set};
use crate::paths::Paths;
use std::path::Path;

/// The first line.
pub const HEADER: &str = "# roost extension bundle, format 1";

/// The most bytes a bundle may hold: a set file and a pack of the most a
/// network fetch may bring, and the lines around them.
pub const MAX_BYTES: u64 = set::MAX_BYTES + limits::MAX_PACK_BYTES + 256;

/// The bundle of everything pinned in `lock`: the set file and the pack of
/// the commits it lists, read from their clones. Returns its bytes, with
/// what the set left out.
pub fn write(paths: &Paths, lock: &Lock) -> Result<(Vec<u8>, set::Left)> {
    let (text, left) = set::export(lock);
    let listed = set::parse(text.as_bytes())?;
    let mut commits = Vec::new();
    for line in listed.lines.values() {
        let git_dir = paths.ext_clone(&line.name).join(".git");
        commits.push((git_dir, entries::object_id(&line.pin.commit)?));
    }
    let pack = git::bundle::write_pack(&commits).map_err(|e| {
        ExtError::from(e)
            .within("cannot read the pinned commits from their clones")
            .hint("roost ext repair puts back a clone that is missing or changed")
    })?;
    let mut out = format!("{HEADER}\nset {}\n", text.len()).into_bytes();
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(format!("pack {}\n", pack.len()).as_bytes());
    out.extend_from_slice(&pack);
    Ok((out, left))
}

/// A bundle read: its set, and its pack indexed and held to the set.
pub struct Bundle {
    pub set: Set,
    pub objects: git::bundle::Unpacked,
}

/// Reads the bundle at `path`; its pack is indexed in a temporary
/// directory (removed with the `Bundle`), so that a refused bundle, or
/// `--frozen`, leaves roost's directories as they were.
pub fn read(path: &Path) -> Result<Bundle> {
    let shown = crate::untrusted::path(path);
    let bytes = match crate::fsutil::read_regular(path, MAX_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return Err(ExtError::refused(format!("{shown}: there is no such file"))
                .hint("`roost ext export --bundle FILE` writes a bundle"))
        }
        Err(e) => return Err(ExtError::refused(format!("cannot read {shown}: {e}"))),
    };
    let (set_bytes, pack) = sections(&bytes).map_err(|e| e.within(&shown))?;
    let set = set::parse(set_bytes).map_err(|e| e.within(format!("{shown}: its set")))?;
    let mut commits = Vec::new();
    for line in set.lines.values() {
        commits.push(entries::object_id(&line.pin.commit)?);
    }
    let objects = git::bundle::Unpacked::read(pack, &std::env::temp_dir(), &commits)
        .map_err(|e| ExtError::from(e).within(&shown))?;
    Ok(Bundle { set, objects })
}

/// The set file's bytes and the pack's.
fn sections(bytes: &[u8]) -> Result<(&[u8], &[u8])> {
    let not = |what: &str| {
        ExtError::refused(format!("it is not a roost extension bundle ({what})"))
            .hint("`roost ext export --bundle FILE` writes one")
    };
    let rest = bytes
        .strip_prefix(format!("{HEADER}\n").as_bytes())
        .ok_or_else(|| not("its first line is not the bundle header"))?;
    let (set, rest) = section(rest, "set").ok_or_else(|| not("no set section"))?;
    let (pack, rest) = section(rest, "pack").ok_or_else(|| not("no pack section"))?;
    if !rest.is_empty() {
        return Err(not("bytes follow its pack"));
    }
    Ok((set, pack))
}

/// The section `name` at the start of `bytes`, and what follows it.
fn section<'a>(bytes: &'a [u8], name: &str) -> Option<(&'a [u8], &'a [u8])> {
    let end = bytes.iter().take(32).position(|b| *b == b'\n')?;
    let line = std::str::from_utf8(&bytes[..end]).ok()?;
    let len: usize = line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok()?;
    let body = bytes.get(end + 1..)?;
    (body.len() >= len).then(|| body.split_at(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sections_are_read_by_their_lengths_and_nothing_may_follow() {
        let b = format!("{HEADER}\nset 3\nabcpack 2\nxy");
        assert_eq!(sections(b.as_bytes()).unwrap(), (&b"abc"[..], &b"xy"[..]));
        for bad in [
            format!("{HEADER}\nset 3\nabcpack 2\nxyz"),
            format!("{HEADER}\nset 9\nabcpack 2\nxy"),
            format!("{HEADER}\npack 2\nxy"),
            "set 3\nabcpack 2\nxy".to_string(),
        ] {
            assert!(sections(bad.as_bytes()).is_err(), "{bad}");
        }
    }
}
