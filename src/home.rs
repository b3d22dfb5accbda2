//! roost's own tree (`ROOST_HOME`): the files shipped in `share/`, embedded in
//! the binary so a plain `cargo install` needs nothing else, written out on
//! demand, and the scripts directory whose `roost` runs this same binary.

use crate::fsutil;
use crate::paths::Paths;
use crate::tmux::ServerStart;
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

/// roost's base configuration for its tmux server.
pub const BASE_CONF: &str = include_str!("../share/roost.tmux.conf");

/// `(path under ROOST_HOME, content, mode)` of every shipped file.
const SHIPPED: &[(&str, &str, u32)] = &[
    ("share/roost.tmux.conf", BASE_CONF, 0o644),
    (
        "share/agents/fake-agent",
        include_str!("../share/agents/fake-agent"),
        0o755,
    ),
];

/// Makes sure the scripts directory's `roost` is this binary. Cheap when it
/// already is (one readlink).
pub fn ensure_scripts(paths: &Paths) -> io::Result<PathBuf> {
    let dir = paths.scripts_dir();
    let exe = std::env::current_exe()?;
    fsutil::symlink_atomic(&exe, &dir.join("roost"))?;
    Ok(dir)
}

/// Writes out every shipped file and the scripts directory; returns ROOST_HOME.
pub fn materialize(paths: &Paths) -> io::Result<PathBuf> {
    let home = paths.roost_home();
    for (rel, content, mode) in SHIPPED {
        fsutil::write_if_changed(&home.join(rel), content.as_bytes(), *mode)?;
    }
    ensure_scripts(paths)?;
    Ok(home)
}

/// PATH with `dir` first (and not repeated later).
pub fn path_with_first(dir: &Path, path: Option<OsString>) -> OsString {
    let rest = path.unwrap_or_default();
    let mut parts = vec![dir.to_path_buf()];
    // An empty PATH has no entries; split_paths would yield one empty entry,
    // which means the current directory.
    if !rest.is_empty() {
        parts.extend(std::env::split_paths(&rest).filter(|p| p != dir));
    }
    std::env::join_paths(parts).unwrap_or(rest)
}

/// Everything the first session needs to start roost's server.
pub fn server_start(paths: &Paths) -> io::Result<ServerStart> {
    let home = materialize(paths)?;
    Ok(ServerStart {
        path: path_with_first(&paths.scripts_dir(), std::env::var_os("PATH")),
        base_conf: home.join("share/roost.tmux.conf"),
        user_conf: paths.user_conf(),
        home,
        hooks: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_dir_goes_first_once() {
        let p = path_with_first(Path::new("/r/bin"), Some("/usr/bin:/r/bin:/bin".into()));
        assert_eq!(p, OsString::from("/r/bin:/usr/bin:/bin"));
        assert_eq!(
            path_with_first(Path::new("/r/bin"), None),
            OsString::from("/r/bin")
        );
    }
}
