//! `roost help CMD` for an extension that ships a page for CMD
//! (`man/roost-CMD.1` in its directory): the page, formatted by `man -l`
//! when man is there, else as it is, through the pager; nothing of the
//! extension runs. The page is read as a file roost did not write and
//! neutralised before anything formats or shows it.

use crate::error::{Error, Exit, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Largest page read; a bigger one is refused.
pub const MAX_PAGE: u64 = 256 * 1024;
/// Most formatted text kept from man.
const MAX_FORMATTED: u64 = 4 * 1024 * 1024;
/// Longest man may take (a page can loop forever).
const MAN_TIME: Duration = Duration::from_secs(10);

/// Where extension directory `dir` keeps the page for `command`.
pub fn path_of(dir: &Path, command: &str) -> PathBuf {
    dir.join("man").join(format!("roost-{command}.1"))
}

/// Shows the page of `command` from `dir` when there is one: `None` when
/// the extension ships none (help then runs `roost CMD --help`).
pub fn show(dir: &Path, command: &str) -> Option<Result<Exit>> {
    let path = path_of(dir, command);
    let shown = crate::untrusted::path(&path);
    let bytes = match crate::fsutil::read_regular(&path, MAX_PAGE) {
        Ok(None) => return None,
        Ok(Some(bytes)) => bytes,
        Err(crate::fsutil::ReadError::TooBig(_)) => {
            return Some(Err(Error::fail(
                "help",
                format!("the page {shown} is larger than {} KiB", MAX_PAGE / 1024),
            )
            .hint(format!("roost {command} --help may say more"))))
        }
        Err(e) => {
            return Some(Err(Error::fail(
                "help",
                format!("cannot read the page {shown}: {e}"),
            )
            .hint(format!("roost {command} --help may say more"))))
        }
    };
    let page = neutralised(&bytes);
    let text = formatted(&page).unwrap_or_else(|| String::from_utf8_lossy(&page).into_owned());
    let text = crate::untrusted::printable_lines(text.as_bytes());
    crate::ext::output::Output::stdout().page(&text);
    Some(Ok(Exit::Ok))
}

/// The requests that would make the formatter read another file or run a
/// program, or rename a request so that it could (groff's safer mode,
/// which man uses, already refuses the ones that run programs).
const DROPPED: &[&str] = &[
    "so", "mso", "pso", "sy", "pi", "open", "opena", "cf", "trf", "nx", "rd", "als", "rn", "write",
    "writec", "writem", "close",
];

/// The page without control characters (but newline and TAB), and
/// without the lines that hold a request of `DROPPED`.
fn neutralised(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for line in bytes.split(|&b| b == b'\n') {
        if dropped(line) {
            continue;
        }
        out.extend(
            line.iter()
                .copied()
                .filter(|&b| b == b'\t' || !(b < 0x20 || b == 0x7f)),
        );
        out.push(b'\n');
    }
    out
}

fn dropped(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let Some(rest) = text.trim_start().strip_prefix(['.', '\'']) else {
        return false;
    };
    let name: String = rest
        .trim_start()
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '\\')
        .collect();
    DROPPED.contains(&name.as_str())
}

/// `page` formatted by `man -l -` as plain text, within `MAN_TIME` and
/// `MAX_FORMATTED`; `None` when man is not there or fails.
fn formatted(page: &[u8]) -> Option<String> {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("man")
        .args(["-l", "-"])
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env_remove("MAN_KEEP_FORMATTING")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Its own group, so that a formatter that never ends goes with it.
        .process_group(0)
        .spawn()
        .ok()?;
    let group = nix::unistd::Pid::from_raw(i32::try_from(child.id()).ok()?);
    let mut stdin = child.stdin.take()?;
    let page = page.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&page);
    });
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = (&mut stdout).take(MAX_FORMATTED).read_to_end(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < MAN_TIME => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
                let _ = child.wait();
                break None;
            }
        }
    };
    // A formatter killed for its time leaves no writer of the pipe.
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
    let _ = writer.join();
    let text = reader.join().ok()?;
    if !status?.success() || text.is_empty() {
        return None;
    }
    Some(String::from_utf8_lossy(&text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_that_read_files_or_run_programs_and_controls_are_taken_out() {
        let page = b".TH NOTE 1\n.so /etc/passwd\n'  sy rm -rf x\n.als x so\n.  mso an.tmac\nText \x1b]0;t\x07 here\n.B bold\n";
        assert_eq!(
            String::from_utf8(neutralised(page)).unwrap(),
            ".TH NOTE 1\nText ]0;t here\n.B bold\n\n"
        );
    }
}
