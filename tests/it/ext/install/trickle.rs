//! An https server that trickles, against roost's deadline, its stall
//! clock and the signals that end a fetch: a real TLS server on 127.0.0.1
//! (`openssl s_server`) whose answer the test writes byte by byte.

use super::*;
use std::io::Write;
use std::time::{Duration, Instant};

/// A TLS server whose one answer is `head` and then `pace`d bytes of `x`,
/// until the test ends. Returns the server, its base URL and the CA.
struct Trickle {
    server: std::process::Child,
    base: String,
    ca: PathBuf,
}

impl Drop for Trickle {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

fn pkt(text: &[u8]) -> Vec<u8> {
    let mut line = format!("{:04x}", text.len() + 4).into_bytes();
    line.extend_from_slice(text);
    line
}

/// The service line and its flush, then a packet line that announces 65,516
/// bytes: everything honest, until the body comes a byte every `pace`.
fn trickle(env: &TestEnv, pace: Duration) -> Option<Trickle> {
    let dir = tls_certs(env)?;
    let mut server = Command::new("openssl")
        .args([
            "s_server",
            "-accept",
            "127.0.0.1:0",
            "-cert",
            "leaf.pem",
            "-key",
            "leaf.key",
        ])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let port = listening_port(&mut server, "ACCEPT ");
    let mut stdin = server.stdin.take().unwrap();
    let mut head = b"HTTP/1.0 200 OK\r\n\
        Content-Type: application/x-git-upload-pack-advertisement\r\n\r\n"
        .to_vec();
    head.extend(pkt(b"# service=git-upload-pack\n"));
    head.extend_from_slice(b"0000");
    head.extend_from_slice(b"fff0");
    std::thread::spawn(move || {
        if stdin.write_all(&head).is_err() {
            return;
        }
        loop {
            std::thread::sleep(pace);
            if stdin.write_all(b"x").and_then(|_| stdin.flush()).is_err() {
                return;
            }
        }
    });
    Some(Trickle {
        server,
        base: format!("https://127.0.0.1:{port}/"),
        ca: dir.join("ca.pem"),
    })
}

/// git's own http-backend over TLS serving the test's remotes; with
/// `trickle`, a fetch's pack comes a byte a second after its first 64.
fn git_https(env: &TestEnv, trickle: bool) -> Option<Trickle> {
    let dir = tls_certs(env)?;
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/git-https-server"
    );
    let mut cmd = Command::new(fixture);
    cmd.arg(env.path("remote"))
        .arg(dir.join("leaf.pem"))
        .arg(dir.join("leaf.key"));
    if trickle {
        cmd.arg("trickle");
    }
    let mut server = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let port = listening_port(&mut server, "LISTEN ");
    Some(Trickle {
        server,
        base: format!("https://127.0.0.1:{port}/"),
        ca: dir.join("ca.pem"),
    })
}

fn install_from(env: &TestEnv, t: &Trickle) -> Command {
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", &t.base)
        .env_remove("SSL_CERT_DIR")
        .env("SSL_CERT_FILE", &t.ca);
    cmd
}

