//! Where an extension's events live: `${XDG_STATE_HOME}/roost/events/NAME/`
//! (owner-only), its queue, its run log and its counters.

use crate::paths::Paths;
use std::path::PathBuf;

/// An extension's directory of events.
pub fn dir(paths: &Paths, name: &str) -> PathBuf {
    paths.state.join("events").join(name)
}
