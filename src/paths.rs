//! Where roost keeps things: the XDG base directories (the xdg crate reads
//! the environment), the one rule roost adds to them (an absolute path,
//! which xdg does not check of HOME), and the check that they can be
//! written.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Why roost's directories cannot be known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathsError {
    /// HOME is unset or empty, and the password database has no home
    /// directory for the user.
    NoHome,
    /// HOME is a relative path (xdg takes it as it is); `var` would move
    /// the directory elsewhere.
    RelativeHome { home: OsString, var: &'static str },
}

impl std::fmt::Display for PathsError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            PathsError::NoHome => f.write_str("HOME is not set and the user has no home directory"),
            PathsError::RelativeHome { home, var } => write!(
                f,
                "HOME ({}) is not an absolute path; set HOME or {var} to one",
                crate::untrusted::path(Path::new(home))
            ),
        }
    }
}

/// roost's directories, resolved once per process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// `${XDG_DATA_HOME:-~/.local/share}/roost`
    pub data: PathBuf,
    /// `${XDG_STATE_HOME:-~/.local/state}/roost`
    pub state: PathBuf,
    /// `${XDG_CONFIG_HOME:-~/.config}/roost`
    pub config: PathBuf,
}

impl Paths {
    /// From the process environment, by the XDG rule: an unset, empty or
    /// relative XDG variable means the default under HOME; HOME unset or
    /// empty means the home directory of the password database. The
    /// result must be absolute: a relative HOME is refused.
    pub fn from_env() -> Result<Paths, PathsError> {
        let dirs = xdg::BaseDirectories::with_prefix("roost");
        let home = || std::env::var_os("HOME").unwrap_or_default();
        Ok(Paths {
            data: absolute(dirs.get_data_home(), "XDG_DATA_HOME", home)?,
            state: absolute(dirs.get_state_home(), "XDG_STATE_HOME", home)?,
            config: absolute(dirs.get_config_home(), "XDG_CONFIG_HOME", home)?,
        })
    }

    /// roost's directories under base directories known to be absolute
    /// (a sandbox's).
    pub fn under(data_home: &Path, state_home: &Path, config_home: &Path) -> Paths {
        Paths {
            data: data_home.join("roost"),
            state: state_home.join("roost"),
            config: config_home.join("roost"),
        }
    }

    /// The directories roost writes, each with the variable that moves it.
    pub fn written(&self) -> [(&std::path::Path, &'static str); 2] {
        [
            (&self.data, "XDG_DATA_HOME"),
            (&self.state, "XDG_STATE_HOME"),
        ]
    }

    /// Checks that every directory roost writes can be written; the error's
    /// two lines name the directory and the variable that moves it.
    pub fn check_writable(&self) -> Result<(), (String, String)> {
        for (dir, var) in self.written() {
            crate::fsutil::check_writable(dir).map_err(|why| {
                (
                    format!("cannot write roost's files: {why}"),
                    format!("make it writable, or set {var} to a directory you can write"),
                )
            })?;
        }
        Ok(())
    }

    /// roost's own tree (`ROOST_HOME`): its scripts and shipped files.
    pub fn roost_home(&self) -> PathBuf {
        self.data.join("home")
    }

    /// The directory put first on PATH inside roost; holds `roost`.
    pub fn scripts_dir(&self) -> PathBuf {
        self.roost_home().join("bin")
    }

    pub fn user_conf(&self) -> PathBuf {
        self.config.join("roost.conf")
    }

    pub fn ext_index(&self) -> PathBuf {
        self.state.join("ext.index")
    }

    /// What completion offers after an extension's command: derived from
    /// ext.lock with ext.index (see `ext::completion_data`).
    pub fn ext_complete(&self) -> PathBuf {
        self.state.join("ext.complete")
    }

    pub fn ext_lock(&self) -> PathBuf {
        self.state.join("ext.lock")
    }

    pub fn ext_clone(&self, name: &str) -> PathBuf {
        self.data.join("ext").join(name)
    }

    pub fn ext_state(&self, name: &str) -> PathBuf {
        self.state.join("ext").join(name)
    }

    /// NAME's settings (`ROOST_EXT_CONFIG`): values.json, settings.env.
    pub fn ext_config(&self, name: &str) -> PathBuf {
        self.config.join("ext").join(name)
    }

    /// NAME's secrets (`ROOST_EXT_SECRETS`), one owner-only file each.
    pub fn ext_secrets(&self, name: &str) -> PathBuf {
        self.ext_config(name).join("secrets")
    }

    /// Who left NAME's data behind at `remove` (beside the data, never in
    /// it: `.` is outside the name grammar, so no extension owns this file).
    pub fn ext_state_left_by(&self, name: &str) -> PathBuf {
        self.state.join("ext").join(format!("{name}.left-by"))
    }
}

/// One of xdg's answers, checked: there is a home directory, and the path
/// is absolute (xdg takes a relative HOME as it is). xdg's trailing `/` goes.
fn absolute(
    dir: Option<PathBuf>,
    var: &'static str,
    home: impl Fn() -> OsString,
) -> Result<PathBuf, PathsError> {
    let dir = dir.ok_or(PathsError::NoHome)?;
    if !dir.is_absolute() {
        return Err(PathsError::RelativeHome { home: home(), var });
    }
    Ok(dir.components().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(dir: Option<&str>) -> Result<PathBuf, String> {
        absolute(dir.map(PathBuf::from), "XDG_DATA_HOME", || "relhome".into())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn an_absolute_directory_loses_its_trailing_slash() {
        assert_eq!(
            check(Some("/h/.local/share/roost/")),
            Ok(PathBuf::from("/h/.local/share/roost"))
        );
        assert_eq!(
            check(Some("/h//x/./roost")),
            Ok(PathBuf::from("/h/x/roost"))
        );
    }

    #[test]
    fn a_relative_directory_is_refused_naming_home_and_the_variable() {
        assert_eq!(
            check(Some("relhome/.local/share/roost/")),
            Err("HOME (relhome) is not an absolute path; set HOME or XDG_DATA_HOME to one".into())
        );
        assert_eq!(
            check(None),
            Err("HOME is not set and the user has no home directory".into())
        );
    }

    #[test]
    fn under_appends_roost() {
        let p = Paths::under(Path::new("/d"), Path::new("/s"), Path::new("/c"));
        assert_eq!(p.data, PathBuf::from("/d/roost"));
        assert_eq!(p.ext_index(), PathBuf::from("/s/roost/ext.index"));
        assert_eq!(p.ext_clone("note"), PathBuf::from("/d/roost/ext/note"));
        assert_eq!(p.user_conf(), PathBuf::from("/c/roost/roost.conf"));
    }
}
