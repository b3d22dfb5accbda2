//! The layout of `src/` keeps its promises: no import cycle between files,
//! no extension verb importing another, gix only in `src/ext/git/`, no
//! error carried as a bare string in the extension domain or the tmux layer,
//! one error type below the extension verbs (`GitError` in the git layer),
//! and a remote's failure classified by its typed error, not its words.
//! Read from the source itself, so a change that breaks a rule names the
//! files that break it.
//!
//! The tests themselves keep one rule: every command and every `ext` verb
//! has its own test module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// One source file: its path under `src/`, its module path, and its code
/// without the unit tests at its end.
struct File {
    rel: String,
    module: Vec<String>,
    code: String,
}

fn files() -> Vec<File> {
    let mut out = Vec::new();
    walk(Path::new(SRC), &mut out);
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

fn walk(dir: &Path, out: &mut Vec<File>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path: PathBuf = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(SRC)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let code = match text.find("#[cfg(test)]\nmod tests") {
                Some(at) => text[..at].to_string(),
                None => text,
            };
            out.push(File {
                module: module_of(&rel),
                rel,
                code,
            });
        }
    }
}

/// `ext/git/mod.rs` → ["ext", "git"]; `lib.rs` and `main.rs` → [].
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Paths a file names: every `crate::…`, `super::…`, `self::…` and
/// child-module path, in `use` lines (braces expanded) and in the code.
fn paths_named(code: &str) -> Vec<Vec<String>> {
    let children = child_modules(code);
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at + 4..];
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = tail.find(';') {
            // Blanks go, but `x as y` keeps its `as` apart from the names.
            let body = tail[..end].split_whitespace().collect::<Vec<_>>().join(" ");
            let body: String = body.replace(" as ", RENAMED).split(' ').collect();
            expand(&[], &body, &mut found);
        }
    }
    for word in path_words(code) {
        let parts: Vec<String> = word.split("::").map(String::from).collect();
        if matches!(parts[0].as_str(), "crate" | "super" | "self") || children.contains(&parts[0]) {
            found.push(parts);
        }
    }
    found
}

/// What stands for ` as ` in a `use` line once its blanks are gone.
const RENAMED: &str = "\u{1}";

/// The modules a file declares with `mod NAME;`.
fn child_modules(code: &str) -> BTreeSet<String> {
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            let l = match l.strip_prefix("pub(") {
                Some(r) => r.split_once(") ").map(|(_, r)| r).unwrap_or(r),
                None => l,
            };
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect()
}

/// Words of the form `a::b::c` in the code.
fn path_words(code: &str) -> Vec<String> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    code.split(|c: char| !ident(c))
        // `a::{…` is a `use` group, which `expand` reads.
        .filter(|w| w.contains("::") && !w.starts_with(':') && !w.ends_with(':'))
        .map(String::from)
        .collect()
}

/// `a::{b, c::{d, e}}` → a::b, a::c::d, a::c::e.
fn expand(prefix: &[String], body: &str, out: &mut Vec<Vec<String>>) {
    for item in top_level(body) {
        if let Some((head, group)) = item.split_once("::{") {
            let mut p = prefix.to_vec();
            p.extend(head.split("::").map(String::from));
            expand(&p, group.strip_suffix('}').unwrap_or(group), out);
        } else if let Some(group) = item.strip_prefix('{') {
            expand(prefix, group.strip_suffix('}').unwrap_or(group), out);
        } else {
            let item = item.split(RENAMED).next().unwrap_or(&item);
            let mut p = prefix.to_vec();
            p.extend(item.split("::").filter(|s| !s.is_empty()).map(String::from));
            if !p.is_empty() {
                out.push(p);
            }
        }
    }
}

/// The comma-separated items of a `use` group, braces kept whole.
fn top_level(body: &str) -> Vec<String> {
    let (mut items, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        items.push(cur);
    }
    items
}

