//! Every git operation roost performs, in-process with gix: resolving a ref
//! on a remote, fetching one pinned commit with nothing of the repository
//! executed, and the trees recorded in a repository (hashing a directory on
//! disk is `hash.rs`).
//! No git program is run (gix itself spawns `git-upload-pack` for file:// and
//! `ssh` for ssh:// remotes).

use gix::bstr::{BString, ByteSlice};
use gix::objs::tree::EntryKind;
use gix::protocol::handshake::Ref;
use gix::protocol::transport::client::blocking_io as tio;
use gix::ObjectId;
use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

pub type Result<T> = std::result::Result<T, String>;

/// How ssh is run: never a prompt (a password or host-key question fails
/// instead), and a host that does not answer, or stops answering, is given
/// up on within about a minute.
const SSH: &str =
    "ssh -o BatchMode=yes -o ConnectTimeout=30 -o ServerAliveInterval=15 -o ServerAliveCountMax=3";

/// How long an https server may take to connect (TLS included), and how
/// long a transfer may stall, before roost gives up on it.
const HTTP_CONNECT_SECS: u64 = 30;
const HTTP_STALL_SECS: u64 = 60;

/// Config for every repository roost opens: nothing from the user or the
/// system, no prompts, only the transports roost allows (and, added in
/// `fetch_pinned`, `SSH` and the `HTTP_*` limits).
const OVERRIDES: &[&str] = &[
    "core.symlinks=true",
    "ssh.variant=ssh",
    "protocol.allow=never",
    "protocol.file.allow=always",
    "protocol.https.allow=always",
    "protocol.ssh.allow=always",
    "credential.helper=",
];

/// Attributes that switch off every conversion and filter at checkout
/// ($GIT_DIR/info/attributes outranks the repository's .gitattributes).
const NO_FILTERS: &str = "* -text -ident -filter !working-tree-encoding\n";

/// An error and its causes on one line.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

pub(super) fn io(what: &str, e: std::io::Error) -> String {
    format!("{what}: {e}")
}

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

/// What a network operation needs around it: SIGPIPE as an error (see
/// `PipeErrors`), stderr neutralised (see `StderrFilter`) and a TLS crypto
/// provider for https. ring is installed here, when a remote is first
/// reached, rather than linked in as a library with start-up code that
/// every roost command would pay for.
struct Network {
    _pipes: PipeErrors,
    _stderr: Option<StderrFilter>,
}

impl Network {
    fn begin() -> Network {
        // Fails only when a provider is already installed: that one serves.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Network {
            _pipes: PipeErrors::new(),
            _stderr: StderrFilter::begin(),
        }
    }
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

fn copy_printable(from: std::io::PipeReader, mut to: std::fs::File) {
    use std::io::{BufRead, Write};
    for line in std::io::BufReader::new(from).split(b'\n') {
        let Ok(line) = line else { break };
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        let _ = writeln!(to, "{}", crate::untrusted::printable(line));
    }
}

