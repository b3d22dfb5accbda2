//! `roost ext exec CMD [ARGS...]`: an installed extension's command run the
//! way dispatch runs it, past a built-in command that shadows its name.

use crate::cli::model::ExecArgs;
use crate::error::{Error, Exit, Result};
use std::os::unix::ffi::OsStrExt;

const CMD: &str = "ext exec";

pub fn run(a: ExecArgs) -> Result<Exit> {
    if let Some(event) = &a.event {
        return handler(event, &a.words);
    }
    let (command, args) = a.words.split_first().expect("clap requires CMD");
    let shown = crate::untrusted::printable(command.as_bytes());
    // Every word after CMD is the extension's; before it, a dash is an
    // option of exec's own, and it has none but --help.
    if command.as_bytes().starts_with(b"-") {
        return Err(Error::usage(CMD, format!("unknown option '{shown}'")));
    }
    if !crate::index::valid_name(command.as_bytes()) {
        return Err(
            Error::refuse(CMD, format!("'{shown}' is not an extension command name"))
                .hint("roost ext list shows the installed commands"),
        );
    }
    // Returns only when the command could not be run.
    crate::dispatch::exec_installed(command.as_bytes(), args)
        .map(|()| Exit::Failed)
        .map_err(|why| {
            let cannot = format!("cannot run '{shown}': {why}");
            if crate::dispatch::seam_off() {
                return Error::refuse(CMD, cannot).hint(
                    "ROOST_NO_EXT turns extension commands off in this shell: \
                     unset ROOST_NO_EXT to run them",
                );
            }
            let word = String::from_utf8_lossy(command.as_bytes());
            match owner(&word) {
                Some((name, true, _)) => Error::refuse(
                    CMD,
                    format!("cannot run '{shown}': extension {name} is disabled"),
                )
                .hint(format!("roost ext enable {name} turns it back on")),
                Some((name, false, Some(clone))) if !clone.is_dir() => Error::fail(
                    CMD,
                    format!(
                        "cannot run '{shown}': the files of extension {name} are gone ({} does not exist)",
                        clone.display()
                    ),
                )
                .hint(crate::ext::integrity::repair_hint(&name)),
                _ => Error::fail(CMD, cannot).hint(
                    "roost ext list shows the installed commands; roost ext verify checks their files",
                ),
            }
        })
}

/// The extension that claims `command` in ext.lock, if one does: its name,
/// whether it is disabled, and its clone when it is pinned.
fn owner(command: &str) -> Option<(String, bool, Option<std::path::PathBuf>)> {
    let paths = crate::paths::Paths::from_env().ok()?;
    let lock = crate::ext::store::read_lock(&paths).ok()?;
    let names: Vec<String> = lock.valid_names().map(str::to_string).collect();
    names.into_iter().find_map(|name| {
        let e = lock.entry(&name)?;
        e.commands.iter().any(|c| c == command).then(|| {
            let clone = e.pin().map(|_| paths.ext_clone(&name));
            (name, e.disabled, clone)
        })
    })
}

/// `--event EVENT NAME [--pane %N]`: NAME's handler run once, and what its
/// log recorded printed.
fn handler(event: &str, words: &[std::ffi::OsString]) -> Result<Exit> {
    use crate::events::{index, log, runner, Event};
    let shown = crate::untrusted::printable(event.as_bytes());
    let Some(event) = Event::from_word(event) else {
        return Err(Error::usage(CMD, format!("unknown event '{shown}'"))
            .hint(format!("use one of: {}", Event::words().join(" "))));
    };
    let words: Vec<String> = words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let (name, rest) = words.split_first().expect("clap requires a word");
    let pane = match rest {
        [] => None,
        [flag, pane] if flag == "--pane" => Some(pane.clone()),
        [one] if one.starts_with("--pane=") => Some(one["--pane=".len()..].to_string()),
        _ => {
            return Err(Error::usage(
                CMD,
                "--event takes NAME and at most --pane %N after it",
            ))
        }
    };
    if let Some(p) = pane
        .as_deref()
        .filter(|p| !crate::events::emit::is_pane_id(p))
    {
        let p = crate::untrusted::printable(p.as_bytes());
        return Err(Error::usage(CMD, format!("'{p}' is not a pane id (%N)")));
    }
    let paths = crate::paths::Paths::from_env().map_err(|e| Error::fail(CMD, e.to_string()))?;
    let shown_name = crate::untrusted::printable(name.as_bytes());
    let Some(sub) = index::read(&paths).into_iter().find(|s| &s.name == name) else {
        return Err(Error::refuse(
            CMD,
            format!("extension {shown_name} handles no events"),
        )
        .hint("roost ext list shows what is installed; an extension handles events once its events are consented"));
    };
    let before = log::last(&paths, name, 1, false);
    let tmux = crate::tmux::Tmux::from_env();
    runner::fire_for(&paths, &tmux, sub, event, pane);
    let after = log::last(&paths, name, 1, false);
    let Some(r) = after.last().filter(|r| before.last() != Some(*r)) else {
        return Err(Error::fail(
            CMD,
            format!("{shown_name}'s handler left nothing in its log"),
        ));
    };
    println!("{}", crate::untrusted::printable(r.outcome.as_bytes()));
    for part in [&r.head, &r.tail] {
        print!("{}", crate::untrusted::printable_lines(part.as_bytes()));
    }
    Ok(if r.failed { Exit::Failed } else { Exit::Ok })
}
