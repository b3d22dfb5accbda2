//! The change between two extension trees as people read it: the list of
//! changed files and a unified diff (capped, the manifest and bin/ first,
//! the files cut named), with every control character
//! neutralised, then coloured as git colours it when `Paint` allows. Both sides are plain directories (the installed files and a
//! fresh fetch): no git runs inside the installed clone.

use super::git::{Leaf, LeafPath, Leaves};
use crate::colour::{Colour, Paint};
use crate::untrusted::printable;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Most diff lines, and bytes, shown; the rest is summarised.
pub const MAX_LINES: usize = 2000;
pub const MAX_BYTES: usize = 256 * 1024;

/// Largest file diffed line by line: a diff's memory grows with its input
/// many times over, so a bigger one is named, not read.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// `A path`, `D path`, `M path` (and `T` when only the mode changed).
pub fn changed_files(old: &Leaves, new: &Leaves) -> Vec<String> {
    let mut out = Vec::new();
    for (path, leaf) in old {
        match new.get(path) {
            None => out.push(format!("D {}", printable(path))),
            Some(n) if n.id != leaf.id => out.push(format!("M {}", printable(path))),
            Some(n) if n.kind != leaf.kind => out.push(format!("T {}", printable(path))),
            _ => {}
        }
    }
    for path in new.keys().filter(|p| !old.contains_key(*p)) {
        out.push(format!("A {}", printable(path)));
    }
    out.sort_by(|a, b| a[2..].cmp(&b[2..]));
    out
}

/// How much of the diff is shown: all of it, or at most `MAX_LINES` lines
/// and `MAX_BYTES` bytes, ending in a note that names the files left out
/// and `whole`, which says how to read all of it.
pub enum Shown<'a> {
    Whole,
    Capped { whole: &'a str },
}

/// Files the cut note names; the rest are counted.
const NAMED: usize = 10;

/// The unified diff from `old_dir` to `new_dir`: the manifest first, then
/// `bin/` (what runs), then the rest, each in path order. `paint` colours
/// it as git does: headers bold, hunk headers cyan, removed lines red,
/// added lines green.
pub fn unified(
    old_dir: &Path,
    old: &Leaves,
    new_dir: &Path,
    new: &Leaves,
    shown: Shown,
    paint: Paint,
) -> String {
    let mut changed: Vec<&LeafPath> = old
        .keys()
        .chain(new.keys().filter(|p| !old.contains_key(*p)))
        .filter(|p| old.get(*p) != new.get(*p))
        .collect();
    let rank = |p: &[u8]| match p {
        b"roost-ext.json" => 0,
        p if p.starts_with(b"bin/") => 1,
        _ => 2,
    };
    changed.sort_by(|a, b| (rank(a), a).cmp(&(rank(b), b)));
    let diff = |path: &&LeafPath| {
        file_diff(
            path,
            old_dir,
            old.get(*path),
            new_dir,
            new.get(*path),
            paint,
        )
    };
    let Shown::Capped { whole } = shown else {
        return changed.iter().map(diff).collect();
    };
    let mut out = String::new();
    // The line count at the end of each file diffed.
    let mut ends = Vec::new();
    for path in &changed {
        // Past the cap nothing more is diffed.
        if out.len() > MAX_BYTES || ends.last().copied().unwrap_or(0) > MAX_LINES {
            break;
        }
        let text = diff(path);
        ends.push(ends.last().copied().unwrap_or(0) + text.matches('\n').count());
        out.push_str(&text);
    }
    if ends.len() == changed.len()
        && ends.last().copied().unwrap_or(0) <= MAX_LINES
        && out.len() <= MAX_BYTES
    {
        return out;
    }
    // Whole lines only, so that one huge line cannot get past the cap.
    let mut capped = String::new();
    let mut lines = 0;
    for line in out.lines().take(MAX_LINES) {
        if capped.len() + line.len() + 1 > MAX_BYTES {
            break;
        }
        capped.push_str(line);
        capped.push('\n');
        lines += 1;
    }
    let full = ends.iter().filter(|end| **end <= lines).count();
    let cut = &changed[full..];
    let mut named: Vec<String> = cut.iter().take(NAMED).map(|p| printable(p)).collect();
    if cut.len() > NAMED {
        named.push(format!("and {} more", cut.len() - NAMED));
    }
    capped.push_str(&format!(
        "[diff cut at {lines} lines; not shown in full: {}; {whole}]\n",
        named.join(", ")
    ));
    capped
}

/// The bytes a leaf stands for: file content, or a symlink's target.
fn content(dir: &Path, path: &[u8], leaf: Option<&Leaf>) -> Vec<u8> {
    let Some(leaf) = leaf else { return Vec::new() };
    let full = dir.join(std::ffi::OsStr::from_bytes(path));
    if leaf.is_link() {
        std::fs::read_link(&full)
            .map(|t| t.as_os_str().as_bytes().to_vec())
            .unwrap_or_default()
    } else if leaf.is_submodule() {
        format!("Subproject commit {}\n", leaf.id).into_bytes()
    } else {
        std::fs::read(&full).unwrap_or_default()
    }
}

fn file_diff(
    path: &[u8],
    old_dir: &Path,
    a: Option<&Leaf>,
    new_dir: &Path,
    b: Option<&Leaf>,
    paint: Paint,
) -> String {
    let p = printable(path);
    let meta = |text: String| format!("{}\n", paint.paint(Colour::Bold, &text));
    let mut out = meta(format!("diff --git a/{p} b/{p}"));
    match (a, b) {
        (None, Some(n)) => {
            out.push_str(&meta(format!("new file mode {}", super::git::mode(n.kind))))
        }
        (Some(o), None) => out.push_str(&meta(format!(
            "deleted file mode {}",
            super::git::mode(o.kind)
        ))),
        (Some(o), Some(n)) if o.kind != n.kind => {
            out.push_str(&meta(format!("old mode {}", super::git::mode(o.kind))));
            out.push_str(&meta(format!("new mode {}", super::git::mode(n.kind))));
        }
        _ => {}
    }
    if a.map(|l| l.id) == b.map(|l| l.id) {
        return out;
    }
    let size = |dir: &Path, leaf: Option<&Leaf>| {
        leaf.filter(|l| !l.is_link() && !l.is_submodule())
            .and_then(|_| {
                std::fs::symlink_metadata(dir.join(std::ffi::OsStr::from_bytes(path))).ok()
            })
            .map_or(0, |m| m.len())
    };
    let largest = size(old_dir, a).max(size(new_dir, b));
    if largest > MAX_FILE_BYTES {
        out.push_str(&format!(
            "(a file of {}: larger than the {} roost diffs; compare it yourself)\n",
            super::git::limits::size(largest),
            super::git::limits::size(MAX_FILE_BYTES)
        ));
        return out;
    }
    let before = content(old_dir, path, a);
    let after = content(new_dir, path, b);
    if before.contains(&0) || after.contains(&0) {
        out.push_str(&format!("Binary files a/{p} and b/{p} differ\n"));
        return out;
    }
    out.push_str(&meta(format!(
        "--- {}",
        if a.is_some() {
            format!("a/{p}")
        } else {
            "/dev/null".into()
        }
    )));
    out.push_str(&meta(format!(
        "+++ {}",
        if b.is_some() {
            format!("b/{p}")
        } else {
            "/dev/null".into()
        }
    )));
    match super::git::diff::unified(&before, &after, paint) {
        Ok(text) => out.push_str(&text),
        Err(e) => out.push_str(&format!("(no diff: {e})\n")),
    }
    out
}
