//! `roost ext rollback NAME [--yes] [--grant AUTHORITY]
//! [--accept-signer SIGNER] [--diff]`: back to
//! the pin recorded before the last update, fetched again by its commit id
//! from the recorded source and held to the recorded tree, with the diff,
//! checks and consent update shows (`repin`). Never runs git inside the
//! installed clone.

use crate::cli::model::RollbackArgs;
use crate::error::{Error, Exit, Result};
use crate::ext::dirs;
use crate::ext::error::At;
use crate::ext::installed;
use crate::ext::output::Output;
use crate::ext::repin::{self, Outcome, Repin, Target};
use crate::ext::store;
use crate::untrusted::printable;

const CMD: &str = "ext rollback";

pub fn run(a: RollbackArgs) -> Result<Exit> {
    let name = a.name;
    let paths = dirs::writable_paths().at(CMD)?;
    installed::readable(&store::read_lock(&paths).at(CMD)?, &name).at(CMD)?;
    let mut r = Repin::new(&name, Target::Previous);
    (r.yes, r.grants, r.diff_only) = (a.yes, &a.grant, a.diff);
    r.accept_signers = &a.accept_signer;
    let mut out = Output::stdout();
    match r.run(&paths, &mut out).map_err(|e| e.within(&name)).at(CMD)? {
        Outcome::Moved { from, to, disabled, .. } => {
            println!("rolled back {name}: {from} -> {to}");
            if disabled {
                println!("{}", repin::still_disabled(&name));
            }
            Ok(Exit::Ok)
        }
        Outcome::Linked(entry) => Err(Error::refuse(
            CMD,
            format!(
                "{name} is linked to {}: nothing is pinned, so there is no earlier pin to go back to",
                printable(entry.linked().unwrap_or_default().as_bytes())
            ),
        )
        .hint("a linked extension runs what its checkout holds: change it there")),
        Outcome::Shown => Ok(Exit::Ok),
        Outcome::Unchanged { .. } => unreachable!("a rollback always has somewhere to go"),
    }
}
