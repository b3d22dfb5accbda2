//! One conversation with a remote, over one connection: reached when first
//! needed, its refs listed at most once, then exactly one pinned commit
//! fetched into a new repository and checked out with every filter off.
//! Nothing of the repository is executed.

use super::cause::{GitError, Result, Trouble};
use super::chain::{chain, io, remote};
use super::guard::Network;
use super::watchdog::INTERRUPTED;
use super::{limits, progress};
use gix::bstr::{BString, ByteSlice};
use gix::protocol::fetch::negotiate;
use gix::protocol::handshake::Ref;
use gix::protocol::transport::client::blocking_io as tio;
use gix::ObjectId;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// How ssh is run: never a prompt (a password or host-key question fails
/// instead), and a host that does not answer, or stops answering, is given
/// up on within about a minute. Its stderr (where the remote's banners and
/// errors arrive) passes through `dd`, which writes each byte as it comes
/// (nothing is held back until the connection ends) and stops after 64 KiB:
/// gix holds a whole stderr line, so a newline-free flood could otherwise
/// grow roost's memory without bound.
const SSH: &str = "{ ssh -o BatchMode=yes -o ConnectTimeout=30 -o ServerAliveInterval=15 \
     -o ServerAliveCountMax=3 \"$@\" 2>&1 1>&3 3>&- | dd bs=1 count=65536 >&2 2>/dev/null; } 3>&1";

/// How long an https server may take to connect (TLS included) before
/// roost gives up on it. How long it may then send nothing is the stall
/// limit (`watchdog`), as for every remote.
const HTTP_CONNECT_SECS: u64 = 30;

/// Config for the repository a fetch creates: nothing from the user or the
/// system (it is opened isolated), and symlinks checked out as symlinks.
const OVERRIDES: &[&str] = &["core.symlinks=true"];

/// Attributes that switch off every conversion and filter at checkout
/// ($GIT_DIR/info/attributes outranks the repository's .gitattributes).
const NO_FILTERS: &str = "* -text -ident -filter !working-tree-encoding\n";

/// How roost names itself to a server.
fn agent() -> gix::protocol::command::Feature {
    ("agent", Some("roost".into()))
}

/// A remote repository, reached at most once. The connection is made when
/// a ref must be looked up or a commit fetched, and kept for both: `git
/// clone` needs one connection, and so does roost.
pub struct Remote {
    url: String,
    live: Option<Live>,
}

/// An open connection. Fields drop in order: the transport (and the ssh or
/// git-upload-pack it runs) ends before stderr and SIGPIPE are given back.
struct Live {
    transport: gix::protocol::SendFlushOnDrop<Box<dyn tio::Transport + Send>>,
    handshake: gix::protocol::Handshake,
    refs: Option<Vec<Ref>>,
    _network: Network,
}

/// The progress line goes with the conversation, before anything else is
/// printed.
impl Drop for Remote {
    fn drop(&mut self) {
        progress::clear();
    }
}

impl Remote {
    pub fn new(url: &str) -> Remote {
        Remote {
            url: url.to_string(),
            live: None,
        }
    }

    /// REF (default: the remote's HEAD) as a full commit id. A 40-hex SHA
    /// must be reachable from HEAD, a branch or a tag; names are tried
    /// as given, then under refs/, refs/tags/ and refs/heads/ (annotated
    /// tags peeled to their commit).
    pub fn resolve(&mut self, reference: Option<&str>) -> Result<ObjectId> {
        if let Some(r) = reference.filter(|r| crate::ext::names::is_full_sha(r)) {
            let commit =
                ObjectId::from_hex(r.to_ascii_lowercase().as_bytes()).map_err(|e| chain(&e))?;
            if !self.published(commit)? {
                return Err(GitError::refused(format!(
                    "commit {commit} is on no branch or tag of this repository; \
                     refusing a commit the repository does not publish (a fork's commit can be \
                     served under its parent's name)"
                )));
            }
            return Ok(commit);
        }
        self.advertised(reference)
    }

