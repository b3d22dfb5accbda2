//! Tampering with an installed extension: a matrix of mutations (every
//! single-byte change at several offsets of several files, mode changes,
//! symlink retargets, added and removed files, type changes), each of which
//! `roost ext verify` must catch, naming exactly the changed paths and how
//! they changed; after restoring the files it must say `ok` again.
//! (`roost ext list`'s lock/index disagreements are covered, one test per
//! kind, in tests/it/ext/list.rs.)

use crate::common::*;

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `note`, with text, executable, symlink and nested-directory files.
fn installed(env: &TestEnv) -> PathBuf {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.write("README", "read me\nsecond line\n");
    f.write("docs/guide.txt", "a guide\nwith two lines\n");
    f.write("docs/deep/nested/leaf.txt", "leaf\n");
    f.exec("docs/deep/tool.sh", "#!/bin/sh\necho tool\n");
    symlink("README", f.work.join("link")).unwrap();
    symlink("deep", f.work.join("docs/link-dir")).unwrap();
    f.commit("a tree with everything");
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    assert!(out.status.success(), "install: {}", describe(&out));
    env.path("data/roost/ext/note")
}

type Mutate = Box<dyn Fn(&Path)>;

struct Mutation {
    what: String,
    apply: Mutate,
    /// The detail lines verify must print, in its order.
    want: Vec<String>,
}

