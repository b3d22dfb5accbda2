//! The hot path: argv[1] → a built-in command, an installed extension, or the
//! usage error. Before deciding it consults only the static
//! command table; for an extension it reads ext.index line by line, makes
//! POSIX calls, asks tmux only after a hit, and execs. No JSON, no git, no
//! ext.lock, no CLI parser. A completion query (`__complete`, from the shell
//! scripts) is handed to complete.rs before any of that.

use crate::contract::{self, env};
use crate::index::{self, Entry};
use crate::paths::Paths;
use crate::tmux::Tmux;
use crate::{cli, commands, complete, error::Error, home, switch, untrusted};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

pub fn main(args: &[OsString]) -> u8 {
    let (word, rest) = match args.split_first() {
        None => (&b"up"[..], &[][..]),
        Some((w, rest)) => (w.as_bytes(), rest),
    };
    // A completion query. No extension name can start with `_`, so this
    // shadows nothing.
    if word == b"__complete" {
        return complete::main(rest);
    }
    if cli::find(word).is_some() {
        let word = OsStr::from_bytes(word).to_owned();
        return match commands::run(&word, rest) {
            Ok(exit) => exit.code(),
            Err(e) => e.report(),
        };
    }
    // An `ext` verb is never an extension's, whatever an old index says.
    if seam_off() || cli::is_ext_verb(word) {
        return usage_error(word);
    }
    match extension(word, rest) {
        Refused(code) => code,
        Miss | Off => usage_error(word),
    }
}

/// `ROOST_NO_EXT` is set (non-empty): no extension command runs.
fn seam_off() -> bool {
    std::env::var_os(env::NO_EXT).is_some_and(|v| !v.is_empty())
}

pub enum Outcome {
    /// Not an installed extension command that would run.
    Miss,
    /// An installed command, but the server-wide switch is off.
    Off,
    /// A hit that must not run; already reported.
    Refused(u8),
}
use Outcome::{Miss, Off, Refused};

/// `roost ext exec CMD ARGS...`: the installed extension command CMD, even
/// where a built-in of that name would win, run exactly as dispatch runs
/// it. Returns only when it cannot run: `Ok` when the refusal is already
/// reported (an authority this roost does not know), else why not.
pub fn exec_installed(word: &[u8], args: &[OsString]) -> std::result::Result<(), &'static str> {
    if seam_off() {
        return Err("extensions are turned off (ROOST_NO_EXT is set)");
    }
    match extension(word, args) {
        Refused(_) => Ok(()),
        Off => Err("extensions are turned off on this server (@roost-ext-enabled)"),
        Miss => Err("no installed extension command of that name can run"),
    }
}

/// Runs the extension command `word`, replacing this process; returns only
/// when it cannot.
fn extension(word: &[u8], args: &[OsString]) -> Outcome {
    let Ok(paths) = Paths::from_env() else {
        return Miss;
    };
    let Ok(file) = std::fs::File::open(paths.ext_index()) else {
        return Miss;
    };
    let Some(line) = index::read_line(file, word) else {
        return Miss;
    };
    let Some(entry) = Entry::parse(&line) else {
        return Miss;
    };
    let program = Path::new(OsStr::from_bytes(entry.path));
    if !index::valid_name(entry.extension) || !program.is_absolute() {
        return Miss;
    }
    let name = String::from_utf8_lossy(entry.extension);
    let dir = ext_dir(&paths, &name, entry.command, program);
    let Some(found) = runnable(program, &dir) else {
        return Miss;
    };
    let tmux = Tmux::from_env();
    if switch::is_off(&tmux, &paths.user_conf()) {
        return Off;
    }
    let open = match &found {
        Runnable::Plain(meta) => exposed(program, meta, &dir),
        Runnable::Link { target, meta, dir } => exposed(target, meta, dir),
    };
    if let Some(what) = open {
        return Refused(refuse_exposed(&name, what));
    }
    if let Some(unknown) = entry
        .authorities()
        .find(|t| !contract::AUTHORITIES.iter().any(|k| k.as_bytes() == *t))
    {
        return Refused(refuse_authority(&entry, unknown));
    }
    let fleet = entry.authorities().next().is_some();
    let state = paths.ext_state(&name);
    if crate::fsutil::make_dirs(&state, 0o700).is_err() {
        eprintln!(
            "roost: cannot create {} for extension {name}; check that directory's permissions",
            state.display()
        );
        return Refused(1);
    }
    let mut env = Env::inherited();
    env.set(env::HOME, paths.roost_home());
    env.set(env::VERSION, crate::VERSION);
    env.set(env::CONTRACT, contract::NUMBER.to_string());
    env.set(env::EXT_DIR, &dir);
    env.set(env::EXT_STATE, &state);
    if fleet {
        // What `fleet` hands over: roost's socket, and roost's scripts
        // first on PATH.
        let scripts = home::ensure_scripts(&paths).unwrap_or_else(|_| paths.scripts_dir());
        env.set(env::SOCKET, tmux.socket.value());
        env.set(env::SOCKET_FLAG, tmux.socket.flag());
        env.set(
            "PATH",
            home::path_with_first(&scripts, std::env::var_os("PATH")),
        );
    } else {
        env.remove(env::SOCKET);
        env.remove(env::SOCKET_FLAG);
    }
    // execve returns only on failure: a broken extension is a miss too.
    exec(program, args, env);
    Miss
}

