//! What stands around every conversation with a remote: SIGPIPE as an
//! error, stderr neutralised, a TLS crypto provider, and interrupts that
//! unwind instead of killing roost.

use super::watchdog::INTERRUPTED;
use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
use std::sync::atomic::Ordering;

/// While alive, a write to a closed pipe is an error instead of SIGPIPE.
/// gix talks to `git-upload-pack` and `ssh` through pipes, and a helper that
/// exits early must be reported, not kill roost. Elsewhere roost keeps the
/// default, so `roost ext list | head` ends quietly like any tool.
struct PipeErrors(nix::sys::signal::SigHandler);

impl PipeErrors {
    fn new() -> PipeErrors {
        use nix::sys::signal::{signal, SigHandler, Signal};
        // SAFETY: SIG_IGN and the saved disposition install no handler code.
        let old =
            unsafe { signal(Signal::SIGPIPE, SigHandler::SigIgn) }.unwrap_or(SigHandler::SigDfl);
        PipeErrors(old)
    }
}

impl Drop for PipeErrors {
    fn drop(&mut self) {
        // SAFETY: restores the disposition saved in `new`.
        let _ = unsafe { nix::sys::signal::signal(nix::sys::signal::Signal::SIGPIPE, self.0) };
    }
}

/// What a network operation needs around it: a watchdog that ends a remote
/// that stalls or an interrupted conversation (see `watchdog`), SIGPIPE as
/// an error (see `PipeErrors`), stderr neutralised (see `StderrFilter`) and a TLS crypto
/// provider for https. ring is installed here, when a remote is first
/// reached, rather than linked in as a library with start-up code that
/// every roost command would pay for.
pub(super) struct Network {
    _watchdog: super::watchdog::Watchdog,
    _pipes: PipeErrors,
    _stderr: Option<StderrFilter>,
}

impl Network {
    pub(super) fn begin() -> Network {
        // Fails only when a provider is already installed: that one serves.
        let _ = ring_provider().install_default();
        super::progress::prepare();
        Network {
            _watchdog: super::watchdog::Watchdog::start(),
            _pipes: PipeErrors::new(),
            _stderr: StderrFilter::begin(),
        }
    }
}

/// rustls's ring provider. rustls 0.23.48 deprecates it, for want of a
/// post-quantum key exchange, in favour of aws-lc-rs, whose C constructor
/// probes the CPU at every roost start, typos included (see Cargo.toml):
/// roost keeps ring on purpose (SECURITY.md says what it gives up), and a
/// `cargo update` must not turn that choice into a failed build.
#[allow(deprecated)]
fn ring_provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

/// While alive, roost's stderr is a pipe, and a thread copies what arrives
/// to the real stderr a line at a time through `untrusted::printable`. gix
/// forwards ssh's stderr (the remote's banners and errors) to roost's
/// stderr as it comes; a remote must not reach the terminal with escapes.
struct StderrFilter {
    /// The real stderr, put back on drop.
    real: std::os::fd::OwnedFd,
    /// Signalled when the copier has written everything.
    done: std::sync::mpsc::Receiver<()>,
}

impl StderrFilter {
    fn begin() -> Option<StderrFilter> {
        use std::os::fd::AsFd;
        let real = std::io::stderr().as_fd().try_clone_to_owned().ok()?;
        let out = std::fs::File::from(real.try_clone().ok()?);
        let (reader, writer) = std::io::pipe().ok()?;
        let (finished, done) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("stderr".into())
            .spawn(move || {
                copy_printable(reader, out);
                let _ = finished.send(());
            })
            .ok()?;
        // On failure `writer` closes here and the copier ends at once.
        nix::unistd::dup2_stderr(&writer).ok()?;
        Some(StderrFilter { real, done })
    }
}

