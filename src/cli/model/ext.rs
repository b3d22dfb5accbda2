//! `roost ext` and its verbs' arguments.

use super::args::JsonArgs;
use super::values::{authority, ValueKind, INSTALLED};
use clap::{Args, Subcommand, ValueHint};
use std::ffi::OsString;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ExtArgs {
    /// on failure, print the whole error too (also ROOST_VERBOSE=1)
    #[arg(short, long, global = true)]
    pub verbose: bool,
    #[command(subcommand)]
    pub verb: Option<ExtVerb>,
}

#[derive(Debug, Subcommand)]
pub enum ExtVerb {
    #[command(verbatim_doc_comment)]
    /// pin, show, ask, install
    ///
    /// Check SOURCE and REF before anything touches the network. SOURCE is
    /// OWNER/REPO (each part letters, digits, `.`, `_` or `-`), fetched from
    /// ${ROOST_EXT_GIT_BASE:-https://github.com/}OWNER/REPO;
    /// https://github.com/OWNER/REPO (`.git` and a trailing `/` allowed) is
    /// the same as OWNER/REPO; any other https://HOST[:PORT]/PATH,
    /// ssh://[USER@]HOST[:PORT]/PATH or [USER@]HOST:PATH is fetched from
    /// where it says. A URL is refused, naming what is wrong, for
    /// credentials (a user in https, a password anywhere), a query or
    /// fragment, percent-escapes, spaces, control characters or anything
    /// but ASCII, `.`, `..` or empty path segments, a host, user or path
    /// segment starting with `-`, or a scheme other than https and ssh (a
    /// local repository DIR/OWNER/REPO is installed as OWNER/REPO with
    /// ROOST_EXT_GIT_BASE=DIR, a directory or its file:// URL).
    /// The extension's name is its manifest's; ext.lock records the source
    /// as OWNER/REPO or HOST/PATH, and the URL fetched. Resolve REF (default:
    /// the remote's HEAD) to a full commit; a commit given in full must be
    /// reachable from the repository's own branches, tags or HEAD (no other
    /// ref a server lists counts, refs/pull/* included; a server may
    /// hold, and serve, commits the repository never published, such as a
    /// fork's), which roost checks against the history of those refs fetched
    /// without file contents. Fetch exactly that commit over the connection
    /// that resolved it and without its history when the server
    /// allows, with nothing of the repository executed: no submodules, no LFS
    /// or other filters, no hooks, no templates. Refuse a symlink pointing
    /// outside the tree or a setuid or setgid file, check the manifest, show
    /// the consent block and ask. With --yes, an extension that asks for
    /// authority (fleet) is refused (exit 1, nothing written) unless it is
    /// named with --grant AUTHORITY, as update and rollback require of
    /// authority that grows; on a terminal, the question is the consent.
    /// Then move the clone into place, create its
    /// state directory, and write ext.lock and ext.index together. A failure
    /// after that point undoes everything the run did. With --link DIR, run
    /// an author's checkout in place instead (nothing is copied or pinned).
    Install(InstallArgs),
    #[command(verbatim_doc_comment)]
    /// what is installed, pinned to which commit
    ///
    /// A header row, then each installed extension: name, short commit (or
    /// linked), commands, (disabled) when it is disabled, and (missing) when
    /// its clone is gone. A warning on stderr when ext.lock and ext.index
    /// disagree. --json prints the same as JSON, with the commit a rollback
    /// would return to.
    List(JsonArgs),
    #[command(verbatim_doc_comment)]
    /// the lock entry, the manifest, both directories
    ///
    /// The lock entry of NAME as aligned rows (repository and source, or the
    /// linked checkout; ref; the full commit and tree; commands, needs,
    /// contract, install time, whether it is disabled, the commit a rollback
    /// would return to, and any field this roost does not know), its
    /// manifest as found in the clone, and both of its directories. --json
    /// prints the same as JSON, with the lock entry as ext.lock holds it.
    Info(InfoArgs),
    #[command(verbatim_doc_comment)]
    /// do the files on disk still match the pinned tree?
    ///
    /// Recompute the git tree hash of each installed tree (or NAME's) and
    /// compare it with the one recorded at install: `NAME: ok`, or every file
    /// that was added, removed or modified (content, mode or symlink target),
    /// and a non-zero exit. ok means the files match what was recorded,
    /// nothing more; the clone's own .git is not part of the comparison. A
    /// disabled extension is checked like any other. A file put inside a
    /// submodule's (empty) directory is named as added. An ext.lock entry
    /// whose name install could never have written (a hand edit) is named
    /// too, and fails the check; list marks it and doctor fails on it. Such an entry is never run. So it is with an entry that
    /// cannot be read (a field missing, or not of the type install writes):
    /// verify, list, info and doctor name it with the reason, and ext.lock
    /// keeps it as it is. --json prints a list of entries: name, ok, verdict
    /// and files (each with change, path and what).
    Verify(VerifyArgs),
    #[command(verbatim_doc_comment)]
    /// has the ref moved? asks each source, fetches nothing
    ///
    /// For each installed pinned extension (or each NAME), ask the source it
    /// was installed from what its recorded ref points to now: one
    /// connection each, the ref listing only, no objects fetched. A row per
    /// extension: NAME, PINNED (short commit), AVAILABLE (the short commit
    /// the ref points to now, or unchanged) and NEEDS: whether the authority
    /// it declares would grow. That is in the new commit's manifest, which is
    /// not fetched, so for a ref that moved it reads `unknown without a
    /// fetch` (`roost ext update NAME` fetches it and shows it before it
    /// asks); for an unchanged ref, `same`. A ref that is a full commit id
    /// cannot move and is not asked about. Linked extensions are listed as
    /// linked, not checked. --json prints the rows as JSON (needs_grow:
    /// false, or null when unknown). Each source that fails is named on
    /// stderr, and the others are still listed.
    Outdated(OutdatedArgs),
    #[command(verbatim_doc_comment)]
    /// move the pin: shows the diff and asks again
    ///
    /// Resolve the recorded ref again, at the source the extension was
    /// installed from (recorded in ext.lock; ROOST_EXT_GIT_BASE only shapes
    /// new installs). Unchanged: say so and write nothing. Otherwise fetch the
    /// new commit fresh (git never runs inside the installed clone), show the
    /// old and new commit, the changed files and the diff (through $PAGER, or
    /// less, on a terminal, with LESS=FRX when LESS is unset; capped at 2,000 lines,
    /// roost-ext.json and bin/ first, the files cut named; --diff prints all
    /// of it and changes nothing), run every install check again, call out on its
    /// own line, directly above the question, any authority that grew and
    /// what it lets the code do, and ask again. With --yes, an authority that
    /// grew is refused (nothing changed) unless it is named with
    /// --grant AUTHORITY: a script never grants new authority by accident.
    /// ext.lock keeps the pin it replaced, for rollback. A disabled extension
    /// is updated all the same and stays disabled.
    /// With --all, or without NAME, every installed extension in turn, each
    /// asked about on its own; a failure or refusal does not stop the rest,
    /// and a summary follows: one line per extension, updated, unchanged,
    /// linked (not pinned, so not updated), refused (a check or the answer
    /// said no) or failed (the record, the source or the disk stood in the
    /// way), with the reason.
    /// --json prints the summary as JSON on stdout, and everything else on
    /// stderr.
    Update(UpdateArgs),
    #[command(verbatim_doc_comment)]
    /// back to the pin before the last update: shows the diff, asks again
    ///
    /// Return NAME to the pin ext.lock recorded when `update` last moved it:
    /// the same repository, ref, commit and tree, fetched again by its commit
    /// id from the source that pin was fetched from (a branch or tag need not
    /// lead to it any more: it is the commit you agreed to before). The files
    /// checked out must hash to the tree recorded for it, or nothing changes.
    /// Then, as update does: show the old and new commit, the changed files
    /// and the diff (--diff: all of it, and nothing changed), run every install check again, call out any authority
    /// that grows, and ask. With --yes, grown authority is refused unless it
    /// is named with --grant AUTHORITY. The pin it leaves becomes the one
    /// recorded, so a second rollback returns. Refused (nothing changed)
    /// when no earlier pin is recorded, when NAME is linked, or when
    /// the commit cannot be fetched. A disabled extension stays disabled.
    Rollback(RollbackArgs),
    #[command(verbatim_doc_comment)]
    /// put back the pinned files and rewrite ext.index from ext.lock
    ///
    /// For NAME (or, with --all or without NAME, every installed extension):
    /// when its clone no longer hashes to the tree pinned in ext.lock (what
    /// `verify` names) or is gone, fetch the pinned commit again by its id
    /// from the recorded source, hold the files checked out to the recorded
    /// tree, and put them in place of the clone. Then write ext.index again
    /// from ext.lock, whatever it holds. The pin, its commands, needs and
    /// disabled mark stay as ext.lock records them, so nothing is asked. A
    /// clone that matches is left alone and nothing is fetched; a linked
    /// extension has nothing pinned to put back. A fetch that fails, or a
    /// commit whose files do not hash to the recorded tree, changes nothing
    /// for that extension; the others are still repaired.
    Repair(RepairArgs),
    #[command(verbatim_doc_comment)]
    /// write the installed set down: one line per pinned extension
    ///
    /// Write the set file to stdout (or FILE with --output, replaced whole):
    /// a header line naming the format, a line naming the fields, then one
    /// line per pinned extension, sorted by name, its nine fields separated
    /// by single spaces: name, repository, ref, the full commit, the tree,
    /// its authority (comma-separated, or -), disabled (yes or no), the
    /// signer recorded for the commit (- when none is; a space, %, a
    /// control or non-ASCII byte in it written %XX), and the URL it was
    /// fetched from (- when ext.lock records none). The same installed set
    /// gives the same bytes, so two sets diff line by line. Linked extensions
    /// have nothing pinned: each is named on stderr and left out, as is an
    /// entry that cannot be read. Nothing secret is written.
    /// --bundle FILE writes an offline bundle instead: the line
    /// `# roost extension bundle, format 1`, then `set LENGTH`, the set file,
    /// then `pack LENGTH`, a git pack (version 2, no deltas) holding exactly
    /// each listed commit's own objects (the commit, its trees, its blobs;
    /// no parent, no history), read from the installed clones.
    Export(ExportArgs),
    #[command(verbatim_doc_comment)]
    /// make the installed set the one FILE lists
    ///
    /// Read the set file FILE (only read: it may be read-only, in a
    /// read-only directory; at most 1 MiB and 10,000 lines) and compare it
    /// with ext.lock. An extension it lists that is not installed is new:
    /// fetched by its commit id from its URL (or the base + its repository),
    /// with the reachability rule of `install --ref SHA`, every install
    /// check run, held to the listed tree and to the listed authority, then
    /// installed. One installed at another pin (commit, tree, ref or
    /// source) is changed: sent through the update path (fetched by id,
    /// held to the listed tree, checks, the diff, ext.lock keeping the pin it
    /// replaces for rollback). One that matches is left untouched, and its
    /// disabled mark is set as listed. An installed extension the file does
    /// not list is named, and kept unless --prune removes it. Every new and
    /// changed commit is fetched and checked (each changed one's diff
    /// shown) before anything changes; then one table of what is new or
    /// changed, with the authority and the signer the file gives, and one
    /// question. One that fails is named and the rest go on (exit 1). Without a
    /// terminal it is refused unless --yes; with --yes, authority must be
    /// named with --grant and a listed signer with --accept-signer. A line
    /// that cannot be read stops the sync: each is listed with its number,
    /// and nothing changes.
    /// --from BUNDLE takes the set and every commit from an offline bundle
    /// (`export --bundle`): no network, no git program. Its pack is read
    /// within the bounds of a fetched one, every object id is computed by
    /// hashing, and a bundle holding an object no listed commit uses, or
    /// lacking one a listed commit uses, is refused whole; each commit is
    /// checked out into a clone holding its own objects only, then every
    /// install check runs.
    /// --frozen resolves no ref and changes nothing: any difference at all
    /// (a missing or extra extension, another commit, tree, ref, source,
    /// authority, disabled mark or signer, a line that cannot be read) is
    /// listed whole, and the exit is 1; the same set exits 0 silently but
    /// for one line saying so.
    Sync(SyncArgs),
    #[command(verbatim_doc_comment)]
    /// turn one extension off, keeping its pin, clone and data
    ///
    /// Mark NAME disabled in ext.lock and rewrite ext.index without its
    /// commands: each gets exactly the usage error a word that was never
    /// installed gets. Its pin, clone and data directory stay as they are;
    /// list, info and doctor show it as disabled. While it is off, its
    /// commands are free for another extension to claim. update, rollback and
    /// verify work on it as on any other, and it stays disabled. Already
    /// disabled: say so and write nothing.
    Disable(ExtNameArgs),
    #[command(verbatim_doc_comment)]
    /// turn a disabled extension back on
    ///
    /// Clear NAME's disabled mark and rewrite ext.index with its commands
    /// again, at the pin it has now. Refused (nothing changed) when
    /// another extension has claimed one of its commands meanwhile: disable
    /// or remove that one first. Already enabled: say so and write nothing.
    Enable(ExtNameArgs),
    #[command(verbatim_doc_comment)]
    /// take it off (--purge: its data too)
    ///
    /// Drop NAME from ext.lock and ext.index, then delete its clone. Its state
    /// directory is kept and its path printed; --purge deletes it too, also on
    /// a later `remove NAME --purge`. A later install of any repository under
    /// the same NAME would read the kept data, so its consent block says that
    /// the directory exists and which repository left it.
    Remove(RemoveArgs),
    #[command(verbatim_doc_comment)]
    /// show or change an extension's settings
    ///
    /// Without KEY: every setting NAME's consented declaration holds, with
    /// its effective value and where it came from (set, default, not set,
    /// or the default because the value set no longer fits its type), then
    /// any value kept for a key no longer declared; a secret only as set or
    /// not set. With KEY and VALUE: set it, checked against its type (a
    /// refusal names the rule). With KEY alone: show it, or for a secret
    /// read it from stdin when stdin is not a terminal, else from a prompt
    /// with echo off; a secret is never taken as VALUE (shell history, ps
    /// and an agent's transcript would keep it). --unset KEY: back to its
    /// default (a secret's file deleted). Each change writes settings.env
    /// again in $ROOST_EXT_CONFIG (${XDG_CONFIG_HOME}/roost/ext/NAME);
    /// secrets are owner-only files in $ROOST_EXT_SECRETS (its secrets/).
    /// --json prints the settings as JSON.
    Config(ConfigArgs),
    #[command(verbatim_doc_comment)]
    /// for authors: scaffold an extension repository
    ///
    /// For authors: write an extension to start from into DIR (default
    /// roost-NAME, new or empty): roost-ext.json, an executable bin/roost-NAME
    /// and a README. Then make DIR a git repository (branch main) with one
    /// commit holding them, made as the author git would name:
    /// GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, GIT_COMMITTER_NAME and
    /// GIT_COMMITTER_EMAIL, then author.*, committer.* and user.* from your
    /// global and system git configuration; `roost <roost@localhost>` stands
    /// in for a name or email none of them sets, and it says whom the commit
    /// was made as (and, for the stand-in, how to make it yours). roost only
    /// reads those settings: no git program, hook or filter runs.
    New(NewArgs),
    #[command(verbatim_doc_comment)]
    /// for authors: what install would say about DIR
    ///
    /// For authors: run on DIR, a checkout, every check install runs on a
    /// fetched tree (the manifest, names, links, modes, sizes), and print the
    /// commands it would add and the authority they would get, or every
    /// problem install would refuse. Nothing is fetched, written or run.
    /// For each agent preset with screen rules, every captured screen under
    /// screens/AGENT/STATE/ (STATE: blocked, working, idle or none) is run
    /// through its rules, printing which rule matched; one read as another
    /// state fails the check. --json prints the verdict as JSON: ok
    /// (install's verdict), the refusal, what it claims and asks for, the
    /// presets as ext.lock would record them, each screen and what it read
    /// as, and the notes (a command or agent already held here).
    Check(CheckArgs),
    #[command(verbatim_doc_comment)]
    /// run an extension's command, even where a built-in has its name
    ///
    /// Run the installed extension command CMD with ARGS exactly as `roost CMD`
    /// would (the same program, environment and authority), even when a
    /// built-in command of that name exists: a newer roost may add a command
    /// an extension already had. Everything after CMD is the extension's,
    /// `--help` included. ROOST_NO_EXT and @roost-ext-enabled still turn it
    /// off. Once CMD runs, its exit status is its own.
    ///
    /// For authors: --event EVENT NAME [--pane %N] runs extension NAME's
    /// event handler once for EVENT, with a made-up moment (about pane %N,
    /// when given), through the same runner, switches and run log as a real
    /// moment, and prints what the log recorded; exit 1 when the run failed.
    Exec(ExecArgs),
    #[command(verbatim_doc_comment)]
    /// what extensions' event handlers did
    ///
    /// Print the run log of NAME's event handler (default: every
    /// extension's): each moment it was handed, when, for how long, and what
    /// came of it (exit N, signal N, timeout, spawn error, skipped and why,
    /// dropped N), with the start and end of its output. The log is kept
    /// under ${XDG_STATE_HOME}/roost/events/NAME/, owner-only, rotated past
    /// 256 KiB; it holds no argument value or prompt. -n keeps the last N
    /// runs (default 20), --failed only the failed ones, --follow waits for
    /// more, --json prints one JSON object a line.
    Log(LogArgs),
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// an installed extension (default: all of them)
    #[arg(value_hint = INSTALLED)]
    pub name: Option<String>,
    /// how many of the last runs to print
    #[arg(short = 'n', value_name = "N", default_value_t = 20)]
    pub n: usize,
    /// only failed runs
    #[arg(long)]
    pub failed: bool,
    /// keep printing runs as they are logged
    #[arg(long)]
    pub follow: bool,
    /// print JSON, one object a line
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// run NAME's event handler once for EVENT (for authors)
    #[arg(long, value_name = "EVENT")]
    pub event: Option<String>,
    /// the extension command, then its arguments
    #[arg(
        value_name = "CMD",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_hint = ValueHint::CommandName
    )]
    pub words: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    /// OWNER/REPO, or an https:// or ssh:// git URL
    #[arg(
        value_name = "SOURCE",
        required_unless_present = "link",
        conflicts_with = "link"
    )]
    pub repo: Option<String>,
    /// a branch, tag or full commit to pin (default: the remote's HEAD)
    #[arg(
        long = "ref",
        value_name = "REF",
        conflicts_with = "link",
        allow_hyphen_values = true
    )]
    pub git_ref: Option<String>,
    /// run an author's checkout in place instead of a pinned clone
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub link: Option<PathBuf>,
    /// answer the consent question yes (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// with --yes, accept this authority it asks for (repeatable)
    #[arg(long, value_name = ValueKind::Authority.name(), value_parser = authority)]
    pub grant: Vec<String>,
}

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// an installed extension (default: all of them)
    #[arg(value_hint = INSTALLED)]
    pub name: Option<String>,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// an installed extension (without one: all of them, as --all)
    #[arg(value_hint = INSTALLED, conflicts_with = "all")]
    pub name: Option<String>,
    /// every installed extension in turn, then a summary
    #[arg(long)]
    pub all: bool,
    /// answer the consent question yes (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// with --yes, accept this new authority (repeatable)
    #[arg(long, value_name = ValueKind::Authority.name(), value_parser = authority)]
    pub grant: Vec<String>,
    /// with --yes, accept this new signer of the commit, or `unsigned`
    /// (repeatable)
    #[arg(long, value_name = "SIGNER")]
    pub accept_signer: Vec<String>,
    /// print the summary as JSON (everything else goes to stderr)
    #[arg(long, conflicts_with = "diff")]
    pub json: bool,
    /// print the whole diff to the new commit, uncapped, and change nothing
    #[arg(long, requires = "name", conflicts_with_all = ["yes", "grant", "accept_signer"])]
    pub diff: bool,
}