/// Set when the user interrupts while `Interrupts` is alive: a fetch or
/// checkout stops and the question reads as no, so the command unwinds and
/// removes what it made instead of dying with a half-made clone on disk.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

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
            // SAFETY: the handler only stores to an atomic.
            .filter_map(|sig| {
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

/// Every ref the remote advertises, never prompting for credentials.
fn ls_remote(url: &str) -> Result<Vec<Ref>> {
    let _network = Network::begin();
    let parsed = gix::url::parse(url.as_bytes().as_bstr()).map_err(|e| chain(&e))?;
    use gix::url::Scheme;
    if !matches!(parsed.scheme, Scheme::File | Scheme::Https | Scheme::Ssh) {
        return Err(format!(
            "the {} scheme is not allowed (file, https and ssh are)",
            parsed.scheme.as_str()
        ));
    }
    let mut opts = tio::connect::Options {
        version: gix::protocol::transport::Protocol::V2,
        ..Default::default()
    };
    opts.ssh.command = Some(SSH.into());
    opts.ssh.kind = Some(tio::ssh::ProgramKind::Ssh);
    let mut transport = tio::connect::connect(url, opts).map_err(|e| chain(&e))?;
    if parsed.scheme == Scheme::Https {
        let http = tio::http::Options {
            connect_timeout: Some(std::time::Duration::from_secs(HTTP_CONNECT_SECS)),
            low_speed_limit_bytes_per_second: 1,
            low_speed_time_seconds: HTTP_STALL_SECS,
            ..Default::default()
        };
        transport.configure(&http).map_err(|e| chain(&e))?;
    }
    let mut progress = gix::progress::Discard;
    // Asked for credentials: there are none to give (nothing is prompted).
    let asked = std::cell::Cell::new(false);
    let mut handshake = gix::protocol::handshake(
        &mut transport,
        gix::protocol::transport::Service::UploadPack,
        |_| {
            asked.set(true);
            Ok(None)
        },
        vec![],
        &mut progress,
    )
    .map_err(|e| {
        if asked.get() {
            let why = match parsed.scheme {
                Scheme::Ssh => "ssh runs in batch mode: it needs a key it can use without asking",
                _ => "is the repository private, or missing?",
            };
            return format!(
                "the remote asks for authentication, and roost never asks you for credentials ({why})"
            );
        }
        no_local_repository(&parsed).unwrap_or_else(|| chain(&e))
    })?;
    match handshake.refs.take() {
        Some(refs) => Ok(refs),
        None => gix::protocol::LsRefsCommand::new(
            None,
            &handshake.capabilities,
            ("agent", Some("roost".into())),
        )
        .invoke_blocking(&mut transport, &mut progress, false)
        .map_err(|e| chain(&e)),
    }
}

/// Why a file:// remote failed when there is nothing at its path. gix sends
/// `git-upload-pack`'s stderr to null, which leaves only "failed to fill
/// whole buffer"; say what git would have said instead.
fn no_local_repository(url: &gix::Url) -> Option<String> {
    if url.scheme != gix::url::Scheme::File {
        return None;
    }
    let path = std::ffi::OsStr::from_bytes(&url.path);
    // The names git-upload-pack tries for a path.
    let found = ["", ".git", "/.git"].iter().any(|suffix| {
        let mut candidate = path.to_owned();
        candidate.push(suffix);
        Path::new(&candidate).exists()
    });
    (!found).then(|| {
        format!(
            "no repository there ({} does not exist)",
            Path::new(path).display()
        )
    })
}

/// REF (default: the remote's HEAD) as a full commit id. A 40-hex SHA is
/// taken as is; names are tried as given, then under refs/, refs/tags/ and
/// refs/heads/ (annotated tags peeled to their commit).
pub fn resolve(url: &str, reference: Option<&str>) -> Result<ObjectId> {
    if let Some(r) = reference.filter(|r| crate::ext::names::is_full_sha(r)) {
        return ObjectId::from_hex(r.to_ascii_lowercase().as_bytes()).map_err(|e| chain(&e));
    }
    let refs = ls_remote(url)?;
    let find = |name: &str| -> Option<ObjectId> {
        refs.iter().find_map(|r| match r {
            Ref::Peeled {
                full_ref_name,
                object,
                ..
            }
            | Ref::Direct {
                full_ref_name,
                object,
            }
            | Ref::Symbolic {
                full_ref_name,
                object,
                ..
            } if full_ref_name == name => Some(*object),
            _ => None,
        })
    };
    match reference {
        None => find("HEAD")
            .ok_or_else(|| "the repository has no HEAD commit (is it empty?)".to_string()),
        Some(r) => [
            r.to_string(),
            format!("refs/{r}"),
            format!("refs/tags/{r}"),
            format!("refs/heads/{r}"),
        ]
        .iter()
        .find_map(|name| find(name))
        .ok_or_else(|| {
            if r.len() < 40 && r.bytes().all(|b| b.is_ascii_hexdigit()) {
                format!("it has no branch or tag named '{r}' (a commit must be given in full, all 40 hex digits)")
            } else {
                format!("it has no branch or tag named '{r}'")
            }
        }),
    }
}

/// Fetches exactly `commit` into `dest` (which must not exist) and checks it
/// out with every filter off; returns the commit's tree id. Refuses when what
/// was checked out is not the pinned commit.
pub fn fetch_pinned(url: &str, commit: ObjectId, dest: &Path) -> Result<ObjectId> {
    let _network = Network::begin();
    let overrides = OVERRIDES.iter().map(|o| o.to_string()).chain([
        format!("core.sshCommand={SSH}"),
        format!("gitoxide.http.connectTimeout={}", HTTP_CONNECT_SECS * 1000),
        "http.lowSpeedLimit=1".to_string(),
        format!("http.lowSpeedTime={HTTP_STALL_SECS}"),
    ]);
    let open = gix::open::Options::isolated().config_overrides(overrides);
    let mut prepare = gix::clone::PrepareFetch::new(
        url,
        dest,
        gix::create::Kind::WithWorktree,
        gix::create::Options::default(),
        open,
    )
    .map_err(|e| chain(&e))?
    .with_revision(Some(commit.to_hex().to_string()))
    .map_err(|e| chain(&e))?
    .configure_remote(|r| Ok(r.with_fetch_tags(gix::remote::fetch::Tags::None)));
    let interrupt = &INTERRUPTED;
    let (mut checkout, _) = prepare
        .fetch_then_checkout(gix::progress::Discard, interrupt)
        .map_err(|e| chain(&e))?;
    let info = checkout.repo().git_dir().join("info");
    std::fs::create_dir_all(&info).map_err(|e| io("cannot write info/attributes", e))?;
    std::fs::write(info.join("attributes"), NO_FILTERS)
        .map_err(|e| io("cannot write info/attributes", e))?;
    let (repo, outcome) = checkout
        .main_worktree(gix::progress::Discard, interrupt)
        .map_err(|e| chain(&e))?;
    let failed: Vec<&BString> = (outcome.collisions.iter().map(|c| &c.path))
        .chain(outcome.errors.iter().map(|e| &e.path))
        .collect();
    if let Some(first) = failed.first() {
        return Err(format!(
            "checkout failed for {} file(s) (first: {})",
            failed.len(),
            crate::untrusted::printable(first)
        ));
    }
    let head = repo.head_id().map_err(|e| chain(&e))?.detach();
    if head != commit {
        return Err(format!(
            "the checkout is at {head}, not the pinned {commit}; refusing rather than installing something else"
        ));
    }
    let tree = repo
        .find_commit(commit)
        .map_err(|e| chain(&e))?
        .tree_id()
        .map_err(|e| chain(&e))?
        .detach();
    Ok(tree)
}

/// One file of a tree: its kind (blob, executable, symlink, submodule) and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    pub kind: EntryKind,
    pub id: ObjectId,
}

/// git's octal mode of an entry kind, as `git diff` prints it.
pub fn mode(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Blob => "100644",
        EntryKind::BlobExecutable => "100755",
        EntryKind::Link => "120000",
        EntryKind::Commit => "160000",
        EntryKind::Tree => "040000",
    }
}

