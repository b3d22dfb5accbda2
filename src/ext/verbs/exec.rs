//! `roost ext exec CMD [ARGS...]`: an installed extension's command run the
//! way dispatch runs it, past a built-in command that shadows its name.

use crate::cli::model::ExecArgs;
use crate::error::{Error, Exit, Result};
use std::os::unix::ffi::OsStrExt;

const CMD: &str = "ext exec";

pub fn run(a: ExecArgs) -> Result<Exit> {
    let (command, args) = a.words.split_first().expect("clap requires CMD");
    let shown = crate::untrusted::printable(command.as_bytes());
    // Every word after CMD is the extension's; before it, a dash is an
    // option of exec's own, and it has none but --help.
    if command.as_bytes().starts_with(b"-") {
        return Err(Error::usage(CMD, format!("unknown option '{shown}'")));
    }
    if !crate::index::valid_name(command.as_bytes()) {
        return Err(
            Error::fail(CMD, format!("'{shown}' is not an extension command name"))
                .hint("roost ext list shows the installed commands"),
        );
    }
    // Returns only when the command could not be run.
    crate::dispatch::exec_installed(command.as_bytes(), args)
        .map(|()| Exit::Failed)
        .map_err(|why| {
            if let Some(name) = disabled_owner(&String::from_utf8_lossy(command.as_bytes())) {
                return Error::fail(
                    CMD,
                    format!("cannot run '{shown}': extension {name} is disabled"),
                )
                .hint(format!("roost ext enable {name} turns it back on"));
            }
            Error::fail(CMD, format!("cannot run '{shown}': {why}")).hint(
                "roost ext list shows the installed commands; roost ext verify checks their files",
            )
        })
}

/// The disabled extension that claims `command` in ext.lock, if one does.
fn disabled_owner(command: &str) -> Option<String> {
    let paths = crate::paths::Paths::from_env().ok()?;
    let lock = crate::ext::store::read_lock(&paths).ok()?;
    let names: Vec<String> = lock.valid_names().map(str::to_string).collect();
    names.into_iter().find(|name| {
        lock.entry(name)
            .is_some_and(|e| e.disabled && e.commands.iter().any(|c| c == command))
    })
}
