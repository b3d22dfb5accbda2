//! What roost's exit statuses mean: in general (roost(1)'s and
//! roost-ext(1)'s EXIT STATUS) and for each command and ext verb (the end of
//! its `--help`, its man entry, README's command table). The one place this
//! is written: everything else is drawn from it, and a test holds README to
//! it.

use crate::cli::fill;
use crate::cli::table::HOOK_COMMANDS;
use crate::exit::Exit;

/// One status a command documents, and what it means there (may be empty:
/// `0` alone).
pub type Status = (Exit, &'static str);

/// The statuses of the command at `path` (`"send"`, `"ext install"`), in
/// the order of their codes; empty for a path the model does not have.
pub fn of(path: &str) -> &'static [Status] {
    use Exit::*;
    match path {
        "up" => &[(Ok, ""), (Failed, "the server or the session cannot be started")],
        "session" => &[(Ok, ""), (Failed, "SESSION is not a valid name, or cannot be started")],
        "spawn" => &[
            (Ok, ""),
            (Failed, "the name is taken or invalid, SESSION is invalid, DIR is not a directory, or CMD cannot be run; or the --message failed, nothing typed"),
            (NoTarget, "with --message: the program exited first"),
            (Blocked, "with --message: the agent waits for a person, nothing typed"),
            (NotReady, "with --message: the program did not read within 60 s, nothing typed"),
            (TypedNotSubmitted, "with --message: typed but not taken, Enter not pressed"),
            (NotConfirmed, "with --message: typed with Enter, but not confirmed taken"),
        ],
        "send" => &[
            (Ok, "delivered"),
            (Failed, "failed, nothing typed"),
            (NoTarget, "no such target, or a dead pane"),
            (Blocked, "the target is `blocked` or shows a dialog waiting for a person (still, after --when-idle's wait), nothing typed"),
            (NotReady, "the program cannot take TEXT, or did not within --wait, nothing typed"),
            (TypedNotSubmitted, "typed but not taken, so Enter was not pressed (do not send it again)"),
            (NotConfirmed, "typed with Enter, but not confirmed taken (do not send it again: look first)"),
        ],
        "read" | "screen" => &[(Ok, ""), (NoTarget, "no such target")],
        "reply" => &[(Ok, "")],
        "state" => &[(Ok, ""), (Failed, "an unknown STATE")],
        "hook" => &[(Ok, ""), (Failed, "an unreadable payload (never 2)")],
        "wait-done" => &[
            (Ok, "done or idle"),
            (Failed, "`error`, or SECONDS passed"),
            (NoTarget, "gone, exited or no such target"),
        ],
        "status" => &[(Ok, "running or not"), (Failed, "tmux is not installed")],
        "kill" => &[
            (Ok, "also when nothing runs"),
            (Failed, "the question was answered no, the whole server would end without a terminal to ask on, or a process would not end"),
            (NoTarget, "no such target or session"),
        ],
        "close" => &[
            (Ok, "the agent's pane or window ended"),
            (Failed, "an agent roost does not know, or text waiting for its Enter (nothing typed); or a process would not end"),
            (NoTarget, "no such target"),
            (Blocked, "the agent is `blocked` or shows a dialog waiting for a person, nothing typed"),
        ],
        "whoami" => &[(Ok, ""), (Failed, "outside roost")],
        "doctor" => &[(Ok, ""), (Failed, "a check found a problem")],
        "hooks" => &[(Ok, ""), (Failed, "a file roost cannot merge into"), (Usage, "an unknown AGENT")],
        "hooks install" | "hooks remove" => {
            &[(Ok, ""), (Failed, "a file roost cannot merge into"), (Usage, "an unknown AGENT")]
        }
        "hooks status" => &[(Ok, "")],
        "hooks show" => &[(Ok, ""), (Usage, "an unknown AGENT")],
        "resume" => &[(Ok, ""), (Failed, "a window could not be opened")],
        "next" => &[(Ok, ""), (Failed, "no agent is blocked")],
        "badge" => &[(Ok, "")],
        "ext" => &[
            (Ok, ""),
            (Failed, "refused or failed, or a check found a problem (`verify`, `outdated`, `check`)"),
            (Interrupted, "interrupted, what was begun undone"),
        ],
        "ext install" => &[
            (Ok, ""),
            (Failed, "refused (a check, the answer, no terminal without --yes) or failed; nothing installed"),
            (Interrupted, "interrupted at the question or during the fetch; nothing installed"),
        ],
        "ext list" | "ext disable" | "ext enable" | "ext new" | "ext log" => &[(Ok, ""), (Failed, "refused or failed")],
        "ext config" => &[(Ok, ""), (Failed, "no such extension or setting, a value its type refuses, or failed")],
        "ext info" | "ext remove" => &[(Ok, ""), (Failed, "no such extension, or failed")],
        "ext verify" => &[(Ok, "every tree matches"), (Failed, "a difference, or an entry that cannot be read")],
        "ext outdated" => &[
            (Ok, "every check ran"),
            (Failed, "a source could not be reached or answered without the ref"),
            (Interrupted, "interrupted"),
        ],
        "ext update" => &[
            (Ok, ""),
            (Failed, "refused or failed (with --all: any one); nothing changed for it"),
            (Interrupted, "interrupted; what was begun undone"),
        ],
        "ext rollback" => &[
            (Ok, ""),
            (Failed, "refused or failed; nothing changed"),
            (Interrupted, "interrupted; nothing changed"),
        ],
        "ext repair" => &[
            (Ok, ""),
            (Failed, "a fetch failed, or it brought another tree"),
            (Interrupted, "interrupted"),
        ],
        "ext export" => &[(Ok, ""), (Failed, "ext.lock or a clone cannot be read, or FILE cannot be written")],
        "ext sync" => &[
            (Ok, "the installed set is the file's"),
            (Failed, "a difference (--frozen), a refusal, or any one extension not synced"),
            (Interrupted, "interrupted; what was begun undone"),
        ],
        "ext check" => &[
            (Ok, "install would accept DIR"),
            (Failed, "install would refuse it, or a captured screen reads as another state"),
        ],
        "ext exec" => &[(Failed, "CMD cannot run (otherwise the status is the extension's own)")],
        "completions" => &[(Ok, ""), (Usage, "any other shell")],
        "demo" => &[(Ok, ""), (Failed, "a step failed")],
        "help" => &[(Ok, ""), (Usage, "an unknown COMMAND or VERB")],
        "version" => &[(Ok, "")],
        _ => &[],
    }
}