/// File → the files it uses (never itself).
fn graph(files: &[File]) -> BTreeMap<String, BTreeSet<String>> {
    let by_module: BTreeMap<&[String], &str> = files
        .iter()
        .map(|f| (f.module.as_slice(), f.rel.as_str()))
        .collect();
    let resolve = |path: &[String]| {
        (1..=path.len())
            .rev()
            .find_map(|n| by_module.get(&path[..n]).copied())
    };
    let mut edges = BTreeMap::new();
    for f in files {
        let children = child_modules(&f.code);
        let mut to = BTreeSet::new();
        for p in paths_named(&f.code) {
            let full: Vec<String> = match p[0].as_str() {
                "crate" => p[1..].to_vec(),
                "self" => f.module.iter().chain(&p[1..]).cloned().collect(),
                "super" => {
                    let ups = p.iter().take_while(|s| *s == "super").count();
                    let keep = f.module.len().saturating_sub(ups);
                    f.module[..keep].iter().chain(&p[ups..]).cloned().collect()
                }
                c if children.contains(c) => f.module.iter().chain(&p).cloned().collect(),
                _ => continue,
            };
            if let Some(t) = resolve(&full).filter(|t| *t != f.rel) {
                to.insert(t.to_string());
            }
        }
        edges.insert(f.rel.clone(), to);
    }
    edges
}

