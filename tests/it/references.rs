//! Every path of this repository that README.md, SECURITY.md, the man pages,
//! fuzz/README.md, the CI scripts in .ci/, the modules' doc lines and their
//! `#[path]` attributes name exists, so what they promise points at
//! real files (a test, a module) and cannot go stale unnoticed. A path is a
//! word starting with one of the top-level directories (`TOPS`), or, in a
//! table row whose first cell is such a directory (README's room table), a
//! file name in backquotes with a source extension (`ROOM_EXTS`), read in
//! that directory or in the sub-directory named just before it.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The top-level directories of the repository a reference can start with.
const TOPS: &[&str] = &[
    "src/",
    "tests/",
    "benches/",
    "share/",
    "scripts/",
    "man/",
    "fuzz/",
    "link/",
    "completions/",
    ".ci/",
];

/// Repository paths in `text`: words that start with one of `TOPS` where
/// nothing path-like stands before them (so `~/.local/share/man` is not
/// one), up to the first character no path of ours holds.
fn references(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    for top in TOPS {
        let mut from = 0;
        while let Some(at) = text[from..].find(top) {
            let start = from + at;
            from = start + top.len();
            let before = start.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b"/.~$}_-".contains(&b)) {
                continue;
            }
            let len = text[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || "/._-".contains(c)))
                .unwrap_or(text.len() - start);
            let word = text[start..start + len].trim_end_matches(['.', '-']);
            found.push(word.to_string());
        }
    }
    found
}

/// The extensions a bare file name in a room-table row has to carry to be
/// read as a path (so `ext.lock` or `roost-ext.json`, files roost writes or
/// reads at run time, are not).
const ROOM_EXTS: &[&str] = &["rs", "c", "h", "roff", "toml", "sh", "py", "md"];

/// The paths a room-table row names relative to its directory: the row's
/// first cell is a directory in backquotes (`` `src/cli/` ``), and each
/// backquoted bare file name after it (`` `model.rs` ``) is in that
/// directory, or in the sub-directory named just before it (`` `send/` ``),
/// up to the parenthesis that follows the sub-directory closing, or else up
/// to the next `;`.
fn room_references(line: &str) -> Vec<String> {
    let Some(row) = line.strip_prefix("| `") else {
        return Vec::new();
    };
    let Some((dir, rest)) = row.split_once('`') else {
        return Vec::new();
    };
    if !dir.ends_with('/') || !TOPS.iter().any(|top| dir.starts_with(top)) {
        return Vec::new();
    }
    let mut found = Vec::new();
    // The sub-directory in scope, the depth of parentheses it opened at, and
    // whether a parenthesis of its own holds its files.
    let mut sub: Option<(String, usize, bool)> = None;
    let mut depth = 0usize;
    let mut chars = rest.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if matches!(&sub, Some((_, d, true)) if *d == depth) {
                    sub = None;
                }
            }
            ';' if matches!(&sub, Some((_, d, false)) if *d == depth) => sub = None,
            '`' => {
                let Some(len) = rest[at + 1..].find('`') else {
                    break;
                };
                let word = &rest[at + 1..at + 1 + len];
                while chars.peek().is_some_and(|&(i, _)| i <= at + 1 + len) {
                    chars.next();
                }
                let bare = !word.is_empty()
                    && word
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
                    && !TOPS.iter().any(|top| word.starts_with(top));
                if !bare {
                    continue;
                }
                if let Some(name) = word.strip_suffix('/') {
                    if name.contains('/') || name.is_empty() {
                        continue;
                    }
                    let path = format!("{dir}{word}");
                    let held = rest[at + 2 + len..].trim_start().starts_with('(');
                    found.push(path.clone());
                    sub = Some((path, depth, held));
                } else if !word.contains('/')
                    && word
                        .rsplit_once('.')
                        .is_some_and(|(stem, ext)| !stem.is_empty() && ROOM_EXTS.contains(&ext))
                {
                    let base = sub.as_ref().map_or(dir, |(d, _, _)| d.as_str());
                    found.push(format!("{base}{word}"));
                }
            }
            _ => {}
        }
    }
    found
}

