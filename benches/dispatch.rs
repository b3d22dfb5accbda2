//! The dispatch benchmark: what `roost CMD` costs over executing the extension
//! directly, every case measured side by side in one run, interleaved round
//! by round so that drift on the machine hits all of them alike.
//!
//!     cargo bench --bench dispatch [-- ROUNDS]      (default 500 rounds)
//!
//! Cases (median wall time of spawn → exit, as seen by this process):
//!   (a) the tiny `#!/bin/sh` extension executed directly
//!   (f) the physical floor: a static C program that only execv's it
//!   (b) roost CMD, no roost server running
//!   (c) roost CMD, a roost server running (no tmux process: a bare connect
//!       and the file the server keeps), against (f) measured beside it
//!   (d) roost TYPO: the usage error
//!   (e) roost CMD with a 10,000-command index (CMD on the last line)
//!   (g) git CMD dispatching to git-CMD on PATH (git's external commands)
//! Peak memory is ru_maxrss of a child (through `--rss`, so each figure is
//! one process tree alone). Everything runs in a throwaway sandbox.

mod common;
use common::*;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FLOOR_C: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/floor.c");

struct Case {
    label: &'static str,
    what: &'static str,
    argv: Vec<OsString>,
    env: Vec<(&'static str, OsString)>,
    times: Vec<Duration>,
}

fn main() {
    let args = args();
    if args.first().map(String::as_str) == Some("--rss") {
        return rss(&args[1..]);
    }
    let roost = roost_bin();
    let roost = roost.as_str();
    let rounds: usize = number(&args, 0, 500);
    let sandbox = sandbox_dir();
    let sb = sandbox.path();
    let base = setup(sb);
    let ext = sb.join("data/roost/ext/bench/bin/roost-bench");
    let floor = sb.join("floor");

    let big_state = sb.join("big-state");
    let mut big = String::new();
    for i in 0..10_000 {
        big.push_str(&format!(
            "cmd{i:05}\tbig{i:05}\t{}/data/roost/ext/big{i:05}/bin/roost-cmd{i:05}\t\n",
            sb.display()
        ));
    }
    big.push_str(&format!("zz-bench\tbench\t{}\t\n", ext.display()));
    write(&big_state.join("roost/ext.index"), &big);
    let git_path = format!(
        "{}:{}",
        sb.join("gitbin").display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let case = |label,
                what,
                argv: &[&dyn AsRef<std::ffi::OsStr>],
                env: Vec<(&'static str, OsString)>| Case {
        label,
        what,
        argv: argv.iter().map(|a| a.as_ref().to_owned()).collect(),
        env,
        times: Vec::new(),
    };
    let mut idle = vec![
        case("a", "extension executed directly", &[&ext], vec![]),
        case("f", "static C floor: execv only", &[&floor, &ext], vec![]),
        case(
            "b",
            "roost CMD, no server running",
            &[&roost, &"bench"],
            vec![],
        ),
        case("d", "roost TYPO (usage error)", &[&roost, &"benhc"], vec![]),
        case(
            "e",
            "roost CMD, 10,000-command index",
            &[&roost, &"zz-bench"],
            vec![("XDG_STATE_HOME", big_state.clone().into())],
        ),
        case(
            "g",
            "git CMD via git-CMD on PATH",
            &[&"git", &"bench"],
            vec![
                ("PATH", git_path.into()),
                ("GIT_CONFIG_NOSYSTEM", "1".into()),
                ("GIT_CONFIG_GLOBAL", "/dev/null".into()),
            ],
        ),
    ];
    measure(&mut idle, &base, rounds);
    // (c) needs the server up, which must not slow the other cases.
    run(
        &base,
        &[
            roost.as_ref(),
            "spawn".as_ref(),
            "idle".as_ref(),
            "sleep 600".as_ref(),
        ],
    );
    let mut busy = vec![
        case(
            "c",
            "roost CMD, roost server running",
            &[&roost, &"bench"],
            vec![],
        ),
        case("b'", "extension executed directly (again)", &[&ext], vec![]),
        case("f'", "static C floor (again)", &[&floor, &ext], vec![]),
    ];
    measure(&mut busy, &base, rounds / 2);
    run(&base, &[roost.as_ref(), "kill".as_ref()]);

    let median = |c: &Case| {
        let mut t = c.times.clone();
        t.sort();
        t[t.len() / 2].as_secs_f64() * 1000.0
    };
    let a = median(&idle[0]);
    let f = median(&idle[1]);
    println!(
        "\nroost {} ({}), {} cores, {rounds} interleaved rounds, medians\n",
        env!("CARGO_PKG_VERSION"),
        binary_kind(roost),
        cores()
    );
    println!("| case | median | vs (a) | vs (f) |");
    println!("|---|---|---|---|");
    for c in idle.iter().chain(busy.iter().take(1)) {
        let m = median(c);
        let vs_f = if c.label == "b" || c.label == "e" {
            format!("{:.2}x", m / f)
        } else if c.label == "c" {
            // The floor measured beside it, with the server up.
            format!("{:.2}x", m / median(&busy[2]))
        } else {
            String::new()
        };
        println!(
            "| ({}) {} | {:.3} ms | {:.2}x | {vs_f} |",
            c.label,
            c.what,
            m,
            m / a
        );
    }
    let a_again = median(&busy[1]);
    println!(
        "\n(c) is {:.2}x the direct run measured beside it; (e)/(b) = {:.2}; (d)/(b) = {:.2}",
        median(&busy[0]) / a_again,
        median(&idle[4]) / median(&idle[2]),
        median(&idle[3]) / median(&idle[2])
    );
    let me = std::env::current_exe().unwrap();
    let rss_of = |argv: &[&dyn AsRef<std::ffi::OsStr>]| {
        let out = Command::new(&me)
            .arg("--rss")
            .args(argv.iter().map(|a| a.as_ref()))
            .envs(base.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    println!(
        "peak RSS: roost TYPO {} KiB; roost CMD (then the sh it becomes) {} KiB; sh alone {} KiB",
        rss_of(&[&roost, &"benhc"]),
        rss_of(&[&roost, &"bench"]),
        rss_of(&[&ext])
    );
}

/// The sandbox: HOME, XDG dirs, a socket path, the extension, its index line,
/// the C floor, and git-bench on a PATH of its own. Returns the environment.
fn setup(sb: &Path) -> Vec<(String, OsString)> {
    let ext = sb.join("data/roost/ext/bench/bin/roost-bench");
    write(&ext, "#!/bin/sh\n:\n");
    chmod_x(&ext);
    write(
        &sb.join("state/roost/ext.index"),
        &format!("bench\tbench\t{}\t\n", ext.display()),
    );
    std::fs::create_dir_all(sb.join("gitbin")).unwrap();
    std::os::unix::fs::symlink(&ext, sb.join("gitbin/git-bench")).unwrap();
    let status = Command::new("cc")
        .args(["-O2", "-static", "-o"])
        .arg(sb.join("floor"))
        .arg(FLOOR_C)
        .status()
        .expect("the floor needs a C compiler (apt-get install gcc libc6-dev)");
    assert!(
        status.success(),
        "cc -static failed (is libc6-dev installed?)"
    );
    sandbox_env(sb)
}

fn command(base: &[(String, OsString)], argv: &[OsString], env: &[(&str, OsString)]) -> Command {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .env_clear()
        .envs(base.iter().map(|(k, v)| (k, v)));
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

fn measure(cases: &mut [Case], base: &[(String, OsString)], rounds: usize) {
    for round in 0..rounds + 20 {
        for c in cases.iter_mut() {
            let mut cmd = command(base, &c.argv, &c.env);
            let start = Instant::now();
            cmd.status().unwrap();
            if round >= 20 {
                c.times.push(start.elapsed());
            }
        }
    }
}

fn run(base: &[(String, OsString)], argv: &[&std::ffi::OsStr]) {
    let argv: Vec<OsString> = argv.iter().map(|a| a.to_os_string()).collect();
    command(base, &argv, &[]).status().unwrap();
}

/// `--rss CMD...`: run CMD and print its peak resident set in KiB.
fn rss(argv: &[String]) {
    Command::new(&argv[0])
        .args(&argv[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    println!("{}", usage.max_rss());
}

fn binary_kind(roost: &str) -> String {
    let out = Command::new("file").arg("-b").arg(roost).output();
    match out {
        Ok(o) => String::from_utf8_lossy(&o.stdout)
            .split(',')
            .filter(|f| f.contains("link") || f.contains("ELF"))
            .collect::<Vec<_>>()
            .join(",")
            .trim()
            .to_string(),
        Err(_) => "binary".into(),
    }
}