/// The environment handed to the extension: the inherited one, edited.
struct Env(Vec<(OsString, OsString)>);

impl Env {
    fn inherited() -> Env {
        Env(std::env::vars_os().collect())
    }

    fn remove(&mut self, key: &str) {
        self.0.retain(|(k, _)| k != key);
    }

    fn set(&mut self, key: &str, value: impl AsRef<OsStr>) {
        self.remove(key);
        self.0.push((key.into(), value.as_ref().to_owned()));
    }
}

/// Replaces this process with `program` (a direct execve: the hot path
/// skips std::process::Command's machinery). Returns only on failure.
fn exec(program: &Path, args: &[OsString], env: Env) {
    use std::ffi::CString;
    let cstr = |bytes: &[u8]| CString::new(bytes).ok();
    let Some(path) = cstr(program.as_os_str().as_bytes()) else {
        return;
    };
    let argv: Option<Vec<CString>> = std::iter::once(program.as_os_str())
        .chain(args.iter().map(OsString::as_os_str))
        .map(|a| cstr(a.as_bytes()))
        .collect();
    let envp: Option<Vec<CString>> = env
        .0
        .iter()
        .map(|(k, v)| cstr(&[k.as_bytes(), b"=", v.as_bytes()].concat()))
        .collect();
    if let (Some(argv), Some(envp)) = (argv, envp) {
        let _ = nix::unistd::execve(&path, &argv, &envp);
    }
}

/// The extension's directory: the one holding `bin/roost-CMD`, which is its
/// clone (or, for a linked extension, the author's checkout).
fn ext_dir(paths: &Paths, name: &str, command: &[u8], program: &Path) -> PathBuf {
    let expected = [contract::PROGRAM_PREFIX.as_bytes(), command].concat();
    let bin = program.parent();
    match (
        program.file_name(),
        bin.and_then(Path::file_name),
        bin.and_then(Path::parent),
    ) {
        (Some(file), Some(b), Some(dir)) if file.as_bytes() == expected && b == "bin" => {
            dir.to_path_buf()
        }
        _ => paths.ext_clone(name),
    }
}

/// An executable regular file, or a link to one inside `dir`, the
/// extension's own tree: a `bin/roost-CMD` swapped for a link to anything
/// outside it (`/usr/bin/id`) is not run. A plain file costs one lstat.
fn runnable(program: &Path, dir: &Path) -> Option<Runnable> {
    let meta = std::fs::symlink_metadata(program).ok()?;
    if !meta.file_type().is_symlink() {
        return is_executable(program, &meta).then_some(Runnable::Plain(meta));
    }
    let (Ok(target), Ok(dir)) = (std::fs::canonicalize(program), std::fs::canonicalize(dir)) else {
        return None;
    };
    let meta = std::fs::metadata(&target).ok()?;
    (target.starts_with(&dir) && is_executable(&target, &meta)).then_some(Runnable::Link {
        target,
        meta,
        dir,
    })
}

