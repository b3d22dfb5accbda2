//! Link-time layout of the `roost` binary: the functions of the dispatch hot
//! path (listed in link/hot-path.order by scripts/hot-path-order) are placed
//! together, so starting roost touches few pages of its code. Only with lld,
//! which rustc uses by default on x86_64-unknown-linux-gnu since 1.90; any
//! other build links as usual.

use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=link/hot-path.order");
    println!("cargo::rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    if target != "x86_64-unknown-linux-gnu" || !rustc_links_with_lld() {
        return;
    }
    // Where the package is as this build runs (not where the build script
    // was compiled: a target directory can outlive a moved checkout).
    let Ok(root) = std::env::var("CARGO_MANIFEST_DIR") else {
        return;
    };
    let order = std::path::Path::new(&root).join("link/hot-path.order");
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
