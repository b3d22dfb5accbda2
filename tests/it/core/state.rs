//! `roost state` from a hook: stamped inside a pane, a no-op outside roost
//! and for a pane of another tmux server.

use crate::common::*;
use crate::core::{pane_ids, pane_option};

use std::process::Output;
use std::time::Duration;

fn wait_for_option(env: &TestEnv, pane: &str, name: &str, value: &str) {
    let mut last = String::new();
    let ok = wait_until(Duration::from_secs(10), || {
        last = pane_option(env, pane, name);
        last == value
    });
    assert!(
        ok,
        "{name} of {pane} never became {value:?} (last {last:?})"
    );
}

/// A second, unrelated tmux server on a socket path in the test dir: it
/// stands for the user's everyday tmux. Killed on drop.
struct OtherServer<'a> {
    env: &'a TestEnv,
    socket: String,
}

impl<'a> OtherServer<'a> {
    fn start(env: &'a TestEnv, name: &str) -> OtherServer<'a> {
        let socket = env.path(name).to_string_lossy().into_owned();
        let server = OtherServer { env, socket };
        server.tmux_ok(&["new-session", "-d", "-s", "everyday", "sleep 100"]);
        server
    }

    fn tmux(&self, args: &[&str]) -> Output {
        self.env.tmux_on(&self.socket, args)
    }

    fn tmux_ok(&self, args: &[&str]) -> String {
        self.env.tmux_ok_on(&self.socket, args)
    }

    /// What `$TMUX` holds inside this server's first pane.
    fn tmux_var(&self) -> String {
        let pid = self.tmux_ok(&["display-message", "-p", "#{pid}"]);
        format!("{},{},0", self.socket, pid.trim())
    }
}

impl Drop for OtherServer<'_> {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

#[test]
fn state_outside_roost_is_a_silent_no_op() {
    let env = TestEnv::new();
    let out = env.run(["state", "working"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert!(!env.socket_file().exists(), "state started a server");
}

#[test]
fn state_ignores_a_pane_of_a_different_tmux_server() {
    let env = TestEnv::new();
    let roost_pane = env.spawn("alice", "sleep 100");
    let other = OtherServer::start(&env, "everyday");
    let other_pane = other.tmux_ok(&["display-message", "-p", "#{pane_id}"]);
    let other_pane = other_pane.trim_end();
    // Both servers have a pane with this id: a wrong lookup would stamp roost's.
    assert!(pane_ids(&env).contains(&other_pane.to_string()));
    for unset_roost_socket in [false, true] {
        let mut cmd = env.roost(["state", "working"]);
        cmd.env("TMUX", other.tmux_var())
            .env("TMUX_PANE", other_pane);
        if unset_roost_socket {
            cmd.env_remove("ROOST_SOCKET");
        }
        let out = cmd.output().unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{}",
            describe(&out)
        );
    }
    let stamped = other.tmux_ok(&["show-options", "-pqv", "-t", other_pane, "@agent_state"]);
    assert_eq!(stamped, "", "the other server's pane was stamped");
    for pane in pane_ids(&env) {
        assert_eq!(
            pane_option(&env, &pane, "@agent_state"),
            "",
            "{pane} was stamped"
        );
    }
    assert_eq!(pane_option(&env, &roost_pane, "@agent_state"), "");
    let default = env
        .path("tmux")
        .join(format!("tmux-{}", unsafe_uid()))
        .join("roost");
    assert!(
        !default.exists(),
        "a server was started at {}",
        default.display()
    );
}

#[test]
fn state_inside_a_pane_stamps_agent_state() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "roost state working; sleep 100");
    wait_for_option(&env, &pane, "@agent_state", "working");
    let status = env.ok(["status"]);
    let row = status_fields(&status, &pane).unwrap_or_default();
    assert_eq!(row[..3], [pane.as_str(), "main:1.0", "alice"], "{status}");
    assert_eq!(
        row.last().map(String::as_str),
        Some("[working]"),
        "{status}"
    );
}
