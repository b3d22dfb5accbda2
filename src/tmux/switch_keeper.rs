//! The extension switch's keeper: hooks that make roost's server keep the
//! global option `@roost-ext-enabled` in step, in a file beside its socket,
//! written by the server itself after every change and before the command
//! that changed it returns (switch.rs reads the file).

use super::options::{EXT_ENABLED as OPTION, EXT_HOOKS as HOOKS, EXT_SYNCED as SYNCED};
use super::socket::Socket;
use super::start_hooks::StartHooks;
use std::path::PathBuf;

/// What the kept file's name adds to the socket's.
pub const FILE_SUFFIX: &str = ".roost-ext";

/// The file beside `socket` in which roost's server keeps its extension
/// switch.
pub fn file(socket: &Socket) -> PathBuf {
    let mut name = socket.file().into_os_string();
    name.push(FILE_SUFFIX);
    PathBuf::from(name)
}

/// What the server's start takes from the keeper: its hooks and its first
/// write, and the file an earlier server kept, removed.
pub fn start_hooks(socket: &Socket) -> StartHooks {
    let mut at_start = keeper();
    at_start.extend(first_write());
    StartHooks {
        at_start,
        after_session: first_write(),
        stale: vec![file(socket)],
    }
}

/// The tmux commands (argv words, each list ending in `;`) that make a
/// server keep the file:
/// - a hook after every `set-option` (roost's own slot, so a user's
///   `set-hook -g after-set-option[N] …` leaves it alone) that rewrites the
///   file when the option's value differs from what was last written (so
///   nothing is spawned otherwise). The shell finds the socket in `$TMUX`
///   and writes the server's pid and `on` or `off`, whatever the option
///   holds, in a file only this user can write; a write that fails removes
///   the file instead.
/// - a guard after every `set-hook`: once anyone changes a hook after the
///   start (which could remove or hide the keeper), the file is removed and
///   never written again by this server, so roost asks tmux instead.
/// - a watcher on each side of the keeper, after every `set-option`, that
///   does the same once a slot of roost's holds anything but what roost
///   put there (hooks are options, so `set-option` can empty or replace
///   one without a `set-hook`).
///
/// The guard goes last: every set-hook after it is someone else's. Then the
/// server copies the four slots as it prints them, for the watchers. The
/// first write comes from `first_write`, once a session exists. A
/// `set-option` of the whole `after-set-option` array leaves no hook of
/// roost's to run after it (and tmux has no hook after `source-file`): it
/// is seen at the next `set-hook` or the next roost command that speaks to
/// the server (`watch`), whichever comes first (SECURITY.md says so).
fn keeper() -> Vec<String> {
    // The file's path in `$s`. The keeper's shell line is parsed twice by
    // tmux (the hook, then `if`'s command), the first time inside double
    // quotes, where `$` and `"` are escaped; the guard's once.
    let write = format!(
        "umask 077; {}; \
         {{ echo \\\"#{{pid}} #{{?#{{==:#{{{OPTION}}},off}},off,on}}\\\" > \\\"\\$s.\\$\\$\\\" \
         && mv -f \\\"\\$s.\\$\\$\\\" \\\"\\$s\\\"; }} \
         || rm -f \\\"\\$s\\\" \\\"\\$s.\\$\\$\\\"; true",
        file_in_shell("\\$")
    );
    let keep = format!(
        "if -F \"#{{?#{{==:#{{{SYNCED}}},{DOUBT}}},0,#{{!=:#{{{OPTION}}},#{{{SYNCED}}}}}}}\" \
         \"set -gF {SYNCED} '#{{{OPTION}}}' ; run-shell '{write}'\""
    );
    let guard = give_up();
    // A watcher on each side of the keeper: after any set-option (hooks
    // are options too, so `set -gu 'after-set-option[77]'` is one), each
    // gives the file up unless roost's four slots hold, word for word,
    // what they held once roost had set them (`HOOKS`, the copy the
    // server made of them), and nobody has put the value last written in
    // doubt by hand. One slot emptied or replaced leaves another that
    // notices.
    // In doubt already, a watcher only removes the file again (a value put
    // in doubt by hand finds it there): setting the value once more would
    // wake it again for ever, as tmux before 3.2 runs hooks for the
    // commands a hook runs.
    let remove = format!("run-shell '{}; rm -f \\\"\\$s\\\"'", file_in_shell("\\$"));
    let give_up_here = format!("set -g {SYNCED} '{DOUBT}' ; {remove}");
    let watch = format!(
        "if -F \"#{{==:#{{{SYNCED}}},{DOUBT}}}\" \"{remove}\" ; \
         if -F \"#{{?#{{==:#{{{SYNCED}}},{DOUBT}}},0,#{{!=:#{{{HOOKS}}},{}}}}}\" \"{give_up_here}\"",
        slots()
    );
    let mut words = Vec::new();
    for (slot, command) in [
        (WATCH_BEFORE, watch.clone()),
        (HOOK_SLOT, keep),
        (WATCH_AFTER, watch),
        (GUARD_SLOT, guard),
    ] {
        for w in ["set-hook", "-g", slot, &command, ";"] {
            words.push(w.to_string());
        }
    }
    // The copy is made by the server, as the server prints the hooks (the
    // way each version spells a command), in the same command list.
    for w in ["set-option", "-gF", HOOKS, &slots(), ";"] {
        words.push(w.to_string());
    }
    words
}

