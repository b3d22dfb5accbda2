//! Which line of roost.conf each error came from. tmux names the line of a
//! parse error (`FILE:3: unknown command`) but not of a command that
//! parsed and then failed (`invalid option: x`); for those, the file's
//! commands are listed with their lines (`source-file -nv`) and each is run
//! alone in the throwaway server that found the error, until it fails.

use super::client::Tmux;
use std::path::Path;

/// At most this many commands are tried one by one.
const MOST: usize = 200;

/// `errors` as tmux printed them for `conf`, each as `line N: what` when its
/// line is known (a parse error's own prefix, or found by trying the
/// commands in `scratch`, a server that has loaded roost's base
/// configuration).
pub fn with_lines(scratch: &Tmux, conf: &Path, errors: Vec<String>) -> Vec<String> {
    let prefix = format!("{}:", conf.display());
    let (named, unnamed): (Vec<String>, Vec<String>) =
        errors.into_iter().partition(|e| e.starts_with(&prefix));
    let mut out: Vec<String> = named
        .iter()
        .map(|e| format!("line {}", &e[prefix.len()..]))
        .collect();
    if unnamed.is_empty() {
        return out;
    }
    let found = failing_commands(scratch, conf, &prefix, unnamed.len());
    if found.is_empty() {
        out.extend(unnamed);
    } else {
        out.extend(found);
    }
    out
}

/// Runs the commands of `conf` one at a time; `line N: error` for each that
/// fails, stopping once `wanted` have.
fn failing_commands(scratch: &Tmux, conf: &Path, prefix: &str, wanted: usize) -> Vec<String> {
    let Ok(listing) = scratch.run(&["source-file".as_ref(), "-nv".as_ref(), conf.as_os_str()])
    else {
        return Vec::new();
    };
    let Ok(dir) = tempfile::tempdir() else {
        return Vec::new();
    };
    let one = dir.path().join("one.conf");
    let mut found = Vec::new();
    for entry in listing.lines().take(MOST) {
        let Some((line, command)) = entry
            .strip_prefix(prefix)
            .and_then(|rest| rest.split_once(": "))
        else {
            continue;
        };
        if std::fs::write(&one, format!("{command}\n")).is_err() {
            break;
        }
        let out = scratch.command().arg("source-file").arg(&one).output();
        let Ok(out) = out else { break };
        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
        let err = err
            .strip_prefix(&format!("{}:1: ", one.display()))
            .unwrap_or(&err)
            .to_string();
        if !err.is_empty() {
            found.push(format!("line {line}: {}", err.replace('\n', "; ")));
            if found.len() == wanted {
                break;
            }
        }
    }
    found
}
