//! The waiting benchmark: what `roost wait-done` costs and how soon it
//! returns, against a real roost server in a throwaway sandbox.
//!
//!     cargo bench --bench wait [-- ROUNDS SECONDS WAITERS]   (default 20 60 10)
//!
//! (1) latency: from starting `roost state done` (as the agent's hook runs
//!     it, inside its pane) to `roost wait-done` returning, median of ROUNDS;
//! (2) cost: WAITERS waiters on WAITERS unfinished panes for SECONDS: the
//!     CPU time of the waiters and every tmux client they ran (reaped
//!     children's rusage) plus the tmux server's own, as a share of one core.

mod common;
use common::*;
use std::ffi::OsString;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args = args();
    let rounds: usize = number(&args, 0, 20);
    let seconds: u64 = number(&args, 1, 60);
    let waiters: usize = number(&args, 2, 10);
    let roost = roost_bin();
    let sandbox = sandbox_dir();
    let sb = sandbox.path();
    let env = sandbox_env(sb);
    let run = |args: &[&str], extra: &[(&str, OsString)]| {
        let out = Command::new(&roost)
            .args(args)
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k.as_str(), v)))
            .envs(extra.iter().map(|(k, v)| (*k, v)))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success() || args[0] == "wait-done",
            "roost {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let socket = sb.join("roost");
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let panes: Vec<String> = (0..waiters.max(1))
        .map(|i| run(&["spawn", &format!("agent{i}"), "sleep 100000"], &[]))
        .collect();
    let server_pid: i32 = tmux(&["display-message", "-p", "#{pid}"]).parse().unwrap();
    let inside = |pane: &str| -> Vec<(&'static str, OsString)> {
        let tmux_var = format!("{},{server_pid},0", socket.display());
        vec![("TMUX", tmux_var.into()), ("TMUX_PANE", pane.into())]
    };

    // (1) latency
    let pane = &panes[0];
    let mut times = Vec::new();
    for _ in 0..rounds {
        run(&["state", "working"], &inside(pane));
        let mut waiter = Command::new(&roost)
            .args(["wait-done", pane, "30"])
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k.as_str(), v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        // Let it look once and fall asleep in the server.
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        run(&["state", "done"], &inside(pane));
        let status = waiter.wait().unwrap();
        times.push(start.elapsed());
        assert!(status.success(), "wait-done failed: {status}");
    }
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "roost {} ({}), {} cores\n",
        env!("CARGO_PKG_VERSION"),
        tmux_version(),
        cores()
    );
    println!(
        "(1) `roost state done` to `wait-done` returning: median {:.1} ms, max {:.1} ms ({rounds} rounds)",
        ms(median),
        ms(*times.last().unwrap())
    );

    // (2) cost of waiting
    for pane in &panes {
        run(&["state", "working"], &inside(pane));
    }
    let before_children = children_cpu();
    let before_server = process_cpu(server_pid);
    let start = Instant::now();
    let mut all: Vec<_> = panes
        .iter()
        .map(|pane| {
            Command::new(&roost)
                .args(["wait-done", pane, &seconds.to_string()])
                .env_clear()
                .envs(env.iter().map(|(k, v)| (k.as_str(), v)))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for w in &mut all {
        w.wait().unwrap();
    }
    let wall = start.elapsed();
    let waiting = children_cpu() - before_children;
    let server = process_cpu(server_pid) - before_server;
    let total = waiting + server;
    println!(
        "(2) {waiters} waiters for {:.1} s: {:.3} s CPU (waiters and their tmux clients {:.3} s, server {:.3} s) = {:.2}% of one core",
        wall.as_secs_f64(),
        total,
        waiting,
        server,
        100.0 * total / wall.as_secs_f64()
    );
    tmux(&["kill-server"]);
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// User and system CPU seconds of every reaped child (and theirs).
fn children_cpu() -> f64 {
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
    t(usage.user_time()) + t(usage.system_time())
}

/// User and system CPU seconds of a running process (/proc/PID/stat).
fn process_cpu(pid: i32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 (11 and 12 after the name).
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    // In USER_HZ, which Linux fixes at 100 for /proc.
    ticks / 100.0
}

fn tmux_version() -> String {
    let out = Command::new("tmux").arg("-V").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}