/// Every non-directory entry of a tree, by path.
pub type Leaves = BTreeMap<BString, Leaf>;

/// The leaves of the commit checked out in the work tree `dir` (None when
/// `dir` holds no git repository, or one with no commit yet).
pub fn committed_leaves(dir: &Path) -> Option<Leaves> {
    let repo = gix::open_opts(dir, gix::open::Options::isolated()).ok()?;
    let tree = repo.head_commit().ok()?.tree_id().ok()?.detach();
    tree_leaves(repo.git_dir(), tree).ok()
}

/// The leaves of `tree` as stored in the object database of a fetched
/// repository (opened isolated: its config is not trusted).
pub fn tree_leaves(git_dir: &Path, tree: ObjectId) -> Result<Leaves> {
    let repo = gix::open_opts(git_dir, gix::open::Options::isolated()).map_err(|e| chain(&e))?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    repo.find_tree(tree)
        .map_err(|e| chain(&e))?
        .traverse()
        .breadthfirst(&mut recorder)
        .map_err(|e| chain(&e))?;
    Ok(recorder
        .records
        .into_iter()
        .filter(|r| !r.mode.is_tree())
        .map(|r| {
            (
                r.filepath,
                Leaf {
                    kind: r.mode.kind(),
                    id: r.oid,
                },
            )
        })
        .collect())
}
