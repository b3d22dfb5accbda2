//! `roost ext install` meets network trouble: missing repositories,
//! unreachable or silent hosts, ssh that must never prompt, TLS trust,
//! credentials, other schemes, floods of stderr, and the one-line failure.

use crate::common::*;
use crate::ext::install::{
    listening_port, local_ssh_path, note_repo, read_lock, tls_certs, tls_server_with, ChildGuard,
};

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// An https server on 127.0.0.1 (openssl s_server, which speaks TLS and
/// then answers any request with a status page, not git), its certificate
/// signed by a throwaway CA. Returns the server, the base URL and the CA.
fn tls_server(env: &TestEnv) -> Option<(ChildGuard, String, PathBuf)> {
    tls_server_with(env, &["-www"])
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_missing_repository_is_one_line_naming_the_url_and_a_hint() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", "file:///nonexistent/");
    let Run { out, took, .. } = bounded(cmd, Duration::from_secs(10));
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext install: cannot resolve HEAD at file:///nonexistent/owner/roost-note: \
         no repository there (/nonexistent/owner/roost-note does not exist)\n\
         check the path\n"
    );
    assert!(took < Duration::from_secs(10));
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(&env), before);
}

#[test]
fn an_unreachable_ssh_host_is_one_line_naming_the_url_and_never_prompts() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", "ssh://127.0.0.1:1/");
    let Run { out, took, .. } = bounded(cmd, Duration::from_secs(10));
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext install: cannot resolve HEAD at ssh://127.0.0.1:1/owner/roost-note: \
         127.0.0.1:1 could not be reached (ssh: connect to host 127.0.0.1 port 1: Connection refused)\n\
         check your connection, a proxy or firewall, and the address, then try again\n"
    );
    assert!(took < Duration::from_secs(10));
    assert!(out.stdout.is_empty());
    assert_eq!(snapshot(&env), before);
}

#[test]
fn an_ssh_base_works_and_ssh_never_prompts_nor_waits_forever() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &["fleet"]);
    // An `ssh` that logs its arguments and runs the remote command here.
    let bin = env.path("ssh-bin");
    let log = env.path("ssh-log");
    std::fs::create_dir_all(&bin).unwrap();
    let ssh = bin.join("ssh");
    std::fs::write(
        &ssh,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\n\
             while [ $# -gt 0 ]; do case \"$1\" in -o) shift 2;; -*) shift;; *) break;; esac; done\n\
             shift\nexec sh -c \"$*\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let base = format!("ssh://example.invalid{}/", env.path("remote").display());
    let out = env
        .roost([
            "ext",
            "install",
            "owner/roost-note",
            "--yes",
            "--grant",
            "fleet",
        ])
        .env("PATH", path)
        .env("ROOST_EXT_GIT_BASE", &base)
        .output()
        .unwrap();
    succeeded(&out);
    assert_eq!(read_lock(&env)["note"]["commit"], f.head());
    assert_eq!(env.ok(["note"]), "note\n");
    let calls = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        calls.lines().count(),
        1,
        "one connection for the lookup and the fetch: {calls}"
    );
    for call in calls.lines() {
        for option in ["BatchMode=yes", "ConnectTimeout=", "ServerAliveInterval="] {
            assert!(call.contains(option), "{option} missing: {call}");
        }
        assert!(call.contains("git-upload-pack"), "{call}");
    }
}

#[test]
fn a_server_that_never_answers_is_given_up_on_in_bounded_time() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    // Accepts connections and never says a word (not even TLS).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            held.push(conn);
        }
    });
    let base = format!("https://127.0.0.1:{port}/");
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", &base);
    let out = bounded(cmd, Duration::from_secs(50)).out;
    let err = refused(&out);
    assert_eq!(
        err,
        format!(
            "roost ext install: cannot resolve HEAD at {base}owner/roost-note: \
             127.0.0.1:{port} could not be reached (timed out)\n\
             check your connection, a proxy or firewall, and the address, then try again\n"
        )
    );
    assert_eq!(snapshot(&env), before);
}

