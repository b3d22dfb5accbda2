//! Every path of this repository that README.md, SECURITY.md, the man pages
//! and the modules' doc lines name exists, so what they promise points at
//! real files (a test, a module) and cannot go stale unnoticed.

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
    let mut texts: Vec<(PathBuf, String)> = Vec::new();
    for doc in ["README.md", "SECURITY.md"] {
        texts.push((
            root.join(doc),
            std::fs::read_to_string(root.join(doc)).unwrap(),
        ));
    }
    for entry in std::fs::read_dir(root.join("man")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        // roff escapes a hyphen as `\-`.
        texts.push((entry.path(), text.replace("\\-", "-")));
    }
    let mut sources = Vec::new();
    for dir in ["src", "tests", "benches"] {
        files(&root.join(dir), "rs", &mut sources);
    }
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: String = text
            .lines()
            .filter(|l| l.trim_start().starts_with("//!"))
            .map(|l| format!("{l}\n"))
            .collect();
        texts.push((path, lines));
    }
    let mut missing = Vec::new();
    for (file, text) in &texts {
        for path in references(text) {
            if placeholder(&path) || root.join(&path).exists() {
                continue;
            }
            missing.push(format!(
                "{}: {path}",
                file.strip_prefix(root).unwrap().display()
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
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
}
