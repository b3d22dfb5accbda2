//! The names of the options roost keeps on its panes and its server, in one
//! place, and the key by which an agent's prompt hook and `send` agree on a
//! prompt.

/// The agent's state (`roost state`, `roost hook`).
pub const STATE: &str = "@agent_state";

/// The agent's recorded reply, stored encoded (`Tmux::set_pane_text`).
pub const REPLY: &str = "@roost-reply";

/// Which agent CLI runs in the pane (`claude`, `codex`, ...): set by `spawn`
/// for an agent it knows. Every one of them asks for bracketed paste.
pub const AGENT: &str = "@roost-agent";

/// Which agent's prompt hook reports from the pane: set by `roost hook` on
/// every event of an agent whose wiring includes a prompt-submit hook, and
/// by `spawn` for an agent whose installed hooks will run from its first
/// prompt, so `send` counts a prompt only once that hook reports it.
pub const HOOKED: &str = "@roost-hooked";

/// Set when `send` pressed Enter (to 1): the pane was given a prompt, so a
/// pane without a state has not reported one since, rather than never; set
/// to `TYPED` as `send` types, so one whose Enter was never pressed says so.
pub const SENT: &str = "@roost-sent";

/// `SENT`'s value while the text typed last has not been submitted.
pub const TYPED: &str = "typed";

/// The agent's own session id, reported by its hooks, for `roost resume`.
pub const SESSION_ID: &str = "@roost-session-id";

/// The session id an agent's hook reported last, set just before
/// `SESSION_ID` in the same call: while the two differ, the id is new and
/// the event runner records it for `resume`.
pub const SESSION_ID_NEW: &str = "@roost-session-id-new";

/// `prompt_key` of the last prompt the agent's prompt-submit hook reported.
pub const PROMPT_SEEN: &str = "@roost-prompt-seen";

/// The server-wide extension switch: only the exact value `off` disables
/// (switch.rs).
pub const EXT_ENABLED: &str = "@roost-ext-enabled";

/// The switch's value the keeper wrote last (`switch_keeper`).
pub const EXT_SYNCED: &str = "@roost-ext-synced";

/// The keeper's hooks as the server printed them once it had set them.
pub const EXT_HOOKS: &str = "@roost-ext-hooks";

/// A short key for a prompt's text, the same whoever computes it: FNV-1a
/// (64 bits, lowercase hex) of the text with CRLF and CR read as LF and the
/// blanks at both ends left out. Agents trim what they report; roost sends
/// what it was given.
pub fn prompt_key(text: &str) -> String {
    let normal = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in normal.trim().bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_key_ignores_line_endings_and_blanks_at_the_ends_only() {
        assert_eq!(prompt_key(""), "cbf29ce484222325");
        assert_eq!(prompt_key("a"), "af63dc4c8601ec8c");
        assert_eq!(prompt_key("one\r\ntwo \n"), prompt_key("one\ntwo"));
        assert_eq!(prompt_key("\n\n one"), prompt_key("one"));
        assert_ne!(prompt_key("one two"), prompt_key("one  two"));
    }
}
