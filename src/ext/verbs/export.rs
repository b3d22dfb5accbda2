//! `roost ext export [--output FILE | --bundle FILE]`: the installed set as
//! a set file (`set`), on stdout or replacing FILE whole, or as an offline
//! bundle (`bundle`); linked extensions named on stderr and left out.

use crate::cli::model::ExportArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::bundle;
use crate::ext::dirs;
use crate::ext::error::At;
use crate::ext::set;
use crate::ext::store;

const CMD: &str = "ext export";

pub fn run(a: ExportArgs) -> Result<Exit> {
    let paths = dirs::paths().at(CMD)?;
    let lock = store::read_lock(&paths).at(CMD)?;
    let (bytes, left) = match &a.bundle {
        Some(_) => bundle::write(&paths, &lock).at(CMD)?,
        None => {
            let (text, left) = set::export(&lock, &|n, e| {
                crate::ext::settings::edit::carried(&paths, n, e)
            });
            (text.into_bytes(), left)
        }
    };
    for name in &left.linked {
        eprintln!(
            "roost ext export: left out {name}: it is linked to a checkout, nothing is pinned"
        );
    }
    for (name, why) in &left.unreadable {
        eprintln!("roost ext export: left out {name}: {why}");
    }
    match a.output.or(a.bundle) {
        None => {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&bytes);
        }
        Some(path) => {
            crate::fsutil::write_atomic(&path, &bytes, 0o644).map_err(|e| {
                Error::fail(
                    CMD,
                    format!(
                        "cannot write {}: {}; nothing was written",
                        crate::untrusted::path(&path),
                        crate::fsutil::io_words(&e)
                    ),
                )
                .hint("give a FILE in a directory you can write")
            })?;
        }
    }
    Ok(Exit::Ok)
}
