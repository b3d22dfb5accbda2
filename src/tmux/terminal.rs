//! The terminal type roost's server gives its panes. tmux before 3.3 gives
//! `screen`, whose description has no bracketed paste, so programs such as
//! vim never ask for one and a prompt typed into them runs as keys; roost
//! gives `tmux-256color` wherever this machine describes it.

use super::client::{Tmux, TmuxResult};
use std::path::PathBuf;

/// The type roost's panes get, when it is described here.
pub const WANTED: &str = "tmux-256color";

/// The words that set it at the server's start (before roost.conf, which
/// may set another), or none when this machine has no description of it.
pub fn setting() -> Vec<String> {
    if !described(WANTED) {
        return Vec::new();
    }
    ["set-option", "-g", "default-terminal", WANTED, ";"]
        .map(String::from)
        .to_vec()
}

impl Tmux {
    /// The terminal type the running server gives its panes, as tmux
    /// prints it.
    pub fn default_terminal(&self) -> TmuxResult<String> {
        self.run(&["show-options", "-gv", "default-terminal"])
    }
}

/// Whether a terminfo entry for `name` is where ncurses looks for one.
pub fn described(name: &str) -> bool {
    let Some(first) = name.chars().next() else {
        return false;
    };
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(dir) = std::env::var_os("TERMINFO") {
        dirs.push(dir.into());
    }
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".terminfo"));
    }
    if let Some(list) = std::env::var_os("TERMINFO_DIRS") {
        dirs.extend(std::env::split_paths(&list).filter(|d| !d.as_os_str().is_empty()));
    }
    for dir in [
        "/etc/terminfo",
        "/lib/terminfo",
        "/usr/share/terminfo",
        "/usr/lib/terminfo",
    ] {
        dirs.push(dir.into());
    }
    let by_letter = first.to_string();
    let by_hex = format!("{:02x}", first as u32);
    dirs.iter()
        .any(|d| d.join(&by_letter).join(name).is_file() || d.join(&by_hex).join(name).is_file())
}

/// What doctor says of a server's `default-terminal`: `None` when programs
/// there can ask for bracketed paste.
pub fn problem(value: &str) -> Option<String> {
    let value = value.trim();
    if value.starts_with("screen") {
        let fix = if described(WANTED) {
            format!("set -g default-terminal {WANTED} in roost.conf")
        } else {
            format!("install the terminfo entry {WANTED} (Debian: ncurses-base or ncurses-term)")
        };
        return Some(format!(
            "panes get TERM={value}, which has no bracketed paste: programs such as vim never ask for one, and a prompt sent to them runs as keys; {fix}"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_screen_type_is_a_problem() {
        assert!(problem("screen").is_some());
        assert!(problem("screen-256color\n").is_some());
        assert_eq!(problem("tmux-256color"), None);
        assert_eq!(problem("xterm-256color"), None);
    }
}
