//! Typing into a pane: a paste and an Enter, each sent in one tmux command
//! together with its own way out of copy mode, so a mode entered a moment
//! before (one scroll of the wheel) can never catch them and turn the
//! paste's newlines into Enters.

use super::client::{Tmux, TmuxResult};
use super::options::{AGENT, HOOKED, PROMPT_SEEN, REPLY, SENT, STATE, TYPED};

/// tmux words that take `pane` out of copy mode if it is in one, then `;`.
fn out_of_mode(pane: &str) -> Vec<String> {
    [
        "if-shell",
        "-F",
        "-t",
        pane,
        "#{pane_in_mode}",
        &format!("send-keys -X -t {pane} cancel"),
        ";",
    ]
    .map(String::from)
    .to_vec()
}

/// What tmux says of a pane before roost types into it, in one look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypingView {
    /// The pane's terminal device.
    pub tty: String,
    /// The process tmux started in the pane.
    pub pid: Option<u32>,
    /// Whether the program asked for bracketed paste: `None` where this
    /// tmux does not say (before 3.7).
    pub bracket_paste: Option<bool>,
    /// An agent roost knows runs there, or an agent's prompt hook reports
    /// from it.
    pub agent: bool,
    /// An agent's prompt hook reports from the pane.
    pub hooked: bool,
    /// The pane is in copy mode or another mode.
    pub in_mode: bool,
    /// An agent that may hold a dialog roost knows runs there, and no hook
    /// has reported from it yet (`dialog::may_ask_format`).
    pub may_ask: bool,
}

/// A format that is 1 when an agent's prompt hook reports from the pane.
fn hooked_format() -> String {
    format!("#{{?{HOOKED},1,0}}")
}

/// The fields of a `TypingView`, TAB between them.
fn typing_format() -> String {
    let hooked = hooked_format();
    format!(
        "#{{pane_tty}}\t#{{pane_pid}}\t#{{bracket_paste_flag}}\t#{{?{AGENT},1,{hooked}}}\t{hooked}\t#{{pane_in_mode}}\t{}",
        super::dialog::may_ask_format()
    )
}

impl Tmux {
    /// One look at `pane` before typing (`TypingView`).
    pub fn typing_view(&self, pane: &str) -> TmuxResult<TypingView> {
        let now = self.pane_format(pane, &typing_format())?;
        let mut f = now.split('\t');
        Ok(TypingView {
            tty: f.next().unwrap_or("").to_string(),
            pid: f.next().and_then(|p| p.parse::<u32>().ok()),
            bracket_paste: match f.next() {
                Some("1") => Some(true),
                Some("0") => Some(false),
                _ => None,
            },
            agent: f.next() == Some("1"),
            hooked: f.next() == Some("1"),
            in_mode: f.next() == Some("1"),
            may_ask: f.next() == Some("1"),
        })
    }

    /// Whether an agent's prompt hook reports from `pane`.
    pub fn is_hooked(&self, pane: &str) -> TmuxResult<bool> {
        Ok(self.pane_format(pane, &hooked_format())? == "1")
    }

    /// Takes `pane` out of copy mode or any other mode it is in. Returns
    /// the mode it is still in afterwards (`None` once it is in none).
    pub fn leave_mode(&self, pane: &str) -> TmuxResult<Option<String>> {
        let mode = || -> TmuxResult<Option<String>> {
            let now = self.pane_format(pane, "#{pane_in_mode}#{pane_mode}")?;
            Ok(now.strip_prefix('1').map(str::to_string))
        };
        if mode()?.is_none() {
            return Ok(None);
        }
        // `copy-mode -q` (tmux 3.1 and later) leaves every mode; 3.0 knows
        // `cancel` in copy mode.
        if self.run(&["copy-mode", "-q", "-t", pane]).is_err() {
            let _ = self.run(&["send-keys", "-X", "-t", pane, "cancel"]);
        }
        mode()
    }

    /// Pastes `text` into `pane` from a buffer of its own: bracketed when
    /// the program asked for that, as typed keys otherwise; and marks the
    /// pane as typed into (`submit` marks it sent).
    pub fn paste(&self, pane: &str, text: &str) -> TmuxResult<()> {
        self.paste_as(pane, text, true)
    }

    /// As `paste`; `bracketed` false types the text without the paste
    /// brackets even where the program asked for them (an agent preset
    /// that says its program takes no bracketed paste).
    pub fn paste_as(&self, pane: &str, text: &str, bracketed: bool) -> TmuxResult<()> {
        let buffer = format!("roost-send-{}", std::process::id());
        self.run_with_input(&["load-buffer", "-b", &buffer, "-"], text.as_bytes())?;
        let mut words = out_of_mode(pane);
        words.extend(["set-option", "-p", "-t", pane, SENT, TYPED, ";"].map(String::from));
        words.push("paste-buffer".into());
        if bracketed {
            words.push("-p".into());
        }
        words.extend(["-d", "-b", &buffer, "-t", pane].map(String::from));
        if let Err(e) = self.run(&words) {
            let _ = self.run(&["delete-buffer", "-b", &buffer]);
            return Err(e);
        }
        Ok(())
    }

    /// Presses Enter in `pane`, clearing in the same command what the
    /// previous prompt left: its reply, its state, the prompt its hook
    /// reported; and marking the pane as sent to.
    pub fn submit(&self, pane: &str) -> TmuxResult<()> {
        let mut words = out_of_mode(pane);
        for option in [REPLY, STATE, PROMPT_SEEN] {
            words.extend(["set-option", "-p", "-u", "-t", pane, option, ";"].map(String::from));
        }
        words.extend(["set-option", "-p", "-t", pane, SENT, "1", ";"].map(String::from));
        words.extend(["send-keys", "-t", pane, "Enter"].map(String::from));
        self.run(&words).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_before_typing_asks_tmux_for_each_field_once() {
        assert_eq!(
            typing_format(),
            "#{pane_tty}\t#{pane_pid}\t#{bracket_paste_flag}\t\
             #{?@roost-agent,1,#{?@roost-hooked,1,0}}\t#{?@roost-hooked,1,0}\t#{pane_in_mode}\t\
             #{?#{==:#{@roost-agent},codex},#{?@roost-hooked,0,1},\
             #{?#{==:#{@roost-agent},copilot},#{?@roost-session-id,0,1},0}}"
        );
    }
}
