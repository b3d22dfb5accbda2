//! The socket rule: which tmux server roost talks to.

use crate::common::*;

use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

/// The socket file of a `-L NAME` server under the test's private TMUX_TMPDIR.
fn named_socket(env: &TestEnv, name: &str) -> PathBuf {
    env.path("tmux")
        .join(format!("tmux-{}", unsafe_uid()))
        .join(name)
}

/// A tmux server other than the test's own (`-S PATH` or `-L NAME`), killed
/// on drop so a failing test leaves nothing running.
struct Server<'a> {
    env: &'a TestEnv,
    socket: String,
}

impl<'a> Server<'a> {
    fn path(env: &'a TestEnv, path: PathBuf) -> Server<'a> {
        Server {
            env,
            socket: path.to_string_lossy().into_owned(),
        }
    }

    fn name(env: &'a TestEnv, name: &str) -> Server<'a> {
        Server {
            env,
            socket: name.to_string(),
        }
    }

    fn tmux(&self, args: &[&str]) -> Output {
        self.env.tmux_on(&self.socket, args)
    }

    fn tmux_ok(&self, args: &[&str]) -> String {
        self.env.tmux_ok_on(&self.socket, args)
    }

    fn windows(&self) -> String {
        self.tmux_ok(&["list-windows", "-a", "-F", "#{session_name}:#{window_name}"])
    }
}

impl Drop for Server<'_> {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

#[test]
fn a_socket_name_puts_the_server_under_the_private_tmux_tmpdir() {
    let env = TestEnv::with_socket_name("fleet");
    let socket = named_socket(&env, "fleet");
    assert!(!socket.exists());
    env.spawn("alice", "sleep 100");
    assert!(socket.exists(), "no socket at {}", socket.display());
    let status = env.ok(["status"]);
    assert_eq!(status.lines().next(), Some("roost: running (socket=fleet)"));
    assert!(
        !named_socket(&env, "roost").exists(),
        "the default name was used too"
    );
}

#[test]
fn a_socket_path_puts_the_server_at_that_path() {
    let env = TestEnv::new();
    let socket = env.path("roost");
    assert_eq!(env.socket, socket.to_string_lossy());
    env.spawn("alice", "sleep 100");
    assert!(socket.exists(), "no socket at {}", socket.display());
    assert!(
        !named_socket(&env, "roost").exists(),
        "the default name was used too"
    );
    let status = env.ok(["status"]);
    assert_eq!(
        status.lines().next().unwrap(),
        format!("roost: running (socket={})", socket.display())
    );
}

#[test]
fn inside_a_roost_server_tmux_names_the_server_when_roost_socket_is_unset() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 100");
    let socket = env.path("roost");
    let tmux = format!("{},123,0", socket.display());
    let status = env
        .roost(["status"])
        .env_remove("ROOST_SOCKET")
        .env("TMUX", &tmux)
        .output()
        .unwrap();
    assert_eq!(exit_of(&status), Exit::Ok, "{}", describe(&status));
    let text = String::from_utf8_lossy(&status.stdout);
    assert_eq!(
        text.lines().next(),
        Some(format!("roost: running (socket={})", socket.display()).as_str())
    );
    let out = env
        .roost(["spawn", "bob", "sleep 100"])
        .env_remove("ROOST_SOCKET")
        .env("TMUX", &tmux)
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let windows = env.tmux_ok(&["list-windows", "-t", "=main", "-F", "#{window_name}"]);
    assert_eq!(windows, "sh\nalice\nbob\n");
    assert!(
        !named_socket(&env, "roost").exists(),
        "the default name was used"
    );
}

#[test]
fn a_pane_of_the_roost_server_finds_its_server_through_tmux() {
    let env = TestEnv::new();
    let file = env.path("status.txt");
    // The pane's own $TMUX, as tmux sets it, with ROOST_SOCKET gone.
    env.spawn(
        "alice",
        &format!(
            "env -u ROOST_SOCKET roost status > '{}.tmp' && mv '{0}.tmp' '{0}'; sleep 100",
            file.display()
        ),
    );
    let mut text = String::new();
    let ok = wait_until(Duration::from_secs(10), || {
        text = std::fs::read_to_string(&file).unwrap_or_default();
        !text.is_empty()
    });
    assert!(ok, "the pane never wrote its status");
    assert_eq!(
        text.lines().next(),
        Some(format!("roost: running (socket={})", env.path("roost").display()).as_str())
    );
}

#[test]
fn a_tmux_socket_not_ending_in_roost_is_never_used() {
    let env = TestEnv::new();
    let everyday = Server::path(&env, env.path("default"));
    everyday.tmux_ok(&[
        "new-session",
        "-d",
        "-s",
        "mine",
        "-n",
        "everyday",
        "sleep 100",
    ]);
    let pid = everyday.tmux_ok(&["display-message", "-p", "#{pid}"]);
    let tmux = format!("{},{},0", everyday.socket, pid.trim());
    let fallback = Server::name(&env, "roost");

    let run = |args: &[&str]| {
        env.roost(args)
            .env_remove("ROOST_SOCKET")
            .env("TMUX", &tmux)
            .env("TMUX_PANE", "%0")
            .output()
            .unwrap()
    };
    let out = run(&["spawn", "alice", "sleep 100"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        named_socket(&env, "roost").exists(),
        "no server under the private TMUX_TMPDIR"
    );
    assert_eq!(fallback.windows(), "main:sh\nmain:alice\n");
    assert_eq!(
        everyday.windows(),
        "mine:everyday\n",
        "the everyday server was touched"
    );

    let out = run(&["status"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().next(), Some("roost: running (socket=roost)"));

    let out = run(&["kill"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(everyday
        .tmux(&["has-session", "-t", "=mine"])
        .status
        .success());
    assert!(!fallback.tmux(&["has-session"]).status.success());
}

#[test]
fn a_missing_socket_directory_is_named_with_what_to_do() {
    let env = TestEnv::new();
    let dir = env.path("nonexist");
    let socket = dir.join("sock");
    let out = env
        .roost(["up"])
        .env("ROOST_SOCKET", &socket)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost up: cannot start session main: the socket's directory {d} does not exist\n\
             create it (mkdir -p {d}), or set ROOST_SOCKET to a path in a directory you can write\n",
            d = dir.display()
        )
    );
    let out = env
        .roost(["doctor"])
        .env("ROOST_SOCKET", &socket)
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let want = format!(
        "FAIL  socket -S {s}: the socket's directory {d} does not exist\n      create it (mkdir -p {d}), or set ROOST_SOCKET to a path in a directory you can write\n",
        s = socket.display(),
        d = dir.display()
    );
    assert!(text.contains(&want), "want {want:?} in\n{text}");
    assert!(!dir.exists());
}

#[test]
fn a_tmux_tmpdir_that_is_not_a_usable_directory_is_named() {
    let env = TestEnv::new();
    let file = env.write("not-a-dir", "");
    for (tmpdir, why, hint) in [
        (
            env.path("gone"),
            format!("{} does not exist", env.path("gone").display()),
            format!(
                "create it (mkdir -p {}), or set TMUX_TMPDIR to a directory you can write",
                env.path("gone").display()
            ),
        ),
        (
            file.clone(),
            format!("{} is not a directory", file.display()),
            "set TMUX_TMPDIR to a directory you can write".to_string(),
        ),
    ] {
        let run = |args: &[&str]| {
            env.roost(args)
                .env("ROOST_SOCKET", "roost")
                .env("TMUX_TMPDIR", &tmpdir)
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap()
        };
        let out = run(&["spawn", "alice", "sleep 100"]);
        assert_eq!(
            stderr(&out),
            format!(
                "roost spawn: cannot start session main: the socket's directory {why}\n{hint}\n"
            )
        );
        assert_eq!(exit_of(&out), Exit::Failed);
        let out = run(&["doctor"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("the socket's directory {why}\n      {hint}\n")),
            "{text}"
        );
        assert_eq!(exit_of(&out), Exit::Failed);
    }
}

/// Ends a tmux server of the test's own when dropped (a failed assert too).
struct Outer<'a>(&'a TestEnv, String);

impl Drop for Outer<'_> {
    fn drop(&mut self) {
        let _ = self.0.tmux_on(&self.1, &["kill-server"]);
    }
}

/// `roost` run in a pane of the user's own tmux (here a second private
/// server) attaches roost's server nested inside it, and first says so on
/// stderr.
#[test]
fn roost_inside_another_tmux_says_it_attaches_nested() {
    let env = TestEnv::new();
    let outer = Outer(&env, format!("{}-outer", env.socket));
    let err = env.path("attach.err");
    let line = format!("'{ROOST}' 2>'{}'; sleep 60", err.display());
    env.tmux_ok_on(
        &outer.1,
        &["new-session", "-d", "-x", "120", "-y", "30", &line],
    );
    let attached = wait_until(Duration::from_secs(20), || {
        let out = env.tmux(&["list-clients", "-F", "#{client_session}"]);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .any(|l| l == "main")
    });
    let said = std::fs::read_to_string(&err).unwrap_or_default();
    assert!(
        attached,
        "no client attached to roost's server; stderr: {said:?}"
    );
    assert!(
        said.starts_with("roost up: attaching roost's own tmux server inside your tmux (nested)"),
        "{said:?}"
    );
    assert_eq!(said.lines().count(), 1, "{said:?}");
}
