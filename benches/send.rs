//! The send benchmark: how long `roost send` takes to deliver one line to
//! `cat` (the terminal's line mode, a reader asleep in its read), against a
//! real roost server in a throwaway sandbox.
//!
//!     cargo bench --bench send [-- ROUNDS]   (default 25)
//!
//! Each round sends one line and waits until cat has written it back to its
//! file, so a send that returned early still counts in full; the figure is
//! the median time from starting `roost send` to its exit, with the worst
//! beside it. ROOST_BENCH_BIN compares another build (an older roost takes
//! the same words); PATH chooses the tmux.

mod common;
use common::*;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args = args();
    let rounds: usize = number(&args, 0, 25);
    let roost = roost_bin();
    let sandbox = sandbox_dir();
    let sb = sandbox.path();
    let env = sandbox_env(sb);
    let run = |args: &[&str]| {
        let started = Instant::now();
        let out = Command::new(&roost)
            .args(args)
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k.as_str(), v)))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let took = started.elapsed();
        assert!(
            out.status.success(),
            "roost {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8_lossy(&out.stdout).trim().to_string(),
            took,
        )
    };
    let got = sb.join("got.txt");
    run(&["spawn", "cat", &format!("cat > '{}'", got.display())]);
    let lines = |n: usize| {
        let limit = Instant::now() + Duration::from_secs(10);
        while std::fs::read_to_string(&got).map_or(0, |t| t.lines().count()) < n {
            assert!(Instant::now() < limit, "cat never wrote line {n}");
            std::thread::sleep(Duration::from_millis(2));
        }
    };
    // One send first, so the server and the page cache are warm.
    run(&["send", "cat", "warming up"]);
    lines(1);
    let mut times: Vec<Duration> = (0..rounds)
        .map(|i| {
            let (_, took) = run(&["send", "cat", &format!("line {i} of the benchmark")]);
            lines(i + 2);
            took
        })
        .collect();
    let version = Command::new("tmux").arg("-V").output().unwrap();
    let _ = Command::new("tmux")
        .arg("-S")
        .arg(sb.join("roost"))
        .arg("kill-server")
        .status();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "send to cat ({}, {rounds} rounds): median {:.1} ms, worst {:.1} ms",
        String::from_utf8_lossy(&version.stdout).trim(),
        ms(times[times.len() / 2]),
        ms(*times.last().unwrap())
    );
}