#[test]
fn https_refuses_an_untrusted_certificate_and_talks_tls_with_a_trusted_one() {
    let env = TestEnv::new();
    let Some((_server, base, ca)) = tls_server(&env) else {
        return;
    };
    let before = snapshot(&env);
    let install = |trust: Option<&Path>, verbose: bool| {
        let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
        cmd.env("ROOST_EXT_GIT_BASE", &base)
            .env_remove("SSL_CERT_DIR");
        match trust {
            Some(ca) => cmd.env("SSL_CERT_FILE", ca),
            None => cmd.env_remove("SSL_CERT_FILE"),
        };
        if verbose {
            cmd.env("ROOST_VERBOSE", "1");
        }
        refused(&bounded(cmd, Duration::from_secs(30)).out)
    };
    let host = base.trim_start_matches("https://").trim_end_matches('/');
    let prefix = format!("roost ext install: cannot resolve HEAD at {base}owner/roost-note: ");
    // Signed by nobody the system trusts: refused at the handshake, in one
    // line and a hint; the cause itself only when asked for.
    let err = install(None, false);
    assert_eq!(
        err,
        format!(
            "{prefix}a secure (TLS) connection to {host} failed\n\
             check the system's certificates and clock, and that the address is an https git server\n"
        )
    );
    let err = install(None, true);
    assert!(err.starts_with(&prefix), "{err}");
    assert!(
        err.contains("invalid peer certificate: UnknownIssuer"),
        "{err}"
    );
    // Trusted through SSL_CERT_FILE: TLS completes, and what fails is that
    // the server does not speak git.
    let err = install(Some(&ca), false);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.starts_with(&prefix), "{err}");
    assert!(!err.contains("certificate"), "{err}");
    assert!(err.contains("'dumb' protocol is not supported"), "{err}");
    assert_eq!(snapshot(&env), before);
}

#[test]
fn what_ssh_and_the_remote_print_reaches_the_terminal_neutralised() {
    let env = TestEnv::new();
    note_repo(&env).commit("first");
    // A stand-in for ssh, first on PATH: it prints what a hostile server's
    // banner or error could (a title change, a screen clear, a bidi
    // override), then runs the remote command on this machine, joining
    // the words after the host as ssh does.
    let path = local_ssh_path(
        &env,
        r"printf 'remote: hi \033]0;owned\007 \033[2J \342\200\256txt\r\n' >&2",
    );
    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("PATH", &path)
        .env(
            "ROOST_EXT_GIT_BASE",
            format!("ssh://example.invalid{}/", env.path("remote").display()),
        )
        .output()
        .unwrap();
    succeeded(&out);
    // Once (one connection for the lookup and the fetch): every byte visible.
    let line = "remote: hi \\x1b]0;owned\\x07 \\x1b[2J \\u{202e}txt\n";
    assert_eq!(String::from_utf8(out.stderr).unwrap(), line);
    let out = env.roost(["note"]).output().unwrap();
    assert_eq!(succeeded(&out), "note\n");
}

#[test]
fn a_host_that_wants_credentials_is_refused_without_asking() {
    let env = TestEnv::new();
    let before = snapshot(&env);
    let bin = env.path("ssh-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ssh = bin.join("ssh");
    std::fs::write(
        &ssh,
        "#!/bin/sh\necho 'git@example.invalid: Permission denied (publickey).' >&2\nexit 255\n",
    )
    .unwrap();
    std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env(
        "PATH",
        format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
    )
    .env("ROOST_EXT_GIT_BASE", "ssh://example.invalid/");
    let out = bounded(cmd, Duration::from_secs(10)).out;
    let err = refused(&out);
    assert_eq!(
        err,
        "roost ext install: cannot resolve HEAD at ssh://example.invalid/owner/roost-note: \
         example.invalid refused access: authentication failed\n\
         set up ssh keys or git credentials for it (roost never asks for a password); \
         a private repository needs them\n"
    );
    assert_eq!(snapshot(&env), before);
}

#[test]
fn a_scheme_other_than_file_https_ssh_is_refused() {
    let env = TestEnv::new();
    let marker = env.path("ext-transport-ran");
    let ext = format!("ext::sh -c touch% {}", marker.display());
    for base in ["git://127.0.0.1:1/", "http://127.0.0.1:1/", &ext] {
        let out = env
            .roost(["ext", "install", "owner/roost-note", "--yes"])
            .env("ROOST_EXT_GIT_BASE", base)
            .output()
            .unwrap();
        let err = refused(&out);
        assert!(
            err.starts_with(&format!(
                "roost ext install: ROOST_EXT_GIT_BASE={base} is not a base roost can fetch from"
            )),
            "{err}"
        );
        assert_eq!(err.lines().count(), 2, "{err}");
    }
    assert!(!marker.exists());
    assert!(!env.path("data/roost").exists());
}

/// An ssh remote that floods stderr with 64 MiB and no newline: what is
/// shown is cut (4 KiB a line, 64 KiB in all), nothing holds the flood, and
/// the install still completes over the same connection.
#[test]
fn an_ssh_stderr_flood_is_cut_and_never_held() {
    let env = TestEnv::new();
    note_repo(&env).commit("first");
    let path = local_ssh_path(&env, r"head -c 67108864 /dev/zero | tr '\000' 'A' >&2");
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("PATH", &path).env(
        "ROOST_EXT_GIT_BASE",
        format!("ssh://example.invalid{}/", env.path("remote").display()),
    );
    let run = bounded(cmd, Duration::from_secs(60));
    succeeded(&run.out);
    assert!(
        run.out.stderr.len() <= 80 * 1024,
        "{} bytes of stderr",
        run.out.stderr.len()
    );
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    assert_eq!(succeeded(&env.roost(["note"]).output().unwrap()), "note\n");
}

/// A source that cannot be read is one line saying what happened and one
/// saying what to do; the whole error only with -v or ROOST_VERBOSE.
#[test]
fn a_source_failure_is_one_line_and_a_hint_and_the_chain_only_when_verbose() {
    let env = TestEnv::new();
    let base = format!("file://{}/", env.path("nowhere").display());
    let what = format!(
        "roost ext install: cannot resolve HEAD at {base}o/r: no repository there ({}/o/r does not exist)\n\
         check the path\n",
        env.path("nowhere").display()
    );
    let quiet = env
        .roost(["ext", "install", "o/r", "--yes"])
        .env("ROOST_EXT_GIT_BASE", &base)
        .output()
        .unwrap();
    assert_eq!(exits(&quiet, Exit::Failed), what);
    let chain = format!(
        "roost ext install: the whole error: no repository there ({}/o/r does not exist)\n",
        env.path("nowhere").display()
    );
    for (args, var) in [
        (&["ext", "install", "-v", "o/r", "--yes"][..], ""),
        (&["ext", "--verbose", "install", "o/r", "--yes"][..], ""),
        (&["ext", "install", "o/r", "--yes"][..], "1"),
    ] {
        let out = env
            .roost(args)
            .env("ROOST_EXT_GIT_BASE", &base)
            .env("ROOST_VERBOSE", var)
            .output()
            .unwrap();
        assert_eq!(
            exits(&out, Exit::Failed),
            format!("{what}{chain}"),
            "{args:?} {var:?}"
        );
    }
    assert!(!lock_file(&env).exists());
}

/// git's smart HTTP over TLS on 127.0.0.1: `git http-backend` behind a
/// small python server, serving the bare repositories under `remote/`
/// (chunked request bodies decoded, protocol v2 passed on). Returns the
/// server, the base URL and the CA that signed its certificate.
fn https_git_server(env: &TestEnv) -> Option<(ChildGuard, String, PathBuf)> {
    let dir = tls_certs(env)?;
    std::fs::write(dir.join("serve.py"), HTTPS_GIT).unwrap();
    let server = Command::new("python3")
        .arg(dir.join("serve.py"))
        .arg(env.path("remote"))
        .current_dir(&dir)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut server) = server else {
        skip_without("python3 is not installed");
        return None;
    };
    let port = listening_port(&mut server, "LISTENING ");
    Some((
        ChildGuard(server),
        format!("https://127.0.0.1:{port}/"),
        dir.join("ca.pem"),
    ))
}

