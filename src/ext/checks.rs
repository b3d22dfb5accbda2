//! The install gates run on an extension's files before anything is asked
//! or written: symlinks must stay inside the extension,
//! no file may be setuid or setgid, the manifest must be valid, and every
//! claimed command (and, with events, `bin/roost-events`) must be an
//! executable `bin/roost-CMD`.

use super::error::ExtError;
use super::manifest::{self, Manifest};
use crate::untrusted::printable;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

/// Deepest chain of symlinks followed while checking one link.
const MAX_LINK_DEPTH: u32 = 40;

/// Runs every gate on the extension in `dir`; returns its manifest.
pub fn check_dir(dir: &Path) -> Result<Manifest, ExtError> {
    walk(dir, dir)?;
    let manifest = read_manifest(dir)?;
    for command in &manifest.commands {
        check_program(dir, command, &format!("command {command}"))?;
    }
    if manifest.events.is_some() {
        // Its events run this program: it must be there as a command's is.
        let handler = super::events_decl::HANDLER;
        check_program(dir, handler, "events")?;
    }
    Ok(manifest)
}

/// `roost-ext.json`, which must be a regular file of at most 1 MiB.
pub fn read_manifest(dir: &Path) -> Result<Manifest, ExtError> {
    let path = dir.join(crate::contract::MANIFEST);
    let meta = std::fs::symlink_metadata(&path).map_err(|_| {
        ExtError::refused("there is no roost-ext.json at the top of the repository")
    })?;
    if !meta.file_type().is_file() {
        return Err(ExtError::refused("roost-ext.json is not a regular file"));
    }
    if meta.len() > manifest::MAX_BYTES as u64 {
        return Err(ExtError::refused(format!(
            "roost-ext.json is {} bytes; the limit is 1 MiB",
            meta.len()
        )));
    }
    let bytes = std::fs::read(&path)
        .map_err(|e| ExtError::failed(format!("cannot read roost-ext.json: {e}")))?;
    manifest::parse(&bytes).map_err(|e| e.within("roost-ext.json"))
}

/// `bin/roost-NAME` must be an executable regular file; `what` names it in
/// a refusal (`command CMD`, `events`).
fn check_program(dir: &Path, name: &str, what: &str) -> Result<(), ExtError> {
    let rel = format!("bin/{}{name}", crate::contract::PROGRAM_PREFIX);
    let refuse = |why: &str| Err(ExtError::refused(format!("{what}: {rel} {why}")));
    match std::fs::symlink_metadata(dir.join(&rel)) {
        Err(_) => refuse("is missing"),
        Ok(m) if m.file_type().is_symlink() => {
            refuse("is a symlink; it must be the executable itself")
        }
        Ok(m) if !m.file_type().is_file() => refuse("is not a regular file"),
        Ok(m) if m.permissions().mode() & 0o100 == 0 => {
            refuse("is not executable (git mode 100755)")
        }
        Ok(_) => Ok(()),
    }
}

/// Every entry below `dir` (not `.git` at the top), without following links.
fn walk(root: &Path, dir: &Path) -> Result<(), ExtError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| ExtError::failed(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| ExtError::failed(format!("cannot read {}: {e}", dir.display())))?;
        let path = entry.path();
        if dir == root && entry.file_name() == ".git" {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path)
            .map_err(|e| ExtError::failed(format!("cannot stat {}: {e}", path.display())))?;
        let rel = path.strip_prefix(root).unwrap_or(&path);
        let shown = printable(rel.as_os_str().as_bytes());
        let ft = meta.file_type();
        if ft.is_symlink() {
            link_stays_inside(root, rel)
                .map_err(|why| why.reword(|m| format!("the symlink {shown} {m}")))?;
        } else if ft.is_dir() {
            walk(root, &path)?;
        } else if ft.is_file() && meta.permissions().mode() & 0o6000 != 0 {
            return Err(ExtError::refused(format!("{shown} is setuid or setgid")));
        }
    }
    Ok(())
}

/// Resolves the link at `rel` (relative to `root`) the way the kernel would,
/// following links inside the tree, and fails if any step leaves `root`.
fn link_stays_inside(root: &Path, rel: &Path) -> Result<(), ExtError> {
    let mut depth = 0;
    let parent: Vec<OsString> = rel
        .parent()
        .map(|p| p.components().map(|c| c.as_os_str().to_owned()).collect())
        .unwrap_or_default();
    let target = std::fs::read_link(root.join(rel))
        .map_err(|e| ExtError::failed(format!("cannot be read: {e}")))?;
    resolve(root, parent, &target, &mut depth).map(drop)
}