/// The watchers' comparison, for the front of every command list roost
/// sends its server (argv words ending in `;`, parsed once): on a server
/// that holds the copy of roost's slots and is not yet in doubt, the file
/// is given up when the slots no longer hold what the server copied.
/// Nothing runs otherwise, and on a server roost did not start nothing is
/// compared.
pub fn watch() -> Vec<String> {
    let doubted = format!("#{{==:#{{{SYNCED}}},{DOUBT}}}");
    let changed = format!("#{{!=:#{{{HOOKS}}},{}}}", slots());
    let condition = format!("#{{?#{{{HOOKS}}},#{{?{doubted},0,{changed}}},0}}");
    ["if-shell", "-F", &condition, &give_up(), ";"]
        .iter()
        .map(|w| w.to_string())
        .collect()
}

/// A format giving roost's four hook slots as the server prints them, one
/// after another.
fn slots() -> String {
    [WATCH_BEFORE, HOOK_SLOT, WATCH_AFTER, GUARD_SLOT]
        .iter()
        .map(|slot| format!("#{{{slot}}}"))
        .collect()
}

/// The file given up for good (tmux words, parsed once): the value last
/// written put in doubt, so no keeper writes it again, and the file
/// removed.
fn give_up() -> String {
    format!(
        "set -g {SYNCED} '{DOUBT}' ; run-shell '{}; rm -f \"$s\"'",
        file_in_shell("$")
    )
}

/// Shell words that put the kept file's path in `$s`, from `$TMUX` (the
/// server's socket), with `dollar` for each `$`.
fn file_in_shell(dollar: &str) -> String {
    format!("s={dollar}{{TMUX%,*}}; s={dollar}{{s%,*}}{FILE_SUFFIX}")
}

/// The command that starts the keeping: the value last written is set to
/// one no option holds, so the keeper writes the file at once. tmux runs no
/// hook before the server has a session, so roost gives it after its
/// `new-session`, and before it too: when another roost started the server
/// a moment earlier, that `new-session` fails, and this roost's own
/// `set-hook`s have tripped the guard, which this undoes.
fn first_write() -> Vec<String> {
    ["set-option", "-g", SYNCED, "(start)"]
        .iter()
        .map(|w| w.to_string())
        .collect()
}

/// The hooks' slots, the option holding the value last written, and its
/// value once the keeper can no longer be relied on.
const HOOK_SLOT: &str = "after-set-option[77]";
const WATCH_BEFORE: &str = "after-set-option[76]";
const WATCH_AFTER: &str = "after-set-option[78]";
const GUARD_SLOT: &str = "after-set-hook[77]";
const DOUBT: &str = "(doubt)";
