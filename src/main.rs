//! The `roost` binary: a C-ABI `main` that calls `roost::run`.
//!
//! `#![no_main]` skips Rust's runtime setup (stack-guard probing through
//! /proc/self/maps, the overflow signal stack, SIGPIPE ignored), which costs
//! more than the rest of dispatch; roost needs none of it. SIGPIPE keeps its
//! default, as in any C tool, and stdout is flushed here because nothing else
//! flushes it at exit.
//!
//! Built as a test or bench harness (`cargo test --bins`, `cargo bench`) this
//! file holds no `main` of its own, so the harness's empty one runs: a test
//! run can never start roost itself against the user's real fleet, whatever
//! filter words it is given. (Cargo.toml also keeps the binary out of
//! `cargo test` and `cargo bench` by default.)
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    use std::io::Write;
    let code = roost::run();
    let _ = std::io::stdout().flush();
    code.into()
}
