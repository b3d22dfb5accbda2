//! `roost ext export [--output FILE]`: the installed set as a set file
//! (`set`), on stdout or replacing FILE whole; linked extensions named on
//! stderr and left out.

use crate::cli::model::ExportArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::dirs;
use crate::ext::error::At;
use crate::ext::set;
use crate::ext::store;

const CMD: &str = "ext export";

pub fn run(a: ExportArgs) -> Result<Exit> {
    let paths = dirs::paths().at(CMD)?;
    let lock = store::read_lock(&paths).at(CMD)?;
    let (text, left) = set::export(&lock);
    for name in &left.linked {
        eprintln!(
            "roost ext export: left out {name}: it is linked to a checkout, nothing is pinned"
        );
    }
    for (name, why) in &left.unreadable {
        eprintln!("roost ext export: left out {name}: its ext.lock entry cannot be read: {why}");
    }
    match a.output {
        None => print!("{text}"),
        Some(path) => {
            crate::fsutil::write_atomic(&path, text.as_bytes(), 0o644).map_err(|e| {
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