fn m(what: impl Into<String>, apply: impl Fn(&Path) + 'static, want: &[&str]) -> Mutation {
    Mutation {
        what: what.into(),
        apply: Box::new(apply),
        want: want.iter().map(|s| s.to_string()).collect(),
    }
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn relink(path: &Path, target: &str) {
    std::fs::remove_file(path).unwrap();
    symlink(target, path).unwrap();
}

fn write(path: &Path, content: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// Copies a directory exactly (modes, symlinks, .git included).
fn copy_tree(from: &Path, to: &Path) {
    let out = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .output()
        .unwrap();
    assert!(out.status.success(), "cp: {}", describe(&out));
}

fn verify(env: &TestEnv) -> (Option<i32>, String, String) {
    let out = env.run(["ext", "verify", "note"]);
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Applies each mutation to a fresh copy of the installed clone, checks
/// verify's report, restores the clone and checks `ok`. Returns the count.
fn run_matrix(mutations: Vec<Mutation>) -> usize {
    let env = TestEnv::new();
    let clone = installed(&env);
    let pristine = env.path("pristine");
    copy_tree(&clone, &pristine);
    assert_eq!(
        verify(&env),
        (exited(Exit::Ok), "note: ok\n".into(), String::new())
    );
    let mut misses = Vec::new();
    for mu in &mutations {
        (mu.apply)(&clone);
        let mut want = format!(
            "note: differs from the tree recorded at install ({} {})\n",
            mu.want.len(),
            if mu.want.len() == 1 { "file" } else { "files" }
        );
        for d in &mu.want {
            want.push_str(&format!("  {d}\n"));
        }
        let got = verify(&env);
        let hint = "roost ext repair note puts back the files pinned in ext.lock\n".to_string();
        if got != (exited(Exit::Failed), want.clone(), hint) {
            misses.push(format!("{}: want\n{want}got {got:?}", mu.what));
        }
        std::fs::remove_dir_all(&clone).unwrap();
        copy_tree(&pristine, &clone);
        let after = verify(&env);
        if after != (exited(Exit::Ok), "note: ok\n".into(), String::new()) {
            misses.push(format!("{}: not ok after restoring: {after:?}", mu.what));
        }
    }
    assert!(
        misses.is_empty(),
        "{} miss(es):\n{}",
        misses.len(),
        misses.join("\n")
    );
    mutations.len()
}

/// Every text and executable file of the fixture.
const FILES: &[&str] = &[
    "README",
    "bin/roost-note",
    "docs/guide.txt",
    "docs/deep/nested/leaf.txt",
    "docs/deep/tool.sh",
    "roost-ext.json",
];

#[test]
fn verify_catches_every_single_byte_change() {
    let mut mutations = Vec::new();
    for file in FILES {
        // Offsets as fractions of the length: first, second, middle, last.
        for at in ["first", "second", "middle", "last"] {
            for flip in [0x01u8, 0x80] {
                let rel = file.to_string();
                mutations.push(m(
                    format!("{file}: byte {at} ^ {flip:#x}"),
                    move |clone| {
                        let path = clone.join(&rel);
                        let mut bytes = std::fs::read(&path).unwrap();
                        let i = match at {
                            "first" => 0,
                            "second" => 1,
                            "middle" => bytes.len() / 2,
                            _ => bytes.len() - 1,
                        };
                        bytes[i] ^= flip;
                        std::fs::write(&path, bytes).unwrap();
                    },
                    &[&format!("modified  {file} (content)")],
                ));
            }
        }
        let rel = file.to_string();
        mutations.push(m(
            format!("{file}: a byte appended"),
            move |clone| {
                let path = clone.join(&rel);
                let mut bytes = std::fs::read(&path).unwrap();
                bytes.push(b'\n');
                std::fs::write(&path, bytes).unwrap();
            },
            &[&format!("modified  {file} (content)")],
        ));
        let rel = file.to_string();
        mutations.push(m(
            format!("{file}: last byte cut"),
            move |clone| {
                let path = clone.join(&rel);
                let bytes = std::fs::read(&path).unwrap();
                std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
            },
            &[&format!("modified  {file} (content)")],
        ));
    }
    assert!(run_matrix(mutations) >= 60);
}

#[test]
fn verify_catches_mode_changes_retargets_and_changes_of_kind() {
    let mut mutations = vec![
        // Modes: git records only the executable bit.
        m(
            "README +x",
            |c| chmod(&c.join("README"), 0o755),
            &["modified  README (mode 100644 -> 100755)"],
        ),
        m(
            "README u+x only",
            |c| chmod(&c.join("README"), 0o744),
            &["modified  README (mode 100644 -> 100755)"],
        ),
        m(
            "guide +x",
            |c| chmod(&c.join("docs/guide.txt"), 0o755),
            &["modified  docs/guide.txt (mode 100644 -> 100755)"],
        ),
        m(
            "leaf +x",
            |c| chmod(&c.join("docs/deep/nested/leaf.txt"), 0o755),
            &["modified  docs/deep/nested/leaf.txt (mode 100644 -> 100755)"],
        ),
        m(
            "manifest +x",
            |c| chmod(&c.join("roost-ext.json"), 0o755),
            &["modified  roost-ext.json (mode 100644 -> 100755)"],
        ),
        m(
            "bin -x",
            |c| chmod(&c.join("bin/roost-note"), 0o644),
            &["modified  bin/roost-note (mode 100755 -> 100644)"],
        ),
        m(
            "tool -x",
            |c| chmod(&c.join("docs/deep/tool.sh"), 0o644),
            &["modified  docs/deep/tool.sh (mode 100755 -> 100644)"],
        ),
        m(
            "bin -x and edited",
            |c| {
                chmod(&c.join("bin/roost-note"), 0o644);
                write(&c.join("bin/roost-note"), b"#!/bin/sh\n");
            },
            &["modified  bin/roost-note (mode 100755 -> 100644, content)"],
        ),
        // Symlink retargets.
        m(
            "link -> guide",
            |c| relink(&c.join("link"), "docs/guide.txt"),
            &["modified  link (symlink target)"],
        ),
        m(
            "link -> absolute",
            |c| relink(&c.join("link"), "/etc/passwd"),
            &["modified  link (symlink target)"],
        ),
        m(
            "link -> one byte more",
            |c| relink(&c.join("link"), "README "),
            &["modified  link (symlink target)"],
        ),
        m(
            "link -> ./README",
            |c| relink(&c.join("link"), "./README"),
            &["modified  link (symlink target)"],
        ),
        m(
            "dir link -> nested",
            |c| relink(&c.join("docs/link-dir"), "deep/nested"),
            &["modified  docs/link-dir (symlink target)"],
        ),
        m(
            "dir link -> ../bin",
            |c| relink(&c.join("docs/link-dir"), "../bin"),
            &["modified  docs/link-dir (symlink target)"],
        ),
        // Changes of kind.
        m(
            "README becomes a symlink",
            |c| relink(&c.join("README"), "docs/guide.txt"),
            &["modified  README (mode 100644 -> 120000, content)"],
        ),
        m(
            "bin becomes a symlink",
            |c| relink(&c.join("bin/roost-note"), "/bin/true"),
            &["modified  bin/roost-note (mode 100755 -> 120000, content)"],
        ),
        m(
            "link becomes a file holding its target",
            |c| {
                std::fs::remove_file(c.join("link")).unwrap();
                write(&c.join("link"), b"README");
            },
            &["modified  link (mode 120000 -> 100644)"],
        ),
        m(
            "link becomes a copy of README",
            |c| {
                std::fs::remove_file(c.join("link")).unwrap();
                std::fs::copy(c.join("README"), c.join("link")).unwrap();
            },
            &["modified  link (mode 120000 -> 100644, content)"],
        ),
        m(
            "a directory becomes a file",
            |c| {
                std::fs::remove_dir_all(c.join("docs/deep/nested")).unwrap();
                write(&c.join("docs/deep/nested"), b"leaf\n");
            },
            &[
                "added     docs/deep/nested",
                "removed   docs/deep/nested/leaf.txt",
            ],
        ),
        m(
            "a file becomes a directory",
            |c| {
                std::fs::remove_file(c.join("docs/guide.txt")).unwrap();
                write(&c.join("docs/guide.txt/x"), b"a guide\n");
            },
            &["removed   docs/guide.txt", "added     docs/guide.txt/x"],
        ),
        m(
            "a directory symlink becomes a directory",
            |c| {
                std::fs::remove_file(c.join("docs/link-dir")).unwrap();
                write(&c.join("docs/link-dir/nested/leaf.txt"), b"leaf\n");
            },
            &[
                "removed   docs/link-dir",
                "added     docs/link-dir/nested/leaf.txt",
            ],
        ),
        m(
            "a directory becomes a symlink to its copy",
            |c| {
                std::fs::rename(c.join("docs/deep/nested"), c.join("moved")).unwrap();
                symlink("../../moved", c.join("docs/deep/nested")).unwrap();
            },
            &[
                "added     docs/deep/nested",
                "removed   docs/deep/nested/leaf.txt",
                "added     moved/leaf.txt",
            ],
        ),
        m(
            "README renamed",
            |c| std::fs::rename(c.join("README"), c.join("README2")).unwrap(),
            &["removed   README", "added     README2"],
        ),
    ];
    // Added files, in every directory and in new ones.
    for rel in [
        "new",
        ".hidden",
        "name with space",
        "bin/roost-extra",
        "docs/new.txt",
        "docs/deep/new",
        "docs/deep/nested/new",
        "fresh/dir/file",
        "README.orig",
    ] {
        let at = rel.to_string();
        mutations.push(m(
            format!("added {rel}"),
            move |c| write(&c.join(&at), b"x"),
            &[&format!("added     {rel}")],
        ));
    }
    let at = "bin/roost-extra";
    mutations.push(m(
        "added executable",
        move |c| {
            write(&c.join(at), b"#!/bin/sh\n");
            chmod(&c.join(at), 0o755);
        },
        &["added     bin/roost-extra"],
    ));
    mutations.push(m(
        "added symlink",
        |c| symlink("/", c.join("docs/root")).unwrap(),
        &["added     docs/root"],
    ));
    // Removed files, symlinks and whole directories.
    for rel in FILES.iter().copied().chain(["link", "docs/link-dir"]) {
        let at = rel.to_string();
        mutations.push(m(
            format!("removed {rel}"),
            move |c| std::fs::remove_file(c.join(&at)).unwrap(),
            &[&format!("removed   {rel}")],
        ));
    }
    mutations.push(m(
        "removed docs/deep",
        |c| std::fs::remove_dir_all(c.join("docs/deep")).unwrap(),
        &[
            "removed   docs/deep/nested/leaf.txt",
            "removed   docs/deep/tool.sh",
        ],
    ));
    assert!(run_matrix(mutations) >= 40);
}

#[test]
fn verify_ignores_what_git_does_not_record() {
    let env = TestEnv::new();
    let clone = installed(&env);
    let ok = (exited(Exit::Ok), "note: ok\n".to_string(), String::new());
    // An empty directory, a group/other mode change, a touched mtime.
    std::fs::create_dir_all(clone.join("docs/empty")).unwrap();
    chmod(&clone.join("README"), 0o600);
    std::fs::File::options()
        .write(true)
        .open(clone.join("docs/guide.txt"))
        .unwrap()
        .set_modified(std::time::SystemTime::UNIX_EPOCH)
        .unwrap();
    assert_eq!(verify(&env), ok);
}
