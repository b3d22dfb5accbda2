//! The router's view of the command line: the names of the built-in
//! commands and ext verbs (reserved words), the commands agents' hooks run,
//! the typo suggestion and the top-level usage line. Static data only, so
//! a word is routed without building any parser.

/// One built-in command: its name and the other words that run it.
pub struct Spec {
    pub name: &'static str,
    /// Other words that run the same command (also reserved).
    pub aliases: &'static [&'static str],
    /// Agents' hooks run it: a malformed line exits 1, never 2.
    pub run_by_hooks: bool,
}

const fn spec(name: &'static str, aliases: &'static [&'static str]) -> Spec {
    Spec {
        name,
        aliases,
        run_by_hooks: false,
    }
}

/// A command agents' hooks run (see `HOOK_COMMANDS`).
const fn hooked(name: &'static str) -> Spec {
    Spec {
        name,
        aliases: &[],
        run_by_hooks: true,
    }
}

/// Every built-in command, in help order. The model describes them; a test
/// below fails when the two disagree.
pub const COMMANDS: &[Spec] = &[
    spec("up", &["start"]),
    spec("session", &[]),
    spec("spawn", &[]),
    spec("send", &[]),
    spec("read", &[]),
    spec("screen", &[]),
    hooked("reply"),
    hooked("state"),
    hooked("hook"),
    spec("wait-done", &[]),
    spec("status", &[]),
    spec("close", &[]),
    spec("kill", &["down", "stop"]),
    spec("whoami", &[]),
    spec("doctor", &[]),
    spec("hooks", &[]),
    spec("resume", &[]),
    spec("next", &[]),
    spec("badge", &[]),
    spec("ext", &[]),
    spec("completions", &[]),
    spec("demo", &[]),
    spec("help", &["-h", "--help"]),
    spec("version", &["-V", "--version"]),
];

/// The commands agents' hooks run, where Claude Code reads exit 2 as
/// "block": the table's `hooked` entries, in its order.
pub const HOOK_COMMANDS: [&str; 3] = hook_commands();

const fn hook_commands<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < COMMANDS.len() {
        if COMMANDS[i].run_by_hooks {
            out[n] = COMMANDS[i].name;
            n += 1;
        }
        i += 1;
    }
    assert!(n == N, "HOOK_COMMANDS's length is not the table's count");
    out
}

/// The `roost ext` verbs, reserved like the commands (the model describes them).
pub const EXT_VERBS: &[&str] = &[
    "install", "list", "info", "verify", "outdated", "update", "rollback", "repair", "export",
    "sync", "disable", "enable", "remove", "config", "new", "check", "exec", "log",
];

/// The built-in command a word names, if any (names and aliases).
pub fn find(word: &[u8]) -> Option<&'static Spec> {
    COMMANDS
        .iter()
        .find(|c| c.name.as_bytes() == word || c.aliases.iter().any(|a| a.as_bytes() == word))
}

/// Whether an extension may never claim this word: a built-in command, or
/// an `ext` verb (so `roost remove x` can never pose as `roost ext remove x`).
pub fn is_reserved(word: &str) -> bool {
    find(word.as_bytes()).is_some() || is_ext_verb(word.as_bytes())
}

/// What the word is to roost when an extension may never claim it: "a
/// verb of roost ext (roost ext WORD)" or "a roost core command".
pub fn reserved_as(word: &str) -> Option<String> {
    if is_ext_verb(word.as_bytes()) {
        Some(format!("a verb of roost ext (roost ext {word})"))
    } else {
        find(word.as_bytes()).map(|_| "a roost core command".to_string())
    }
}

/// Whether the word is one of the `roost ext` verbs.
pub fn is_ext_verb(word: &[u8]) -> bool {
    EXT_VERBS.iter().any(|verb| verb.as_bytes() == word)
}

/// The built-in name (or alias) closest to a mistyped `word`, when one is
/// close: at most one edit (insertion, deletion, substitution or swap of
/// two neighbours) for a short word, two for a longer one, letter case
/// ignored. Only built-in names are offered, so what a word gets never
/// depends on what is installed.
pub fn suggestion(word: &[u8]) -> Option<&'static str> {
    let names = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .filter(|name| !name.starts_with('-'));
    closest(word, names)
}