    /// What the branch or tag REF (default: the remote's HEAD) points to
    /// now, from the ref listing alone: no object is fetched. Names are
    /// tried as `resolve` tries them.
    pub fn advertised(&mut self, reference: Option<&str>) -> Result<ObjectId> {
        let found = self.look_up(reference)?;
        progress::step(&format!(
            "{} is {}",
            reference.unwrap_or("HEAD"),
            &found.to_string()[..12]
        ));
        Ok(found)
    }

    fn look_up(&mut self, reference: Option<&str>) -> Result<ObjectId> {
        let refs = self.refs()?;
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
                .ok_or_else(|| GitError::new("the repository has no HEAD commit (is it empty?)")),
            Some(r) => [
                r.to_string(),
                format!("refs/{r}"),
                format!("refs/tags/{r}"),
                format!("refs/heads/{r}"),
            ]
            .iter()
            .find_map(|name| find(name))
            .ok_or_else(|| {
                GitError::new(if r.len() < 40 && r.bytes().all(|b| b.is_ascii_hexdigit()) {
                    format!("it has no branch or tag named '{r}' (a commit must be given in full, all 40 hex digits)")
                } else {
                    format!("it has no branch or tag named '{r}'")
                })
            }),
        }
    }

    /// Whether `commit` is reachable from HEAD, a branch or a tag. A tip
    /// answers at once; otherwise the history of every advertised ref is
    /// fetched into a throwaway repository (without file contents when the
    /// server allows) and walked.
    fn published(&mut self, commit: ObjectId) -> Result<bool> {
        let tips: Vec<ObjectId> = self
            .refs()?
            .iter()
            .filter_map(|r| match r {
                Ref::Peeled { object, .. }
                | Ref::Direct { object, .. }
                | Ref::Symbolic { object, .. } => Some(*object),
                Ref::Unborn { .. } => None,
            })
            .collect();
        if tips.contains(&commit) {
            return Ok(true);
        }
        if tips.is_empty() {
            return Ok(false);
        }
        progress::step(&format!(
            "looking for {commit} in the history of every branch and tag"
        ));
        let tmp = tempfile::tempdir().map_err(|e| io("cannot make a temporary directory", e))?;
        gix::create::into(tmp.path(), gix::create::Kind::Bare, Default::default())
            .map_err(|e| chain(&e))?;
        let repo =
            gix::open_opts(tmp.path(), gix::open::Options::isolated()).map_err(|e| chain(&e))?;
        let wants = Wants {
            ids: tips.clone(),
            shape: Shape::History,
        };
        self.live()?.receive(wants, &repo)?;
        let repo =
            gix::open_opts(tmp.path(), gix::open::Options::isolated()).map_err(|e| chain(&e))?;
        let mut seen = std::collections::HashSet::new();
        let mut queue: Vec<ObjectId> = tips;
        while let Some(id) = queue.pop() {
            if id == commit {
                return Ok(true);
            }
            if !seen.insert(id) {
                continue;
            }
            // A tag or a tree among the tips leads to no commits.
            let Ok(found) = repo.find_commit(id) else {
                continue;
            };
            let decoded = found.decode().map_err(|e| chain(&e))?;
            queue.extend(decoded.parents());
        }
        Ok(false)
    }

    /// Fetches exactly `commit` (only its own history when the server can
    /// cut it: depth 1) into a new repository at `dest`, which must not
    /// exist, and checks it out with every filter off; returns the commit's
    /// tree id. Refuses when the commit or its tree did not arrive. The
    /// conversation ends here: the connection closes, and stderr and
    /// SIGPIPE are roost's own again, before the caller shows or asks
    /// anything.
    pub fn fetch_pinned(mut self, commit: ObjectId, dest: &Path) -> Result<ObjectId> {
        let repo = create(dest, &self.url)?;
        let live = self.live()?;
        let wants = Wants {
            ids: vec![commit],
            shape: Shape::Pinned,
        };
        let received = live
            .receive(wants, &repo)
            .map_err(|why| unserved(why, commit))?;
        // The conversation is over; the server may go.
        let _ = live.transport.indicate_end_of_interaction();
        let tree = check_out(&repo, commit)?;
        // The clone holds the pinned commit's objects (and, from a server
        // that does not cut history, its ancestors') and nothing else: an
        // object it does not use would stay readable to the pinned code
        // while verify says ok. Every object the pack really holds is
        // looked up among those the commit needs; counting ids instead
        // would let an object the pack leaves out (the empty tree, which
        // gix answers without one) make room for one it should not hold.
        let needed = super::tree::needed(repo.git_dir(), commit)?;
        let extra = match &received.index {
            None => 0,
            Some(path) => gix::odb::pack::index::File::at(path, gix::hash::Kind::Sha1)
                .map_err(|e| chain(&e))?
                .iter()
                .filter(|entry| !needed.contains(&entry.oid))
                .count(),
        };
        if extra > 0 {
            return Err(GitError::refused(format!(
                "the server sent {} that commit {commit} does not use; refusing them",
                crate::words::count(extra, "object")
            )));
        }
        // The pack is reachable from HEAD now: gc may keep it without a
        // .keep file, as after `git clone`.
        if let Some(keep) = received.keep {
            std::fs::remove_file(keep).map_err(|e| io("cannot remove the pack's .keep", e))?;
        }
        Ok(tree)
    }

    /// The connection, made on first use.
    fn live(&mut self) -> Result<&mut Live> {
        if self.live.is_none() {
            self.live = Some(connect(&self.url)?);
        }
        Ok(self.live.as_mut().expect("just connected"))
    }

    /// The repository's own refs, listed once: HEAD, its branches and its
    /// tags. Only those are asked for (protocol v2 ref prefixes), whatever
    /// else a server answers (a forge's `refs/pull/*`, anyone's to make, or
    /// every ref a v0 or v1 server advertised in its greeting) is dropped,
    /// and the listing is bounded (see `refs`): no other namespace names a
    /// commit for roost.
    fn refs(&mut self) -> Result<&[Ref]> {
        let live = self.live()?;
        if live.refs.is_none() {
            let refs = match live.handshake.refs.take() {
                Some(refs) => refs,
                None => super::refs::list(
                    &mut live.transport.inner,
                    &live.handshake.capabilities,
                    agent(),
                )?,
            };
            live.refs = Some(refs.into_iter().filter(own).collect());
        }
        Ok(live.refs.as_deref().expect("just listed"))
    }
}