fn fetch_dirs(env: &TestEnv) -> Vec<PathBuf> {
    std::fs::read_dir(env.path("data/roost/ext"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .starts_with(".fetch-")
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A byte a second inside one packet line: the conversation ends at its
/// deadline (8 s here), however the bytes keep coming, and says so.
#[test]
fn a_packet_line_that_trickles_ends_at_the_deadline() {
    let env = TestEnv::new();
    let Some(t) = trickle(&env, Duration::from_secs(1)) else {
        return;
    };
    let mut cmd = install_from(&env, &t);
    cmd.env("ROOST_EXT_STALL_SECS", "3")
        .env("ROOST_EXT_DEADLINE_SECS", "8");
    let run = bounded(cmd, Duration::from_secs(40));
    let err = refused(&run.out);
    assert!(
        err.lines().next().unwrap().ends_with(
            ": the conversation with the remote passed 8 s, the limit for one; giving up"
        ),
        "{err}"
    );
    assert!(run.took >= Duration::from_secs(8), "{:?}", run.took);
    assert!(run.took < Duration::from_secs(12), "{:?}", run.took);
    assert!(fetch_dirs(&env).is_empty(), "{:?}", fetch_dirs(&env));
    assert!(!lock_file(&env).exists());
}

/// A steady, slow server (a byte every 0.5 s) is not silent: it is not
/// called stalled, only ended by the deadline.
#[test]
fn a_slow_steady_server_is_not_called_stalled() {
    let env = TestEnv::new();
    let Some(t) = trickle(&env, Duration::from_millis(500)) else {
        return;
    };
    let mut cmd = install_from(&env, &t);
    cmd.env("ROOST_EXT_STALL_SECS", "3")
        .env("ROOST_EXT_DEADLINE_SECS", "9");
    let run = bounded(cmd, Duration::from_secs(40));
    let err = refused(&run.out);
    assert!(!err.contains("sent nothing"), "{err}");
    assert!(err.contains("passed 9 s, the limit for one"), "{err}");
    assert!(run.took >= Duration::from_secs(9), "{:?}", run.took);
}

/// git over https, for real: an install from git's http-backend behind TLS.
#[test]
fn an_install_over_https_from_git_s_own_server_works() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let Some(t) = git_https(&env, false) else {
        return;
    };
    let out = install_from(&env, &t).output().unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(env.ok(["note", "a"]), "note [a]\n");
}

/// SIGTERM, SIGHUP and SIGINT while the pack trickles (the fetch has made
/// its directory): roost ends at once (130, as when interrupted), leaving
/// no `.fetch-*` directory.
#[test]
fn a_signal_during_a_trickling_fetch_ends_it_at_once_and_removes_what_it_made() {
    use nix::sys::signal::{kill, Signal};
    for signal in [Signal::SIGTERM, Signal::SIGHUP, Signal::SIGINT] {
        let env = TestEnv::new();
        let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
        // Enough that the pack comes in packet lines of 64 KiB, the first
        // of which trickles.
        let noise: String = (0..200_000u32)
            .map(|i| char::from(b'a' + (i.wrapping_mul(2_654_435_761) >> 27) as u8 % 26))
            .collect();
        f.write("noise.txt", &noise);
        f.commit("noise");
        let Some(t) = git_https(&env, true) else {
            return;
        };
        let mut cmd = install_from(&env, &t);
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        assert!(
            wait_until(Duration::from_secs(30), || !fetch_dirs(&env).is_empty()),
            "no fetch began"
        );
        // The pack trickles by then.
        std::thread::sleep(Duration::from_millis(2500));
        let sent = Instant::now();
        kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
        let ended = wait_until(Duration::from_secs(3), || {
            child.try_wait().unwrap().is_some()
        });
        if !ended {
            let _ = child.kill();
        }
        let out = child.wait_with_output().unwrap();
        assert!(
            ended,
            "{signal:?}: still running 3 s later: {}",
            describe(&out)
        );
        assert!(sent.elapsed() < Duration::from_secs(3));
        assert_eq!(
            exit_of(&out),
            Exit::Interrupted,
            "{signal:?}: {}",
            describe(&out)
        );
        assert!(
            fetch_dirs(&env).is_empty(),
            "{signal:?}: {:?}",
            fetch_dirs(&env)
        );
        assert!(!lock_file(&env).exists());
    }
}

/// A pack that trickles ends at the deadline too, in install and in
/// `ext repair` (which fetches the pin again from the recorded source).
#[test]
fn a_trickling_pack_ends_at_the_deadline_in_install_and_repair() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let Some(t) = git_https(&env, true) else {
        return;
    };
    let mut cmd = install_from(&env, &t);
    cmd.env("ROOST_EXT_STALL_SECS", "3")
        .env("ROOST_EXT_DEADLINE_SECS", "6");
    let run = bounded(cmd, Duration::from_secs(40));
    let err = refused(&run.out);
    assert!(err.contains("passed 6 s, the limit for one"), "{err}");
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);
    assert!(fetch_dirs(&env).is_empty(), "{:?}", fetch_dirs(&env));
    // Installed from file://, then its record pointed at the trickling
    // server and its clone taken away: repair meets the same pack.
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    let lock = std::fs::read_to_string(lock_file(&env)).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&lock).unwrap();
    doc["note"]["url"] = serde_json::Value::String(format!("{}owner/roost-note", t.base));
    std::fs::write(lock_file(&env), serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    std::fs::remove_dir_all(env.path("data/roost/ext/note")).unwrap();
    let mut cmd = env.roost(["ext", "repair", "note"]);
    cmd.env_remove("SSL_CERT_DIR")
        .env("SSL_CERT_FILE", &t.ca)
        .env("ROOST_EXT_STALL_SECS", "3")
        .env("ROOST_EXT_DEADLINE_SECS", "6");
    let run = bounded(cmd, Duration::from_secs(40));
    assert_eq!(exit_of(&run.out), Exit::Failed, "{}", describe(&run.out));
    let err = String::from_utf8_lossy(&run.out.stderr);
    assert!(err.contains("passed 6 s, the limit for one"), "{err}");
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);
    assert!(fetch_dirs(&env).is_empty(), "{:?}", fetch_dirs(&env));
}