/// A placeholder rather than a path: a segment in capitals (`tests/it/X.rs`,
/// `bin/roost-CMD`) or a pattern.
fn placeholder(path: &str) -> bool {
    path.contains('*')
        || path.split('/').any(|seg| {
            let stem = seg.split('.').next().unwrap_or(seg);
            !stem.is_empty()
                && stem.chars().any(|c| c.is_ascii_uppercase())
                && !matches!(stem, "README" | "SECURITY")
        })
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

#[test]
fn every_repository_path_the_docs_and_module_lines_name_exists() {
    let root = Path::new(ROOT);
    // Each file with the lines it names paths on: (line number, text).
    let mut texts: Vec<(PathBuf, Vec<(usize, String)>)> = Vec::new();
    let numbered = |text: &str| -> Vec<(usize, String)> {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect()
    };
    for doc in ["README.md", "SECURITY.md", "fuzz/README.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        texts.push((root.join(doc), numbered(&text)));
    }
    // The CI scripts, whole: what they run and what they tell a contributor
    // to fix.
    for entry in std::fs::read_dir(root.join(".ci")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        texts.push((entry.path(), numbered(&text)));
    }
    for entry in std::fs::read_dir(root.join("man")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        // roff escapes a hyphen as `\-`.
        texts.push((entry.path(), numbered(&text.replace("\\-", "-"))));
    }
    let mut sources = Vec::new();
    for dir in ["src", "tests", "benches", "fuzz/fuzz_targets"] {
        files(&root.join(dir), "rs", &mut sources);
    }
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines = numbered(&text)
            .into_iter()
            .filter(|(_, l)| l.trim_start().starts_with("//!"))
            .collect();
        texts.push((path, lines));
    }
    let mut missing = Vec::new();
    for (file, lines) in &texts {
        for (number, line) in lines {
            let mut named = references(line);
            named.extend(room_references(line));
            for path in named {
                if placeholder(&path) || root.join(&path).exists() {
                    continue;
                }
                missing.push(format!(
                    "{}:{number}: {path}",
                    file.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The file a `#[path = "…"]` attribute on `line` names, relative to the
/// directory of the file it stands in.
fn path_attribute(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("#[path")?
        .trim_start()
        .strip_prefix('=')?
        .trim()
        .strip_prefix('"')?
        .split_once('"')
        .map(|(path, _)| path)
}

/// A module read from elsewhere (`#[path]`, as the fuzz targets read the
/// test oracles) is a path too, and one the compiler only follows when that
/// crate is built: a move that breaks it is found here.
#[test]
fn every_path_attribute_names_a_file_that_exists() {
    let root = Path::new(ROOT);
    let mut sources = Vec::new();
    for dir in ["src", "tests", "benches", "fuzz"] {
        files(&root.join(dir), "rs", &mut sources);
    }
    let mut seen = 0;
    let mut missing = Vec::new();
    for file in sources {
        if file.starts_with(root.join("fuzz/target")) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let Some(named) = path_attribute(line) else {
                continue;
            };
            seen += 1;
            if !file.parent().unwrap().join(named).is_file() {
                missing.push(format!(
                    "{}:{}: {named}",
                    file.strip_prefix(root).unwrap().display(),
                    i + 1
                ));
            }
        }
    }
    assert!(seen >= 5, "the fuzz targets read the oracles by #[path]");
    assert!(
        missing.is_empty(),
        "#[path] attributes naming no file:\n{}",
        missing.join("\n")
    );
}

#[test]
fn references_are_found_where_they_stand_alone() {
    assert_eq!(
        references("see tests/it/send.rs, and `src/tmux/`; not ~/.local/share/man or $X/share/y."),
        ["src/tmux/", "tests/it/send.rs"]
    );
    assert!(placeholder("tests/it/X.rs") && placeholder("bin/roost-CMD"));
    assert!(!placeholder("tests/it/send.rs"));
    assert_eq!(
        room_references(
            "| `src/commands/` | verbs, `send/` (`mod.rs` the delivery, `lock.rs`), \
             plus `target.rs` and `mod.rs`; not `man/`, `ext.lock` or `*.roff` |"
        ),
        [
            "src/commands/send/",
            "src/commands/send/mod.rs",
            "src/commands/send/lock.rs",
            "src/commands/target.rs",
            "src/commands/mod.rs",
        ]
    );
    assert_eq!(
        room_references(
            "| `src/ext/` | `git/` does git: `remote.rs` one, `mod.rs` trees; `hash` |"
        ),
        [
            "src/ext/git/",
            "src/ext/git/remote.rs",
            "src/ext/git/mod.rs"
        ]
    );
    assert!(room_references("| `src/lib.rs` | `run`, `model.rs` |").is_empty());
    assert_eq!(
        path_attribute(r#"#[path = "../../tests/it/oracles/mod.rs"]"#),
        Some("../../tests/it/oracles/mod.rs")
    );
    assert_eq!(path_attribute("#[allow(dead_code)]"), None);
}
