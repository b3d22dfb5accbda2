//! The hermetic test environment: a temp dir holding HOME and every XDG
//! directory, a private TMUX_TMPDIR, a per-test roost socket, git isolated
//! from the user's config, and the test's tmux server killed on drop.

pub mod events;
pub mod ext;
pub mod hostile;
pub mod model_server;
mod outcome;
pub mod procs;
mod repo;
pub mod sources;
pub mod versions;
pub use outcome::*;
#[allow(unused_imports)]
pub use repo::Fixture;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const ROOST: &str = env!("CARGO_BIN_EXE_roost");

pub struct TestEnv {
    pub dir: tempfile::TempDir,
    /// What ROOST_SOCKET is set to (a path, or a name with `with_socket_name`).
    pub socket: String,
    guard: RealHomeGuard,
}

impl TestEnv {
    /// A socket path inside the test dir (`tmux -S`).
    pub fn new() -> TestEnv {
        let dir = tempfile::Builder::new()
            .prefix("roost-test-")
            .tempdir_in("/tmp")
            .unwrap();
        let socket = dir.path().join("roost").to_string_lossy().into_owned();
        TestEnv::build(dir, socket)
    }

    /// A socket name (`tmux -L`), which tmux puts under the private TMUX_TMPDIR.
    pub fn with_socket_name(name: &str) -> TestEnv {
        let dir = tempfile::Builder::new()
            .prefix("roost-test-")
            .tempdir_in("/tmp")
            .unwrap();
        TestEnv::build(dir, name.to_string())
    }

    fn build(dir: tempfile::TempDir, socket: String) -> TestEnv {
        for sub in ["home", "config", "data", "state", "cache", "tmux", "work"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        TestEnv {
            dir,
            socket,
            guard: RealHomeGuard::new(),
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// The environment every process of the test runs with (nothing else).
    /// The locale is C.UTF-8, or `LC_ALL=$ROOST_TEST_LOCALE` with no LANG
    /// when that is set (CI runs the fleet tests under C and POSIX too).
    pub fn vars(&self) -> Vec<(String, String)> {
        let p = |s: &str| self.path(s).to_string_lossy().into_owned();
        let locale = match std::env::var("ROOST_TEST_LOCALE") {
            Ok(l) if !l.is_empty() => ("LC_ALL".to_string(), l),
            _ => ("LANG".to_string(), "C.UTF-8".to_string()),
        };
        vec![
            locale,
            ("PATH".into(), std::env::var("PATH").unwrap_or_default()),
            ("HOME".into(), p("home")),
            ("XDG_CONFIG_HOME".into(), p("config")),
            ("XDG_DATA_HOME".into(), p("data")),
            ("XDG_STATE_HOME".into(), p("state")),
            ("XDG_CACHE_HOME".into(), p("cache")),
            ("TMUX_TMPDIR".into(), p("tmux")),
            ("ROOST_SOCKET".into(), self.socket.clone()),
            ("SHELL".into(), "/bin/sh".into()),
            ("TERM".into(), "xterm-256color".into()),
            ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
            ("GIT_CONFIG_GLOBAL".into(), "/dev/null".into()),
            ("GIT_TERMINAL_PROMPT".into(), "0".into()),
            (
                "ROOST_EXT_GIT_BASE".into(),
                format!("file://{}/", p("remote")),
            ),
        ]
    }

    /// `roost ARGS` in this environment, stdin closed.
    pub fn roost<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new(ROOST);
        cmd.args(args)
            .env_clear()
            .envs(self.vars())
            .current_dir(self.path("work"));
        cmd.stdin(Stdio::null());
        cmd
    }

    pub fn run<I, S>(&self, args: I) -> Output
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.roost(args).output().unwrap()
    }

    /// Runs roost and insists it succeeded; returns stdout.
    pub fn ok<I, S>(&self, args: I) -> String
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        succeeded(&self.run(args))
    }

