//! Extension repositories for tests: a work tree committed and pushed to a
//! bare repository under the test's `remote/`, which roost reaches by
//! `file://` through ROOST_EXT_GIT_BASE. Built with the git CLI (tests may
//! use it; roost itself never does).

use super::TestEnv;
use std::path::PathBuf;
use std::process::Command;

pub struct Fixture {
    /// The author's work tree.
    pub work: PathBuf,
    /// The bare repository roost fetches from.
    pub bare: PathBuf,
    /// OWNER/REPO as typed after `roost ext install`.
    pub repo: String,
    vars: Vec<(String, String)>,
}

impl TestEnv {
    /// An empty extension repository OWNER/REPO (work tree + bare remote).
    pub fn ext_repo(&self, repo: &str) -> Fixture {
        let bare = self.path("remote").join(repo);
        let work = self.path("authors").join(repo);
        std::fs::create_dir_all(&bare).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        let f = Fixture {
            work,
            bare,
            repo: repo.to_string(),
            vars: self.vars(),
        };
        f.git_in(&f.bare, &["init", "-q", "--bare", "-b", "main"]);
        f.git(&["init", "-q", "-b", "main"]);
        f.git(&["remote", "add", "origin", &f.bare.to_string_lossy()]);
        f
    }

    /// An extension NAME claiming COMMANDS (each prints its name and
    /// arguments), with `needs`, committed and pushed.
    pub fn simple_ext(&self, repo: &str, name: &str, commands: &[&str], needs: &[&str]) -> Fixture {
        let f = self.ext_repo(repo);
        f.manifest(name, commands, needs);
        for c in commands {
            f.exec(
                &format!("bin/roost-{c}"),
                &format!("#!/bin/sh\nprintf '{c}'\nfor a in \"$@\"; do printf ' [%s]' \"$a\"; done\necho\n"),
            );
        }
        f.commit("first");
        f
    }
}

impl Fixture {
    pub fn git(&self, args: &[&str]) -> String {
        self.git_in(&self.work, args)
    }

    fn git_in(&self, dir: &std::path::Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env_clear()
            .envs(self.vars.iter().map(|(k, v)| (k, v)))
            .env("GIT_AUTHOR_NAME", "Author")
            .env("GIT_AUTHOR_EMAIL", "author@example.invalid")
            .env("GIT_COMMITTER_NAME", "Author")
            .env("GIT_COMMITTER_EMAIL", "author@example.invalid")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    pub fn write(&self, rel: &str, content: &str) {
        let path = self.work.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// A file with mode 755.
    pub fn exec(&self, rel: &str, content: &str) {
        use std::os::unix::fs::PermissionsExt;
        self.write(rel, content);
        std::fs::set_permissions(self.work.join(rel), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }

    pub fn manifest(&self, name: &str, commands: &[&str], needs: &[&str]) {
        let json =
            serde_json::json!({"name": name, "contract": 1, "commands": commands, "needs": needs});
        self.write(
            "roost-ext.json",
            &serde_json::to_string_pretty(&json).unwrap(),
        );
    }

    /// Commits everything and pushes branch and tags; returns the commit id.
    pub fn commit(&self, message: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        self.push();
        self.head()
    }

    pub fn push(&self) {
        self.git(&["push", "-q", "-f", "origin", "HEAD:refs/heads/main"]);
        self.git(&["push", "-q", "-f", "--tags", "origin"]);
    }

    pub fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }

    pub fn tree(&self, rev: &str) -> String {
        self.git(&["rev-parse", &format!("{rev}^{{tree}}")])
            .trim()
            .to_string()
    }

    /// What the remote says a ref is, as `git ls-remote` answers.
    pub fn ls_remote(&self, reference: &str) -> String {
        let out = self.git(&["ls-remote", &self.bare.to_string_lossy(), reference]);
        out.split_whitespace().next().unwrap_or("").to_string()
    }
}
