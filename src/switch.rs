//! The server-wide extension switch `@roost-ext-enabled`: asked of the running
//! roost server, or read from the user's roost.conf when none runs. Only the
//! exact value `off` disables. Asking never starts a server.

use crate::tmux::Tmux;
use std::path::Path;

pub const OPTION: &str = "@roost-ext-enabled";

/// Whether the seam is switched off for this server.
pub fn is_off(tmux: &Tmux, user_conf: &Path) -> bool {
    if tmux.socket_exists() {
        if let Ok(out) = tmux.run(&["show-options", "-gqv", OPTION]) {
            return out.strip_suffix('\n').unwrap_or(&out) == "off";
        }
        // A stale socket: no server answers, so the config file speaks.
    }
    match std::fs::read_to_string(user_conf) {
        Ok(text) => from_conf(&text).as_deref() == Some("off"),
        Err(_) => false,
    }
}

/// The value the last global `set`/`set-option` of the option in a tmux
/// config gives it (`None` when unset or unset again with `-u`).
pub fn from_conf(text: &str) -> Option<String> {
    let mut value = None;
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with('#') {
            continue;
        }
        let Ok(words) = shell_words::split(line) else {
            continue;
        };
        let Some((verb, args)) = words.split_first() else {
            continue;
        };
        if verb != "set" && verb != "set-option" {
            continue;
        }
        let mut flags = String::new();
        let mut rest = args.iter();
        let mut positional = Vec::new();
        for arg in rest.by_ref() {
            match arg.strip_prefix('-') {
                Some(f) if positional.is_empty() && !f.is_empty() && f != "-" => flags.push_str(f),
                _ => positional.push(arg),
            }
        }
        if !flags.contains('g') || positional.first().map(|s| s.as_str()) != Some(OPTION) {
            continue;
        }
        value = if flags.contains('u') {
            None
        } else {
            positional.get(1).map(|v| v.to_string())
        };
    }
    value
}

#[cfg(test)]
mod tests {
    use super::from_conf;

    #[test]
    fn the_last_global_set_wins() {
        assert_eq!(
            from_conf("set -g @roost-ext-enabled off\n").as_deref(),
            Some("off")
        );
        assert_eq!(
            from_conf("set -g @roost-ext-enabled off\nset-option -g @roost-ext-enabled on\n")
                .as_deref(),
            Some("on")
        );
        assert_eq!(
            from_conf("set -gq '@roost-ext-enabled' \"off\" # no extensions\n").as_deref(),
            Some("off")
        );
        assert_eq!(
            from_conf("  set -g @roost-ext-enabled off\nset -gu @roost-ext-enabled\n"),
            None
        );
    }

    #[test]
    fn other_lines_do_not_count() {
        for text in [
            "# set -g @roost-ext-enabled off\n",
            "set @roost-ext-enabled off\n",
            "set -w -t x @roost-ext-enabled off\n",
            "set -g @roost-ext-enabled-not off\n",
            "setw -g @roost-ext-enabled off\n",
            "set -g status off\n",
            "set -g @roost-ext-enabled 'unterminated\n",
        ] {
            assert_eq!(from_conf(text), None, "{text}");
        }
    }
}