    /// `roost ARGS` in this environment, for assert_cmd's assertions.
    pub fn cmd<I, S>(&self, args: I) -> assert_cmd::Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        assert_cmd::Command::from_std(self.roost(args))
    }

    /// tmux against this test's roost server (to build fixtures and look).
    pub fn tmux(&self, args: &[&str]) -> Output {
        self.tmux_on(&self.socket, args)
    }

    pub fn tmux_ok(&self, args: &[&str]) -> String {
        self.tmux_ok_on(&self.socket, args)
    }

    /// tmux on another server, in this test's environment: `socket` is a
    /// path when it holds a `/` (`-S`), else a name (`-L`).
    pub fn tmux_on(&self, socket: &str, args: &[&str]) -> Output {
        let flag = if socket.contains('/') { "-S" } else { "-L" };
        Command::new("tmux")
            .arg(flag)
            .arg(socket)
            .args(args)
            .env_clear()
            .envs(self.vars())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    pub fn tmux_ok_on(&self, socket: &str, args: &[&str]) -> String {
        let out = self.tmux_on(socket, args);
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}",
            describe(&out)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// `git clone -q URL DEST` as the user's own git runs it: in this
    /// test's environment, with its global git config and the system's
    /// live (what a fixture shows git obeys and roost must not).
    pub fn git_clone_as_user(&self, url: impl AsRef<OsStr>, dest: &Path) -> Output {
        Command::new("git")
            .args(["clone", "-q"])
            .arg(url)
            .arg(dest)
            .env_clear()
            .envs(self.vars())
            .env_remove("GIT_CONFIG_GLOBAL")
            .env_remove("GIT_CONFIG_NOSYSTEM")
            .output()
            .unwrap()
    }

    /// A PATH whose `git-upload-pack` writes `start` to `calls` when it
    /// starts and `end` once the client has closed the connection, forwards
    /// the client's requests to the real one pkt-line by pkt-line, and
    /// runs the shell code `at_fetch` when the command after the ref
    /// listing begins: between the lookup and the fetch of one connection.
    pub fn upload_pack_wrapper(&self, calls: &Path, at_fetch: &str) -> String {
        use std::os::unix::fs::PermissionsExt;
        let exec_path = Command::new("git").arg("--exec-path").output().unwrap();
        let real = format!(
            "{}/git-upload-pack",
            String::from_utf8(exec_path.stdout).unwrap().trim()
        );
        let bin = self.path("wrap-bin");
        std::fs::create_dir_all(&bin).unwrap();
        let wrapper = bin.join("git-upload-pack");
        // The ls-refs request ends at its flush packet (0000); the next
        // four bytes arrive only once the client has read the listing and
        // begun the fetch. `cat` ends when the client closes its side (the
        // client may kill this shell then; the group lives on to say so).
        std::fs::write(
            &wrapper,
            format!(
                "#!/bin/sh\necho start >> '{calls}'\n\
                 {{\n\
                   while :; do\n\
                     len=$(head -c 4); printf '%s' \"$len\"\n\
                     [ \"$len\" = 0000 ] && break\n\
                     n=$((0x$len)); [ \"$n\" -gt 4 ] && head -c $((n - 4))\n\
                   done\n\
                   next=$(head -c 4)\n\
                   {at_fetch}\n\
                   printf '%s' \"$next\"\n\
                   cat\n\
                   echo end >> '{calls}'\n\
                 }} | '{real}' \"$@\"\n",
                calls = calls.display(),
            ),
        )
        .unwrap();
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
    }

    /// `roost ARGS` (ARGS as one shell line) with stdin, stdout and stderr
    /// on a terminal, a pty made by util-linux script(1), and TYPED typed
    /// ahead; stdout holds everything the terminal showed, as bytes, and
    /// the status is roost's (never a panic). None (after a note) without
    /// script(1).
    pub fn on_a_terminal(&self, args: &str, typed: &[u8]) -> Option<Output> {
        self.on_a_terminal_with(args, typed, &[])
    }

    /// `on_a_terminal`, with these variables added to the environment.
    pub fn on_a_terminal_with(
        &self,
        args: &str,
        typed: &[u8],
        vars: &[(&str, &str)],
    ) -> Option<Output> {
        if !on_path("script") {
            skip_without("util-linux script(1) is not installed");
            return None;
        }
        let mut cmd = Command::new("script");
        cmd.args(["-qefc", &format!("'{ROOST}' {args}"), "/dev/null"])
            .env_clear()
            .envs(self.vars())
            .envs(vars.iter().copied())
            .current_dir(self.path("work"));
        let out = bounded_typed(cmd, Some(typed), Duration::from_secs(60)).out;
        let seen = String::from_utf8_lossy(&out.stdout);
        assert!(!seen.contains("panicked"), "{seen}");
        Some(out)
    }

    /// The text of the file at REL inside the sandbox.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }

    /// Whether this test's server answers.
    pub fn server_running(&self) -> bool {
        self.tmux(&["list-sessions"]).status.success()
    }

    /// The socket file of this test's server.
    pub fn socket_file(&self) -> PathBuf {
        if self.socket.contains('/') {
            PathBuf::from(&self.socket)
        } else {
            let uid = unsafe_uid();
            self.path("tmux")
                .join(format!("tmux-{uid}"))
                .join(&self.socket)
        }
    }

    /// Spawns NAME running a shell command; returns its pane id.
    pub fn spawn(&self, name: &str, command: &str) -> String {
        self.ok(["spawn", name, command]).trim().to_string()
    }

    /// Spawns NAME, whose program records `reply` with `roost reply -`
    /// from inside its pane, and waits until it has; returns its pane id.
    pub fn spawn_replying(&self, name: &str, reply: &str) -> String {
        let file = self.write(&format!("{name}-reply.txt"), reply);
        let command = format!(
            "roost reply - < '{}' && echo recorded; sleep 100",
            file.display()
        );
        let pane = self.spawn(name, &command);
        self.wait_for_screen(&pane, "recorded");
        pane
    }

    /// The screen and history of a pane, each line's trailing blanks
    /// trimmed (tmux before 3.3 keeps them on joined lines).
    pub fn screen(&self, pane: &str) -> String {
        self.tmux_ok(&["capture-pane", "-p", "-J", "-S", "-", "-t", pane])
            .lines()
            .map(|l| format!("{}\n", l.trim_end()))
            .collect()
    }

    /// Waits until the pane's screen contains `text`.
    pub fn wait_for_screen(&self, pane: &str, text: &str) -> String {
        let mut last = String::new();
        let ok = wait_until(Duration::from_secs(10), || {
            last = self.screen(pane);
            last.contains(text)
        });
        assert!(ok, "pane {pane} never showed {text:?}; screen:\n{last}");
        last
    }

    pub fn write(&self, rel: &str, content: &str) -> PathBuf {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }
}

