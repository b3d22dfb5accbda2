//! The extension contract's fixed words, the ones dispatch and `roost ext`
//! must agree on: the contract number, the authorities, the manifest's
//! name, where a command's program lives, and the environment an extension
//! is given. Static data only: the hot path reads it too.

use std::path::{Path, PathBuf};

/// The extension contract this roost speaks (`ROOST_CONTRACT`).
pub const NUMBER: u32 = 1;

/// The authorities a manifest may name in `needs`.
pub const AUTHORITIES: &[&str] = &["fleet", "events"];

/// The manifest, at the top of an extension's repository.
pub const MANIFEST: &str = "roost-ext.json";

/// Command CMD of an extension is the program `bin/roost-CMD` in its tree.
pub const PROGRAM_PREFIX: &str = "roost-";

/// `DIR/bin/roost-CMD`.
pub fn program(dir: &Path, command: &str) -> PathBuf {
    dir.join("bin").join(format!("{PROGRAM_PREFIX}{command}"))
}

/// The environment variables of the contract.
pub mod env {
    /// roost's own tree.
    pub const HOME: &str = "ROOST_HOME";
    pub const VERSION: &str = "ROOST_VERSION";
    pub const CONTRACT: &str = "ROOST_CONTRACT";
    /// The extension's clone (or linked checkout).
    pub const EXT_DIR: &str = "ROOST_EXT_DIR";
    /// The extension's own data directory.
    pub const EXT_STATE: &str = "ROOST_EXT_STATE";
    /// The extension's settings directory (settings.env, values.json).
    pub const EXT_CONFIG: &str = "ROOST_EXT_CONFIG";
    /// The extension's owner-only secrets directory, one file per secret.
    pub const EXT_SECRETS: &str = "ROOST_EXT_SECRETS";
    /// With `fleet`: roost's server, a socket name or path.
    pub const SOCKET: &str = "ROOST_SOCKET";
    /// With `fleet`: `-L` for a name, `-S` for a path.
    pub const SOCKET_FLAG: &str = "ROOST_SOCKET_FLAG";
    /// Non-empty: no extension command runs.
    pub const NO_EXT: &str = "ROOST_NO_EXT";
    /// Where `roost ext install OWNER/REPO` fetches from.
    pub const GIT_BASE: &str = "ROOST_EXT_GIT_BASE";
}
