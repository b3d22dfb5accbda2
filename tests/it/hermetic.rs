//! roost writes nothing outside its own places: a representative session
//! runs under strace, and every path opened for writing, created, renamed or
//! removed must lie in the test's temp dir, the demo's sandbox, or a device.

use crate::common::*;

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SYSCALLS: &str = "openat,creat,mkdir,mkdirat,rename,renameat,renameat2,symlink,symlinkat,unlink,unlinkat,link,linkat";

/// The steps, each reporting how it ended; the server is killed whatever
/// happened before, or strace would wait for it forever.
const SCRIPT: &str = r#"
R=$1
step() { name=$1; shift; if "$@" >/dev/null; then echo "ok $name"; else echo "FAILED $name ($?)"; fi; }
step spawn "$R" spawn alice cat
step spawn-agent "$R" spawn bob 'roost state working; roost reply hi; roost whoami; sleep 100'
step send "$R" send alice 'hello there'
step read "$R" read alice
step status "$R" status
step status-json "$R" status --json
step kill "$R" kill
step demo "$R" demo
"#;

fn strace_usable() -> Result<(), String> {
    match Command::new("strace")
        .args(["-f", "-qq", "-o", "/dev/null", "true"])
        .stdin(Stdio::null())
        .output()
    {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err("strace not installed".into()),
        Err(e) => Err(format!("strace cannot run: {e}")),
        Ok(out) if !out.status.success() => Err(format!(
            "strace cannot trace here: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(_) => Ok(()),
    }
}

#[test]
fn nothing_is_written_outside_the_test_dir_and_the_demo_sandbox() {
    if let Err(why) = strace_usable() {
        skip_without(&why);
        return;
    }
    let env = TestEnv::new();
    let trace = env.path("strace.out");
    let mut child = Command::new("strace")
        .args(["-f", "-qq", "-y", "-e"])
        .arg(format!("trace={SYSCALLS}"))
        .arg("-o")
        .arg(&trace)
        .args(["sh", "-c", SCRIPT, "sh", ROOST])
        .env_clear()
        .envs(env.vars())
        .current_dir(env.path("work"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(90);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = env.tmux(&["kill-server"]);
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("the traced session did not end: {}", describe(&out));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let steps = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        steps,
        "ok spawn\nok spawn-agent\nok send\nok read\nok status\nok status-json\nok kill\nok demo\n",
        "{}",
        describe(&out)
    );

    let text = std::fs::read_to_string(&trace).unwrap();
    let written = written_paths(&text);
    let root = env.dir.path();
    let mut outside = Vec::new();
    let (mut in_test_dir, mut in_sandbox) = (0, 0);
    for (path, call) in &written {
        if path.starts_with(root) {
            in_test_dir += 1;
        } else if is_demo_sandbox(path) {
            in_sandbox += 1;
        } else if !is_device(path) {
            outside.push(format!("{}    ({call})", path.display()));
        }
    }
    outside.sort();
    outside.dedup();
    assert!(
        outside.is_empty(),
        "written outside the test dir and the demo sandbox:\n{}",
        outside.join("\n")
    );
    // The trace was read: roost's own files and the demo's sandbox show up.
    assert!(
        in_test_dir > 0 && in_sandbox > 0,
        "nothing parsed from {}",
        trace.display()
    );
    let scripts = root.join("data/roost/home/bin/roost");
    assert!(
        written.iter().any(|(p, _)| p == &scripts),
        "{} not seen",
        scripts.display()
    );
}

fn is_demo_sandbox(path: &Path) -> bool {
    let mut parts = path.components();
    parts.next() == Some(Component::RootDir)
        && parts.next() == Some(Component::Normal("tmp".as_ref()))
        && matches!(parts.next(), Some(Component::Normal(dir)) if dir.to_string_lossy().starts_with("roost-demo-"))
}

fn is_device(path: &Path) -> bool {
    ["/dev/null", "/dev/tty", "/dev/ptmx"]
        .iter()
        .any(|d| path == Path::new(d))
        || path.starts_with("/dev/pts/")
        || path.starts_with("/proc/")
}

/// Every path the trace shows being opened for writing, created, renamed or
/// removed (attempts included), with the call that did it.
fn written_paths(trace: &str) -> Vec<(PathBuf, String)> {
    let mut pending: HashMap<String, String> = HashMap::new();
    let mut found = Vec::new();
    for line in trace.lines() {
        let Some((pid, rest)) = line.split_once(char::is_whitespace) else {
            continue;
        };
        let rest = rest.trim_start();
        // One call interrupted by another process's: rejoin its halves.
        let call = if let Some(head) = rest.strip_suffix(" <unfinished ...>") {
            pending.insert(pid.to_string(), head.to_string());
            continue;
        } else if let Some(tail) = rest.strip_prefix("<... ") {
            let Some(head) = pending.remove(pid) else {
                continue;
            };
            let tail = tail.split_once(" resumed>").map_or("", |(_, t)| t);
            format!("{head}{tail}")
        } else {
            rest.to_string()
        };
        let Some((name, args)) = call.split_once('(') else {
            continue;
        };
        if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            continue; // signals, exits
        }
        let args = split_args(args);
        let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
        let at = |dir: usize, path: usize| resolve(Some(arg(dir)), arg(path));
        let plain = |path: usize| resolve(None, arg(path));
        let paths: Vec<Option<PathBuf>> = match name {
            "openat" if writes(arg(2)) => vec![at(0, 1)],
            "creat" | "mkdir" | "unlink" => vec![plain(0)],
            "mkdirat" | "unlinkat" => vec![at(0, 1)],
            "rename" => vec![plain(0), plain(1)],
            "renameat" | "renameat2" => vec![at(0, 1), at(2, 3)],
            "symlink" | "link" => vec![plain(1)],
            "symlinkat" => vec![at(1, 2)],
            "linkat" => vec![at(2, 3)],
            _ => vec![],
        };
        for path in paths {
            match path {
                Some(p) => found.push((p, call.clone())),
                None => found.push((PathBuf::from("<unresolvable>"), call.clone())),
            }
        }
    }
    found
}

fn writes(flags: &str) -> bool {
    flags
        .split('|')
        .any(|f| matches!(f, "O_WRONLY" | "O_RDWR" | "O_CREAT" | "O_TRUNC"))
}

/// The top-level arguments of a call as strace prints it, up to the `)`.
fn split_args(s: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let (mut quoted, mut escaped, mut angle) = (false, false, 0);
    for c in s.chars() {
        if quoted {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            '<' => angle += 1,
            '>' if angle > 0 => angle -= 1,
            ')' if angle == 0 => break,
            ',' if angle == 0 => {
                args.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        args.push(cur.trim().to_string());
    }
    args
}

/// A path argument made absolute: against the directory `-y` shows for the
/// dirfd (`AT_FDCWD</cwd>`, `3</dir>`). `None` when it cannot be known.
fn resolve(dirfd: Option<&str>, path: &str) -> Option<PathBuf> {
    let path = unquote(path)?;
    if path.is_absolute() {
        return Some(normalize(&path));
    }
    let dir = dirfd?;
    let dir = dir.split_once('<')?.1.strip_suffix('>')?;
    let dir = dir.strip_suffix(" (deleted)").unwrap_or(dir);
    Some(normalize(&Path::new(dir).join(path)))
}

/// strace's quoted string, its escapes undone.
fn unquote(s: &str) -> Option<PathBuf> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut bytes = Vec::new();
    let mut it = inner.bytes().peekable();
    while let Some(b) = it.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match it.next()? {
            b'n' => bytes.push(b'\n'),
            b't' => bytes.push(b'\t'),
            b'r' => bytes.push(b'\r'),
            b'v' => bytes.push(0x0b),
            b'f' => bytes.push(0x0c),
            b'x' => {
                let hex: Vec<u8> = (0..2).filter_map(|_| it.next()).collect();
                bytes.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
            }
            d @ b'0'..=b'7' => {
                let mut v = u32::from(d - b'0');
                for _ in 0..2 {
                    match it.peek() {
                        Some(&o @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(o - b'0');
                            it.next();
                        }
                        _ => break,
                    }
                }
                bytes.push(v as u8);
            }
            other => bytes.push(other),
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

/// `.` and `..` taken out without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_trace_reader_resolves_relative_paths_and_escapes() {
    let trace = "\
12  openat(AT_FDCWD</w/work>, \"../x\\\"y\", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 3</w/x\"y>
12  openat(AT_FDCWD</w>, \"/etc/passwd\", O_RDONLY|O_CLOEXEC) = 3</etc/passwd>
13  mkdir(\"/tmp/a,b\", 0777 <unfinished ...>
12  unlinkat(4</tmp/roost-demo-1>, \"tmux\", AT_REMOVEDIR) = 0
13  <... mkdir resumed>)             = 0
14  renameat(AT_FDCWD</w>, \"a\", AT_FDCWD</w>, \"/b\") = 0
14  --- SIGHUP {si_signo=SIGHUP} ---
14  +++ killed by SIGHUP +++
";
    let got: Vec<PathBuf> = written_paths(trace).into_iter().map(|(p, _)| p).collect();
    let want: Vec<PathBuf> = [
        "/w/x\"y",
        "/tmp/roost-demo-1/tmux",
        "/tmp/a,b",
        "/w/a",
        "/b",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    assert_eq!(got, want);
    assert!(is_demo_sandbox(Path::new("/tmp/roost-demo-abc/x")));
    assert!(!is_demo_sandbox(Path::new("/tmp/roost-demolition")));
    assert!(!is_demo_sandbox(Path::new("/var/tmp/roost-demo-abc")));
}