/// The name among `names` closest to `word`, when one is close (the rule
/// above).
pub fn closest<'a>(word: &[u8], names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let word: Vec<u8> = word.to_ascii_lowercase();
    if word.is_empty() || word.len() > 32 {
        return None;
    }
    let most = if word.len() <= 4 { 1 } else { 2 };
    names
        .map(|name| (distance(&word, name.as_bytes()), name))
        .filter(|(d, _)| *d <= most)
        // On a tie, a name the word begins is the likelier one.
        .min_by_key(|(d, name)| (*d, !name.as_bytes().starts_with(&word)))
        .map(|(_, name)| name)
}

/// Edits between `a` and `b` (optimal string alignment: insert, delete,
/// substitute, or swap two neighbours).
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut prev2: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (prev[j] + 1).min(row[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, row);
    }
    prev[b.len()]
}

/// The single line a typo, a miss or a disabled seam gets.
pub fn usage_line() -> String {
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    format!("usage: roost [{}] [ARGS...]", names.join("|"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for c in COMMANDS {
            for w in std::iter::once(&c.name).chain(c.aliases.iter()) {
                assert!(seen.insert(*w), "{w} appears twice in the command table");
            }
        }
    }

    #[test]
    fn the_usage_line_is_one_line_naming_every_command() {
        let line = usage_line();
        assert!(!line.contains('\n'));
        for c in COMMANDS {
            assert!(line.contains(c.name), "{} missing from {line}", c.name);
        }
    }

    #[test]
    fn the_table_names_exactly_the_commands_and_verbs_of_the_model() {
        let root = crate::cli::built();
        let model: Vec<(String, Vec<String>)> = root
            .get_subcommands()
            .map(|c| {
                let mut words: Vec<String> = c.get_all_aliases().map(String::from).collect();
                words.extend(c.get_all_long_flag_aliases().map(|f| format!("--{f}")));
                words.extend(c.get_all_short_flag_aliases().map(|f| format!("-{f}")));
                // roost's own -h/--help (clap's flag) is the help command.
                if c.get_name() == "help" {
                    words.extend(["-h".to_string(), "--help".to_string()]);
                }
                words.sort();
                (c.get_name().to_string(), words)
            })
            .collect();
        let table: Vec<(String, Vec<String>)> = COMMANDS
            .iter()
            .map(|c| {
                let mut words: Vec<String> = c.aliases.iter().map(|a| a.to_string()).collect();
                words.sort();
                (c.name.to_string(), words)
            })
            .collect();
        // In the same order: the table's is help's.
        assert_eq!(table, model);
        let ext = root.find_subcommand("ext").unwrap();
        let verbs: Vec<&str> = ext.get_subcommands().map(|v| v.get_name()).collect();
        assert_eq!(EXT_VERBS, verbs.as_slice());
    }

    #[test]
    fn the_hook_commands_are_the_tables_hooked_entries() {
        let hooked: Vec<&str> = COMMANDS
            .iter()
            .filter(|c| c.run_by_hooks)
            .map(|c| c.name)
            .collect();
        assert_eq!(HOOK_COMMANDS.as_slice(), hooked.as_slice());
        for name in HOOK_COMMANDS {
            assert!(
                find(name.as_bytes()).is_some_and(|c| c.run_by_hooks),
                "{name}"
            );
        }
    }

    #[test]
    fn a_close_built_in_name_is_suggested() {
        assert_eq!(suggestion(b"sapwn"), Some("spawn"));
        assert_eq!(suggestion(b"Status"), Some("status"));
        assert_eq!(suggestion(b"stat"), Some("state"));
        assert_eq!(suggestion(b"statu"), Some("status"));
        assert_eq!(suggestion(b"sned"), Some("send"));
        assert_eq!(suggestion(b"doctr"), Some("doctor"));
        assert_eq!(suggestion(b"wait"), None);
        assert_eq!(suggestion(b"wiat-done"), Some("wait-done"));
        assert_eq!(suggestion(b"note"), None);
        assert_eq!(suggestion(b"--bogus"), None);
        assert_eq!(suggestion(b""), None);
        assert_eq!(suggestion(&[b'x'; 100]), None);
    }

    #[test]
    fn aliases_are_reserved_but_prefixes_are_not() {
        assert!(is_reserved("stop") && is_reserved("--help") && is_reserved("status"));
        assert!(!is_reserved("stat") && !is_reserved("statuses") && !is_reserved(""));
        let root = crate::cli::built();
        let ext = root.find_subcommand("ext").unwrap();
        for verb in ext.get_subcommands().map(|v| v.get_name()) {
            assert!(is_reserved(verb), "{verb}");
        }
    }
}
