//! The offline bundle `export --bundle` writes and `sync --from` reads: a
//! header line naming the format, then two sections, each a line `NAME
//! LENGTH` followed by exactly LENGTH bytes: `set`, the set file, then
//! `pack`, a git pack holding exactly each listed commit's own objects
//! (`git::bundle`). Nothing may follow. Read as a regular file, each
//! section within its bound.

use super::error::{ExtError, Result};
use super::git::{self, entries, limits};
use super::lock::Lock;
use super::set::{self, Set};
use crate::paths::Paths;
use std::path::Path;

/// The first line.
pub const HEADER: &str = "# roost extension bundle, format 1";

/// The bundle of everything pinned in `lock`: the set file and the pack of
/// the commits it lists, read from their clones. Returns its bytes, with
/// what the set left out.
pub fn write(paths: &Paths, lock: &Lock) -> Result<(Vec<u8>, set::Left)> {
    let (text, left) = set::export(lock, &|n, e| super::settings::edit::carried(paths, n, e));
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

/// Reads the bundle at `path`, as a regular file, a section at a time: the
/// pack streams into the indexer through the bounds of a fetched pack, never
/// held whole in memory. It is indexed in a temporary directory (removed
/// with the `Bundle`), so that a refused bundle, or `--frozen`, leaves
/// roost's directories as they were.
pub fn read(path: &Path) -> Result<Bundle> {
    use std::io::{BufRead, Read};
    let shown = crate::untrusted::path(path);
    let file = match crate::fsutil::open_regular(path) {
        Ok(Some(file)) => file,
        Ok(None) => {
            return Err(ExtError::refused(format!("{shown}: there is no such file"))
                .hint("`roost ext export --bundle FILE` writes a bundle"))
        }
        Err(e) => return Err(ExtError::refused(format!("cannot read {shown}: {e}"))),
    };
    let not = |what: &str| {
        ExtError::refused(format!(
            "{shown}: it is not a roost extension bundle ({what})"
        ))
        .hint("`roost ext export --bundle FILE` writes one")
    };
    let cannot = |e: std::io::Error| {
        ExtError::failed(format!(
            "cannot read {shown}: {}",
            crate::fsutil::io_words(&e)
        ))
    };
    let mut r = std::io::BufReader::new(file);
    let line = |r: &mut std::io::BufReader<std::fs::File>| -> Result<String> {
        let mut bytes = Vec::new();
        r.by_ref()
            .take(64)
            .read_until(b'\n', &mut bytes)
            .map_err(cannot)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    if line(&mut r)? != format!("{HEADER}\n") {
        return Err(not("its first line is not the bundle header"));
    }
    let set_len = length(&line(&mut r)?, "set", set::MAX_BYTES).map_err(|e| not(e.message()))?;
    let mut set_bytes = Vec::new();
    r.by_ref()
        .take(set_len)
        .read_to_end(&mut set_bytes)
        .map_err(cannot)?;
    if set_bytes.len() as u64 != set_len {
        return Err(not("it ends inside its set"));
    }
    let set = set::parse(&set_bytes).map_err(|e| e.within(format!("{shown}: its set")))?;
    let pack_len =
        length(&line(&mut r)?, "pack", limits::MAX_PACK_BYTES).map_err(|e| not(e.message()))?;
    let mut commits = Vec::new();
    for line in set.lines.values() {
        commits.push(entries::object_id(&line.pin.commit)?);
    }
    let mut pack = r.by_ref().take(pack_len);
    let objects = git::bundle::Unpacked::read(&mut pack, &std::env::temp_dir(), &commits)
        .map_err(|e| ExtError::from(e).within(&shown))?;
    if pack.limit() > 0 || !r.fill_buf().map_err(cannot)?.is_empty() {
        return Err(not("bytes follow its pack"));
    }
    Ok(Bundle { set, objects })
}

/// The length a section's line `NAME LENGTH\n` gives, at most `max`; or
/// what is wrong with it.
fn length(line: &str, name: &str, max: u64) -> Result<u64> {
    let n: u64 = line
        .strip_suffix('\n')
        .and_then(|l| l.strip_prefix(name))
        .and_then(|l| l.strip_prefix(' '))
        .and_then(|l| l.parse().ok())
        .ok_or_else(|| ExtError::refused(format!("no {name} section where it should be")))?;
    if n > max {
        return Err(ExtError::refused(format!(
            "its {name} section is {}, over the limit of {}",
            limits::size(n),
            limits::size(max)
        )));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_line_gives_its_length_within_its_bound() {
        assert_eq!(length("set 3\n", "set", 10), Ok(3));
        assert_eq!(
            length("set 11\n", "set", 10).unwrap_err(),
            "its set section is 11 bytes, over the limit of 10 bytes"
        );
        for bad in ["set 3", "pack 3\n", "set -3\n", "set  3\n", "set x\n"] {
            assert!(length(bad, "set", 10).is_err(), "{bad}");
        }
    }
}
