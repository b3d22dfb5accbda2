//! `roost ext install` against real bare repositories reached by file://:
//! validation before the network, pinning, fetching with nothing of the
//! repository run, the gates, the consent block and the question,
//! conflicts, network trouble, concurrent installs. The helpers the
//! modules share are here.

mod conflicts;
mod consent;
mod fetch;
mod gates;
mod input;
mod network;
mod pin;
mod presets;
mod trickle;

use crate::common::*;

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

pub(crate) fn install(env: &TestEnv, args: &[&str]) -> Output {
    let mut all = vec!["ext", "install"];
    all.extend_from_slice(args);
    env.run(all)
}

pub(crate) fn read_lock(env: &TestEnv) -> Value {
    serde_json::from_slice(&std::fs::read(lock_file(env)).unwrap()).unwrap()
}

/// A repository whose manifest is `manifest` and whose `execs` are
/// executable `bin/roost-CMD` scripts, committed and pushed.
pub(crate) fn ext_with(env: &TestEnv, repo: &str, manifest: Value, execs: &[&str]) -> Fixture {
    let f = env.ext_repo(repo);
    f.write(
        "roost-ext.json",
        &serde_json::to_string_pretty(&manifest).unwrap(),
    );
    for c in execs {
        f.exec(&format!("bin/roost-{c}"), &format!("#!/bin/sh\necho {c}\n"));
    }
    f.commit("first");
    f
}

/// A plain extension `note` claiming `note` plus whatever the test adds.
pub(crate) fn note_repo(env: &TestEnv) -> Fixture {
    let f = env.ext_repo("owner/roost-note");
    f.manifest("note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho note\n");
    f
}

/// The consent block's paragraph on what declaring does not stop, printed
/// after what the extension asks for, whatever it asks.
pub(crate) const NOT_ASKED: &str = "\n\
    An extension that did NOT ask can still reach them if it tries. This\n\
    line tells you what it declared, not what it is stopped from doing.\n";

/// The consent block for an extension without a `roost` range or a
/// description, as install prints it.
/// The paragraph under a signer line.
pub(crate) const SIGNED: &str =
    "The signer line says which key made the commit object above. It says\n\
     nothing about who wrote the lines in it or what the code does.\n";

pub(crate) fn block(url: &str, reference: &str, commit: &str, claims: &str, fleet: bool) -> String {
    let range = format!("any (you have {VERSION})");
    let width = range.len().max("1 (roost speaks 1)".len());
    let authority = if fleet {
        "This extension asks to drive your agents. If you install it, the code\n\
         in it can read any pane's screen and send prompts to any agent, the\n\
         same as you can.\n"
    } else {
        "This extension does not ask for access to your agents.\n"
    };
    format!(
        "  repo      {url}\n\
         \x20 ref       {reference}\n\
         \x20 commit    {} (pinned)\n\
         \x20 signer    unsigned (the commit carries no signature)\n\
         \x20 contract  {:<width$}  ok\n\
         \x20 roost     {:<width$}  ok\n\
         \x20 claims    {claims}\n\
         \n\
         {authority}\
         {NOT_ASKED}\
         \n\
         Roost has checked that this is the exact commit named above. It has\n\
         NOT checked whether the code is honest. It cannot.\n\
         \n\
         {SIGNED}\
         \n\
         Nothing runs during install. Code runs when you type those commands.\n",
        commit, "1 (roost speaks 1)", range,
    )
}

pub(crate) fn url_of(env: &TestEnv, repo: &str) -> String {
    format!("file://{}/{repo}", env.path("remote").display())
}

/// `tls_server`, s_server given `extra` instead of `-www` (without it, it
/// completes TLS and then sends only what its stdin, held open and empty,
/// says: nothing).
pub(crate) fn tls_server_with(
    env: &TestEnv,
    extra: &[&str],
) -> Option<(ChildGuard, String, PathBuf)> {
    let dir = tls_certs(env)?;
    let mut server = Command::new("openssl")
        .args([
            "s_server",
            "-accept",
            "127.0.0.1:0",
            "-cert",
            "leaf.pem",
            "-key",
            "leaf.key",
        ])
        .args(extra)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // "ACCEPT 127.0.0.1:PORT" once it listens.
    let port = listening_port(&mut server, "ACCEPT ");
    Some((
        ChildGuard(server),
        format!("https://127.0.0.1:{port}/"),
        dir.join("ca.pem"),
    ))
}

/// The port in the line of the child's stdout that starts with `prefix`
/// (what a server prints once it listens).
pub(crate) fn listening_port(child: &mut std::process::Child, prefix: &str) -> String {
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        if std::io::BufRead::read_line(&mut out, &mut line).unwrap() == 0 {
            panic!("the server exited before listening");
        }
        if let Some(addr) = line.trim().strip_prefix(prefix) {
            return addr.rsplit(':').next().unwrap().to_string();
        }
    }
}

/// A throwaway CA and a certificate for 127.0.0.1 it signed, made with
/// openssl in `tls/` (ca.pem, leaf.pem, leaf.key); None (the test skips)
/// without openssl.
pub(crate) fn tls_certs(env: &TestEnv) -> Option<PathBuf> {
    let dir = env.path("tls");
    std::fs::create_dir_all(&dir).unwrap();
    let openssl = |args: &[&str]| {
        Command::new("openssl")
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success())
    };
    std::fs::write(
        dir.join("leaf.cnf"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    let made = openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-subj",
        "/CN=roost test CA",
    ]) && openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]) && openssl(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "leaf.cnf",
        "-out",
        "leaf.pem",
    ]);
    if !made {
        skip_without("openssl is not installed");
        return None;
    }
    Some(dir)
}

/// Kills the child when the test ends, however it ends.
pub(crate) struct ChildGuard(std::process::Child);

/// A PATH whose `ssh` runs the shell line `first` (what a remote prints,
/// say), then the remote command on this machine, joining the words after
/// the host as ssh does.
pub(crate) fn local_ssh_path(env: &TestEnv, first: &str) -> String {
    let bin = env.path("ssh-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ssh = bin.join("ssh");
    std::fs::write(
        &ssh,
        format!(
            "#!/bin/sh\n{first}\n\
             while [ $# -gt 0 ]; do case $1 in -o|-p) shift 2;; -*) shift;; *) break;; esac; done\n\
             shift\n\
             exec sh -c \"$*\"\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}