#[derive(Debug, Args)]
pub struct OutdatedArgs {
    /// installed extensions (default: all of them)
    #[arg(value_name = "NAME", value_hint = INSTALLED)]
    pub names: Vec<String>,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RollbackArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
    /// answer the consent question yes (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// with --yes, accept this new authority (repeatable)
    #[arg(long, value_name = ValueKind::Authority.name(), value_parser = authority)]
    pub grant: Vec<String>,
    /// with --yes, accept this new signer of the commit, or `unsigned`
    /// (repeatable)
    #[arg(long, value_name = "SIGNER")]
    pub accept_signer: Vec<String>,
    /// print the whole diff to the earlier commit, uncapped, and change nothing
    #[arg(long, conflicts_with_all = ["yes", "grant", "accept_signer"])]
    pub diff: bool,
}

#[derive(Debug, Args)]
pub struct RepairArgs {
    /// an installed extension (without one: all of them, as --all)
    #[arg(value_hint = INSTALLED, conflicts_with = "all")]
    pub name: Option<String>,
    /// every installed extension
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Args)]
pub struct ExtNameArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
    /// delete its data too
    #[arg(long)]
    pub purge: bool,
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// an installed extension
    #[arg(value_hint = INSTALLED)]
    pub name: String,
    /// one of its settings
    pub key: Option<String>,
    /// the value to set (never a secret's)
    #[arg(allow_hyphen_values = true)]
    pub value: Option<String>,
    /// set KEY back to its default (a secret: delete it)
    #[arg(long, value_name = "KEY")]
    pub unset: Option<String>,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// the extension's name (and its first command's)
    pub name: String,
    /// where to write it (default: roost-NAME)
    #[arg(value_hint = ValueHint::DirPath)]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// the checkout to check
    #[arg(value_hint = ValueHint::DirPath)]
    pub dir: PathBuf,
    /// print JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// write the set to FILE (replaced whole) instead of stdout
    #[arg(long, short = 'o', value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub output: Option<PathBuf>,
    /// write an offline bundle to FILE: the set and its commits' objects
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, conflicts_with = "output")]
    pub bundle: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// the set file `roost ext export` wrote
    #[arg(value_name = "FILE", value_hint = ValueHint::FilePath, required_unless_present = "from", conflicts_with = "from")]
    pub file: Option<PathBuf>,
    /// install from an offline bundle (`export --bundle`): no network
    #[arg(long, value_name = "BUNDLE", value_hint = ValueHint::FilePath)]
    pub from: Option<PathBuf>,
    /// change nothing: list every difference and exit 1 when there is one
    #[arg(long, conflicts_with_all = ["yes", "grant", "accept_signer", "prune"])]
    pub frozen: bool,
    /// remove installed extensions the file does not list
    #[arg(long)]
    pub prune: bool,
    /// answer the one question yes (for scripts)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// with --yes, accept this authority the set asks for (repeatable)
    #[arg(long, value_name = ValueKind::Authority.name(), value_parser = authority)]
    pub grant: Vec<String>,
    /// with --yes, accept this signer the set names (repeatable)
    #[arg(long, value_name = "SIGNER")]
    pub accept_signer: Vec<String>,
}