/// `0 delivered; 1 failed, nothing typed; …`: the statuses of `path` in one
/// line, as README's command table and the man entries give them.
pub fn line(path: &str) -> String {
    of(path)
        .iter()
        .map(|(exit, means)| match means {
            &"" => exit.code().to_string(),
            m => format!("{} {m}", exit.code()),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Where a meaning starts in `help_block`: after `  130  `.
const HELP_INDENT: usize = 7;

/// The end of `path`'s `--help`: `Exit status:` and one status a line.
pub fn help_block(path: &str) -> String {
    let mut out = String::from("Exit status:");
    for (exit, means) in of(path) {
        let code = exit.code();
        let means = match *means {
            "" if *exit == Exit::Ok => "success",
            m => m,
        };
        // Lined up under the first word of the meaning, within 80 columns.
        let text =
            fill::fill(means, 80 - HELP_INDENT).replace('\n', &format!("\n{:HELP_INDENT$}", ""));
        out.push_str(&format!("\n  {code:<3}  {text}"));
    }
    out
}

/// What a status means wherever it is met, for a page's EXIT STATUS.
pub fn general(exit: Exit) -> String {
    match exit {
        Exit::Ok => "Success.".into(),
        Exit::Failed => "A refusal or failure you can act on: the message on stderr says what \
             happened and, when there is something to do, what to do. Also a check that \
             found a problem."
            .into(),
        Exit::Usage => format!(
            "A usage error: a malformed command line (the message and that command's usage \
             line on stderr; exit 1 for {}, which agents' hooks run), or an unknown command (on \
             stderr `roost: unknown command 'WORD'`, with a suggestion when a built-in name is \
             close, then the usage line; nothing on stdout; the same for a disabled or removed \
             extension's command as for a word never installed).",
            hook_commands()
        ),
        Exit::NoTarget => "The target pane, window or session does not exist, or is gone.".into(),
        Exit::Blocked => {
            "The target is `blocked`, or shows a dialog roost knows (waiting for a person); \
             nothing was typed."
                .into()
        }
        Exit::NotReady => "The program could not take the text in time (send's --wait; 60 s \
             for spawn's --message): it never read its terminal, or never asked for a bracketed \
             paste that text of several lines needs; nothing was typed."
            .into(),
        Exit::TypedNotSubmitted => "The text was typed but the program did not take it, so Enter \
             was not pressed; sending it again would type it twice."
            .into(),
        Exit::NotConfirmed => "The text and Enter were typed, but roost could not confirm the \
             program took them (it did not read the Enter, or its prompt hook did not report \
             the prompt); sending it again may type it twice: look first."
            .into(),
        Exit::Interrupted => "Interrupted (Ctrl-C, SIGTERM or SIGHUP) at the question or while \
             fetching; what was begun is undone."
            .into(),
    }
}

/// `` `reply`, `state` and `hook` ``.
fn hook_commands() -> String {
    let named: Vec<String> = HOOK_COMMANDS.iter().map(|c| format!("`{c}`")).collect();
    crate::words::list(&named)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command and verb of the model documents its statuses, each
    /// once and in the order of their codes; every status is documented by
    /// some command, and no path outside the model is.
    #[test]
    fn every_command_and_verb_documents_its_statuses() {
        let root = crate::cli::built();
        let mut used = Vec::new();
        let mut paths = Vec::new();
        for cmd in root.get_subcommands() {
            paths.push(cmd.get_name().to_string());
            for verb in cmd.get_subcommands() {
                paths.push(format!("{} {}", cmd.get_name(), verb.get_name()));
            }
        }
        for path in &paths {
            let statuses = of(path);
            assert!(!statuses.is_empty(), "{path} documents no exit status");
            let codes: Vec<(u8, Exit)> = statuses.iter().map(|(e, _)| (e.code(), *e)).collect();
            assert!(
                codes.windows(2).all(|w| w[0].0 < w[1].0),
                "{path}: {codes:?} out of order or repeated"
            );
            used.extend(statuses.iter().map(|(e, _)| *e));
        }
        for exit in Exit::ALL {
            // A malformed line is every command's 2: no command need say so.
            if exit != Exit::Usage {
                assert!(used.contains(&exit), "no command documents {exit:?}");
            }
        }
        assert!(of("bogus").is_empty() && of("ext bogus").is_empty());
    }

    #[test]
    fn a_status_line_and_a_help_block() {
        assert_eq!(line("read"), "0; 2 no such target");
        assert_eq!(
            help_block("wait-done"),
            "Exit status:\n  0    done or idle\n  1    `error`, or SECONDS passed\n  \
             2    gone, exited or no such target"
        );
        assert_eq!(help_block("badge"), "Exit status:\n  0    success");
        assert!(general(Exit::Usage).contains("exit 1 for `reply`, `state` and `hook`,"));
    }
}