/// The groups of files that import each other round a cycle.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Two files are in one cycle when each reaches the other.
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(v) = todo.pop() {
            for w in &edges[&v] {
                if seen.insert(w.clone()) {
                    todo.push(w.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|k| (k, reach(k))).collect();
    let mut placed = BTreeSet::new();
    let mut groups = Vec::new();
    for a in edges.keys() {
        if placed.contains(a) || !reached[a].contains(a) {
            continue;
        }
        let group: Vec<String> = edges
            .keys()
            .filter(|b| reached[a].contains(*b) && reached[*b].contains(a))
            .cloned()
            .collect();
        placed.extend(group.iter().cloned());
        groups.push(group);
    }
    groups
}

#[test]
fn no_file_of_src_imports_itself_round_a_cycle() {
    let found = cycles(&graph(&files()));
    assert!(
        found.is_empty(),
        "files that import each other round a cycle:\n{}",
        found
            .iter()
            .map(|g| format!("  {}", g.join(" ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_cycle_finder_finds_a_cycle_through_a_parent_module() {
    let files = vec![
        File {
            rel: "a/mod.rs".into(),
            module: module_of("a/mod.rs"),
            code: "mod b;\npub fn run() { b::go() }\n".into(),
        },
        File {
            rel: "a/b.rs".into(),
            module: module_of("a/b.rs"),
            code: "use super::{helper, other::{x as y}};\nuse crate::hash as h;\npub fn go() {}\n"
                .into(),
        },
        File {
            rel: "c.rs".into(),
            module: module_of("c.rs"),
            code: "use crate::a::run;\n".into(),
        },
        File {
            rel: "hash.rs".into(),
            module: module_of("hash.rs"),
            code: String::new(),
        },
    ];
    let edges = graph(&files);
    assert_eq!(edges["c.rs"], BTreeSet::from(["a/mod.rs".to_string()]));
    assert_eq!(
        edges["a/b.rs"],
        BTreeSet::from(["a/mod.rs".to_string(), "hash.rs".to_string()])
    );
    assert_eq!(
        cycles(&edges),
        vec![vec!["a/b.rs".to_string(), "a/mod.rs".to_string()]]
    );
}

#[test]
fn no_extension_verb_imports_another() {
    let files = files();
    let edges = graph(&files);
    let verb = |rel: &str| rel.starts_with("ext/verbs/") && !rel.ends_with("/mod.rs");
    let verbs: Vec<&String> = edges.keys().filter(|r| verb(r)).collect();
    assert!(
        verbs.len() >= 14,
        "the verbs live in src/ext/verbs/: {verbs:?}"
    );
    let crossing: Vec<String> = verbs
        .iter()
        .flat_map(|v| {
            edges[*v]
                .iter()
                .filter(|t| t.starts_with("ext/verbs/"))
                .map(move |t| format!("  {v} -> {t}"))
        })
        .collect();
    assert!(
        crossing.is_empty(),
        "verbs import verbs:\n{}",
        crossing.join("\n")
    );
}

/// A handler of a built-in command: a file of src/commands/ but the shared
/// pieces every handler may use (the context, target resolution, the
/// router).
fn handler(rel: &str) -> bool {
    rel.starts_with("commands/")
        && !matches!(
            rel,
            "commands/mod.rs" | "commands/ctx.rs" | "commands/target.rs"
        )
}

/// Which handler a file belongs to: `commands/send/tty.rs` is send's.
fn handler_of(rel: &str) -> String {
    let rest = rel.trim_start_matches("commands/");
    match rest.split_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => rest.trim_end_matches(".rs").to_string(),
    }
}

/// The imports of one handler's files that reach another handler.
fn handler_crossings(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    edges
        .iter()
        .filter(|(from, _)| handler(from))
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|t| handler(t) && handler_of(t) != handler_of(from))
                .map(move |t| format!("  {from} -> {t}"))
        })
        .collect()
}

#[test]
fn no_command_handler_imports_another() {
    let edges = graph(&files());
    let crossing = handler_crossings(&edges);
    assert!(
        crossing.is_empty(),
        "handlers import handlers (move what they share into the domain):\n{}",
        crossing.join("\n")
    );
}

#[test]
fn a_handler_importing_a_handler_is_seen() {
    let mut edges = BTreeMap::new();
    edges.insert(
        "commands/spawn.rs".to_string(),
        BTreeSet::from([
            "commands/kill.rs".to_string(),
            "commands/ctx.rs".to_string(),
        ]),
    );
    edges.insert(
        "commands/send/mod.rs".to_string(),
        BTreeSet::from(["commands/send/tty.rs".to_string()]),
    );
    assert_eq!(
        handler_crossings(&edges),
        ["  commands/spawn.rs -> commands/kill.rs"]
    );
}

#[test]
fn gix_is_used_only_in_src_ext_git() {
    let users: Vec<String> = files()
        .into_iter()
        .filter(|f| !f.rel.starts_with("ext/git/"))
        .filter(|f| f.code.contains("gix::") || f.code.contains("use gix"))
        .map(|f| f.rel)
        .collect();
    assert!(users.is_empty(), "gix used outside src/ext/git/: {users:?}");
}

#[test]
fn the_domains_the_handlers_and_the_paths_carry_no_string_errors() {
    let mut found = Vec::new();
    for f in files() {
        if !["ext/", "tmux/", "agents/", "commands/", "paths.rs"]
            .iter()
            .any(|d| f.rel.starts_with(d))
        {
            continue;
        }
        for (n, line) in f.code.lines().enumerate() {
            let compact: String = line.split_whitespace().collect();
            if string_error(&compact) {
                found.push(format!("  src/{}:{}: {}", f.rel, n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "Result<_, String> in a domain, a handler or the paths:\n{}",
        found.join("\n")
    );
}

/// Whether a line (blanks removed) names a `Result<…, String>`.
fn string_error(compact: &str) -> bool {
    error_types(compact).iter().any(|e| e == "String")
}

/// The error types of the two-argument `Result<…, E>`s a line (blanks
/// removed) names.
fn error_types(compact: &str) -> Vec<String> {
    compact
        .match_indices("Result<")
        .filter_map(|(at, _)| {
            let args = &compact[at + "Result<".len()..];
            let mut depth = 1;
            let end = args.char_indices().find_map(|(i, c)| {
                match c {
                    '<' | '(' => depth += 1,
                    '>' | ')' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(i)
            });
            let args = &args[..end.unwrap_or(args.len())];
            let mut depth = 0;
            let parts: Vec<&str> = args
                .split(|c: char| {
                    match c {
                        '<' | '(' => depth += 1,
                        '>' | ')' => depth -= 1,
                        _ => {}
                    }
                    c == ',' && depth == 0
                })
                .collect();
            (parts.len() == 2).then(|| parts[1].to_string())
        })
        .collect()
}

#[test]
fn a_string_error_is_seen_inside_nested_types() {
    assert!(string_error("fnf()->Result<Vec<(u8,String)>,String>{"));
    assert!(string_error("typeR=std::result::Result<T,String>;"));
    assert!(!string_error("fnf()->Result<Vec<String>,Error>{"));
    assert!(!string_error("fnf()->Result<String>{"));
}

/// The errors a module of `src/ext/` may return. Below the verbs, the
/// domain's one type (`ExtError`), made into the command's error by the
/// verb; in the git layer `GitError`, which becomes one; and what a trait
/// names for its implementors (serde's, I/O's). `&Unreadable` is an entry of
/// ext.lock kept as found, which a lookup hands back in place of the entry.
const EXT_ERRORS: &[&str] = &[
    "ExtError",
    "GitError",
    "D::Error",
    "S::Error",
    "Self::Error",
    "std::io::Error",
    "&Unreadable",
];

/// What breaks the one-error-type rule in a file of `src/ext/` (`rel`), by
/// line: an error type other than `EXT_ERRORS`, an error type of its own,
/// or the command's error used below the verbs.
fn error_type_breaches(rel: &str, code: &str) -> Vec<String> {
    let below_verbs = !rel.starts_with("ext/verbs/") && rel != "ext/error.rs";
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let compact: String = line.split_whitespace().collect();
        let mut why = Vec::new();
        for e in error_types(&compact) {
            if !EXT_ERRORS.contains(&e.as_str()) {
                why.push(format!("returns {e}"));
            }
        }
        let defines = [
            "pubstruct",
            "struct",
            "pubenum",
            "enum",
            "pub(crate)struct",
            "pub(crate)enum",
        ]
        .iter()
        .find_map(|k| compact.strip_prefix(k))
        .map(|rest| {
            rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
                .unwrap_or("")
        });
        if let Some(name) = defines.filter(|n| n.ends_with("Error")) {
            if !matches!(name, "ExtError" | "GitError") {
                why.push(format!("defines {name}"));
            }
        }
        if compact.starts_with("impl") && compact.contains("std::error::Errorfor") {
            let name = compact
                .rsplit("for")
                .next()
                .unwrap_or("")
                .trim_end_matches(['{', '}']);
            if !matches!(name, "ExtError" | "GitError") {
                why.push(format!("makes {name} an error"));
            }
        }
        if below_verbs && compact.contains("crate::error::") {
            why.push("uses the command's error below the verbs".to_string());
        }
        for w in why {
            found.push(format!("  src/{rel}:{}: {w}: {}", n + 1, line.trim()));
        }
    }
    found
}

#[test]
fn the_extension_domain_has_one_error_type_below_the_verbs() {
    let found: Vec<String> = files()
        .into_iter()
        .filter(|f| f.rel.starts_with("ext/"))
        .flat_map(|f| error_type_breaches(&f.rel, &f.code))
        .collect();
    assert!(
        found.is_empty(),
        "the extension domain returns ExtError (GitError in src/ext/git/), and only its verbs \
         make the command's error:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_error_type_rule_finds_a_second_error_type() {
    let broken = "pub enum FetchError {\n\
                  pub fn swap() -> Result<bool, SwapError> {\n\
                  fn agree() -> std::result::Result<(), Halt> {\n\
                  impl std::error::Error for Stop {}\n\
                  use crate::error::{Error, Result};\n";
    let found = error_type_breaches("ext/repin.rs", broken);
    assert_eq!(found.len(), 5, "{found:#?}");
    assert!(found[0].contains("defines FetchError"), "{found:#?}");
    assert!(found[2].contains("returns Halt"), "{found:#?}");
    assert!(found[3].contains("makes Stop an error"), "{found:#?}");
    // A verb makes the command's error; ExtError and GitError are the types.
    let fine = "use crate::error::{Error, Result};\nfn f() -> Result<(), ExtError> {\n";
    assert!(error_type_breaches("ext/verbs/update.rs", fine).is_empty());
    assert!(
        error_type_breaches("ext/git/remote.rs", "fn f() -> Result<u8, GitError> {").is_empty()
    );
}

/// The files that say what kind of failure a remote's was: they match
/// `GitError`'s and the transports' variants, never the words of a message.
const CLASSIFIERS: &[&str] = &["ext/git/cause.rs", "ext/git/failure.rs"];

/// Whether a line (blanks removed) searches the text of an error: what
/// stands before `.contains(` is an error's words (`….as_str()`,
/// `….to_string()`, `….message()`) or a value named as an error is (`e`,
/// `err`, `why`, `chain`).
fn searches_error_text(compact: &str) -> bool {
    compact.match_indices(".contains(").any(|(at, _)| {
        let before = &compact[..at];
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || "_.()".contains(c)))
            .map_or(0, |i| i + 1);
        let receiver = &before[start..];
        [".as_str()", ".to_string()", ".message()"]
            .iter()
            .any(|s| receiver.ends_with(s))
            || matches!(receiver, "e" | "err" | "why" | "chain")
    })
}

/// Where a file reads an error's words to decide what it was: a text search
/// in a classifier, or anywhere in `src/ext/` on an error's text.
fn words_read(rel: &str, code: &str) -> Vec<String> {
    let searches = [
        ".contains(",
        ".find(",
        ".rfind(",
        ".matches(",
        "match_indices(",
        ".to_lowercase(",
        ".to_ascii_lowercase(",
    ];
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let compact: String = line.split_whitespace().collect();
        let hit = if CLASSIFIERS.contains(&rel) {
            searches.iter().find(|s| compact.contains(*s)).copied()
        } else {
            searches_error_text(&compact).then_some(".contains(")
        };
        if let Some(what) = hit {
            found.push(format!("  src/{rel}:{}: {what} {}", n + 1, line.trim()));
        }
    }
    found
}

#[test]
fn a_remote_s_failure_is_matched_by_its_variant_not_its_words() {
    let found: Vec<String> = files()
        .into_iter()
        .filter(|f| f.rel.starts_with("ext/"))
        .flat_map(|f| words_read(&f.rel, &f.code))
        .collect();
    assert!(
        found.is_empty(),
        "a GitError is matched by variant (the kind is read from typed errors where it is made):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_words_rule_finds_a_search_of_an_error_s_text() {
    let broken = "    } else if has(&[\"connection refused\"]) {\n    let lower = text.to_ascii_lowercase();\n";
    assert_eq!(
        words_read("ext/git/failure.rs", "        .find(|p| !p.is_empty())\n").len(),
        1
    );
    assert_eq!(words_read("ext/git/cause.rs", broken).len(), 1);
    assert_eq!(
        words_read(
            "ext/git/remote.rs",
            "    if why.as_str().contains(\"not our ref\") {\n"
        )
        .len(),
        1
    );
    assert!(words_read("ext/git/remote.rs", "    if url.contains(\"://\") {\n").is_empty());
}

/// README's picture of the layers, top to bottom (the entry, the routes,
/// the domain, what talks to the outside, the base): each row's places, a
/// file (`switch.rs`) or a folder (`ext/git/`).
fn picture() -> Vec<Vec<String>> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let rows = ["entry", "routes", "domain", "outside", "base"];
    let lines: Vec<&str> = readme.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.starts_with(" entry "))
        .expect("README's picture starts with its entry row");
    rows.iter()
        .zip(&lines[top..top + rows.len()])
        .map(|(name, line)| {
            let rest = line
                .strip_prefix(&format!(" {name} "))
                .unwrap_or_else(|| panic!("README's picture: want row {name}, found {line:?}"));
            // Asides in parentheses name what is inside a folder.
            let mut bare = String::new();
            let mut depth = 0;
            for c in rest.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ if depth == 0 => bare.push(c),
                    _ => {}
                }
            }
            bare.split(['·', '→'])
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect()
        })
        .collect()
}

/// The row of README's picture a file stands in: its own name's, else the
/// deepest folder above it that the picture names.
fn row_in(picture: &[Vec<String>], rel: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, places) in picture.iter().enumerate() {
        for place in places {
            let fits = if place.ends_with('/') {
                rel.starts_with(place.as_str())
            } else {
                rel == place
            };
            let depth = if place.ends_with('/') {
                place.len()
            } else {
                usize::MAX
            };
            if fits && best.is_none_or(|(_, d)| depth > d) {
                best = Some((i, depth));
            }
        }
    }
    best.map(|(i, _)| i)
}