impl Drop for StderrFilter {
    fn drop(&mut self) {
        // Closes the pipe's last writer (every program roost started has
        // its own stderr), so the copier drains and ends. A writer that
        // lives on somewhere must not hang roost: wait a bounded time.
        if nix::unistd::dup2_stderr(&self.real).is_ok() {
            let _ = self.done.recv_timeout(std::time::Duration::from_secs(2));
        }
    }
}

/// The longest line of a remote's stderr that is shown; the rest of a longer
/// one is dropped as it arrives (never held), and the cut is said.
const MAX_STDERR_LINE: usize = 4096;

fn copy_printable(from: std::io::PipeReader, to: std::fs::File) {
    copy_lines(std::io::BufReader::new(from), &mut AfterProgress(to));
}

/// A remote's line starts where the progress line was, not after it.
struct AfterProgress(std::fs::File);

impl std::io::Write for AfterProgress {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        super::progress::clear();
        self.0.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Copies `from` to `to` a line at a time through `untrusted::printable`,
/// holding at most `MAX_STDERR_LINE` bytes of a line, however long it is.
fn copy_lines(mut from: impl std::io::BufRead, to: &mut impl std::io::Write) {
    let mut line: Vec<u8> = Vec::new();
    let mut cut = false;
    let mut emit = |line: &mut Vec<u8>, cut: &mut bool| {
        let text = line.strip_suffix(b"\r").unwrap_or(line);
        let more = if *cut { " [line cut at 4 KiB]" } else { "" };
        let _ = writeln!(to, "{}{more}", crate::untrusted::printable(text));
        line.clear();
        *cut = false;
    };
    loop {
        let (used, ended) = match from.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    keep(&mut line, &buf[..i], &mut cut);
                    (i + 1, true)
                }
                None => {
                    keep(&mut line, buf, &mut cut);
                    (buf.len(), false)
                }
            },
        };
        from.consume(used);
        if ended {
            emit(&mut line, &mut cut);
        }
    }
    if !line.is_empty() || cut {
        emit(&mut line, &mut cut);
    }
}

fn keep(line: &mut Vec<u8>, bytes: &[u8], cut: &mut bool) {
    let room = MAX_STDERR_LINE.saturating_sub(line.len());
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
    *cut |= bytes.len() > room;
}

/// While alive, SIGINT, SIGTERM and SIGHUP set `INTERRUPTED` instead of
/// killing roost, and interrupt a blocking read (no SA_RESTART).
pub struct Interrupts(Vec<(Signal, SigAction)>);

extern "C" fn on_interrupt(_: nix::libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

impl Interrupts {
    pub fn catch() -> Interrupts {
        let action = SigAction::new(
            SigHandler::Handler(on_interrupt),
            SaFlags::empty(),
            SigSet::empty(),
        );
        let saved = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP]
            .into_iter()
            .filter_map(|sig| {
                // SAFETY: the handler only stores to an atomic.
                unsafe { sigaction(sig, &action) }
                    .ok()
                    .map(|old| (sig, old))
            })
            .collect();
        Interrupts(saved)
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        for (sig, old) in &self.0 {
            // SAFETY: restores the action saved in `catch`.
            let _ = unsafe { sigaction(*sig, old) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_lines_are_neutralised_and_a_flood_is_cut_not_held() {
        let mut out = Vec::new();
        copy_lines(&b"banner \x1b[2J\r\nsecond"[..], &mut out);
        assert_eq!(out, b"banner \\x1b[2J\nsecond\n");
        // 64 MiB with no newline: at most 4 KiB of it is ever kept.
        struct Flood(usize);
        impl std::io::Read for Flood {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0);
                buf[..n].fill(b'A');
                self.0 -= n;
                Ok(n)
            }
        }
        let mut out = Vec::new();
        copy_lines(std::io::BufReader::new(Flood(64 << 20)), &mut out);
        assert_eq!(out.len(), 4096 + " [line cut at 4 KiB]\n".len());
        assert!(out.ends_with(b"AAAA [line cut at 4 KiB]\n"));
    }
}
