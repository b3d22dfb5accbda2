//! Where roost keeps things: XDG locations computed from an explicit
//! environment snapshot (pure, so the rules are unit-tested), and the one
//! check that they can be written.

use std::ffi::OsString;
use std::path::PathBuf;

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
    /// From the process environment; HOME falls back to the passwd entry.
    pub fn from_env() -> Result<Paths, String> {
        Paths::from_vars(|k| std::env::var_os(k), passwd_home)
    }

    /// The XDG rule: an unset, empty or relative XDG variable means the
    /// default under HOME, and HOME itself must be absolute.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<OsString>,
        fallback_home: impl Fn() -> Option<PathBuf>,
    ) -> Result<Paths, String> {
        let home = match var("HOME").filter(|h| !h.is_empty()) {
            Some(h) => PathBuf::from(h),
            None => fallback_home().ok_or("HOME is not set and the user has no home directory")?,
        };
        let base = |name: &str, default: &str| -> Result<PathBuf, String> {
            match var(name).map(PathBuf::from) {
                Some(p) if p.is_absolute() => Ok(p),
                _ if home.is_absolute() => Ok(home.join(default)),
                _ => Err(format!(
                    "HOME ({}) is not an absolute path; set HOME or {name} to one",
                    home.display()
                )),
            }
        };
        Ok(Paths {
            data: base("XDG_DATA_HOME", ".local/share")?.join("roost"),
            state: base("XDG_STATE_HOME", ".local/state")?.join("roost"),
            config: base("XDG_CONFIG_HOME", ".config")?.join("roost"),
        })
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

    pub fn ext_lock(&self) -> PathBuf {
        self.state.join("ext.lock")
    }

    pub fn ext_clone(&self, name: &str) -> PathBuf {
        self.data.join("ext").join(name)
    }

    pub fn ext_state(&self, name: &str) -> PathBuf {
        self.state.join("ext").join(name)
    }

    /// Who left NAME's data behind at `remove` (beside the data, never in
    /// it: `.` is outside the name grammar, so no extension owns this file).
    pub fn ext_state_left_by(&self, name: &str) -> PathBuf {
        self.state.join("ext").join(format!("{name}.left-by"))
    }
}

fn passwd_home() -> Option<PathBuf> {
    let user = nix::unistd::User::from_uid(nix::unistd::getuid()).ok()??;
    Some(user.dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn paths(vars: &[(&str, &str)]) -> Result<Paths, String> {
        let map: HashMap<String, OsString> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        Paths::from_vars(|k| map.get(k).cloned(), || Some(PathBuf::from("/pw/home")))
    }

    #[test]
    fn defaults_live_under_home() {
        let p = paths(&[("HOME", "/h")]).unwrap();
        assert_eq!(p.data, PathBuf::from("/h/.local/share/roost"));
        assert_eq!(p.state, PathBuf::from("/h/.local/state/roost"));
        assert_eq!(p.config, PathBuf::from("/h/.config/roost"));
        assert_eq!(
            p.ext_index(),
            PathBuf::from("/h/.local/state/roost/ext.index")
        );
        assert_eq!(
            p.ext_clone("note"),
            PathBuf::from("/h/.local/share/roost/ext/note")
        );
        assert_eq!(p.user_conf(), PathBuf::from("/h/.config/roost/roost.conf"));
    }

    #[test]
    fn absolute_xdg_variables_win() {
        let p = paths(&[
            ("HOME", "/h"),
            ("XDG_STATE_HOME", "/s"),
            ("XDG_DATA_HOME", "/d"),
        ])
        .unwrap();
        assert_eq!(p.state, PathBuf::from("/s/roost"));
        assert_eq!(p.data, PathBuf::from("/d/roost"));
    }

    #[test]
    fn empty_or_relative_xdg_variables_mean_the_default() {
        let p = paths(&[
            ("HOME", "/h"),
            ("XDG_STATE_HOME", ""),
            ("XDG_CONFIG_HOME", "rel/cfg"),
        ])
        .unwrap();
        assert_eq!(p.state, PathBuf::from("/h/.local/state/roost"));
        assert_eq!(p.config, PathBuf::from("/h/.config/roost"));
    }

    #[test]
    fn unset_home_falls_back_to_passwd_and_relative_home_is_refused() {
        assert_eq!(
            paths(&[]).unwrap().data,
            PathBuf::from("/pw/home/.local/share/roost")
        );
        let err = paths(&[("HOME", "relhome")]).unwrap_err();
        assert!(err.contains("not an absolute path"), "{err}");
        // An absolute XDG variable does not need HOME.
        let ok = paths(&[
            ("HOME", "relhome"),
            ("XDG_DATA_HOME", "/d"),
            ("XDG_STATE_HOME", "/s"),
            ("XDG_CONFIG_HOME", "/c"),
        ]);
        assert!(ok.is_ok());
    }
}