/// What `runnable` found: the program itself, or the file its link leads to
/// (with the extension's directory as the link was resolved against it).
enum Runnable {
    Plain(std::fs::Metadata),
    Link {
        target: PathBuf,
        meta: std::fs::Metadata,
        dir: PathBuf,
    },
}

/// Why an extension's program must not run: it, or a directory above it up
/// to the extension's directory, is writable by someone other than the
/// user (a group or other write bit) or owned by another user (root
/// aside), as ssh refuses a key another user could have changed.
struct Exposed<'a> {
    path: &'a Path,
    mode: u32,
    uid: u32,
}

/// The first of `file` (its metadata `meta`) and the directories above it
/// up to `top` that is exposed. Costs one stat per directory (two for
/// `bin/roost-CMD`), nothing allocated.
fn exposed<'a>(file: &'a Path, meta: &std::fs::Metadata, top: &Path) -> Option<Exposed<'a>> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let open = |m: &std::fs::Metadata, dir: bool| {
        let others_write = m.mode() & 0o022 != 0;
        // A sticky directory (/tmp) keeps others from replacing what is
        // not theirs; it counts only beyond the extension's own tree.
        let sticky = dir && m.mode() & 0o1000 != 0;
        (others_write && !sticky) || (m.uid() != me && m.uid() != 0)
    };
    let found = |path: &'a Path, m: &std::fs::Metadata| Exposed {
        path,
        mode: m.mode() & 0o7777,
        uid: m.uid(),
    };
    if open(meta, false) {
        return Some(found(file, meta));
    }
    let mut at = file.parent();
    while let Some(dir) = at {
        let inside = dir.starts_with(top);
        let Ok(m) = std::fs::metadata(dir) else {
            return None;
        };
        if open(&m, !inside) {
            return Some(found(dir, &m));
        }
        if dir == top || !inside && top.starts_with(dir) {
            return None;
        }
        at = dir.parent();
    }
    None
}

fn refuse_exposed(name: &str, what: Exposed) -> u8 {
    let me = nix::unistd::geteuid().as_raw();
    let path = what.path.display();
    if what.uid != me && what.uid != 0 {
        eprintln!(
            "roost: extension {name}: {path} belongs to another user (uid {}); refusing to run it",
            what.uid
        );
    } else {
        eprintln!(
            "roost: extension {name}: {path} can be written by others (mode {:04o}); refusing to run it",
            what.mode
        );
    }
    eprintln!(
        "roost: make it yours alone (chown, chmod go-w), then check its files with `roost ext verify {name}`"
    );
    1
}

fn is_executable(path: &Path, meta: &std::fs::Metadata) -> bool {
    meta.is_file()
        && meta.permissions().mode() & 0o111 != 0
        && nix::unistd::access(path, nix::unistd::AccessFlags::X_OK).is_ok()
}

fn refuse_authority(entry: &Entry, unknown: &[u8]) -> u8 {
    let name = untrusted::printable(entry.extension);
    let token = untrusted::printable(unknown);
    eprintln!(
        "roost: extension {name} needs authority '{token}', which this roost (contract {}) does not know.",
        contract::NUMBER
    );
    eprintln!("roost: refusing to run it with less than it expects.");
    eprintln!("roost: remove it with `roost ext remove {name}`, or turn extensions off with ROOST_NO_EXT=1.");
    1
}

/// What a typo, a miss and a disabled seam all get: byte-identical for the
/// same word, whatever is installed (a suggestion comes from the built-in
/// names alone).
fn usage_error(word: &[u8]) -> u8 {
    let shown = untrusted::printable(word);
    let what = if word.starts_with(b"-") {
        "option"
    } else {
        "command"
    };
    let msg = match cli::suggestion(word) {
        // `roost install x` means `roost ext install x` (static data only).
        _ if cli::is_ext_verb(word) => {
            format!("unknown command '{shown}'; did you mean 'roost ext {shown}'?")
        }
        Some(name) => format!("unknown {what} '{shown}'; did you mean '{name}'?"),
        None => format!("unknown {what} '{shown}'"),
    };
    Error::Usage { cmd: None, msg }.report()
}
