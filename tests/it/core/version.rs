//! `roost version` and `--version`: the semver, and the commit it was built
//! from.

use crate::common::*;

// ---- version, usage, help ----------------------------------------------

/// `version` prints the semver alone, as scripts read it; `--version` and
/// `-V` print what a bug report needs, as git and cargo do: the name, the
/// version and the commit this checkout's HEAD names (the binary under
/// test was built from it).
#[test]
fn version_prints_the_semver_and_dash_dash_version_the_commit_too() {
    let env = TestEnv::new();
    let head = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let version = env!("CARGO_PKG_VERSION");
    let long = match head {
        Some(id) => format!("roost {version} ({})\n", &id[..7]),
        None => format!("roost {version}\n"),
    };
    for (word, want) in [
        ("version", format!("{version}\n")),
        ("--version", long.clone()),
        ("-V", long),
    ] {
        let out = env.run([word]);
        assert_eq!(exit_of(&out), Exit::Ok, "{word}: {}", describe(&out));
        assert_eq!(stdout(&out), want, "{word}");
        assert_eq!(stderr(&out), "", "{word}");
    }
}