fn row(rel: &str) -> usize {
    row_in(&picture(), rel)
        .unwrap_or_else(|| panic!("{rel} is in no row of README's picture: place it there"))
}

#[test]
fn every_file_of_src_stands_in_a_row_of_readme_s_picture() {
    let pic = picture();
    let missing: Vec<String> = files()
        .iter()
        .map(|f| f.rel.clone())
        .filter(|rel| row_in(&pic, rel).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "files in no row of README's picture: {missing:?}"
    );
}

#[test]
fn the_picture_s_rows_are_read_as_written() {
    let pic = vec![
        vec!["lib.rs".to_string()],
        vec!["ext/verbs/".to_string()],
        vec!["ext/".to_string()],
    ];
    assert_eq!(row_in(&pic, "ext/verbs/install.rs"), Some(1));
    assert_eq!(row_in(&pic, "ext/store.rs"), Some(2));
    assert_eq!(row_in(&pic, "lib.rs"), Some(0));
    assert_eq!(row_in(&pic, "nowhere.rs"), None);
}

#[test]
fn no_file_uses_a_row_of_the_picture_above_its_own() {
    let edges = graph(&files());
    let upward: Vec<String> = edges
        .iter()
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|t| row(t) < row(from))
                .map(move |t| format!("  {from} (row {}) -> {t} (row {})", row(from), row(t)))
        })
        .collect();
    assert!(
        upward.is_empty(),
        "files that use a row above their own in README's picture:\n{}",
        upward.join("\n")
    );
}

