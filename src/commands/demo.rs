//! `demo`: roost's main job, end to end, in a throwaway sandbox: a private
//! HOME and XDG tree, a private server socket, two stand-in agents. It runs
//! the real `roost` commands and removes everything when it ends.

use crate::error::{Error, Exit, Result};
use crate::paths::Paths;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const EXAMPLE_MANIFEST: &str = include_str!("../../share/example-ext/roost-ext.json");
const EXAMPLE_COMMAND: &str = include_str!("../../share/example-ext/bin/roost-tally");

pub fn run() -> Result<Exit> {
    prerequisites()?;
    let fail = |what: &str, e: &dyn std::fmt::Display| Error::fail("demo", format!("{what}: {e}"));
    let sandbox = Sandbox::new().map_err(|e| fail("cannot make the sandbox", &e))?;
    println!(
        "roost demo: a tour in a throwaway sandbox at {}",
        crate::untrusted::path(sandbox.root())
    );
    println!("(its own HOME, XDG directories and tmux server; nothing of yours is touched)");
    let outcome = tour(&sandbox);
    sandbox.teardown();
    outcome?;
    println!("\nThe sandbox and its server are gone. {}", next_step());
    Ok(Exit::Ok)
}

/// What the tour needs of this machine, checked before it says anything:
/// tmux for its server, and git for the local repository its extension is
/// installed from (a file:// source runs git's `git-upload-pack`).
fn prerequisites() -> Result<()> {
    crate::tmux::installed().map_err(|e| Error::fail("demo", e.0))?;
    let git = crate::ext::git::url::requirements("file:///demo/").and_then(|r| r.program);
    if git.is_some_and(|p| !p.found) {
        return Err(Error::fail(
            "demo",
            "git is not installed (not found on PATH); the tour installs an extension from a local repository, which runs git's git-upload-pack",
        )
        .hint("install git (apt-get install git, dnf install git, brew install git), then run the tour again"));
    }
    Ok(())
}

