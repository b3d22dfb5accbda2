//! The server-wide extension switch `@roost-ext-enabled`: what the running
//! roost server says, or the user's roost.conf when none runs. Only the
//! exact value `off` disables. Asking never starts a server.
//!
//! No tmux process on the dispatcher's path: roost's server keeps a file
//! beside its socket in step with the option (`tmux::switch_keeper`,
//! installed when roost starts the server), holding `PID on|off`, written
//! by the server itself after every change and before the command that
//! changed it returns. The file is trusted only when a server of this user
//! listens on the socket and is the process the file names; with nothing
//! listening, roost.conf decides; in any other case roost asks tmux, as it
//! always did.

use crate::tmux::listening::{listener, Listener};
use crate::tmux::switch_keeper::file;
use crate::tmux::Tmux;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

pub const OPTION: &str = crate::tmux::options::EXT_ENABLED;

/// Whether the seam is switched off for this server.
pub fn is_off(tmux: &Tmux, user_conf: &Path) -> bool {
    read(tmux, user_conf).is_off()
}

/// The switch as dispatch reads it: `true` is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// From the file roost's server keeps beside its socket.
    Kept(bool),
    /// From the server, asked with one tmux process: the file is not one
    /// to trust (not kept, or not this server's).
    Asked(bool),
    /// From roost.conf: no server listens.
    Conf(bool),
}

impl Reading {
    pub fn is_off(self) -> bool {
        match self {
            Reading::Kept(off) | Reading::Asked(off) | Reading::Conf(off) => off,
        }
    }
}

/// Where the switch is read from, and what it says. Never starts a server.
pub fn read(tmux: &Tmux, user_conf: &Path) -> Reading {
    let socket = tmux.socket.file();
    match listener(&socket) {
        Listener::None => Reading::Conf(conf_says_off(user_conf)),
        Listener::Ours(pid) => match kept(&file(&tmux.socket), pid) {
            Some(off) => Reading::Kept(off),
            None => asked(tmux, user_conf),
        },
        Listener::Unknown | Listener::Denied(_) => asked(tmux, user_conf),
    }
}

/// What the kept file says, if it is this user's own, unwritable by others,
/// and written by the server listening now (process `pid`).
fn kept(file: &Path, pid: i32) -> Option<bool> {
    let meta = std::fs::symlink_metadata(file).ok()?;
    if !meta.is_file()
        || meta.uid() != nix::unistd::getuid().as_raw()
        || meta.mode() & 0o022 != 0
        || meta.len() > 32
    {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let (writer, value) = text.strip_suffix('\n')?.split_once(' ')?;
    if writer.parse::<i32>().ok()? != pid {
        return None;
    }
    match value {
        "off" => Some(true),
        "on" => Some(false),
        _ => None,
    }
}

/// The server's own answer (one tmux process), as before the kept file.
fn asked(tmux: &Tmux, user_conf: &Path) -> Reading {
    match tmux.global_option(OPTION) {
        Ok(value) => Reading::Asked(value.as_deref() == Some("off")),
        // No server answers after all: the config file speaks.
        Err(_) => Reading::Conf(conf_says_off(user_conf)),
    }
}

/// The most of roost.conf read for the switch.
const MAX_CONF: u64 = 1 << 20;

fn conf_says_off(user_conf: &Path) -> bool {
    // The user's file, read as one: a FIFO or a device there must not
    // hold up a command.
    match crate::fsutil::read_regular(user_conf, MAX_CONF) {
        Ok(Some(bytes)) => from_conf(&String::from_utf8_lossy(&bytes)).as_deref() == Some("off"),
        _ => false,
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