impl Drop for TestEnv {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
        if !std::thread::panicking() {
            self.guard.check();
        }
    }
}

/// This test's ext.lock.
pub fn lock_file(env: &TestEnv) -> PathBuf {
    env.path("state/roost/ext.lock")
}

/// This test's ext.index.
pub fn index_file(env: &TestEnv) -> PathBuf {
    env.path("state/roost/ext.index")
}

/// Every entry below `dir` (`.git` included), sorted: path, mode, and
/// content or link target. Empty when `dir` does not exist.
pub fn listing(dir: &Path) -> Vec<(PathBuf, u32, Vec<u8>)> {
    tree(dir, &[dir.to_path_buf()])
}

/// Everything under the test's data/ and state/ directories, by path from
/// the test directory (a symlink is recorded, not followed): what a refused
/// command must leave as it found it.
pub fn snapshot(env: &TestEnv) -> Vec<(PathBuf, u32, Vec<u8>)> {
    tree(env.dir.path(), &[env.path("data"), env.path("state")])
}

/// Every path under `tops`, relative to `root`: its mode and its content
/// (a link's target; nothing for a directory), sorted.
fn tree(root: &Path, tops: &[PathBuf]) -> Vec<(PathBuf, u32, Vec<u8>)> {
    use std::os::unix::fs::PermissionsExt;
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, u32, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            let mode = meta.permissions().mode();
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                out.push((rel, mode, target.into_os_string().into_encoded_bytes()));
            } else if meta.is_dir() {
                out.push((rel, mode, Vec::new()));
                walk(root, &path, out);
            } else {
                out.push((rel, mode, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    for top in tops {
        walk(root, top, &mut out);
    }
    out.sort();
    out
}

/// Polls `cond` until it holds or `limit` passes.
/// How many `git-upload-pack`s an `upload_pack_wrapper` saw start, and how
/// many saw their client close the connection.
pub fn upload_pack_runs(calls: &Path) -> (usize, usize) {
    let log = std::fs::read_to_string(calls).unwrap_or_default();
    let count = |word: &str| log.lines().filter(|l| *l == word).count();
    (count("start"), count("end"))
}

/// What a bounded run measured.
pub struct Run {
    pub out: Output,
    pub took: Duration,
    /// Peak resident set of roost in KiB (VmHWM, sampled until exit).
    pub peak_kib: u64,
}

/// Runs `cmd` (stdin closed, its output drained as it comes), insisting it
/// ends within `limit`; samples its peak resident memory while it runs.
pub fn bounded(cmd: Command, limit: Duration) -> Run {
    bounded_typed(cmd, None, limit)
}

/// `bounded`, with `typed` (when given) on stdin, then its end.
pub fn bounded_typed(mut cmd: Command, typed: Option<&[u8]>, limit: Duration) -> Run {
    let start = Instant::now();
    let mut child = cmd
        .stdin(typed.map_or_else(Stdio::null, |_| Stdio::piped()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let (Some(typed), Some(mut stdin)) = (typed, child.stdin.take()) {
        let typed = typed.to_vec();
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = stdin.write_all(&typed);
        });
    }
    let drain = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            r.read_to_end(&mut v).unwrap();
            v
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            {
                peak_kib = peak_kib.max(kib);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = start.elapsed();
    let out = Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    Run {
        out,
        took,
        peak_kib,
    }
}

pub fn wait_until(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn describe(out: &Output) -> String {
    format!(
        "{}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

pub fn unsafe_uid() -> u32 {
    let out = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// Checks that a test left roost's places in the real home, and the real
/// `-L roost` socket, as they were.
struct RealHomeGuard {
    before: Vec<(PathBuf, Option<std::time::SystemTime>)>,
}

impl RealHomeGuard {
    fn watched() -> Vec<PathBuf> {
        let mut v = Vec::new();
        if let Some(home) = std::env::var_os("HOME") {
            let home = Path::new(&home);
            for rel in [".local/share/roost", ".local/state/roost", ".config/roost"] {
                v.push(home.join(rel));
            }
        }
        let tmp = std::env::var("TMUX_TMPDIR").unwrap_or_else(|_| "/tmp".into());
        v.push(
            Path::new(&tmp)
                .join(format!("tmux-{}", unsafe_uid()))
                .join("roost"),
        );
        v
    }

    fn new() -> RealHomeGuard {
        RealHomeGuard {
            before: Self::watched()
                .into_iter()
                .map(|p| (p.clone(), mtime(&p)))
                .collect(),
        }
    }

    fn check(&self) {
        for (path, then) in &self.before {
            assert_eq!(
                &mtime(path),
                then,
                "the test changed {} outside its temp dir",
                path.display()
            );
        }
    }
}

fn mtime(p: &Path) -> Option<std::time::SystemTime> {
    std::fs::symlink_metadata(p).and_then(|m| m.modified()).ok()
}

/// What `status` puts between a session's name and its window count: an
/// em dash in a UTF-8 locale, `-` in the C locale `ROOST_TEST_LOCALE` may set.
pub fn status_dash() -> &'static str {
    match std::env::var("ROOST_TEST_LOCALE") {
        Ok(l) if !l.is_empty() && !l.to_ascii_lowercase().contains("utf") => "-",
        _ => "\u{2014}",
    }
}

/// The columns of `pane`'s line in `status` output (split at runs of two or
/// more blanks): id, target, window name, command, `[STATE]`.
pub fn status_fields(status: &str, pane: &str) -> Option<Vec<String>> {
    let line = status
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{pane} ")))?;
    Some(
        line.split("  ")
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// Whether an executable `name` is on PATH (found without running it).
pub fn on_path(name: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(name))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// For a test that needs a tool this machine may lack: returns after a note
/// (the caller then skips), or fails the test under ROOST_TEST_REQUIRE_ALL=1,
/// which .ci/run sets because it installs every such tool.
pub fn skip_without(why: &str) {
    assert!(
        std::env::var("ROOST_TEST_REQUIRE_ALL").as_deref() != Ok("1"),
        "ROOST_TEST_REQUIRE_ALL=1 but {why}"
    );
    eprintln!("skipped: {why}");
}

/// Makes `dir` unwritable for this process until dropped: chmod 0555 for a
/// user, the immutable attribute for root (whom modes do not stop). None when
/// neither can be had here (a file system without attributes).
pub struct Unwritable(PathBuf, bool);

impl Unwritable {
    pub fn new(dir: &Path) -> Option<Unwritable> {
        let root = unsafe_uid() == 0;
        if root {
            let ok = std::process::Command::new("chattr")
                .arg("+i")
                .arg(dir)
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                return None;
            }
        } else {
            std::fs::set_permissions(
                dir,
                <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o555),
            )
            .unwrap();
        }
        let guard = Unwritable(dir.to_path_buf(), root);
        // Proves it really is unwritable before relying on it.
        std::fs::write(dir.join(".probe"), "")
            .is_err()
            .then_some(guard)
    }
}

impl Drop for Unwritable {
    fn drop(&mut self) {
        if self.1 {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(&self.0)
                .status();
        } else {
            let _ = std::fs::set_permissions(
                &self.0,
                <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
            );
        }
    }
}