/// Why a fetch of pinned `commit` failed, said of that commit where the
/// server would not serve it: git-upload-pack answers a commit it does not
/// hold with an error line ("not our ref") and hangs up; when its line
/// loses the race with ours, all that is left is a broken pipe, and only
/// the negotiation (the want itself) writes.
fn unserved(why: GitError, commit: ObjectId) -> GitError {
    match why {
        GitError::Remote {
            trouble: Trouble::ServerSaid(said),
            ..
        } => GitError::new(format!(
            "the repository would not give commit {commit} (it said: {said})"
        )),
        GitError::Remote {
            trouble: Trouble::HungUp,
            ..
        } => GitError::new(format!(
            "the repository hung up when asked for commit {commit}"
        )),
        why => why,
    }
}

/// Whether `r` is one of the repository's own refs.
fn own(r: &Ref) -> bool {
    super::refs::own(r.unpack().0)
}

/// Reaches `url` and greets it, never prompting for credentials.
fn connect(url: &str) -> Result<Live> {
    progress::step(&format!("connecting to {url}"));
    let network = Network::begin();
    let parsed = gix::url::parse(url.as_bytes().as_bstr()).map_err(|e| chain(&e))?;
    use gix::url::Scheme;
    if !matches!(parsed.scheme, Scheme::File | Scheme::Https | Scheme::Ssh) {
        return Err(GitError::refused(format!(
            "the {} scheme is not allowed (file, https and ssh are)",
            parsed.scheme.as_str()
        )));
    }
    if let Some(missing) = super::url::missing_program(&parsed) {
        return Err(GitError::new(missing));
    }
    super::watchdog::piped(parsed.scheme != Scheme::Https);
    let mut opts = tio::connect::Options {
        version: gix::protocol::transport::Protocol::V2,
        ..Default::default()
    };
    opts.ssh.command = Some(SSH.into());
    opts.ssh.kind = Some(tio::ssh::ProgramKind::Ssh);
    let mut transport: Box<dyn tio::Transport + Send> = if parsed.scheme == Scheme::Https {
        // gix's client, its bodies counted as they are read (`https`).
        Box::new(tio::http::connect_http(
            super::https::Counted::default(),
            parsed.clone(),
            opts.version,
            false,
        ))
    } else {
        tio::connect::connect(url, opts).map_err(|e| remote(&e))?
    };
    if parsed.scheme == Scheme::Https {
        // gix's reqwest backend reads none of the shared timeout options:
        // they are set on the client it builds. reqwest's blocking `timeout`
        // bounds the wait for a response's headers and each read of its body;
        // a second past the stall limit, so the watchdog has marked the
        // stall by then and the refusal says so.
        let client = tio::http::reqwest::Options {
            configure_client: Some(Box::new(|builder| {
                Ok(builder
                    .connect_timeout(std::time::Duration::from_secs(HTTP_CONNECT_SECS))
                    .timeout(super::watchdog::stall_limit() + std::time::Duration::from_secs(1)))
            })),
            configure_request: None,
        };
        let http = tio::http::Options {
            backend: Some(std::sync::Arc::new(std::sync::Mutex::new(client))),
            ..Default::default()
        };
        transport.configure(&http).map_err(|e| chain(&e))?;
    }
    // Asked for credentials: there are none to give (nothing is prompted),
    // and the greeting's error says so by its kind.
    let handshake = super::refs::greet(&mut transport).map_err(|why| {
        if super::watchdog::fired().is_some() {
            return super::watchdog::explain(why);
        }
        no_local_repository(&parsed).unwrap_or(why)
    })?;
    Ok(Live {
        transport: gix::protocol::SendFlushOnDrop::new(transport, false),
        handshake,
        refs: None,
        _network: network,
    })
}

