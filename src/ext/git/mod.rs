//! Every git operation roost performs, in-process with gix: `remote` talks
//! to a remote (resolving a ref, fetching one pinned commit with nothing of
//! the repository executed), `guard` stands around that conversation,
//! `tree` reads the trees recorded in a repository, `commit` a commit
//! object's raw bytes (for its signature), `entries` what the rest
//! of `ext` asks of their ids and entries, `hash` hashes a
//! directory on disk, `author` makes a repository with one commit, `diff`
//! compares two texts and `url` says what a source needs of the machine;
//! `bundle` writes and reads the pack of an offline bundle;
//! `cause` is the layer's error, made by `chain` from gix's and told to a
//! person by `failure`. No git program is run (gix itself spawns `git-upload-pack` for file:// and
//! `ssh` for ssh:// remotes). This file only declares the layer's parts.

pub mod author;
mod bounded;
pub mod bundle;
mod cause;
mod chain;
pub mod commit;
pub mod diff;
pub mod entries;
pub mod failure;
mod guard;
pub mod hash;
mod https;
pub mod limits;
pub mod progress;
mod refs;
mod remote;
mod tree;
mod unpack;
pub mod url;
pub mod watchdog;

pub use guard::Interrupts;
pub use remote::Remote;
pub use tree::{committed_leaves, mode, tree_leaves, Leaf, LeafPath, Leaves};
pub use watchdog::INTERRUPTED;
