//! The command table: the one source of roost's reserved names, its help text
//! and its usage lines. Static data only, so the dispatcher can consult it
//! without building any parser.

/// One built-in command.
pub struct Spec {
    pub name: &'static str,
    /// Other words that run the same command (also reserved).
    pub aliases: &'static [&'static str],
    /// The argument synopsis shown after the name.
    pub args: &'static str,
    /// Options the command accepts (for help and completion).
    pub flags: &'static [&'static str],
    pub about: &'static str,
}

pub const COMMANDS: &[Spec] = &[
    Spec {
        name: "up",
        aliases: &["start"],
        args: "",
        flags: &[],
        about: "ensure session main exists and attach to it (also plain `roost`)",
    },
    Spec {
        name: "session",
        aliases: &[],
        args: "NAME",
        flags: &[],
        about: "ensure session NAME exists and attach to it",
    },
    Spec {
        name: "spawn",
        aliases: &[],
        args: "NAME [CMD...]",
        flags: &[],
        about: "open window NAME running CMD; prints the new pane id",
    },
    Spec {
        name: "send",
        aliases: &[],
        args: "[--force] [--wait SECONDS] TARGET TEXT...",
        flags: &["--force", "--wait"],
        about: "paste TEXT into TARGET exactly once, then press Enter",
    },
    Spec {
        name: "read",
        aliases: &[],
        args: "TARGET [N]",
        flags: &[],
        about: "the agent's recorded reply, else the last N lines of its screen",
    },
    Spec {
        name: "screen",
        aliases: &[],
        args: "TARGET [N]",
        flags: &[],
        about: "the last N (40) non-blank lines of TARGET's screen",
    },
    Spec {
        name: "reply",
        aliases: &[],
        args: "TEXT... | -",
        flags: &[],
        about: "inside a roost pane: record TEXT (or stdin) as this pane's reply",
    },
    Spec {
        name: "state",
        aliases: &[],
        args: "STATE",
        flags: &[],
        about: "stamp this pane: idle, working, blocked, done or error",
    },
    Spec {
        name: "wait-done",
        aliases: &[],
        args: "TARGET [SECONDS]",
        flags: &[],
        about: "wait until TARGET is done or idle (1: error or timeout, 2: gone)",
    },
    Spec {
        name: "status",
        aliases: &[],
        args: "[--json]",
        flags: &["--json"],
        about: "the server, its sessions and every pane with its state",
    },
    Spec {
        name: "kill",
        aliases: &["down", "stop"],
        args: "[SESSION]",
        flags: &[],
        about: "kill SESSION, or the whole roost server",
    },
    Spec {
        name: "whoami",
        aliases: &[],
        args: "",
        flags: &[],
        about: "the pane id of the caller (inside roost only)",
    },
    Spec {
        name: "doctor",
        aliases: &[],
        args: "",
        flags: &[],
        about: "check tmux, the socket, paths, roost.conf and extensions",
    },
    Spec {
        name: "ext",
        aliases: &[],
        args: "VERB [ARGS...]",
        flags: &[],
        about: "manage extensions: install, list, info, verify, update, remove",
    },
    Spec {
        name: "completions",
        aliases: &[],
        args: "SHELL",
        flags: &[],
        about: "print the completion script for bash, zsh or fish",
    },
    Spec {
        name: "demo",
        aliases: &[],
        args: "",
        flags: &[],
        about: "a guided tour in a throwaway sandbox (touches nothing of yours)",
    },
    Spec {
        name: "help",
        aliases: &["-h", "--help"],
        args: "[COMMAND]",
        flags: &[],
        about: "this help, or one command's usage",
    },
    Spec {
        name: "version",
        aliases: &["-V", "--version"],
        args: "",
        flags: &[],
        about: "the product version",
    },
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

/// Whether the word is one of the `roost ext` verbs.
pub fn is_ext_verb(word: &[u8]) -> bool {
    crate::ext::VERBS
        .iter()
        .any(|(verb, _, _)| verb.as_bytes() == word)
}

/// The built-in name (or alias) closest to a mistyped `word`, when one is
/// close: at most one edit (insertion, deletion, substitution or swap of
/// two neighbours) for a short word, two for a longer one, letter case
/// ignored. Only built-in names are offered, so what a word gets never
/// depends on what is installed.
pub fn suggestion(word: &[u8]) -> Option<&'static str> {
    let word: Vec<u8> = word.to_ascii_lowercase();
    if word.is_empty() || word.len() > 32 {
        return None;
    }
    let most = if word.len() <= 4 { 1 } else { 2 };
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .filter(|name| !name.starts_with('-'))
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

/// `usage: roost NAME ARGS` for one command.
pub fn command_usage(name: &str) -> String {
    match find(name.as_bytes()) {
        Some(spec) if !spec.args.is_empty() => format!("usage: roost {} {}", spec.name, spec.args),
        Some(spec) => format!("usage: roost {}", spec.name),
        None => usage_line(),
    }
}

pub fn help_text() -> String {
    let mut out = format!(
        "roost {} - a fleet of coding agents on its own tmux server\n\n\
         usage: roost [COMMAND] [ARGS...]\n\ncommands:\n",
        crate::VERSION
    );
    let rows: Vec<(String, &str)> = COMMANDS
        .iter()
        .map(|c| {
            let mut left = c.name.to_string();
            for alias in c.aliases.iter().filter(|a| !a.starts_with('-')) {
                left.push_str(", ");
                left.push_str(alias);
            }
            if !c.args.is_empty() {
                left.push(' ');
                left.push_str(c.args);
            }
            (left, c.about)
        })
        .collect();
    let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    for (left, about) in rows {
        out.push_str(&format!("  {left:<width$}  {about}\n"));
    }
    out.push_str(
        "\nAny other word runs an installed extension's command (roost ext list).\n\
         Targets: %N (pane), @N (window), SESSION:WINDOW[.PANE], or a window name in session main.\n\
         Environment: ROOST_SOCKET (socket name or path), ROOST_NO_EXT (non-empty: no extensions).\n",
    );
    out
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
        for verb in [
            "install", "list", "info", "verify", "update", "remove", "new", "check",
        ] {
            assert!(is_reserved(verb), "{verb}");
        }
    }
}
