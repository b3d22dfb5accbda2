//! The only place that talks to tmux. It owns the socket rule:
//! which server is roost's, how to address it, and how to start it.

mod conf;
mod keys;
pub mod listening;
pub mod literal;
pub mod options;
pub mod socket_dir;
pub mod state;
pub mod terminal;

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// How roost addresses its server: `tmux -L NAME` or `tmux -S PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Socket {
    Name(OsString),
    Path(PathBuf),
}

impl Socket {
    /// The socket rule from the process environment.
    pub fn from_env() -> Socket {
        Socket::resolve(std::env::var_os("ROOST_SOCKET"), std::env::var_os("TMUX"))
    }

    /// `ROOST_SOCKET` (a `/` makes it a path, made absolute), else the enclosing server when
    /// `$TMUX` names a socket path ending in `/roost`, else the name `roost`.
    /// Never the user's everyday server.
    pub fn resolve(roost_socket: Option<OsString>, tmux: Option<OsString>) -> Socket {
        if let Some(s) = roost_socket.filter(|s| !s.is_empty()) {
            return if s.as_bytes().contains(&b'/') {
                // Relative to where roost runs now, not to wherever a later
                // client or the server's own shells run.
                let path = PathBuf::from(s);
                if path.is_relative() {
                    Socket::Path(std::path::absolute(&path).unwrap_or(path))
                } else {
                    Socket::Path(path)
                }
            } else {
                Socket::Name(s)
            };
        }
        if let Some(path) = tmux.as_deref().and_then(enclosing_socket) {
            if path.as_os_str().as_bytes().ends_with(b"/roost") {
                return Socket::Path(path);
            }
        }
        Socket::Name(OsString::from("roost"))
    }

    /// `-L` for a name, `-S` for a path (what `ROOST_SOCKET_FLAG` carries).
    pub fn flag(&self) -> &'static str {
        match self {
            Socket::Name(_) => "-L",
            Socket::Path(_) => "-S",
        }
    }

    /// The name or path itself (what `ROOST_SOCKET` carries).
    pub fn value(&self) -> &OsStr {
        match self {
            Socket::Name(n) => n,
            Socket::Path(p) => p.as_os_str(),
        }
    }

    /// The socket file, where tmux puts it: a name lives in
    /// `${TMUX_TMPDIR:-/tmp}/tmux-UID/` (an empty TMUX_TMPDIR means /tmp).
    pub fn file(&self) -> PathBuf {
        match self {
            Socket::Path(p) => p.clone(),
            Socket::Name(n) => {
                let tmpdir = std::env::var_os("TMUX_TMPDIR")
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| OsString::from("/tmp"));
                let uid = nix::unistd::getuid();
                PathBuf::from(tmpdir).join(format!("tmux-{uid}")).join(n)
            }
        }
    }
}

impl Socket {
    /// The file beside the socket in which roost's server keeps its
    /// extension switch (see `switch`).
    pub fn switch_file(&self) -> PathBuf {
        let mut name = self.file().into_os_string();
        name.push(crate::switch::FILE_SUFFIX);
        PathBuf::from(name)
    }
}

/// The socket path of `$TMUX` (`/path/to/socket,PID,SESSION`).
fn enclosing_socket(tmux: &OsStr) -> Option<PathBuf> {
    let bytes = tmux.as_bytes();
    let end = bytes.iter().rposition(|&b| b == b',')?;
    let end = bytes[..end].iter().rposition(|&b| b == b',')?;
    (end > 0).then(|| PathBuf::from(OsStr::from_bytes(&bytes[..end])))
}

/// One pane of the roost server, as `list-panes -a` describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pane {
    pub id: String,
    pub window_id: String,
    pub session: String,
    pub window_index: String,
    pub pane_index: String,
    pub active: bool,
    pub dead: bool,
    /// The exit status of a dead pane's program, when tmux knows it.
    pub dead_status: Option<i32>,
    /// The process tmux started in the pane.
    pub pid: Option<i32>,
    /// `@agent_state` when it is one of the known words (`state::KNOWN`),
    /// else empty: unstamped, or stamped with anything else.
    pub state: String,
    /// The program running in the pane now (`pane_current_command`).
    pub command: String,
    pub window_name: String,
}

