//! One run of an extension's handler (`bin/roost-events`): held to the
//! gates dispatch holds a command to (launch.rs), given an environment
//! built from nothing (a fixed set of the runner's variables, the
//! contract's, the moment's; the fleet's only with `fleet`), the moment as
//! JSON on stdin, its own process group, a deadline, and its output kept
//! bounded. Whatever it leaves running is ended: the runner is a child
//! subreaper, so a daemon it forks comes back to it and is found in /proc.

use super::capture::Capture;
use super::envelope::Envelope;
use super::index::Subscriber;
use super::log::Outcome;
use crate::contract::{self, env};
use crate::launch::Program;
use crate::paths::Paths;
use crate::tmux::Tmux;
use crate::{fsutil, home};
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a handler's process group gets between SIGTERM and SIGKILL.
pub const GRACE: Duration = Duration::from_secs(1);

/// What one run gave.
pub struct Ran {
    pub outcome: Outcome,
    pub capture: Capture,
    pub duration: Duration,
}

/// The runner's variables a handler is given, by name or prefix.
fn kept(name: &str) -> bool {
    matches!(
        name,
        "HOME" | "USER" | "LOGNAME" | "PATH" | "LANG" | "TZ" | "TMPDIR"
    ) || name.starts_with("LC_")
        || name.starts_with("XDG_")
}

/// The handler's environment.
fn environment(
    paths: &Paths,
    tmux: &Tmux,
    sub: &Subscriber,
    dir: &std::path::Path,
    e: &Envelope,
) -> Vec<(OsString, OsString)> {
    let mut vars: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| k.to_str().is_some_and(kept))
        .collect();
    let mut set = |k: &str, v: OsString| {
        vars.retain(|(key, _)| key != k);
        vars.push((k.into(), v));
    };
    set(env::HOME, paths.roost_home().into());
    set(env::VERSION, crate::VERSION.into());
    set(env::CONTRACT, contract::NUMBER.to_string().into());
    set(env::EXT_DIR, dir.into());
    set(env::EXT_STATE, paths.ext_state(&sub.name).into());
    // Settings as a command gets them: paths only; a secret's value never
    // enters the environment.
    set(env::EXT_CONFIG, paths.ext_config(&sub.name).into());
    set(env::EXT_SECRETS, paths.ext_secrets(&sub.name).into());
    if sub.has("fleet") {
        let scripts = home::ensure_scripts(paths).unwrap_or_else(|_| paths.scripts_dir());
        set(env::SOCKET, tmux.socket.value().into());
        set(env::SOCKET_FLAG, tmux.socket.flag().into());
        set(
            "PATH",
            home::path_with_first(&scripts, std::env::var_os("PATH")),
        );
    } else if let Some(path) = std::env::var_os("PATH") {
        // The server's PATH has roost's scripts first: only `fleet` keeps them.
        let scripts = paths.scripts_dir();
        let rest: Vec<_> = std::env::split_paths(&path)
            .filter(|p| *p != scripts)
            .collect();
        set("PATH", std::env::join_paths(rest).unwrap_or_default());
    }
    for (k, v) in e.vars() {
        set(k, v.into());
    }
    vars
}