const HTTPS_GIT: &str = r#"
import http.server, os, ssl, subprocess, sys

ROOT = sys.argv[1]

class Git(http.server.BaseHTTPRequestHandler):
    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def serve(self):
        path, _, query = self.path.partition("?")
        data = self.body() if self.command == "POST" else b""
        env = {
            "PATH": os.environ["PATH"],
            "GIT_PROJECT_ROOT": ROOT,
            "GIT_HTTP_EXPORT_ALL": "1",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": "/dev/null",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(data)),
            "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
        }
        out = subprocess.run(["git", "http-backend"], input=data, env=env,
                             stdout=subprocess.PIPE).stdout
        head, _, rest = out.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.decode().split("\r\n"):
            key, _, value = line.partition(":")
            if key.lower() == "status":
                status = int(value.split()[0])
            elif key:
                headers.append((key, value.strip()))
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)

    do_GET = serve
    do_POST = serve

    def log_message(self, *args):
        pass

server = http.server.HTTPServer(("127.0.0.1", 0), Git)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain("leaf.pem", "leaf.key")
server.socket = context.wrap_socket(server.socket, server_side=True)
print("LISTENING 127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
"#;

/// Installing over https from a real git server: the clone is the pinned
/// commit, `verify` agrees, and the command runs.
#[test]
fn an_extension_installs_over_https_from_a_real_git_server() {
    let env = TestEnv::new();
    let f = note_repo(&env);
    let commit = f.commit("base");
    let Some((_server, base, ca)) = https_git_server(&env) else {
        return;
    };
    let mut cmd = env.roost(["ext", "install", "owner/roost-note", "--yes"]);
    cmd.env("ROOST_EXT_GIT_BASE", &base)
        .env_remove("SSL_CERT_DIR")
        .env("SSL_CERT_FILE", &ca);
    let run = bounded(cmd, Duration::from_secs(60));
    assert!(run.out.status.success(), "{}", describe(&run.out));
    assert!(
        stdout(&run.out).contains(&format!("installed note at {}", &commit[..7])),
        "{}",
        describe(&run.out)
    );
    let verify = env.roost(["ext", "verify", "note"]).output().unwrap();
    assert!(verify.status.success(), "{}", describe(&verify));
    let ran = env.roost(["note"]).output().unwrap();
    assert_eq!(stdout(&ran), "note\n", "{}", describe(&ran));
}