impl Pane {
    /// `SESSION:WINDOW.PANE`
    pub fn address(&self) -> String {
        format!("{}:{}.{}", self.session, self.window_index, self.pane_index)
    }
}

/// One session of the roost server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub name: String,
    pub windows: u32,
    pub attached: bool,
}

/// The fields of a pane as `list-panes` gives them, each followed by `sep`
/// (`parse_panes` reads them back). No field's content can make a pane or
/// shift a field: tmux escapes control characters in names, but not in the
/// name of the program in the pane (`pane_current_command`, which the
/// program chooses itself with `exec -a`, newlines and TABs included), so
/// the fields are not told apart by TABs and lines but by a separator made
/// afresh for each call, which nothing in a pane knows. The state, an
/// option anything in the pane can set to any bytes, is never printed
/// itself: the format prints one of the known words it equals, or nothing.
fn pane_format(sep: &str) -> String {
    let fields = [
        "#{pane_id}".to_string(),
        "#{window_id}".into(),
        "#{session_name}".into(),
        "#{window_index}".into(),
        "#{pane_index}".into(),
        "#{pane_active}".into(),
        "#{pane_dead}".into(),
        "#{pane_dead_status}".into(),
        "#{pane_pid}".into(),
        state::known_format(),
        "#{pane_current_command}".into(),
        "#{window_name}".into(),
    ];
    fields.iter().map(|f| format!("{f}{sep}")).collect()
}

/// How many fields `pane_format` gives each pane.
const PANE_FIELDS: usize = 12;

/// A separator for one `list-panes` call: 128 bits no pane can know,
/// between TABs (the keys of std's hasher are random for each process,
/// and each `RandomState` is a new key).
fn fresh_separator() -> String {
    use std::hash::BuildHasher;
    let half = || std::collections::hash_map::RandomState::new().hash_one(std::process::id());
    format!("\t{:016x}{:016x}\t", half(), half())
}

/// The longest argument roost hands tmux: the client packs a command's
/// arguments into one 16 KiB message and refuses anything longer.
const MAX_ARG: usize = 8 * 1024;

/// A failed tmux call: its stderr, or why it could not be started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmuxError(pub String);

pub type TmuxResult<T> = Result<T, TmuxError>;

/// roost's tmux server.
pub struct Tmux {
    pub socket: Socket,
}

impl Tmux {
    pub fn from_env() -> Tmux {
        Tmux {
            socket: Socket::from_env(),
        }
    }

    /// Every call roost makes to its server. `-u` because tmux rewrites
    /// what it prints for a client whose locale is not UTF-8 (LC_ALL=C,
    /// POSIX, no LANG at all): the TABs between `-F` fields and every
    /// non-ASCII byte become `_`. roost reads that output, it does not show
    /// it on a terminal, so it asks for it unchanged in every locale.
    fn command(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.arg("-u")
            .arg(self.socket.flag())
            .arg(self.socket.value());
        cmd.stdin(Stdio::null());
        cmd
    }

    /// Replaces this process with a tmux client attached to session `exact`
    /// (`=NAME`); returns only when tmux cannot be run. The client draws on
    /// the user's terminal, so the terminal's locale decides, not `-u`.
    pub fn attach(&self, exact: &str) -> TmuxError {
        use std::os::unix::process::CommandExt;
        let err = Command::new("tmux")
            .arg(self.socket.flag())
            .arg(self.socket.value())
            .args(["attach-session", "-t"])
            .arg(literal::word(exact))
            .env_remove("TMUX")
            .exec();
        not_started(err)
    }

