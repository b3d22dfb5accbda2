//! Where an edit of an agent's file lands: the file itself, or the file a
//! link (at it, or at a directory above it) leads to, so that a link the
//! user keeps (a dotfiles repository) stays a link. A dangling link, and a
//! project's file that leads out of the project (into the user's own
//! settings), are refused. Also the directories an install made, so the
//! remove that undoes it takes them away again, and nothing else.

use std::io;
use std::path::{Path, PathBuf};

/// Why roost will not edit through a link.
#[derive(Debug)]
pub enum LinkProblem {
    /// `link` leads to `to`, which does not exist.
    Dangling {
        link: PathBuf,
        to: PathBuf,
    },
    /// A project's file that is, through a link, `to`: a file outside the
    /// project (writing it would put what it holds into the project, or
    /// roost's hooks into the user's own settings).
    LeavesProject {
        to: PathBuf,
    },
    Io(io::Error),
}

/// The file an edit of `path` changes: `path` with every link on the way
/// followed. With `project`, it must stay inside that directory.
pub fn real(path: &Path, project: Option<&Path>) -> Result<PathBuf, LinkProblem> {
    let real = resolve(path)?;
    if let Some(project) = project {
        let project = std::fs::canonicalize(project).map_err(LinkProblem::Io)?;
        if !real.starts_with(&project) {
            return Err(LinkProblem::LeavesProject { to: real });
        }
    }
    Ok(real)
}

fn resolve(path: &Path) -> Result<PathBuf, LinkProblem> {
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let mut at = path;
    loop {
        match std::fs::canonicalize(at) {
            Ok(found) => {
                return Ok(rest.iter().rev().fold(found, |p, name| p.join(name)));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(at).is_ok_and(|m| m.file_type().is_symlink()) {
                    let to = std::fs::read_link(at).unwrap_or_default();
                    return Err(LinkProblem::Dangling {
                        link: at.to_path_buf(),
                        to,
                    });
                }
                let (Some(name), Some(parent)) = (at.file_name(), at.parent()) else {
                    return Err(LinkProblem::Io(e));
                };
                rest.push(name);
                at = parent;
            }
            Err(e) => return Err(LinkProblem::Io(e)),
        }
    }
}

/// The directories above `file` that do not exist yet, outermost first.
pub fn missing_dirs(file: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = file
        .ancestors()
        .skip(1)
        .take_while(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_err())
        .map(Path::to_path_buf)
        .collect();
    out.reverse();
    out
}

/// The record, beside `file`, of the directories an install made for it.
pub fn made_record(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_os_string();
    name.push(".roost-made");
    PathBuf::from(name)
}

/// Takes away the directories the install of `file` made (when they are
/// empty), and their record.
pub fn unmake(file: &Path) {
    let record = made_record(file);
    let Ok(Some(bytes)) = crate::fsutil::read_regular(&record, 64 << 10) else {
        return;
    };
    let _ = std::fs::remove_file(&record);
    let text = String::from_utf8_lossy(&bytes);
    let made: Vec<&Path> = text.lines().map(Path::new).collect();
    // Deepest first; only directories above the file, which a hand edit
    // of the record cannot change.
    for dir in made.iter().rev() {
        if file.ancestors().skip(1).any(|a| a == *dir) {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_followed_and_a_dangling_one_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let d = std::fs::canonicalize(d.path()).unwrap();
        let dots = d.join("dotfiles");
        std::fs::create_dir(&dots).unwrap();
        std::fs::write(dots.join("settings.json"), "{}").unwrap();
        let home = d.join("home/.claude");
        std::fs::create_dir_all(&home).unwrap();
        std::os::unix::fs::symlink(dots.join("settings.json"), home.join("settings.json")).unwrap();
        assert_eq!(
            real(&home.join("settings.json"), None).unwrap(),
            dots.join("settings.json")
        );
        // A directory link on the way, and a file not there yet.
        std::os::unix::fs::symlink(&dots, d.join("home/.codex")).unwrap();
        assert_eq!(
            real(&d.join("home/.codex/hooks.json"), None).unwrap(),
            dots.join("hooks.json")
        );
        assert_eq!(
            real(&d.join("home/.new/x.json"), None).unwrap(),
            d.join("home/.new/x.json")
        );
        std::os::unix::fs::symlink(d.join("gone"), home.join("dangling.json")).unwrap();
        assert!(matches!(
            real(&home.join("dangling.json"), None),
            Err(LinkProblem::Dangling { to, .. }) if to == d.join("gone")
        ));
        let project = d.join("project");
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        let local = project.join(".claude/settings.local.json");
        std::os::unix::fs::symlink(home.join("settings.json"), &local).unwrap();
        assert!(matches!(
            real(&local, Some(&project)),
            Err(LinkProblem::LeavesProject { .. })
        ));
    }

    #[test]
    fn the_directories_made_are_known_and_taken_away_again() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("a/b/f.json");
        let made = missing_dirs(&file);
        assert_eq!(made, [d.path().join("a"), d.path().join("a/b")]);
        std::fs::create_dir_all(d.path().join("a/b")).unwrap();
        let lines: Vec<String> = made.iter().map(|p| p.display().to_string()).collect();
        std::fs::write(made_record(&file), lines.join("\n")).unwrap();
        unmake(&file);
        assert!(!d.path().join("a").exists());
    }
}
