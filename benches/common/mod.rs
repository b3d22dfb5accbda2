//! What the benchmarks share: the binary under test, its arguments, the
//! sandbox and its base environment, and small file helpers.
#![allow(dead_code)]

use std::ffi::OsString;
use std::path::Path;

/// The binary under test; ROOST_BENCH_BIN compares another build.
pub fn roost_bin() -> String {
    std::env::var("ROOST_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_roost").to_string())
}

/// The arguments after `cargo bench --bench NAME --`, without the
/// `--bench` cargo adds.
pub fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect()
}

/// The Nth argument as a number, or `default` when it is absent or not one.
pub fn number<T: std::str::FromStr>(args: &[String], n: usize, default: T) -> T {
    args.get(n).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// A fresh directory under /tmp for one run's sandbox, removed when dropped.
pub fn sandbox_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("roost-bench-")
        .tempdir_in("/tmp")
        .unwrap()
}

/// A throwaway roost environment under `sb`: HOME and the XDG directories
/// (created), a private TMUX_TMPDIR, a socket path that no server listens
/// on, this process's PATH and `/bin/sh`. Nothing else is inherited.
pub fn sandbox_env(sb: &Path) -> Vec<(String, OsString)> {
    let mut env = Vec::new();
    for (var, sub) in [
        ("HOME", "home"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("TMUX_TMPDIR", "tmux"),
    ] {
        std::fs::create_dir_all(sb.join(sub)).unwrap();
        env.push((var.to_string(), sb.join(sub).into_os_string()));
    }
    env.push(("ROOST_SOCKET".into(), sb.join("roost").into_os_string()));
    env.push(("PATH".into(), std::env::var_os("PATH").unwrap_or_default()));
    env.push(("SHELL".into(), "/bin/sh".into()));
    env
}

pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

pub fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}