/// The macros that write to the terminal, each call's text: from the macro
/// to its closing parenthesis.
fn print_calls(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for mac in ["println!(", "eprintln!(", "print!(", "eprint!("] {
        let mut from = 0;
        while let Some(at) = code[from..].find(mac) {
            let start = from + at;
            // `eprintln!(` also holds `println!(`: count it once.
            let prefixed = start > 0 && code.as_bytes()[start - 1] == b'e';
            let body = &code[start + mac.len()..];
            let mut depth = 1;
            let end = body
                .char_indices()
                .find_map(|(i, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    (depth == 0).then_some(i)
                })
                .unwrap_or(body.len());
            if !prefixed {
                out.push(body[..end].to_string());
            }
            from = start + mac.len();
        }
    }
    out
}

/// A path's `display()` printed as it is: a path holds whatever bytes its
/// directories were named with, so it reaches a terminal through the
/// printer (`untrusted::printable` and its kin), like all outside text.
fn raw_path_prints(code: &str) -> Vec<String> {
    print_calls(code)
        .into_iter()
        .filter(|call| call.contains(".display()"))
        .collect()
}

#[test]
fn no_path_is_printed_without_the_printer() {
    let found: Vec<String> = files()
        .iter()
        .flat_map(|f| {
            raw_path_prints(&f.code).into_iter().map(move |call| {
                format!(
                    "  {}: {}",
                    f.rel,
                    call.split_whitespace().collect::<Vec<_>>().join(" ")
                )
            })
        })
        .collect();
    assert!(
        found.is_empty(),
        "paths printed raw (use untrusted::printable of the path's bytes):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_path_printed_raw_is_seen_across_lines() {
    let broken =
        "fn f(p: &Path) {\n    println!(\n        \"kept {}\",\n        p.display()\n    );\n}\n";
    assert_eq!(raw_path_prints(broken).len(), 1);
    let fine = "fn f(p: &Path) {\n    eprintln!(\"kept {}\", shown(p));\n}\n";
    assert!(raw_path_prints(fine).is_empty());
}

const TESTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it");

/// The test module a command or verb's tests live in, under `dir`: `NAME.rs`
/// or `NAME/mod.rs`, with a dash read as an underscore.
fn module_file(dir: &Path, word: &str) -> Option<PathBuf> {
    let name = word.replace('-', "_");
    [
        dir.join(format!("{name}.rs")),
        dir.join(&name).join("mod.rs"),
    ]
    .into_iter()
    .find(|p| p.is_file())
}

/// The commands and verbs that have no test module of their own: every
/// built-in command in `core/` (`ext` is the `ext/` suite itself), every
/// `ext` verb in `ext/`.
fn without_a_test_module(tests: &Path, commands: &[&str], verbs: &[&str]) -> Vec<String> {
    let mut missing = Vec::new();
    for command in commands {
        let found = if *command == "ext" {
            module_file(tests, "ext")
        } else {
            module_file(&tests.join("core"), command)
        };
        if found.is_none() {
            missing.push(format!("roost {command}: no tests/it/core/{command}.rs"));
        }
    }
    for verb in verbs {
        if module_file(&tests.join("ext"), verb).is_none() {
            missing.push(format!("roost ext {verb}: no tests/it/ext/{verb}.rs"));
        }
    }
    missing
}

#[test]
fn every_command_and_every_ext_verb_has_its_test_module() {
    let commands: Vec<&str> = roost::cli::table::COMMANDS.iter().map(|c| c.name).collect();
    let missing = without_a_test_module(Path::new(TESTS), &commands, roost::cli::table::EXT_VERBS);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn a_command_without_a_test_module_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("core/wait_done")).unwrap();
    std::fs::create_dir_all(dir.path().join("ext")).unwrap();
    std::fs::write(dir.path().join("core/spawn.rs"), "").unwrap();
    std::fs::write(dir.path().join("core/wait_done/mod.rs"), "").unwrap();
    std::fs::write(dir.path().join("ext/mod.rs"), "").unwrap();
    std::fs::write(dir.path().join("ext/list.rs"), "").unwrap();
    let missing = without_a_test_module(
        dir.path(),
        &["spawn", "wait-done", "ext", "badge"],
        &["list", "sync"],
    );
    assert_eq!(
        missing,
        [
            "roost badge: no tests/it/core/badge.rs",
            "roost ext sync: no tests/it/ext/sync.rs"
        ]
    );
}
