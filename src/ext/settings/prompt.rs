//! Reading a secret: never from the command line (shell history, `ps` and
//! an agent's transcript keep it), but from stdin when it is not a terminal
//! (bounded), or from a prompt on the terminal with echo off.

use super::declaration::MAX_VALUE;
use crate::ext::error::{ExtError, Result};
use std::io::{IsTerminal, Read, Write};

/// The secret for `key` (`label` shown in the prompt): one trailing
/// newline dropped.
pub fn read_secret(key: &str, label: &str) -> Result<String> {
    let stdin = std::io::stdin();
    let bytes = if stdin.is_terminal() {
        prompted(key, label)?
    } else {
        let mut bytes = Vec::new();
        stdin
            .lock()
            .take(MAX_VALUE as u64 + 2)
            .read_to_end(&mut bytes)
            .map_err(|e| ExtError::failed(format!("cannot read stdin: {e}")))?;
        bytes
    };
    let mut bytes = bytes;
    if bytes.ends_with(b"\n") {
        bytes.pop();
        if bytes.ends_with(b"\r") {
            bytes.pop();
        }
    }
    String::from_utf8(bytes)
        .map_err(|_| ExtError::refused(format!("{key}: the value is not UTF-8 text")))
}

/// One line from the terminal with echo off, put back however it ends.
fn prompted(key: &str, label: &str) -> Result<Vec<u8>> {
    use nix::sys::termios::{tcgetattr, tcsetattr, LocalFlags, SetArg};
    let stdin = std::io::stdin();
    let mut err = std::io::stderr();
    let _ = write!(
        err,
        "{key} ({}), typed without echo: ",
        crate::untrusted::printable(label.as_bytes())
    );
    let _ = err.flush();
    let saved = tcgetattr(&stdin)
        .map_err(|e| ExtError::failed(format!("cannot read the terminal's settings: {e}")))?;
    let mut quiet = saved.clone();
    quiet.local_flags.remove(LocalFlags::ECHO);
    tcsetattr(&stdin, SetArg::TCSANOW, &quiet)
        .map_err(|e| ExtError::failed(format!("cannot turn the terminal's echo off: {e}")))?;
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    let read = loop {
        match nix::unistd::read(&stdin, &mut byte) {
            Ok(0) => break Ok(()),
            Ok(_) if byte[0] == b'\n' => break Ok(()),
            Ok(_) if line.len() > MAX_VALUE => break Ok(()),
            Ok(_) => line.push(byte[0]),
            Err(nix::errno::Errno::EINTR) => {
                break Err(ExtError::refused("interrupted; nothing was set"))
            }
            Err(e) => break Err(ExtError::failed(format!("cannot read the terminal: {e}"))),
        }
    };
    let _ = tcsetattr(&stdin, SetArg::TCSANOW, &saved);
    let _ = writeln!(err);
    read.map(|()| line)
}
