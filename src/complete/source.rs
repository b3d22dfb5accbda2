//! What a query may look at beyond the command model, as one trait: the
//! environment, ext.index, ext.lock, ext.complete and ext.agents, and the running roost server
//! (asked only when its socket file exists). `Live` is the real one.

use crate::paths::Paths;
use crate::switch;
use crate::tmux::{Pane, Tmux};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// What a query may look at beyond the command table.
pub trait Source {
    /// `ROOST_NO_EXT` is non-empty: no extension command is offered.
    fn no_ext(&self) -> bool;
    /// ext.index as bytes (empty when absent).
    fn index(&self) -> Vec<u8>;
    /// ext.lock as bytes (empty when absent).
    fn lock(&self) -> Vec<u8>;
    /// ext.complete as bytes (empty when absent).
    fn completion(&self) -> Vec<u8>;
    /// Whether `bin/roost-CMD` of an index line would run (dispatch's test).
    fn runnable(&self, path: &[u8]) -> bool;
    /// The server-wide switch: asked only when there is something to offer.
    fn switched_off(&self) -> bool;
    /// The panes of the running roost server (none when it is not running).
    fn panes(&self) -> Vec<Pane>;
    /// The sessions of the running roost server.
    fn sessions(&self) -> Vec<String>;
    /// The agents enabled extensions' presets teach (read from ext.agents
    /// only when an agent is what the word takes).
    fn presets(&self) -> Vec<String>;
}

/// The real sources: the environment, ext.index, the running server.
pub struct Live {
    tmux: Tmux,
    paths: Option<Paths>,
}

impl Live {
    pub fn new() -> Live {
        Live {
            tmux: Tmux::from_env(),
            paths: Paths::from_env().ok(),
        }
    }
}

impl Source for Live {
    fn no_ext(&self) -> bool {
        crate::dispatch::seam_off()
    }

    fn index(&self) -> Vec<u8> {
        self.paths
            .as_ref()
            .and_then(|p| std::fs::read(p.ext_index()).ok())
            .unwrap_or_default()
    }

    fn lock(&self) -> Vec<u8> {
        self.paths
            .as_ref()
            .and_then(|p| std::fs::read(p.ext_lock()).ok())
            .unwrap_or_default()
    }

    fn completion(&self) -> Vec<u8> {
        self.paths
            .as_ref()
            .and_then(|p| std::fs::read(p.ext_complete()).ok())
            .unwrap_or_default()
    }

    /// One stat per candidate (dispatch adds an access(2) check, which a
    /// completion of a thousand commands cannot afford).
    fn runnable(&self, path: &[u8]) -> bool {
        use std::os::unix::fs::PermissionsExt;
        let path = Path::new(OsStr::from_bytes(path));
        path.is_absolute()
            && std::fs::metadata(path)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }

    fn switched_off(&self) -> bool {
        match &self.paths {
            Some(p) => switch::is_off(&self.tmux, &p.user_conf()),
            None => true,
        }
    }

    fn panes(&self) -> Vec<Pane> {
        if !self.tmux.socket_exists() {
            return Vec::new();
        }
        self.tmux.panes().unwrap_or_default()
    }

    fn sessions(&self) -> Vec<String> {
        if !self.tmux.socket_exists() {
            return Vec::new();
        }
        self.tmux
            .sessions()
            .map(|s| s.into_iter().map(|s| s.name.raw().to_string()).collect())
            .unwrap_or_default()
    }

    fn presets(&self) -> Vec<String> {
        let Some(paths) = &self.paths else {
            return Vec::new();
        };
        crate::ext::taught::read(paths)
            .into_iter()
            .filter(|t| t.enabled && crate::ext::presets::shadows_builtin(&t.preset.name).is_none())
            .map(|t| t.preset.name)
            .collect()
    }
}
