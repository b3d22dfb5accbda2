//! The `roost` binary: a C-ABI `main` that calls `roost::run`.
//!
//! `#![no_main]` skips Rust's runtime setup (stack-guard probing through
//! /proc/self/maps, the overflow signal stack, SIGPIPE ignored), which costs
//! more than the rest of dispatch; roost needs none of it. SIGPIPE keeps its
//! default, as in any C tool, and stdout is flushed here because nothing else
//! flushes it at exit.
#![no_main]

use std::io::Write;

#[no_mangle]
pub extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    let code = roost::run();
    let _ = std::io::stdout().flush();
    code.into()
}
