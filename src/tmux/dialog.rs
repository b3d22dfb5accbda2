//! The dialogs an agent holds a person in, known by what they show:
//! codex asking a person to trust new or changed hooks before they run,
//! GitHub Copilot CLI asking whether to trust the folder it starts in. A
//! pane showing one is waiting for a person, whatever its state says, and
//! roost types nothing into it (its keys answer the dialog, and the text
//! never reaches the agent's prompt).

use super::client::{Tmux, TmuxResult};
use super::options::{AGENT, HOOKED, SESSION_ID};

/// A dialog roost knows.
#[derive(Debug, PartialEq, Eq)]
pub struct Dialog {
    /// What it is, in a sentence's middle: `codex's "Hooks need review"
    /// dialog`.
    pub what: &'static str,
    /// What the person does about it.
    pub answer: &'static str,
}

/// codex 0.171, at its start and in its `/hooks` panel: hooks that are new
/// or changed (roost's, after `roost hooks install codex`) run only once a
/// person trusts them there.
pub static CODEX_HOOKS: Dialog = Dialog {
    what: "codex's \"Hooks need review\" dialog",
    answer: "trust the hooks there (Trust all and continue) so they run, or continue without them",
};

/// GitHub Copilot CLI 1.0.102, at its start in a folder not yet trusted
/// (each start, unless a person chose to remember the folder): whatever is
/// typed there answers it, and Enter trusts the folder.
pub static COPILOT_FOLDER_TRUST: Dialog = Dialog {
    what: "copilot's \"Confirm folder trust\" dialog",
    answer: "trust the folder there (1: for this session, 2: and remember it), or decline (3)",
};

/// The agents that may hold a dialog roost knows before their hooks have
/// reported anything, each with the pane option that says one has: codex's
/// start hook marks the pane hooked; copilot's pane is marked hooked by
/// spawn already, and its first hook, at the first prompt, reports its
/// session id.
const ASKING: &[(&str, &str)] = &[("codex", HOOKED), ("copilot", SESSION_ID)];

/// A `list-panes` format that is 1 for a pane that may be holding such a
/// dialog: one of those agents, from which no hook has reported yet.
pub(super) fn may_ask_format() -> String {
    let mut inner = "0".to_string();
    for (agent, reported) in ASKING.iter().rev() {
        inner = format!("#{{?#{{==:#{{{AGENT}}},{agent}}},#{{?{reported},0,1}},{inner}}}");
    }
    inner
}

/// The dialog `screen` (a pane's visible lines, with or without their
/// attributes' escape sequences) shows, if it is one roost knows. Each is
/// told by two lines of its own frame, each a whole line.
pub fn recognise(screen: &str) -> Option<&'static Dialog> {
    let screen = plain(screen);
    let lines: Vec<&str> = screen.lines().map(str::trim).collect();
    let has = |f: &dyn Fn(&str) -> bool| lines.iter().any(|l| f(l));
    let startup = has(&|l| l == "Hooks need review") && has(&|l| l.starts_with("enter confirm"));
    let review = has(&|l| {
        l.ends_with("need review before they can run.")
            || l.ends_with("needs review before it can run.")
    }) && has(&|l| l.starts_with("t trust"));
    if startup || review {
        return Some(&CODEX_HOOKS);
    }
    // copilot draws its dialogs in a frame: each line between two bars.
    let framed: Vec<&str> = lines.iter().filter_map(|l| unframed(l)).collect();
    let shows = |line: &str| framed.contains(&line);
    (shows("Confirm folder trust") && shows("Do you trust the files in this folder?"))
        .then_some(&COPILOT_FOLDER_TRUST)
}

/// A line of a framed dialog without its frame (`│ text   │`), when it is one.
fn unframed(line: &str) -> Option<&str> {
    Some(line.strip_prefix('│')?.strip_suffix('│')?.trim())
}

