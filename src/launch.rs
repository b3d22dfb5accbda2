//! The exec primitive under dispatch and `roost ext exec`: an extension's
//! program checked (an executable inside its own tree, writable by its
//! owner alone), its environment set (the fleet's socket handed over or
//! stripped, by authority), and exec'd in roost's place.

use crate::contract::{self, env};
use crate::paths::Paths;
use crate::tmux::Tmux;
use crate::{fsutil, home};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// An extension's program that would run: an executable regular file, or a
/// link to one inside the extension's own tree.
pub struct Program<'a> {
    path: &'a Path,
    /// The extension's directory: the one holding `bin/roost-CMD`.
    dir: PathBuf,
    found: Runnable,
}

impl<'a> Program<'a> {
    /// `path`, command `command` of extension `name`, when it would run
    /// (see `runnable`).
    pub fn find(paths: &Paths, name: &str, command: &[u8], path: &'a Path) -> Option<Program<'a>> {
        let dir = ext_dir(paths, name, command, path);
        let found = runnable(path, &dir)?;
        Some(Program { path, dir, found })
    }

    /// When the program, or a directory above it, is exposed (see
    /// `Exposed`): says so on stderr and returns the exit code.
    pub fn refuse_exposed(&self, name: &str) -> Option<u8> {
        let open = match &self.found {
            Runnable::Plain(meta) => exposed(self.path, meta, &self.dir),
            Runnable::Link { target, meta, dir } => exposed(target, meta, dir),
        };
        open.map(|what| refuse_exposed(name, what))
    }

    /// Why the program must not run, in words (see `Exposed`), for a
    /// caller that reports it elsewhere than on stderr (the event runner's
    /// log).
    pub fn exposed_words(&self) -> Option<String> {
        let open = match &self.found {
            Runnable::Plain(meta) => exposed(self.path, meta, &self.dir),
            Runnable::Link { target, meta, dir } => exposed(target, meta, dir),
        };
        open.map(|what| match what {
            Exposed::Unseen { path, error } => {
                format!("cannot look at {} ({error})", crate::untrusted::path(path))
            }
            Exposed::Owner { path, uid } => format!(
                "{} belongs to another user (uid {uid})",
                crate::untrusted::path(path)
            ),
            Exposed::Writable { path, mode } => format!(
                "{} can be written by others (mode {mode:04o})",
                crate::untrusted::path(path)
            ),
        })
    }

    /// The extension's directory (`ROOST_EXT_DIR`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs the program with `args`, replacing this process, in the
    /// environment the contract gives extension `name`: with `fleet`,
    /// roost's socket and scripts; without, no socket at all. Returns only
    /// when it cannot: `Some` exit code when that is already reported,
    /// `None` when execve failed (a broken extension is a miss).
    pub fn exec(
        &self,
        paths: &Paths,
        tmux: &Tmux,
        name: &str,
        fleet: bool,
        args: &[OsString],
    ) -> Option<u8> {
        let state = paths.ext_state(name);
        if fsutil::make_dirs(&state, 0o700).is_err() {
            eprintln!(
                "roost: cannot create {} for extension {name}; check that directory's permissions",
                crate::untrusted::path(&state)
            );
            return Some(1);
        }
        let mut env = Env::inherited();
        env.set(env::HOME, paths.roost_home());
        env.set(env::VERSION, crate::VERSION);
        env.set(env::CONTRACT, contract::NUMBER.to_string());
        env.set(env::EXT_DIR, &self.dir);
        env.set(env::EXT_STATE, &state);
        // Named, never read: the hot path opens no settings file.
        env.set(env::EXT_CONFIG, paths.ext_config(name));
        env.set(env::EXT_SECRETS, paths.ext_secrets(name));
        if fleet {
            // What `fleet` hands over: roost's socket, and roost's scripts
            // first on PATH.
            let scripts = home::ensure_scripts(paths).unwrap_or_else(|_| paths.scripts_dir());
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
        // execve returns only on failure.
        exec(self.path, args, env);
        None
    }
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
/// A directory that cannot be looked at (it went away between the lookup
/// and the look) is refused too: what cannot be checked does not run.
enum Exposed<'a> {
    /// Owned by another user than this one or root.
    Owner { path: &'a Path, uid: u32 },
    /// Writable by a group or others (its permission bits).
    Writable { path: &'a Path, mode: u32 },
    /// Could not be looked at.
    Unseen {
        path: &'a Path,
        error: std::io::Error,
    },
}

/// The first of `file` (its metadata `meta`) and the directories above it
/// up to `top` that is exposed. Costs one stat per directory (two for
/// `bin/roost-CMD`), nothing allocated.
fn exposed<'a>(file: &'a Path, meta: &std::fs::Metadata, top: &Path) -> Option<Exposed<'a>> {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    // A sticky directory (/tmp) keeps others from replacing what is not
    // theirs; it counts only beyond the extension's own tree.
    let open = |path: &'a Path, m: &std::fs::Metadata, dir: bool| {
        let sticky = dir && m.mode() & 0o1000 != 0;
        if m.uid() != me && m.uid() != 0 {
            Some(Exposed::Owner { path, uid: m.uid() })
        } else if m.mode() & 0o022 != 0 && !sticky {
            Some(Exposed::Writable {
                path,
                mode: m.mode() & 0o7777,
            })
        } else {
            None
        }
    };
    if let Some(what) = open(file, meta, false) {
        return Some(what);
    }
    let mut at = file.parent();
    while let Some(dir) = at {
        let inside = dir.starts_with(top);
        let m = match std::fs::metadata(dir) {
            Ok(m) => m,
            Err(error) => return Some(Exposed::Unseen { path: dir, error }),
        };
        if let Some(what) = open(dir, &m, !inside) {
            return Some(what);
        }
        if dir == top || !inside && top.starts_with(dir) {
            return None;
        }
        at = dir.parent();
    }
    None
}

fn refuse_exposed(name: &str, what: Exposed) -> u8 {
    match what {
        Exposed::Unseen { path, error } => {
            let path = path.display();
            eprintln!(
                "roost: extension {name}: cannot look at {path} ({error}); refusing to run it"
            );
            eprintln!("roost: run `roost ext verify {name}` to check its files");
            return 1;
        }
        Exposed::Owner { path, uid } => eprintln!(
            "roost: extension {name}: {} belongs to another user (uid {uid}); refusing to run it",
            crate::untrusted::path(path)
        ),
        Exposed::Writable { path, mode } => eprintln!(
            "roost: extension {name}: {} can be written by others (mode {mode:04o}); refusing to run it",
            crate::untrusted::path(path)
        ),
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
