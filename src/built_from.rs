//! The commit a source tree is built from, for `roost --version`: read by
//! build.rs (which includes this file by path) from the checkout's `.git`
//! itself, as git lays it out (no git program runs), or from the
//! `.cargo_vcs_info.json` of a packaged crate. Unit-tested here; the
//! binary holds only the answer, a compile-time constant.

use std::path::{Path, PathBuf};

/// What was found: the full commit id, if any, and every file or directory
/// read to find it (a change to one may change the answer).
pub struct Found {
    pub commit: Option<String>,
    pub read: Vec<PathBuf>,
}

/// The commit HEAD names in the source tree at `root`, or the one a
/// packaged crate records.
pub fn commit(root: &Path) -> Found {
    let mut read = Vec::new();
    let commit = find(root, &mut read);
    Found { commit, read }
}

fn find(root: &Path, read: &mut Vec<PathBuf>) -> Option<String> {
    let vcs_info = root.join(".cargo_vcs_info.json");
    if vcs_info.is_file() {
        read.push(vcs_info.clone());
        let text = std::fs::read_to_string(&vcs_info).ok()?;
        let at = text.find("\"sha1\"")?;
        let rest = text[at + "\"sha1\"".len()..].trim_start_matches([' ', ':', '"']);
        return object_id(rest.get(..40)?);
    }
    let dot_git = root.join(".git");
    // A worktree's `.git` is a file naming its git directory.
    let git_dir = if dot_git.is_file() {
        read.push(dot_git.clone());
        let text = std::fs::read_to_string(&dot_git).ok()?;
        root.join(text.strip_prefix("gitdir:")?.trim())
    } else {
        dot_git
    };
    // Branches live in the directory all worktrees share.
    let common = match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(rel) => git_dir.join(rel.trim()),
        Err(_) => git_dir.clone(),
    };
    let head_file = git_dir.join("HEAD");
    let head = std::fs::read_to_string(&head_file).ok()?;
    read.push(head_file);
    let Some(name) = head.trim().strip_prefix("ref:").map(str::trim) else {
        return object_id(head.trim());
    };
    if name
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return None;
    }
    for dir in [&git_dir, &common] {
        let loose = dir.join(name);
        if loose.is_file() {
            read.push(loose.clone());
            return object_id(std::fs::read_to_string(&loose).ok()?.trim());
        }
    }
    // Not loose: packed, until a commit writes it loose again (in the
    // directory, then read too).
    if let Some(dir) = common.join(name).parent().filter(|d| d.is_dir()) {
        read.push(dir.to_path_buf());
    }
    let packed = common.join("packed-refs");
    read.push(packed.clone());
    std::fs::read_to_string(&packed)
        .ok()?
        .lines()
        .find_map(|line| {
            let (id, named) = line.split_once(' ')?;
            (named == name).then(|| object_id(id)).flatten()
        })
}

/// `id` when it is a whole object id (SHA-1 or SHA-256, in hex).
fn object_id(id: &str) -> Option<String> {
    let hex = id.bytes().all(|b| b.is_ascii_hexdigit());
    (hex && matches!(id.len(), 40 | 64)).then(|| id.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::commit;
    use std::path::Path;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .current_dir(dir)
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    /// A loose branch, the same branch packed, a detached HEAD, a worktree
    /// (whose `.git` is a file), a packaged crate, and no repository at all.
    #[test]
    fn head_is_found_however_git_keeps_it() {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir(&repo).unwrap();
        git(&repo, &["init", "-q"]);
        git(&repo, &["commit", "-q", "--allow-empty", "-m", "one"]);
        let one = git(&repo, &["rev-parse", "HEAD"]);
        let found = commit(&repo);
        assert_eq!(found.commit.as_deref(), Some(one.as_str()));
        assert!(found.read.contains(&repo.join(".git/refs/heads/main")));

        git(&repo, &["pack-refs", "--all"]);
        assert!(!repo.join(".git/refs/heads/main").exists());
        let found = commit(&repo);
        assert_eq!(found.commit.as_deref(), Some(one.as_str()));
        assert!(found.read.contains(&repo.join(".git/packed-refs")));

        git(&repo, &["commit", "-q", "--allow-empty", "-m", "two"]);
        let two = git(&repo, &["rev-parse", "HEAD"]);
        assert_eq!(commit(&repo).commit.as_deref(), Some(two.as_str()));

        git(&repo, &["checkout", "-q", "--detach", &one]);
        assert_eq!(commit(&repo).commit.as_deref(), Some(one.as_str()));

        let tree = dir.path().join("tree");
        git(
            &repo,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                "side",
                tree.to_str().unwrap(),
                &two,
            ],
        );
        assert!(tree.join(".git").is_file());
        assert_eq!(commit(&tree).commit.as_deref(), Some(two.as_str()));

        let crate_dir = dir.path().join("packaged");
        std::fs::create_dir(&crate_dir).unwrap();
        assert!(commit(&crate_dir).commit.is_none());
        std::fs::write(
            crate_dir.join(".cargo_vcs_info.json"),
            format!(
                "{{\n  \"git\": {{\n    \"sha1\": \"{two}\"\n  }},\n  \"path_in_vcs\": \"\"\n}}"
            ),
        )
        .unwrap();
        assert_eq!(commit(&crate_dir).commit.as_deref(), Some(two.as_str()));
    }
}