/// Runs `sub`'s handler for moment `e`.
pub fn run(paths: &Paths, tmux: &Tmux, sub: &Subscriber, e: &Envelope) -> Ran {
    let started = Instant::now();
    let refused = |why: String| Ran {
        outcome: Outcome::SpawnError(why),
        capture: Capture::default(),
        duration: started.elapsed(),
    };
    let Some(program) = Program::find(paths, &sub.name, b"events", &sub.program) else {
        return refused(
            "bin/roost-events is not an executable file inside the extension's tree".into(),
        );
    };
    if let Some(why) = program.exposed_words() {
        return refused(why);
    }
    let state = paths.ext_state(&sub.name);
    if let Err(err) = fsutil::make_dirs(&state, 0o700) {
        return refused(format!(
            "cannot create its state directory: {}",
            fsutil::io_words(&err)
        ));
    }
    let (reader, writer) = match std::io::pipe() {
        Ok(p) => p,
        Err(err) => return refused(fsutil::io_words(&err)),
    };
    let writer2 = match writer.try_clone() {
        Ok(w) => w,
        Err(err) => return refused(fsutil::io_words(&err)),
    };
    let mut cmd = Command::new(&sub.program);
    cmd.env_clear()
        .envs(environment(paths, tmux, sub, program.dir(), e))
        .current_dir(&state)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(writer2)
        .process_group(0);
    // SAFETY: between fork and exec only a signal disposition changes (the
    // runner ignores SIGPIPE; the handler gets the default back).
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::signal::signal(Signal::SIGPIPE, nix::sys::signal::SigHandler::SigDfl)
                .map(drop)
                .map_err(std::io::Error::from)
        });
    }
    let spawned = cmd.spawn();
    drop(cmd);
    let mut child = match spawned {
        Ok(c) => c,
        Err(err) => return refused(fsutil::io_words(&err)),
    };
    let group = Pid::from_raw(child.id() as i32);
    if let Some(mut stdin) = child.stdin.take() {
        let json = e.json();
        std::thread::spawn(move || {
            let _ = stdin.write_all(json.as_bytes());
        });
    }
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut reader = reader;
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                return;
            }
        }
    });
    let mut capture = Capture::default();
    let until = started + Duration::from_secs(u64::from(sub.timeout));
    let mut timed_out = false;
    let status = loop {
        while let Ok(piece) = rx.try_recv() {
            capture.push(&piece);
        }
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        if Instant::now() >= until {
            timed_out = true;
            let _ = killpg(group, Signal::SIGTERM);
            let grace = Instant::now() + GRACE;
            while Instant::now() < grace && matches!(child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = killpg(group, Signal::SIGKILL);
            break child.wait().ok();
        }
        if let Ok(piece) = rx.recv_timeout(Duration::from_millis(20)) {
            capture.push(&piece);
        }
    };
    let _ = killpg(group, Signal::SIGKILL);
    end_descendants();
    // The pipe is closed once nothing holds it any more: its last words.
    let last = Instant::now() + Duration::from_millis(200);
    while let Ok(piece) = rx.recv_timeout(last.saturating_duration_since(Instant::now())) {
        capture.push(&piece);
    }
    use std::os::unix::process::ExitStatusExt;
    let outcome = match status {
        _ if timed_out => Outcome::Timeout,
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => Outcome::Exit(code),
            (None, Some(sig)) => Outcome::Signal(sig),
            _ => Outcome::Exit(-1),
        },
        None => Outcome::SpawnError("lost track of the handler".into()),
    };
    // No secret of the extension's settings is kept in its run log.
    let secrets = crate::ext::settings::secrets::values(&paths.ext_secrets(&sub.name));
    let secrets: Vec<&[u8]> = secrets.iter().map(Vec::as_slice).collect();
    Ran {
        outcome,
        capture: capture.masked(&secrets),
        duration: started.elapsed(),
    }
}

/// Every process below this one (the runner), found in /proc.
fn descendants() -> Vec<u32> {
    let me = std::process::id();
    let table = crate::procs::all();
    let mut below: Vec<u32> = Vec::new();
    let mut grew = true;
    while grew {
        grew = false;
        for (pid, stat) in &table {
            if (stat.ppid == me || below.contains(&stat.ppid)) && !below.contains(pid) {
                below.push(*pid);
                grew = true;
            }
        }
    }
    below
}

/// Ends whatever a handler left behind (SIGTERM, a grace, SIGKILL), and
/// reaps it: the runner is its subreaper. A process that forks while it is
/// being ended hands its child to the runner, so the last step repeats
/// until a look finds nothing alive below the runner (bounded by
/// `KILL_ROUNDS`): once the runner exits, an orphan would go to init.
fn end_descendants() {
    let left = descendants();
    if left.is_empty() {
        return;
    }
    for pid in &left {
        let _ = kill(Pid::from_raw(*pid as i32), Signal::SIGTERM);
    }
    let grace = Instant::now() + GRACE;
    while Instant::now() < grace && !alive_below().is_empty() {
        std::thread::sleep(Duration::from_millis(20));
    }
    for _ in 0..KILL_ROUNDS {
        let alive = alive_below();
        if alive.is_empty() {
            return;
        }
        for pid in alive {
            let _ = kill(Pid::from_raw(pid as i32), Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    reap();
}

/// How many times the last step of `end_descendants` looks again.
const KILL_ROUNDS: usize = 50;

/// The processes below the runner that have not ended, the ended ones
/// reaped first.
fn alive_below() -> Vec<u32> {
    reap();
    descendants()
        .into_iter()
        .filter(|p| crate::procs::Stat::of(*p).is_some_and(|s| !s.ended()))
        .collect()
}

/// Reaps every ended child (those reparented to the runner included).
fn reap() {
    use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
    while let Ok(s) = waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
        if s == WaitStatus::StillAlive {
            break;
        }
    }
}
