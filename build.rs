//! Three things the build fixes. The commit the binary is built from, for
//! `roost --version` (`ROOST_LONG_VERSION`, a compile-time constant;
//! src/built_from.rs finds it). The link-time layout: the functions of the
//! dispatch hot path (listed in link/hot-path.order by
//! scripts/hot-path-order) are placed together, so starting roost touches
//! few pages of its code; only with lld, which rustc uses by default on
//! x86_64-unknown-linux-gnu since 1.90; any other build links as usual.
//! And which agent tests run (tests/it/agents/): `roost_agent = "NAME"` is
//! set for each agent CLI installed where the tests look for it, or for
//! all seven under ROOST_TEST_REQUIRE_ALL=1; the tests of the others are
//! ignored, with the reason. No code of roost reads that setting, so the
//! binary is the same either way.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "src/built_from.rs"]
mod built_from;

fn main() {
    println!("cargo::rerun-if-changed=link/hot-path.order");
    println!("cargo::rerun-if-changed=build.rs");
    agent_tests();
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    long_version(&root);
    let target = std::env::var("TARGET").unwrap_or_default();
    if target != "x86_64-unknown-linux-gnu" || !rustc_links_with_lld() {
        return;
    }
    // Where the package is as this build runs (not where the build script
    // was compiled: a target directory can outlive a moved checkout).
    let order = root.join("link/hot-path.order");
    if order.is_file() {
        println!(
            "cargo::rustc-link-arg-bin=roost=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        // A name that is not in this build (the list is from another
        // toolchain or version) is skipped, not reported.
        println!("cargo::rustc-link-arg-bin=roost=-Wl,--no-warn-symbol-ordering");
    }
}

/// `roost 0.1.0 (480250f)`, as git and cargo name their builds; the
/// version alone when no commit can be found (a source tree without its
/// history). Every file read to find it is watched, so a new commit or
/// another branch builds again.
fn long_version(root: &Path) {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let found = built_from::commit(root);
    for path in found.read.iter().filter(|p| p.exists()) {
        // (Only what exists: cargo runs the script again every build for a
        // path that does not.)
        println!("cargo::rerun-if-changed={}", path.display());
    }
    let long = match found.commit {
        Some(id) => format!("roost {version} ({})", &id[..7]),
        None => format!("roost {version}"),
    };
    println!("cargo::rustc-env=ROOST_LONG_VERSION={long}");
}

/// rustc 1.90 and later link x86_64-unknown-linux-gnu with its own lld.
fn rustc_links_with_lld() -> bool {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("--version").output() else {
        return false;
    };
    let version = String::from_utf8_lossy(&out.stdout);
    // "rustc 1.95.0 (59807616e 2026-04-14)"
    let mut parts = version
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    matches!((parts.next(), parts.next()), (Some(1), Some(minor)) if minor >= 90)
}

/// Each agent CLI the agent tests drive, by the name `roost_agent` takes,
/// and its program under the agents' directory (as scripts/install-agents
/// lays it out).
const AGENTS: [(&str, &str); 8] = [
    ("claude", "node_modules/.bin/claude"),
    ("codex", "node_modules/.bin/codex"),
    ("gemini", "node_modules/.bin/gemini"),
    ("opencode", "node_modules/.bin/opencode"),
    ("aider", "aider/bin/aider"),
    ("copilot", "node_modules/.bin/copilot"),
    ("pi", "node_modules/.bin/pi"),
    ("qwen", "node_modules/.bin/qwen"),
];

/// Sets `roost_agent = "NAME"` for each agent whose tests are to run.
fn agent_tests() {
    println!("cargo::rerun-if-env-changed=ROOST_TEST_AGENTS");
    println!("cargo::rerun-if-env-changed=ROOST_TEST_REQUIRE_ALL");
    let names: Vec<String> = AGENTS.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    println!(
        "cargo::rustc-check-cfg=cfg(roost_agent, values({}))",
        names.join(", ")
    );
    let Ok(root) = std::env::var("CARGO_MANIFEST_DIR") else {
        return;
    };
    // Where tests/it/agents looks: $ROOST_TEST_AGENTS (relative to the
    // package), else target/agents.
    let dir = match std::env::var_os("ROOST_TEST_AGENTS") {
        Some(d) if !d.is_empty() => Path::new(&root).join(d),
        _ => Path::new(&root).join("target/agents"),
    };
    let required = std::env::var("ROOST_TEST_REQUIRE_ALL").as_deref() == Ok("1");
    for (name, bin) in AGENTS {
        let program = dir.join(bin);
        // Installing or removing it runs this again. Only paths that exist
        // are named: cargo takes a missing one for a change at every build.
        if let Some(watched) = nearest(&program, &dir) {
            println!("cargo::rerun-if-changed={}", watched.display());
        }
        if required || program.is_file() {
            println!("cargo::rustc-cfg=roost_agent=\"{name}\"");
        }
    }
}

/// `path` itself when it exists, else the nearest directory above it that
/// does, up to `top`: None when `top` is missing too.
fn nearest(path: &Path, top: &Path) -> Option<PathBuf> {
    let mut at = path;
    loop {
        if at.exists() {
            return Some(at.to_path_buf());
        }
        if at == top {
            return None;
        }
        at = at.parent()?;
    }
}
