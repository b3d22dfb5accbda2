//! `roost ext new NAME [DIR]`: a working extension repository to start
//! from: manifest, `bin/roost-NAME` (POSIX sh, executable bit committed),
//! and a README on the contract, committed once. It passes `roost ext check`.

use crate::cli::model::NewArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::git::author;
use serde::Serialize;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const CMD: &str = "ext new";

pub fn run(a: NewArgs) -> Result<Exit> {
    let name = a.name;
    let fail = |m: String| Error::fail(CMD, m);
    let refuse = |m: String| Error::refuse(CMD, m);
    if !crate::index::valid_name(name.as_bytes()) {
        return Err(refuse(format!(
            "invalid name {:?}: use a lowercase letter, then lowercase letters, digits or '-' (at most 32)",
            crate::untrusted::printable(name.as_bytes())
        )));
    }
    if let Some(what) = crate::cli::reserved_as(&name) {
        return Err(refuse(format!(
            "{name} is {what}; an extension cannot claim it"
        )));
    }
    let dir = a
        .dir
        .unwrap_or_else(|| PathBuf::from(format!("roost-{name}")));
    if dir.exists() && !dir.is_dir() {
        return Err(
            refuse(format!("{} exists and is not a directory", dir.display()))
                .hint("name a new directory"),
        );
    }
    if std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(refuse(format!("{} exists and is not empty", dir.display()))
            .hint("name a new directory"));
    }
    scaffold(&dir, &name).map_err(|e| fail(format!("cannot write {}: {e}", dir.display())))?;
    let made = author::commit_dir_as_author(&dir, &format!("roost ext new {name}"))
        .map_err(|e| fail(e.to_string()))?;
    let shown = dir.display();
    println!(
        "created {shown}: a git repository with one commit ({}), made as {}",
        crate::ext::display::short(&made.id.to_string()),
        made.author
    );
    println!("  roost-ext.json       the manifest: name, contract, commands, needs");
    println!("  bin/roost-{name:<10} the command (POSIX sh, executable)");
    println!("  README.md            the contract in brief");
    // As the shell takes it, so the lines can be pasted.
    let typed = shell_words::quote(&dir.to_string_lossy()).into_owned();
    println!("next:");
    println!("  roost ext check {typed}            what install would say");
    println!("  roost ext install --link {typed}   use it while you edit it");
    println!("  roost {name}");
    if made.stood_in {
        // Said last, where it is read: the commit is not the author's yet.
        println!(
            "note: git names no author here, so `roost <roost@localhost>` stands in; set \
             user.name and user.email, then in {typed}: git commit --amend --reset-author"
        );
    }
    Ok(Exit::Ok)
}

/// The roost-ext.json `new` writes.
#[derive(Serialize)]
struct Template<'a> {
    name: &'a str,
    contract: u32,
    roost: String,
    needs: &'a [&'a str],
    commands: &'a [&'a str],
    description: String,
}

fn scaffold(dir: &Path, name: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("bin"))?;
    let version = crate::VERSION;
    let (major, minor) = {
        let mut p = version.split('.').map(|n| n.parse::<u64>().unwrap_or(0));
        (p.next().unwrap_or(0), p.next().unwrap_or(0))
    };
    let upper = if major == 0 {
        format!("0.{}.0", minor + 1)
    } else {
        format!("{}.0.0", major + 1)
    };
    let manifest = Template {
        name,
        contract: crate::contract::NUMBER,
        roost: format!(">={major}.{minor}.0 <{upper}"),
        needs: &[],
        commands: &[name],
        description: format!("The {name} command"),
    };
    // Through `Value`, for the keys in sorted order.
    let manifest = serde_json::to_value(&manifest).unwrap_or_default();
    let mut text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    text.push('\n');
    std::fs::write(dir.join(crate::contract::MANIFEST), text)?;
    let bin = crate::contract::program(dir, name);
    std::fs::write(&bin, script(name))?;
    std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755))?;
    std::fs::write(dir.join("README.md"), readme(name))?;
    Ok(())
}

fn script(name: &str) -> String {
    format!(
        r#"#!/bin/sh
# roost {name}: roost runs this file for `roost {name} ARGS...`, with the
# arguments exactly as typed. Its output and exit status are the user's.
set -eu

case "${{1:-}}" in
  -h|--help)
    echo "usage: roost {name} [ARGS...]"
    exit 0
    ;;
esac

# A directory of this extension's own, kept across updates.
echo "hello from roost {name}; arguments: $*"
echo "my data directory: $ROOST_EXT_STATE"

# To reach the agents, declare "needs": ["fleet"] in roost-ext.json; then:
#   tmux "$ROOST_SOCKET_FLAG" "$ROOST_SOCKET" list-panes -a
"#
    )
}

fn readme(name: &str) -> String {
    format!(
        r#"# roost-{name}

A roost extension: it adds the command `roost {name}`.

## Try it

    roost ext check .            # what `roost ext install` would say
    roost ext install --link .   # run it from this checkout while you edit it
    roost {name}

Publish it as a git repository; users install it with
`roost ext install OWNER/roost-{name}`, which pins the exact commit.

## The contract (version {contract}), in brief

- `roost-ext.json` names the extension, the contract it speaks, the commands
  it claims and what it `needs`. Each command CMD is an executable
  `bin/roost-CMD` (git mode 100755). Core roost commands cannot be claimed.
- roost runs `bin/roost-CMD` for `roost CMD ARGS...` with the arguments as
  typed, and sets `ROOST_HOME`, `ROOST_VERSION`, `ROOST_CONTRACT`,
  `ROOST_EXT_DIR` (this directory) and `ROOST_EXT_STATE` (a data directory
  of its own).
- `"needs": ["fleet"]` asks for the user's agents: the command then gets
  `ROOST_SOCKET` and `ROOST_SOCKET_FLAG` (use
  `tmux "$ROOST_SOCKET_FLAG" "$ROOST_SOCKET" ...`) and roost's scripts first on
  PATH. Without it those are not set. Users see what you declared before they
  install.
- Nothing runs at install time. `man 7 roost-extension` has the details.
"#,
        contract = crate::contract::NUMBER
    )
}
