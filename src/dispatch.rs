//! The hot path: argv[1] → a built-in command, or an installed extension, or
//! the usage error. It consults only the static command table before deciding;
//! everything heavy lives behind `commands::run`.

use crate::{cli, commands, error::Error};
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

pub fn main(args: &[OsString]) -> u8 {
    let (word, rest) = match args.split_first() {
        None => (&b"up"[..], &[][..]),
        Some((w, rest)) => (w.as_bytes(), rest),
    };
    match cli::find(word) {
        Some(spec) => match commands::run(spec, rest) {
            Ok(code) => code,
            Err(e) => e.report(),
        },
        None => usage_error(),
    }
}

/// What a typo, a miss and a disabled seam all get: byte-identical.
fn usage_error() -> u8 {
    Error::Usage {
        cmd: None,
        msg: String::new(),
    }
    .report()
}
