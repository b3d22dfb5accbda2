//! `doctor`: checks the pieces roost depends on and says what to fix.

use super::{Args, Ctx};
use crate::error::Result;
use std::process::Command;

struct Report {
    problems: usize,
}

impl Report {
    fn ok(&mut self, what: &str) {
        println!("ok    {what}");
    }
    fn note(&mut self, what: &str) {
        println!("note  {what}");
    }
    fn bad(&mut self, what: &str, fix: &str) {
        self.problems += 1;
        println!("FAIL  {what}");
        println!("      {fix}");
    }
}

/// Oldest tmux with everything roost uses (pane options, `new-window -e`).
const MIN_TMUX: (u32, u32) = (3, 0);

pub fn run(ctx: &Ctx, a: &mut Args) -> Result<u8> {
    a.options(&[])?;
    a.done()?;
    let mut r = Report { problems: 0 };
    match Command::new("tmux").arg("-V").output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
            match parse_version(&text) {
                Some(v) if v >= MIN_TMUX => r.ok(&text),
                _ => r.bad(
                    &format!("{text}: roost needs tmux 3.0 or later"),
                    "install a newer tmux",
                ),
            }
        }
        Err(_) => r.bad(
            "tmux not found on PATH",
            "install tmux (apt-get install tmux, brew install tmux)",
        ),
    }
    let socket = &ctx.tmux.socket;
    let where_ = format!(
        "socket {} {} ({})",
        socket.flag(),
        socket.value().to_string_lossy(),
        socket.file().display()
    );
    if ctx.tmux.is_running() {
        r.ok(&format!("{where_}: server running"));
    } else if ctx.tmux.socket_exists() {
        r.note(&format!(
            "{where_}: stale socket, no server answers (the next roost command starts one)"
        ));
    } else {
        r.ok(&format!(
            "{where_}: no server running (roost starts one when needed)"
        ));
    }
    match ctx.paths() {
        Err(e) => r.bad(&format!("paths: {e}"), "set HOME to an absolute path"),
        Ok(paths) => {
            r.ok(&format!("data {}", paths.data.display()));
            r.ok(&format!("state {}", paths.state.display()));
            let conf = paths.user_conf();
            if !conf.exists() {
                r.ok(&format!("roost.conf {} (absent; optional)", conf.display()));
            } else {
                match parse_conf(&conf) {
                    Ok(()) => r.ok(&format!("roost.conf {} parses", conf.display())),
                    Err(e) => r.bad(
                        &format!("roost.conf {}: {e}", conf.display()),
                        "fix the line it names",
                    ),
                }
            }
            let link = paths.scripts_dir().join("roost");
            match (std::fs::read_link(&link), std::env::current_exe()) {
                (Ok(target), Ok(exe)) if target == exe => {
                    r.ok(&format!("scripts {}", link.display()))
                }
                (Ok(target), _) => r.note(&format!(
                    "scripts {} runs {} (the next server start points it here)",
                    link.display(),
                    target.display()
                )),
                (Err(_), _) => r.note(&format!(
                    "scripts {} not written yet (written at server start)",
                    link.display()
                )),
            }
            extensions(&mut r, paths);
        }
    }
    if r.problems == 0 {
        Ok(0)
    } else {
        println!("{} problem(s) found", r.problems);
        Ok(1)
    }
}

/// Extension health: ext.lock and ext.index agree, every clone is there and
/// still hashes to its pinned tree (what `roost ext verify` checks).
fn extensions(r: &mut Report, paths: &crate::paths::Paths) {
    use crate::ext;
    let lock = match ext::store::read_lock(paths) {
        Ok(lock) => lock,
        Err(e) => {
            return r.bad(
                &format!("extensions: {e}"),
                "roost ext list shows what roost can read of it",
            )
        }
    };
    let names: Vec<String> = lock.valid_names().map(String::from).collect();
    let problems = ext::list::disagreements(&lock, paths);
    if names.is_empty() && problems.is_empty() {
        return r.ok("extensions: none installed");
    }
    if problems.is_empty() {
        r.ok(&format!(
            "extensions: {} installed; ext.lock and ext.index agree",
            names.len()
        ));
    }
    for p in problems {
        r.bad(
            &format!("extensions: ext.lock and ext.index disagree: {p}"),
            "ext.index is obeyed; any roost ext install, update or remove rewrites it from ext.lock",
        );
    }
    for name in &names {
        let entry = lock.get(name);
        if let Some(dir) = entry.as_ref().and_then(|e| e.linked()) {
            let shown = crate::untrusted::printable(dir.as_bytes());
            if std::path::Path::new(dir).is_dir() {
                r.note(&format!(
                    "extension {name}: linked to {shown} (not pinned, not hashed)"
                ));
            } else {
                r.bad(
                    &format!("extension {name}: linked to {shown}, which is missing"),
                    &format!("roost ext remove {name}, or put the checkout back"),
                );
            }
            continue;
        }
        let clone = paths.ext_clone(name);
        if !clone.is_dir() {
            r.bad(
                &format!("extension {name}: its clone {} is missing", clone.display()),
                &format!("roost ext remove {name}, then install it again"),
            );
            continue;
        }
        let report = ext::verify::check(&clone, entry.as_ref().and_then(|e| e.tree()));
        if report.ok {
            r.ok(&format!(
                "extension {name}: ok (matches the tree pinned at install)"
            ));
        } else {
            r.bad(
                &format!("extension {name}: {}", report.verdict),
                &format!("roost ext verify {name} names the files"),
            );
        }
    }
}

/// Parses roost.conf with tmux itself (`source-file -n`) in a throwaway
/// server, so nothing of it takes effect.
fn parse_conf(conf: &std::path::Path) -> std::result::Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let out = Command::new("tmux")
        .arg("-S")
        .arg(dir.path().join("s"))
        .args(["-f", "/dev/null", "start-server", ";", "source-file", "-n"])
        .arg(conf)
        .output()
        .map_err(|e| e.to_string())?;
    // tmux reports a line it cannot parse on stdout, not stderr.
    let err = [&out.stdout, &out.stderr]
        .map(|b| String::from_utf8_lossy(b).trim().to_string())
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    if out.status.success() && err.is_empty() {
        Ok(())
    } else if err.is_empty() {
        Err(format!("tmux cannot source it ({})", out.status))
    } else {
        Err(err)
    }
}

fn parse_version(text: &str) -> Option<(u32, u32)> {
    let v = text.split_whitespace().nth(1)?;
    let digits: String = v
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let mut parts = digits.split('.');
    Some((
        parts.next()?.parse().ok()?,
        parts.next().unwrap_or("0").parse().ok()?,
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tmux_versions_parse() {
        assert_eq!(super::parse_version("tmux 3.3a"), Some((3, 3)));
        assert_eq!(super::parse_version("tmux next-3.4"), None);
        assert_eq!(super::parse_version("tmux 2.9"), Some((2, 9)));
    }
}