/// How to start your own fleet from here: `roost`, when that is this very
/// binary; else this binary by its path, and how to put roost on PATH
/// (a tour run with `cargo run` has not installed it).
fn next_step() -> String {
    let install = "from roost's source tree, cargo install --locked --path . puts it on your PATH";
    let Some(exe) = std::env::current_exe()
        .ok()
        .and_then(|e| e.canonicalize().ok())
    else {
        return format!(
            "Next: `roost` starts your own fleet, once roost is on your PATH ({install})."
        );
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = crate::fsutil::find_program("roost", &path).and_then(|p| p.canonicalize().ok());
    let here = crate::untrusted::shell_word(&exe.to_string_lossy());
    match found {
        Some(p) if p == exe => "Next: `roost` starts your own fleet.".to_string(),
        Some(p) => format!(
            "Next: `{here}` starts your own fleet (the roost first on your PATH is another one, {}; {install}).",
            crate::untrusted::shell_word(&p.to_string_lossy())
        ),
        None => format!("Next: `{here}` starts your own fleet (roost is not on your PATH yet: {install})."),
    }
}

fn tour(s: &Sandbox) -> Result<()> {
    let agent = s.paths.roost_home().join("share/agents/fake-agent");
    let agent = agent.to_string_lossy();

    s.step("Start two agents, each in its own window of roost's private tmux server.");
    s.roost(&["spawn", "alice", &agent, "alice"])?;
    s.roost(&["spawn", "bob", &agent, "bob"])?;

    s.step("Wait until both say they are ready (they stamp `roost state idle`).");
    s.roost(&["wait-done", "alice", "20"])?;
    s.roost(&["wait-done", "bob", "20"])?;

    s.step("Send alice a prompt: one bracketed paste, then Enter, checked on arrival.");
    s.roost(&["send", "alice", "Add a --json flag to the report command"])?;

    s.step("Wait for alice to finish (her hook stamps `roost state done`).");
    s.roost(&["wait-done", "alice", "30"])?;

    s.step("Read the reply she recorded with `roost reply`.");
    s.roost(&["read", "alice"])?;

    s.step("Look at the whole fleet.");
    s.roost(&["status"])?;

    s.step("Install an extension: roost's example `tally`, from a throwaway git repository reached by file://.");
    println!(
        "(It is pinned to a commit and shown before it is installed; --yes answers the question,\n\
         and --grant fleet accepts the authority it asks for: reading and driving the fleet.)"
    );
    s.publish_example()?;
    s.roost(&[
        "ext",
        "install",
        "demo/roost-tally",
        "--yes",
        "--grant",
        "fleet",
    ])?;

    s.step("Run it like a built-in command; it reads the fleet through the socket roost hands it.");
    s.roost(&["tally"])?;

    s.step("What is installed, and does it still match the pinned commit?");
    s.roost(&["ext", "list"])?;
    s.roost(&["ext", "verify"])?;

    s.step("Take it off again.");
    s.roost(&["ext", "remove", "tally", "--purge"])?;

    s.step("Tear it all down.");
    s.roost(&["kill"])?;
    Ok(())
}

/// A temporary HOME/XDG tree and socket; removed on drop.
struct Sandbox {
    dir: tempfile::TempDir,
    env: Vec<(&'static str, OsString)>,
    paths: Paths,
    exe: PathBuf,
}

impl Sandbox {
    fn new() -> std::io::Result<Sandbox> {
        // Under /tmp: a socket path must stay short (sun_path is ~108 bytes).
        let dir = tempfile::Builder::new()
            .prefix("roost-demo-")
            .tempdir_in("/tmp")?;
        let root = dir.path().to_path_buf();
        let mut env = Vec::new();
        for (var, sub) in [
            ("HOME", "home"),
            ("XDG_CONFIG_HOME", "config"),
            ("XDG_DATA_HOME", "data"),
            ("XDG_STATE_HOME", "state"),
            ("XDG_CACHE_HOME", "cache"),
            ("TMUX_TMPDIR", "tmux"),
        ] {
            std::fs::create_dir_all(root.join(sub))?;
            env.push((var, root.join(sub).into_os_string()));
        }
        env.push(("ROOST_SOCKET", root.join("roost").into_os_string()));
        let mut base = OsString::from("file://");
        base.push(root.join("remote"));
        base.push("/");
        env.push(("ROOST_EXT_GIT_BASE", base));
        let paths = Paths::under(
            &root.join("data"),
            &root.join("state"),
            &root.join("config"),
        );
        Ok(Sandbox {
            dir,
            env,
            paths,
            exe: std::env::current_exe()?,
        })
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.exe);
        cmd.args(args)
            .stdin(Stdio::null())
            .env_remove("TMUX")
            .env_remove("TMUX_PANE");
        cmd.current_dir(self.root());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    fn step(&self, what: &str) {
        println!("\n== {what}");
    }

    /// Shows and runs one roost command in the sandbox; a failure ends the tour.
    fn roost(&self, args: &[&str]) -> Result<()> {
        let shown: Vec<String> = args
            .iter()
            .map(|a| {
                let a = a.replace(&*self.root().to_string_lossy(), "$SANDBOX");
                if a.contains(' ') {
                    format!("'{a}'")
                } else {
                    a
                }
            })
            .collect();
        println!("$ roost {}", shown.join(" "));
        let status = self
            .command(args)
            .status()
            .map_err(|e| Error::fail("demo", format!("cannot run roost: {e}")))?;
        if status.success() {
            Ok(())
        } else {
            Err(Error::fail(
                "demo",
                format!("`roost {}` failed ({status}); the tour stops here", args[0]),
            ))
        }
    }

    /// The example extension shipped in share/, as a git repository with one
    /// commit at remote/demo/roost-tally (made in-process: no git program).
    fn publish_example(&self) -> Result<()> {
        let failed = |e: &dyn std::fmt::Display| {
            Error::fail("demo", format!("cannot build the example repository: {e}"))
        };
        let dir = self.root().join("remote/demo/roost-tally");
        let write = |rel: &str, text: &str, mode: u32| {
            crate::fsutil::write_atomic(&dir.join(rel), text.as_bytes(), mode)
                .map_err(|e| failed(&e))
        };
        write("roost-ext.json", EXAMPLE_MANIFEST, 0o644)?;
        write("bin/roost-tally", EXAMPLE_COMMAND, 0o755)?;
        crate::ext::git::author::commit_dir(&dir, "roost-tally, roost's example extension")
            .map(drop)
            .map_err(|e| failed(&e))
    }

    /// Stops the sandbox's server whatever state the tour left it in.
    fn teardown(&self) {
        let _ = self
            .command(&["kill"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.teardown();
    }
}