/// Why a file:// remote failed when there is nothing at its path. gix sends
/// `git-upload-pack`'s stderr to null, which leaves only "failed to fill
/// whole buffer"; say what git would have said instead.
fn no_local_repository(url: &gix::Url) -> Option<GitError> {
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
        let path = Path::new(path).display().to_string();
        GitError::Remote {
            chain: format!("no repository there ({path} does not exist)"),
            trouble: Trouble::NoRepository(Some(path)),
        }
    })
}

/// What one fetch asks for, with nothing in common to negotiate (the
/// repository it goes into is new).
struct Wants {
    ids: Vec<ObjectId>,
    shape: Shape,
}

enum Shape {
    /// The commit alone, at depth 1 when the server can cut its history.
    Pinned,
    /// Whole histories, file contents left out where the server allows.
    History,
}

impl gix::protocol::fetch::Negotiate for Wants {
    fn mark_complete_and_common_ref(&mut self) -> gix::Result<negotiate::Action> {
        Ok(negotiate::Action::MustNegotiate {
            remote_ref_target_known: Vec::new(),
        })
    }

    fn add_wants(&mut self, arguments: &mut gix::protocol::fetch::Arguments, _: &[bool]) -> bool {
        for id in &self.ids {
            arguments.want(*id);
        }
        match self.shape {
            Shape::Pinned if arguments.can_use_deepen() => arguments.deepen(1),
            Shape::History if arguments.can_use_filter() => arguments.filter("blob:none"),
            _ => {}
        }
        true
    }