fn resolve(
    root: &Path,
    mut at: Vec<OsString>,
    target: &Path,
    depth: &mut u32,
) -> Result<Vec<OsString>, ExtError> {
    for component in target.components() {
        match component {
            Component::RootDir | Component::Prefix(_) => {
                return Err(ExtError::refused(format!(
                    "points to the absolute path {}",
                    printable(target.as_os_str().as_bytes())
                )))
            }
            Component::CurDir => {}
            Component::ParentDir => {
                if at.pop().is_none() {
                    return Err(ExtError::refused(format!(
                        "points to {}, outside the extension",
                        printable(target.as_os_str().as_bytes())
                    )));
                }
            }
            Component::Normal(name) => {
                at.push(name.to_owned());
                // The clone's .git is not part of the extension (verify does
                // not hash it, and it can be swapped): a path through it
                // leaves the tree.
                if at.len() == 1 && name.as_bytes().eq_ignore_ascii_case(b".git") {
                    return Err(ExtError::refused(format!(
                        "points to {}, through the clone's .git, outside the extension",
                        printable(target.as_os_str().as_bytes())
                    )));
                }
                let here: PathBuf = at.iter().fold(root.to_path_buf(), |p, c| p.join(c));
                let is_link =
                    std::fs::symlink_metadata(&here).is_ok_and(|m| m.file_type().is_symlink());
                if is_link {
                    *depth += 1;
                    if *depth > MAX_LINK_DEPTH {
                        return Err(ExtError::refused(
                            "is part of a chain of more than 40 symlinks",
                        ));
                    }
                    let next = std::fs::read_link(&here)
                        .map_err(|e| ExtError::failed(format!("cannot be read: {e}")))?;
                    at.pop();
                    at = resolve(root, at, &next, depth)?;
                }
            }
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sub/deeper")).unwrap();
        std::fs::write(dir.path().join("sub/file"), "x").unwrap();
        dir
    }

    fn check(dir: &tempfile::TempDir) -> Result<(), ExtError> {
        walk(dir.path(), dir.path())
    }

    #[test]
    fn links_inside_the_tree_pass() {
        let d = tree();
        symlink("sub/file", d.path().join("a")).unwrap();
        symlink("../file", d.path().join("sub/deeper/b")).unwrap();
        symlink("sub", d.path().join("dirlink")).unwrap();
        symlink("dirlink/../sub/file", d.path().join("c")).unwrap();
        symlink("missing-but-inside", d.path().join("dangling")).unwrap();
        assert_eq!(check(&d), Ok(()));
    }

    #[test]
    fn absolute_and_climbing_links_are_refused() {
        for (name, target) in [
            ("abs", "/etc/passwd"),
            ("up", "../outside"),
            ("deep", "sub/../../x"),
        ] {
            let d = tree();
            symlink(target, d.path().join(name)).unwrap();
            let err = check(&d).unwrap_err().to_string();
            assert!(err.contains(name), "{err}");
        }
    }

    #[test]
    fn a_chain_through_a_link_to_the_top_is_refused() {
        // `here -> .` then `x -> here/../secret`: lexically inside, really outside.
        let d = tree();
        symlink(".", d.path().join("here")).unwrap();
        symlink("here/../secret", d.path().join("x")).unwrap();
        assert!(check(&d).unwrap_err().to_string().contains("outside"));
    }

    #[test]
    fn a_link_through_the_clones_git_directory_is_refused() {
        for (name, target) in [
            ("bin", ".git/../sub"),
            ("x", ".git/config"),
            ("y", "sub/../.git"),
            ("z", "./.GIT/hooks"),
        ] {
            let d = tree();
            std::fs::create_dir_all(d.path().join(".git")).unwrap();
            symlink(target, d.path().join(name)).unwrap();
            let err = check(&d).unwrap_err().to_string();
            assert!(err.contains("through the clone's .git"), "{target}: {err}");
        }
        // A directory named .git below the top is only a name.
        let d = tree();
        std::fs::create_dir_all(d.path().join("sub/.git")).unwrap();
        symlink("sub/.git", d.path().join("inner")).unwrap();
        assert!(check(&d).is_ok());
    }

    #[test]
    fn a_directory_link_out_and_a_loop_are_refused() {
        let d = tree();
        symlink("..", d.path().join("sub/parent")).unwrap();
        symlink("sub/parent/..", d.path().join("out")).unwrap();
        assert!(check(&d).is_err());
        let d = tree();
        symlink("loop2", d.path().join("loop1")).unwrap();
        symlink("loop1", d.path().join("loop2")).unwrap();
        assert!(check(&d).unwrap_err().to_string().contains("chain"));
    }

    #[test]
    fn setuid_and_setgid_files_are_refused() {
        for mode in [0o4755, 0o2755] {
            let d = tree();
            let f = d.path().join("sub/file");
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(mode)).unwrap();
            assert!(check(&d)
                .unwrap_err()
                .to_string()
                .contains("setuid or setgid"));
        }
    }

    #[test]
    fn commands_must_be_executable_files() {
        let d = tree();
        std::fs::create_dir_all(d.path().join("bin")).unwrap();
        assert!(check_program(d.path(), "note", "command note")
            .unwrap_err()
            .message()
            .contains("missing"));
        let exe = d.path().join("bin/roost-note");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        assert!(check_program(d.path(), "note", "command note")
            .unwrap_err()
            .message()
            .contains("not executable"));
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(check_program(d.path(), "note", "command note"), Ok(()));
        symlink("roost-note", d.path().join("bin/roost-alias")).unwrap();
        assert!(check_program(d.path(), "alias", "command alias")
            .unwrap_err()
            .message()
            .contains("symlink"));
    }
}
