//! The hot path for a word that is no built-in: the installed extension
//! command it names, found in ext.index (read line by line), checked, and
//! exec'd through the launch primitive. No JSON, no git, no ext.lock, no
//! CLI parser: it knows the index, the contract, the paths and the
//! server-wide switch, nothing above them, and asks tmux only after a hit.

use crate::contract::{self, env};
use crate::index::{self, Entry};
use crate::launch::Program;
use crate::paths::Paths;
use crate::switch;
use crate::tmux::Tmux;
use crate::untrusted;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// `ROOST_NO_EXT` is set (non-empty): no extension command runs.
pub fn seam_off() -> bool {
    std::env::var_os(env::NO_EXT).is_some_and(|v| !v.is_empty())
}

pub enum Outcome {
    /// Not an installed extension command that would run.
    Miss,
    /// An installed command, but the server-wide switch is off.
    Off,
    /// A hit that must not run; already reported.
    Refused(u8),
}
use Outcome::{Miss, Off, Refused};

/// `roost ext exec CMD ARGS...`: the installed extension command CMD, even
/// where a built-in of that name would win, run exactly as dispatch runs
/// it. Returns only when it cannot run: `Ok` when the refusal is already
/// reported (an authority this roost does not know), else why not.
pub fn exec_installed(word: &[u8], args: &[OsString]) -> std::result::Result<(), &'static str> {
    if seam_off() {
        return Err("extensions are turned off (ROOST_NO_EXT is set)");
    }
    match extension(word, args) {
        Refused(_) => Ok(()),
        Off => Err("extensions are turned off on this server (@roost-ext-enabled)"),
        Miss => Err("no installed extension command of that name can run"),
    }
}

/// Runs the extension command `word`, replacing this process; returns only
/// when it cannot.
pub fn extension(word: &[u8], args: &[OsString]) -> Outcome {
    let Ok(paths) = Paths::from_env() else {
        return Miss;
    };
    let Ok(file) = std::fs::File::open(paths.ext_index()) else {
        return Miss;
    };
    let Some(line) = index::read_line(file, word) else {
        return Miss;
    };
    let Some(entry) = Entry::parse(&line) else {
        return Miss;
    };
    let path = Path::new(OsStr::from_bytes(entry.path));
    if !index::valid_name(entry.extension) || !path.is_absolute() {
        return Miss;
    }
    let name = String::from_utf8_lossy(entry.extension);
    let Some(program) = Program::find(&paths, &name, entry.command, path) else {
        return Miss;
    };
    let tmux = Tmux::from_env();
    if switch::is_off(&tmux, &paths.user_conf()) {
        return Off;
    }
    if let Some(code) = program.refuse_exposed(&name) {
        return Refused(code);
    }
    if let Some(unknown) = entry
        .authorities()
        .find(|t| !contract::AUTHORITIES.iter().any(|k| k.as_bytes() == *t))
    {
        return Refused(refuse_authority(&entry, unknown));
    }
    let fleet = entry.authorities().next().is_some();
    match program.exec(&paths, &tmux, &name, fleet, args) {
        Some(code) => Refused(code),
        None => Miss,
    }
}

fn refuse_authority(entry: &Entry, unknown: &[u8]) -> u8 {
    let name = untrusted::printable(entry.extension);
    let token = untrusted::printable(unknown);
    eprintln!(
        "roost: extension {name} needs authority '{token}', which this roost (contract {}) does not know.",
        contract::NUMBER
    );
    eprintln!("roost: refusing to run it with less than it expects.");
    eprintln!("roost: remove it with `roost ext remove {name}`, or turn extensions off with ROOST_NO_EXT=1.");
    1
}

#[cfg(test)]
mod tests {
    /// The modules of this crate a file's code (its tests aside) names.
    fn crate_modules(source: &'static str) -> Vec<&'static str> {
        let code = source.split("#[cfg(test)]").next().unwrap();
        let first = |path: &'static str| -> &str {
            let path = path.trim_start();
            let end = path
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(path.len());
            &path[..end]
        };
        code.match_indices("crate::")
            .flat_map(|(i, _)| {
                let rest = &code[i + "crate::".len()..];
                match rest.strip_prefix('{') {
                    // `crate::{a, b::c}`: each path's first name.
                    Some(group) => group[..group.find('}').unwrap()]
                        .split(',')
                        .map(first)
                        .filter(|m| !m.is_empty())
                        .collect(),
                    None => vec![first(rest)],
                }
            })
            .collect()
    }

    /// The hot path stays fast by structure: it and the exec primitive
    /// name nothing above the index, the contract, the paths and the
    /// server-wide switch (so no parser, JSON, git or ext.lock).
    #[test]
    fn the_hot_path_names_nothing_above_the_index_and_the_switch() {
        let allowed = [
            "contract",
            "fsutil",
            "home",
            "index",
            "launch",
            "paths",
            "switch",
            "tmux",
            "untrusted",
            "VERSION",
        ];
        for (file, source) in [
            ("dispatch.rs", include_str!("dispatch.rs")),
            ("launch.rs", include_str!("launch.rs")),
        ] {
            for module in crate_modules(source) {
                assert!(allowed.contains(&module), "{file} names crate::{module}");
            }
            for other in ["clap", "serde_json", "gix"] {
                let code = source.split("#[cfg(test)]").next().unwrap();
                assert!(!code.contains(&format!("{other}::")), "{file} uses {other}");
            }
        }
    }
}