    fn one_round(
        &mut self,
        _: &mut negotiate::one_round::State,
        _: &mut gix::protocol::fetch::Arguments,
        _: Option<&gix::protocol::fetch::Response>,
    ) -> gix::Result<(negotiate::Round, bool)> {
        let round = negotiate::Round {
            haves_sent: 0,
            in_vain: 0,
            haves_to_send: 0,
            previous_response_had_at_least_one_in_common: false,
        };
        Ok((round, true))
    }
}

/// What a fetch put into the repository.
struct Received {
    /// Objects in the pack.
    objects: usize,
    /// The pack's index, when a pack was written.
    index: Option<std::path::PathBuf>,
    /// The pack's `.keep` file, when one was made.
    keep: Option<std::path::PathBuf>,
}

impl Live {
    /// One fetch over this connection, its pack written into `repo`'s
    /// object store within the limits (the pack's size as it arrives, and
    /// what any one object, or delta's result, may allocate).
    fn receive(&mut self, mut wants: Wants, repo: &gix::Repository) -> Result<Received> {
        let pack_dir = repo.objects.store_ref().path().join("pack");
        let objects = repo.objects.clone();
        let mut received = Received {
            objects: 0,
            index: None,
            keep: None,
        };
        // A bound the pack met, as the bound says it.
        let mut refusal = None;
        gix::protocol::fetch(
            &mut wants,
            |pack, progress, interrupt| {
                let mut pack = super::bounded::Bounded::new(pack);
                let written = gix::odb::pack::Bundle::write_to_directory(
                    &mut pack,
                    Some(&pack_dir),
                    progress,
                    interrupt,
                    Some(objects),
                    gix::hash::Kind::Sha1,
                    gix::odb::pack::bundle::write::Options {
                        thread_limit: None,
                        index_version: Default::default(),
                        iteration_mode: gix::odb::pack::data::input::Mode::Verify,
                        // A 395-byte pack can declare a 12 GiB delta result.
                        alloc_limit_bytes: Some(2 * limits::MAX_FILE_BYTES as usize),
                        compression: Default::default(),
                    },
                )
                .map_err(|e| {
                    refusal = pack.refusal();
                    gix::Error::from_error(e)
                })?;
                received.keep = written.keep_path;
                received.index = written.index_path;
                received.objects = written.index.num_objects as usize;
                progress::step(&format!("received {} objects", received.objects));
                Ok(true)
            },
            gix::progress::Discard,
            &INTERRUPTED,
            gix::protocol::fetch::Context {
                handshake: &mut self.handshake,
                transport: &mut self.transport.inner,
                user_agent: agent(),
                trace_packetlines: false,
            },
            gix::protocol::fetch::Options {
                shallow_file: repo.shallow_file().map_err(|e| chain(&e))?,
                shallow: &Default::default(),
                tags: gix::protocol::fetch::Tags::None,
                reject_shallow_remote: false,
            },
        )
        .map_err(|e| {
            let why = remote(&e);
            if super::watchdog::fired().is_some() {
                return super::watchdog::explain(why);
            }
            match refusal.take() {
                Some(refusal) => GitError::refused(refusal),
                None => why,
            }
        })?;
        Ok(received)
    }
}