/// `screen` without escape sequences (`capture-pane -e` gives each cell's
/// colours and attributes as CSI sequences): ESC, then `[` and everything
/// up to a final byte, or `]` and everything up to BEL or ST, or one more
/// character.
fn plain(screen: &str) -> String {
    let mut out = String::with_capacity(screen.len());
    let mut chars = screen.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('\x40'..='\x7e').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

impl Tmux {
    /// The dialog roost knows that `pane` shows now, if any.
    pub fn dialog(&self, pane: &str) -> TmuxResult<Option<&'static Dialog>> {
        Ok(recognise(&self.visible_screen(pane)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// codex 0.171.0's screens, as tmux captured them.
    const STARTUP: &str = "\n  Hooks need review\n  5 hooks are new or changed.\n  Hooks can run outside the sandbox after you trust them.\n\n\n\u{203a} 1. Review hooks\n  2. Trust all and continue\n  3. Continue without trusting (hooks won't run)\n\n  enter confirm \u{b7} esc skip\n\n";
    const PANEL: &str = "  Hooks\n  Lifecycle hooks from config and enabled plugins.\n  \u{26a0} 5 hooks need review before they can run.\n  Event   Installed   Active   Review\n\u{203a} PermissionRequest  1  0  1\n  t trust all \u{b7} enter review \u{b7} esc close\n";
    const ONE: &str = "  PermissionRequest hooks\n  1 hook needs review before it can run.\n\u{203a} [!]  1  Unnamed hook \u{b7} new\n  Trust     New hook - review required\n  t trust \u{b7} esc back\n";
    const PROMPT: &str =
        "  >_ OpenAI Codex (v0.171.0)\n\u{203a} Ask Codex to do anything\n  ? for shortcuts\n";

    #[test]
    fn codex_asking_to_trust_its_hooks_is_known_on_each_of_its_screens() {
        for screen in [STARTUP, PANEL, ONE] {
            assert_eq!(recognise(screen), Some(&CODEX_HOOKS), "{screen}");
        }
        assert_eq!(recognise(PROMPT), None);
        // As `capture-pane -e` gives it: attributes around each word.
        let painted = "\x1b[1mHooks need review\x1b[0m\n  \x1b[2menter confirm\x1b[0m \u{b7} esc skip\x1b]8;;\x07\n";
        assert_eq!(recognise(painted), Some(&CODEX_HOOKS));
        assert_eq!(recognise(""), None);
        // Words of the dialog inside a line of a conversation are not it.
        let quoted = "\u{2022} codex said: Hooks need review, then enter confirm\n";
        assert_eq!(recognise(quoted), None);
    }

    /// copilot 1.0.102's question in an 80-column pane, as tmux captured it.
    const COPILOT_TRUST: &str = "\u{256d}\u{2500}\u{2500}\u{256e}\n\u{2502} Confirm folder trust                                                         \u{2502}\n\u{2502} \u{2500}\u{2500}\u{2500}\u{2500} \u{2502}\n\u{2502} \u{2502} /tmp/roost-test/other                                                    \u{2502} \u{2502}\n\u{2502} Do you trust the files in this folder?                                       \u{2502}\n\u{2502} \u{276f} 1. Yes                                                                     \u{2502}\n\u{2502}   2. Yes, and remember this folder for future sessions                       \u{2502}\n\u{2502}   3. No (Esc)                                                                \u{2502}\n";

    #[test]
    fn copilot_asking_to_trust_a_folder_is_known_by_its_frame() {
        assert_eq!(recognise(COPILOT_TRUST), Some(&COPILOT_FOLDER_TRUST));
        let painted =
            COPILOT_TRUST.replace("Confirm folder trust", "\x1b[1mConfirm folder trust\x1b[0m");
        assert_eq!(recognise(&painted), Some(&COPILOT_FOLDER_TRUST));
        // The words in a conversation, outside a frame, are not it.
        let said = " \u{25cf} Confirm folder trust\n Do you trust the files in this folder?\n";
        assert_eq!(recognise(said), None);
        assert_eq!(
            recognise(&COPILOT_TRUST.replace("Confirm folder trust", "Confirm")),
            None
        );
    }

    #[test]
    fn only_an_agent_that_asks_and_whose_hooks_never_reported_may_show_one() {
        assert_eq!(
            may_ask_format(),
            "#{?#{==:#{@roost-agent},codex},#{?@roost-hooked,0,1},#{?#{==:#{@roost-agent},copilot},#{?@roost-session-id,0,1},0}}"
        );
    }
}