    fn finish(out: std::io::Result<std::process::Output>) -> TmuxResult<String> {
        let out = out.map_err(not_started)?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
            Err(TmuxError(if err.is_empty() {
                format!("tmux exited with {}", out.status)
            } else {
                err
            }))
        }
    }

    /// Runs one tmux command against roost's server and returns its stdout.
    pub fn run<S: AsRef<OsStr>>(&self, args: &[S]) -> TmuxResult<String> {
        Self::finish(self.command().args(args).output())
    }

    /// Like `run`, feeding `input` on stdin (for `load-buffer -`).
    pub fn run_with_input<S: AsRef<OsStr>>(&self, args: &[S], input: &[u8]) -> TmuxResult<String> {
        let mut cmd = self.command();
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .map_err(|e| TmuxError(format!("cannot run tmux: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(input)
                .map_err(|e| TmuxError(format!("cannot feed tmux: {e}")))?;
        }
        Self::finish(child.wait_with_output())
    }

    /// Runs a command that creates panes. tmux gives a new pane the PATH of
    /// the client that asked for it, so roost's scripts go first here too.
    pub fn run_spawning<S: AsRef<OsStr>>(
        &self,
        args: &[S],
        start: &ServerStart,
    ) -> TmuxResult<String> {
        let mut cmd = self.command();
        cmd.env("ROOST_HOME", &start.home).env("PATH", &start.path);
        Self::finish(cmd.args(args).output())
    }

    /// A new window `name` in `session`, started in `cwd` (tmux's choice
    /// when None) and running `command` (the default shell when empty),
    /// that outlives its program: remain-on-exit is set in the same command
    /// list, so the server sets it before it can see the program exit,
    /// however fast that is. `name` must be unique in the session (`=NAME`
    /// addresses the new window). Every word from outside reaches tmux
    /// literally. Returns the new pane's id.
    pub fn new_window(
        &self,
        session: &str,
        name: &str,
        cwd: Option<&Path>,
        command: &[OsString],
        start: &ServerStart,
    ) -> TmuxResult<String> {
        let mut args: Vec<OsString> = ["new-window", "-d", "-P", "-F", "#{pane_id}", "-t"]
            .iter()
            .map(OsString::from)
            .collect();
        args.push(literal::word(format!("={session}:")));
        args.push("-n".into());
        args.push(literal::format(name));
        if let Some(cwd) = cwd {
            args.push("-c".into());
            args.push(literal::format(cwd));
        }
        if !command.is_empty() {
            args.push("--".into());
            args.extend(command.iter().map(literal::word));
        }
        for word in [";", "set-option", "-w", "-t"] {
            args.push(word.into());
        }
        args.push(literal::word(format!("={session}:={name}")));
        args.push("remain-on-exit".into());
        args.push("on".into());
        let out = self.run_spawning(&args, start)?;
        Ok(out.trim_end().to_string())
    }

    /// Closes window `name` of `session`, addressed exactly.
    pub fn kill_window(&self, session: &str, name: &str) -> TmuxResult<()> {
        let exact = literal::word(format!("={session}:={name}"));
        let args: [&OsStr; 3] = ["kill-window".as_ref(), "-t".as_ref(), &exact];
        self.run(&args).map(drop)
    }

    /// Whether the socket file exists: a cheap "maybe running" that never
    /// forks. A stale socket still needs `is_running` to tell.
    pub fn socket_exists(&self) -> bool {
        self.socket.file().exists()
    }

    /// Whether roost's server answers. An error, not "no", where a server
    /// may be there but this process may not connect to it: a sandbox
    /// around it (a coding agent's) that forbids Unix sockets.
    pub fn is_running(&self) -> TmuxResult<bool> {
        if !self.socket_exists() {
            return Ok(false);
        }
        let file = self.socket.file();
        if let listening::Listener::Denied(errno) = listening::listener(&file) {
            let dir = file.parent().unwrap_or(&file);
            return Err(TmuxError(format!(
                "cannot connect to roost's server at {}: {}; a sandbox around this command \
                 (a coding agent's, say) forbids Unix sockets: allow {} in it, or run roost outside it",
                file.display(),
                errno.desc(),
                dir.display()
            )));
        }
        Ok(self
            .run(&["list-sessions", "-F", "#{session_name}"])
            .is_ok())
    }

    pub fn sessions(&self) -> TmuxResult<Vec<Session>> {
        let out = self.run(&[
            "list-sessions",
            "-F",
            "#{session_windows}\t#{session_attached}\t#{session_name}",
        ])?;
        Ok(out
            .lines()
            .filter_map(|line| {
                let mut f = line.splitn(3, '\t');
                let windows = f.next()?.parse().ok()?;
                let attached = f.next()? != "0";
                let name = f.next()?.to_string();
                Some(Session {
                    name,
                    windows,
                    attached,
                })
            })
            .collect())
    }

    /// Every pane of every session, in tmux's order.
    pub fn panes(&self) -> TmuxResult<Vec<Pane>> {
        let sep = fresh_separator();
        let out = self.run(&["list-panes", "-a", "-F", &pane_format(&sep)])?;
        Ok(parse_panes(&out, &sep))
    }

    /// Text stored with `set_pane_text`, byte for byte, `None` when unset.
    pub fn pane_text(&self, pane_id: &str, name: &str) -> TmuxResult<Option<Vec<u8>>> {
        Ok(self
            .pane_option(pane_id, name)?
            .map(|stored| verbatim::decode(stored.as_bytes())))
    }

    /// Stores any bytes in a pane option so that every tmux gives them back
    /// unchanged: tmux 3.4 writes a backslash before `$NAME` and `${` in a
    /// value as it stores it, and a client outside UTF-8 gets other bytes
    /// rewritten. Everything but plain ASCII text is stored escaped.
    pub fn set_pane_text(&self, pane_id: &str, name: &str, text: &[u8]) -> TmuxResult<()> {
        let stored = verbatim::encode(text);
        self.set_pane_option(pane_id, name, OsStr::new(&stored))
    }

    /// One format expanded for one pane (`display-message -p`); a format
    /// this tmux does not know expands to nothing.
    pub fn pane_format(&self, pane_id: &str, format: &str) -> TmuxResult<String> {
        let out = self.run(&["display-message", "-p", "-t", pane_id, format])?;
        Ok(out.strip_suffix('\n').unwrap_or(&out).to_string())
    }

    /// One option of one pane (pane scope only), `None` when unset.
    pub fn pane_option(&self, pane_id: &str, name: &str) -> TmuxResult<Option<String>> {
        let out = self.run(&["show-options", "-pqv", "-t", pane_id, name])?;
        let value = out.strip_suffix('\n').unwrap_or(&out);
        Ok((!value.is_empty()).then(|| value.to_string()))
    }

    /// Sets a pane option to any value, in one step, so a reader never sees
    /// half of it. A value too long for one tmux command (an agent's whole
    /// reply) goes through a private temporary file that the server reads
    /// as one `set-option` (`source-file`): one tmux call whatever its
    /// length. A long value that a config line cannot hold as it is (bytes
    /// outside printable ASCII, or `'`), or one that file could not carry,
    /// is built in a staging option piece by piece instead, then copied.
    pub fn set_pane_option(&self, pane_id: &str, name: &str, value: &OsStr) -> TmuxResult<()> {
        let bytes = value.as_bytes();
        if bytes.len() <= MAX_ARG {
            return self.set_pane_option_part(pane_id, name, value, false);
        }
        let quotable = |b: &[u8]| b.iter().all(|&b| (0x20..0x7f).contains(&b) && b != b'\'');
        // Should the file not be read (a temporary directory whose path tmux
        // reads as a pattern), the slow way still stores it.
        if quotable(bytes)
            && quotable(pane_id.as_bytes())
            && quotable(name.as_bytes())
            && self.set_pane_option_sourced(pane_id, name, bytes).is_ok()
        {
            return Ok(());
        }
        let mut rest = bytes;
        let staging = format!("{name}-staging");
        let mut append = false;
        while !rest.is_empty() {
            let mut cut = rest.len().min(MAX_ARG);
            // Keep UTF-8 characters whole.
            while cut < rest.len() && cut > 1 && rest[cut] & 0xC0 == 0x80 {
                cut -= 1;
            }
            let (part, tail) = rest.split_at(cut);
            self.set_pane_option_part(pane_id, &staging, OsStr::from_bytes(part), append)?;
            rest = tail;
            append = true;
        }
        let copied = self.run(&[
            "set-option",
            "-p",
            "-F",
            "-t",
            pane_id,
            name,
            &format!("#{{{staging}}}"),
        ]);
        let _ = self.run(&["set-option", "-p", "-u", "-t", pane_id, &staging]);
        copied.map(drop)
    }

    /// `set-option -p -t PANE NAME 'VALUE'` as the one line of a file only
    /// this user can read, which the server sources: `value` is printable
    /// ASCII without `'`, so single quotes hold it as it is.
    fn set_pane_option_sourced(&self, pane_id: &str, name: &str, value: &[u8]) -> TmuxResult<()> {
        let temp = |e: std::io::Error| TmuxError(format!("cannot write a temporary file: {e}"));
        let mut file = tempfile::Builder::new()
            .prefix("roost-option-")
            .tempfile()
            .map_err(temp)?;
        let mut line = Vec::with_capacity(value.len() + 64);
        line.extend_from_slice(format!("set-option -p -t '{pane_id}' '{name}' '").as_bytes());
        line.extend_from_slice(value);
        line.extend_from_slice(b"'\n");
        file.write_all(&line)
            .and_then(|()| file.flush())
            .map_err(temp)?;
        let path = file.path().as_os_str();
        let args: [&OsStr; 2] = ["source-file".as_ref(), path];
        self.run(&args).map(drop)
    }

    fn set_pane_option_part(
        &self,
        pane_id: &str,
        name: &str,
        value: &OsStr,
        append: bool,
    ) -> TmuxResult<()> {
        let flags = if append { "-pa" } else { "-p" };
        let args: [&OsStr; 6] = [
            "set-option".as_ref(),
            flags.as_ref(),
            "-t".as_ref(),
            pane_id.as_ref(),
            name.as_ref(),
            &literal::word(value),
        ];
        self.run(&args).map(drop)
    }

    /// The lines of a pane's screen and history, trailing blanks trimmed.
    pub fn capture(&self, pane_id: &str) -> TmuxResult<String> {
        self.run(&["capture-pane", "-p", "-J", "-S", "-", "-t", pane_id])
    }

    /// The pane id of the caller when it runs inside a pane of this server.
    pub fn caller_pane(&self) -> Option<String> {
        let pane = std::env::var("TMUX_PANE")
            .ok()
            .filter(|p| p.starts_with('%'))?;
        let theirs = enclosing_socket(&std::env::var_os("TMUX")?)?;
        same_file(&theirs, &self.socket.file()).then_some(pane)
    }

    /// Makes sure session `name` exists, starting the server when none runs:
    /// roost's base config first, then the user's roost.conf, with
    /// `ROOST_HOME` and the scripts directory in the server's environment.
    /// Returns a warning when the user's roost.conf reported an error.
    pub fn ensure_session(&self, name: &str, start: &ServerStart) -> TmuxResult<Option<String>> {
        let exact = literal::word(format!("={name}"));
        let has: [&OsStr; 3] = ["has-session".as_ref(), "-t".as_ref(), &exact];
        if self.socket_exists() && self.run(&has).is_ok() {
            return Ok(None);
        }
        let starting = !self.is_running()?;
        if starting {
            // Whatever an earlier server kept there is not this one's.
            let _ = std::fs::remove_file(self.socket.switch_file());
        }
        let with_conf = starting && start.user_conf.is_file();
        let result = self.start_session(name, start, starting, with_conf);
        // A concurrent start may have won the race, and an error in the
        // user's roost.conf does not stop the session from being created.
        if self.run(&has).is_ok() {
            return Ok(result.err().map(|e| e.0));
        }
        // Some versions (3.0) end the whole start at an error in roost.conf:
        // start again without it, as the warning says.
        if let (true, Err(first)) = (with_conf, &result) {
            let _ = self.start_session(name, start, starting, false);
            if self.run(&has).is_ok() {
                return Ok(Some(first.0.clone()));
            }
        }
        Err(result
            .err()
            .unwrap_or_else(|| TmuxError(format!("session {name} did not start"))))
    }

    /// One `new-session` of `ensure_session`, with the server's start in
    /// front of it when `starting`, sourcing roost.conf when `with_conf`.
    /// Whatever tmux said is the error.
    fn start_session(
        &self,
        name: &str,
        start: &ServerStart,
        starting: bool,
        with_conf: bool,
    ) -> TmuxResult<String> {
        let mut cmd = self.command();
        cmd.env("ROOST_HOME", &start.home).env("PATH", &start.path);
        if starting {
            cmd.arg("-f")
                .arg(&start.base_conf)
                .args(["start-server", ";"])
                .args(terminal::setting());
            if with_conf {
                cmd.arg("source-file").arg(&start.user_conf).arg(";");
            }
            cmd.args(state::hooks())
                .args(crate::switch::keeper())
                .args(crate::switch::first_write())
                .arg(";");
        }
        cmd.args(["new-session", "-d", "-s"])
            .arg(literal::format(name));
        if let Ok(cwd) = std::env::current_dir() {
            cmd.arg("-c").arg(literal::format(cwd));
        }
        if starting {
            cmd.arg(";").args(crate::switch::first_write());
        }
        // tmux exits 0 when a later command succeeds, with roost.conf's
        // errors printed all the same: on stderr, or on stdout (a parse
        // error, depending on the version); nothing else here prints.
        match cmd.output() {
            Ok(out) => {
                let said: Vec<String> = [&out.stdout, &out.stderr]
                    .iter()
                    .flat_map(|b| {
                        String::from_utf8_lossy(b)
                            .lines()
                            .map(|l| l.trim().to_string())
                            .filter(|l| !l.is_empty())
                            .collect::<Vec<_>>()
                    })
                    .collect();
                match (said.is_empty(), out.status.success()) {
                    (true, true) => Ok(String::new()),
                    (true, false) => Err(TmuxError(format!("tmux exited with {}", out.status))),
                    (false, _) => Err(TmuxError(said.join("\n"))),
                }
            }
            Err(e) => Err(not_started(e)),
        }
    }
}

/// The escaping of `set_pane_text`: `%XX` (two upper-case hex digits) for
/// every byte outside printable ASCII and for the characters a tmux version
/// treats specially anywhere (`$ % \\ # ; { } ' " ~`).
mod verbatim {
    fn kept(b: u8) -> bool {
        (0x20..0x7f).contains(&b) && !b"$%\\#;{}'\"~".contains(&b)
    }

    pub fn encode(text: &[u8]) -> String {
        let mut out = String::with_capacity(text.len());
        for &b in text {
            if kept(b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }

    pub fn decode(stored: &[u8]) -> Vec<u8> {
        let hex = |b: u8| (b as char).to_digit(16);
        let mut out = Vec::with_capacity(stored.len());
        let mut i = 0;
        while i < stored.len() {
            let pair = stored
                .get(i + 1)
                .copied()
                .and_then(hex)
                .zip(stored.get(i + 2).copied().and_then(hex));
            match (stored[i], pair) {
                (b'%', Some((hi, lo))) => {
                    out.push((hi * 16 + lo) as u8);
                    i += 3;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        out
    }
}

/// Why tmux could not be started at all.
fn not_started(e: std::io::Error) -> TmuxError {
    match e.kind() {
        std::io::ErrorKind::NotFound => TmuxError(MISSING.into()),
        _ => TmuxError(format!("cannot run tmux: {e}")),
    }
}

/// What every command says when there is no tmux to run.
pub const MISSING: &str =
    "tmux is not installed (not found on PATH); roost runs its fleet in tmux 3.0 or later: \
     install it (apt-get install tmux, dnf install tmux, brew install tmux)";

/// Whether a tmux can be run at all (a missing tmux is not "not running").
pub fn installed() -> TmuxResult<()> {
    version().map(drop)
}

/// `tmux -V`, as it prints it.
pub fn version() -> TmuxResult<String> {
    let out = Command::new("tmux")
        .arg("-V")
        .stdin(Stdio::null())
        .output()
        .map_err(not_started)?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// What a tmux version string says: a release, a development version
/// (`next-3.8`, `master`: newer than any release), or something unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Release(u32, u32),
    Development,
    Unknown,
}

impl Version {
    /// From `tmux -V`: `tmux 3.3a`, `tmux next-3.8`, `tmux master`,
    /// `tmux openbsd-7.4`.
    pub fn parse(text: &str) -> Version {
        let Some(v) = text.split_whitespace().nth(1) else {
            return Version::Unknown;
        };
        if v.starts_with("next-") || v == "master" {
            return Version::Development;
        }
        let digits: String = v
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let mut parts = digits.split('.');
        match (
            parts.next().and_then(|p| p.parse().ok()),
            parts.next().map_or(Some(0), |p| p.parse().ok()),
        ) {
            (Some(major), Some(minor)) => Version::Release(major, minor),
            _ => Version::Unknown,
        }
    }
}

/// Loads roost's base configuration and then `user_conf` into a throwaway
/// server on a private socket, as roost's server does at its first start,
/// and returns every error tmux reports (parse errors, unknown options,
/// bad values). The throwaway server is gone when this returns.
pub fn check_conf(base_conf: &str, user_conf: &Path) -> TmuxResult<Vec<String>> {
    let temp = |e: std::io::Error| TmuxError(format!("cannot use a temp dir: {e}"));
    let dir = tempfile::tempdir().map_err(temp)?;
    let base = dir.path().join("base.conf");
    std::fs::write(&base, base_conf).map_err(temp)?;
    let scratch = Tmux {
        socket: Socket::Path(dir.path().join("check")),
    };
    let mut cmd = scratch.command();
    cmd.arg("-f")
        .arg(&base)
        .args(["new-session", "-d", "-s", "check", ";", "source-file"])
        .arg(user_conf);
    let out = cmd.output().map_err(not_started);
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            let _ = scratch.run(&["kill-server"]);
            return Err(e);
        }
    };
    // tmux reports a bad line on stdout or stderr, depending on the version.
    let mut errors: Vec<String> = [&out.stdout, &out.stderr]
        .iter()
        .flat_map(|b| {
            String::from_utf8_lossy(b)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    if errors.is_empty() && !out.status.success() {
        errors.push(format!("tmux cannot load it ({})", out.status));
    }
    let errors = conf::with_lines(&scratch, user_conf, errors);
    let _ = scratch.run(&["kill-server"]);
    Ok(errors)
}

/// What a server needs at its first start.
pub struct ServerStart {
    pub home: PathBuf,
    /// PATH for the server: the scripts directory first.
    pub path: OsString,
    pub base_conf: PathBuf,
    pub user_conf: PathBuf,
}

/// The panes of `list-panes` output in `pane_format(sep)`: tmux ends each
/// pane's fields with a newline, so every pane but the first starts with
/// one. A pane whose fields are not what tmux gives is left out.
fn parse_panes(out: &str, sep: &str) -> Vec<Pane> {
    let mut fields = out.split(sep);
    let mut panes = Vec::new();
    for n in 0.. {
        let mut record: Vec<&str> = fields.by_ref().take(PANE_FIELDS).collect();
        if record.len() < PANE_FIELDS {
            break;
        }
        if n > 0 {
            let Some(id) = record[0].strip_prefix('\n') else {
                continue;
            };
            record[0] = id;
        }
        panes.extend(parse_pane(&record));
    }
    panes
}

/// One pane's fields, in `pane_format`'s order; None for anything else.
fn parse_pane(f: &[&str]) -> Option<Pane> {
    let id = |prefix: char, s: &str| {
        let digits = s.strip_prefix(prefix)?;
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| s.to_string())
    };
    let number =
        |s: &str| (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.to_string());
    let [pane_id, window_id, session, window_index, pane_index, active, dead, dead_status, pid, state, command, window_name] =
        f
    else {
        return None;
    };
    let pane = Pane {
        id: id('%', pane_id)?,
        window_id: id('@', window_id)?,
        session: session.to_string(),
        window_index: number(window_index)?,
        pane_index: number(pane_index)?,
        active: *active == "1",
        dead: *dead == "1",
        dead_status: dead_status.parse().ok(),
        pid: pid.parse().ok(),
        state: state.to_string(),
        command: command.to_string(),
        window_name: window_name.to_string(),
    };
    // The format prints nothing but a known word there.
    (pane.state.is_empty() || state::KNOWN.contains(&pane.state.as_str())).then_some(pane)
}

fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<OsString> {
        Some(OsString::from(s))
    }

    #[test]
    fn a_socket_name_uses_dash_l_and_a_path_dash_s() {
        let name = Socket::resolve(os("fleet"), None);
        assert_eq!((name.flag(), name.value()), ("-L", OsStr::new("fleet")));
        let path = Socket::resolve(os("/tmp/x/sock"), None);
        assert_eq!(
            (path.flag(), path.value()),
            ("-S", OsStr::new("/tmp/x/sock"))
        );
        assert_eq!(Socket::resolve(os("rel/sock"), None).flag(), "-S");
    }

    #[test]
    fn tmux_is_adopted_only_for_a_socket_ending_in_slash_roost() {
        let inside = Socket::resolve(None, os("/tmp/tmux-0/roost,123,0"));
        assert_eq!(inside, Socket::Path(PathBuf::from("/tmp/tmux-0/roost")));
        for other in [
            "/tmp/tmux-0/default,1,0",
            "/tmp/tmux-0/myroost,1,0",
            "/tmp/roost/x,1,0",
            "junk",
        ] {
            assert_eq!(
                Socket::resolve(None, os(other)),
                Socket::Name("roost".into()),
                "{other}"
            );
        }
    }

    #[test]
    fn roost_socket_wins_over_tmux_and_empty_means_unset() {
        assert_eq!(
            Socket::resolve(os("mine"), os("/tmp/tmux-0/roost,1,0")),
            Socket::Name("mine".into())
        );
        assert_eq!(Socket::resolve(os(""), None), Socket::Name("roost".into()));
    }

    #[test]
    fn a_socket_path_with_commas_is_split_at_the_last_two() {
        assert_eq!(
            enclosing_socket(OsStr::new("/a,b/roost,1,2")),
            Some(PathBuf::from("/a,b/roost"))
        );
    }

    #[test]
    fn pane_text_is_stored_as_plain_ascii_and_comes_back_byte_for_byte() {
        let text: Vec<u8> =
            b"echo $HOME and ${PATH} #{x} \\b 100% \"q\" 'q' ~;\t\n\xc3\xa9\xff".to_vec();
        let stored = verbatim::encode(&text);
        assert!(stored.bytes().all(|b| (0x20..0x7f).contains(&b)));
        assert!(
            !stored.contains(['$', '#', '{', '\\', '\'', '"']),
            "{stored}"
        );
        assert_eq!(verbatim::decode(stored.as_bytes()), text);
        assert_eq!(
            verbatim::encode(b"plain words, kept."),
            "plain words, kept."
        );
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(verbatim::decode(verbatim::encode(&all).as_bytes()), all);
    }

    #[test]
    fn tmux_versions_read_as_releases_development_or_unknown() {
        assert_eq!(Version::parse("tmux 3.3a"), Version::Release(3, 3));
        assert_eq!(Version::parse("tmux 3.0a"), Version::Release(3, 0));
        assert_eq!(Version::parse("tmux 2.9"), Version::Release(2, 9));
        assert_eq!(Version::parse("tmux 3"), Version::Release(3, 0));
        assert_eq!(Version::parse("tmux next-3.8"), Version::Development);
        assert_eq!(Version::parse("tmux master"), Version::Development);
        assert_eq!(Version::parse("tmux openbsd-7.4"), Version::Unknown);
        assert_eq!(Version::parse(""), Version::Unknown);
    }

    #[test]
    fn panes_are_read_by_the_separator_alone() {
        let sep = fresh_separator();
        assert_ne!(sep, fresh_separator());
        let pane =
            |fields: &[&str]| -> String { fields.iter().map(|f| format!("{f}{sep}")).collect() };
        let alice = pane(&[
            "%3",
            "@2",
            "main",
            "1",
            "0",
            "1",
            "0",
            "",
            "4242",
            "working",
            "x\n%4\t@9",
            "name\twith tab",
        ]);
        let bob = pane(&[
            "%4", "@3", "main", "2", "0", "1", "1", "3", "4243", "", "", "bob",
        ]);
        let panes = parse_panes(&format!("{alice}\n{bob}\n"), &sep);
        assert_eq!(panes.len(), 2, "{panes:?}");
        let (a, b) = (&panes[0], &panes[1]);
        assert_eq!(a.window_name, "name\twith tab");
        assert_eq!(a.command, "x\n%4\t@9");
        assert_eq!(a.address(), "main:1.0");
        assert!(a.active && !a.dead);
        assert_eq!((a.pid, a.state.as_str()), (Some(4242), "working"));
        assert!(b.dead);
        assert_eq!((b.id.as_str(), b.dead_status), ("%4", Some(3)));
        for forged in [
            pane(&[
                "x%4", "@3", "main", "2", "0", "1", "1", "3", "4243", "", "", "bob",
            ]),
            pane(&[
                "%4", "@3", "main", "2", "0", "1", "1", "3", "4243", "done!", "", "bob",
            ]),
            pane(&[
                "%4", "3", "main", "2", "0", "1", "1", "3", "4243", "", "", "bob",
            ]),
        ] {
            assert_eq!(
                parse_panes(&format!("{forged}\n"), &sep),
                vec![],
                "{forged:?}"
            );
        }
        // A line break where tmux puts none, or none where it puts one.
        assert_eq!(parse_panes(&format!("\n{alice}\n"), &sep), vec![]);
        assert_eq!(parse_panes(&format!("{alice}{bob}\n"), &sep).len(), 1);
    }
}