/// A new repository with a work tree at `dest`, opened isolated: the
/// user's and the system's config are never read. Its origin is `url`, so
/// git inside an installed extension knows where it came from, and every
/// checkout filter is off.
pub(super) fn create(dest: &Path, url: &str) -> Result<gix::Repository> {
    let fail = |e: &(dyn std::error::Error + 'static)| {
        format!("cannot create {}: {}", dest.display(), chain(e))
    };
    let options = gix::create::Options {
        destination_must_be_empty: Some(true),
        ..Default::default()
    };
    gix::create::into(dest, gix::create::Kind::WithWorktree, options).map_err(|e| fail(&e))?;
    let open = gix::open::Options::isolated().config_overrides(OVERRIDES.iter().copied());
    let repo = gix::open_opts(dest, open).map_err(|e| fail(&e))?;
    let mut config = gix::config::File::new(gix::config::file::Metadata::api());
    repo.remote_at(url)
        .map_err(|e| fail(&e))?
        .save_as_to("origin", &mut config)
        .map_err(|e| fail(&e))?;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(repo.git_dir().join("config"))
        .map_err(|e| io("cannot write .git/config", e))?;
    config
        .write_to(&mut file)
        .map_err(|e| io("cannot write .git/config", e))?;
    let info = repo.git_dir().join("info");
    std::fs::create_dir_all(&info).map_err(|e| io("cannot write info/attributes", e))?;
    std::fs::write(info.join("attributes"), NO_FILTERS)
        .map_err(|e| io("cannot write info/attributes", e))?;
    Ok(repo)
}

/// Points HEAD at `commit` (detached: no branch is made up) and writes its
/// tree into the empty work tree, then the index. Returns the tree id.
pub(super) fn check_out(repo: &gix::Repository, commit: ObjectId) -> Result<ObjectId> {
    // The pack just written is not known to the handle opened before it.
    let repo =
        gix::open_opts(repo.git_dir(), repo.open_options().clone()).map_err(|e| chain(&e))?;
    let tree = repo
        .find_commit(commit)
        .map_err(|e| format!("the fetch did not bring {commit}: {}", chain(&e)))?
        .tree_id()
        .map_err(|e| chain(&e))?
        .detach();
    // Before anything is written: the tree is bounded.
    limits::check_tree(&repo, tree)?;
    std::fs::write(repo.git_dir().join("HEAD"), format!("{commit}\n"))
        .map_err(|e| io("cannot write HEAD", e))?;
    let mut index = repo.index_from_tree(&tree).map_err(|e| chain(&e))?;
    let files = progress::ticking("checking out", index.entries().len());
    let mut options = repo
        .checkout_options(gix::worktree::stack::state::attributes::Source::IdMapping)
        .map_err(|e| chain(&e))?;
    options.destination_is_initially_empty = true;
    let workdir = repo.workdir().expect("created with a work tree");
    let objects = repo
        .objects
        .clone()
        .into_arc()
        .map_err(|e| io("cannot read the fetched objects", e))?;
    let outcome = gix::worktree::state::checkout(
        &mut index,
        workdir,
        objects,
        &files,
        &gix::progress::Discard,
        &INTERRUPTED,
        options,
    )
    .map_err(|e| chain(&e))?;
    drop(files);
    if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        return Err("interrupted".into());
    }
    let failed: Vec<&BString> = (outcome.collisions.iter().map(|c| &c.path))
        .chain(outcome.errors.iter().map(|e| &e.path))
        .collect();
    if let Some(first) = failed.first() {
        return Err(GitError::new(format!(
            "checkout failed for {} (first: {})",
            crate::words::count(failed.len(), "file"),
            crate::untrusted::printable(first)
        )));
    }
    index.write(Default::default()).map_err(|e| chain(&e))?;
    Ok(tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_want_the_server_will_not_serve_is_named_by_its_kind() {
        let commit = ObjectId::from_hex(b"50d57fb6a874ba67c7b4c5c58df912db5b48d359").unwrap();
        let said = |trouble| GitError::Remote {
            trouble,
            chain: "chain".into(),
        };
        assert_eq!(
            unserved(
                said(Trouble::ServerSaid("upload-pack: not our ref 50d57fb6".into())),
                commit
            ),
            format!(
                "the repository would not give commit {commit} (it said: upload-pack: not our ref 50d57fb6)"
            )
        );
        assert_eq!(
            unserved(said(Trouble::HungUp), commit),
            format!("the repository hung up when asked for commit {commit}")
        );
        // Words alone say nothing: a broken pipe in a message is no hang-up.
        let words = GitError::new("not our ref; Broken pipe");
        assert_eq!(unserved(words.clone(), commit), words);
    }
}
