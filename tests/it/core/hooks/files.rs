//! The agents' configuration files are the user's: `hooks install` and
//! `hooks remove` edit them as the user would (links kept, foreign bytes
//! kept, under a lock, roost's part known by roost's own mark), and every
//! file roost reads there is read bounded, as a regular file, never
//! blocking. Real files, links and FIFOs under the test's throwaway HOME.

use crate::common::*;
use std::path::Path;
use std::time::Duration;

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

#[test]
fn a_linked_settings_file_stays_a_link_and_the_file_it_names_gets_the_hooks() {
    let env = TestEnv::new();
    let original = "{\n  \"model\": \"opus\"\n}\n";
    let target = env.write("dotfiles/claude/settings.json", original);
    let link = env.path("home/.claude/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = env.ok(["hooks", "install", "claude"]);
    assert!(out.starts_with("claude: hooks written to"), "{out}");
    assert!(is_link(&link), "the link was replaced by a file");
    let merged = String::from_utf8(read(&target)).unwrap();
    assert!(merged.contains("hook claude Stop"), "{merged}");
    let status = env.ok(["hooks", "status"]);
    assert!(status.contains("  user     wired       "), "{status}");
    let out = env.ok(["hooks", "remove", "claude"]);
    assert!(out.contains("is as it was before install"), "{out}");
    assert!(is_link(&link), "remove replaced the link");
    assert_eq!(read(&target), original.as_bytes());
}

#[test]
fn a_dangling_link_is_refused_and_left_as_it_is() {
    let env = TestEnv::new();
    let link = env.path("home/.claude/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(env.path("dotfiles/gone.json"), &link).unwrap();
    for verb in ["install", "remove"] {
        let out = env.run(["hooks", verb, "claude"]);
        assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("which does not exist") && err.contains("create the file the link names"),
            "{err}"
        );
        assert!(is_link(&link));
        assert!(!env.path("dotfiles/gone.json").exists());
    }
}

#[test]
fn the_user_s_own_hooks_that_call_roost_are_kept_through_install_and_remove() {
    let env = TestEnv::new();
    let original = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"roost hook claude Stop && notify-send done"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"roost hook claude PreToolUse --audit /tmp/audit"}]}]}}"#;
    let settings = env.write("home/.claude/settings.json", original);
    env.ok(["hooks", "install", "claude"]);
    let merged: serde_json::Value = serde_json::from_slice(&read(&settings)).unwrap();
    let stop = merged["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2, "{merged}");
    assert_eq!(
        stop[0]["hooks"][0]["command"],
        "roost hook claude Stop && notify-send done"
    );
    assert!(stop[1]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .ends_with(" hook claude Stop # written by roost hooks install"));
    assert_eq!(merged["hooks"]["PreToolUse"][0]["matcher"], "Bash");
    // Installing again finds roost's own by its mark and leaves the rest.
    env.ok(["hooks", "install", "claude"]);
    let again: serde_json::Value = serde_json::from_slice(&read(&settings)).unwrap();
    assert_eq!(again, merged);
    env.ok(["hooks", "remove", "claude"]);
    assert_eq!(read(&settings), original.as_bytes());
}

#[test]
fn bytes_outside_roost_s_part_keep_their_bytes_numbers_and_escapes_included() {
    let env = TestEnv::new();
    let original = "{\n  \"n\": 12345678901234567890123,\n  \"e\": 1e2,\n  \"z\": -0,\n  \"s\": \"\\u00e9\"\n}\n";
    let settings = env.write("home/.gemini/settings.json", original);
    env.ok(["hooks", "install", "gemini"]);
    let merged = String::from_utf8(read(&settings)).unwrap();
    for kept in [
        "\"n\": 12345678901234567890123,",
        "\"e\": 1e2,",
        "\"z\": -0,",
        "\"s\": \"\\u00e9\"",
    ] {
        assert!(merged.contains(kept), "{kept} went: {merged}");
    }
    // The user edits the file while roost's hooks are in: that stays too.
    let edited = merged.replacen("\"e\": 1e2,", "\"e\": 1e2,\n  \"mine\": 0.50,", 1);
    std::fs::write(&settings, &edited).unwrap();
    env.ok(["hooks", "remove", "gemini"]);
    assert_eq!(
        String::from_utf8(read(&settings)).unwrap(),
        original.replacen("\"e\": 1e2,", "\"e\": 1e2,\n  \"mine\": 0.50,", 1)
    );
}

#[test]
fn a_byte_that_is_not_utf8_added_to_aider_s_file_after_install_stays_itself() {
    let env = TestEnv::new();
    let conf = env.write("home/.aider.conf.yml", "model: sonnet\n");
    env.ok(["hooks", "install", "aider"]);
    let mut bytes = read(&conf);
    bytes.extend_from_slice(b"# caf\xe9\n");
    std::fs::write(&conf, &bytes).unwrap();
    env.ok(["hooks", "remove", "aider"]);
    assert_eq!(read(&conf), b"model: sonnet\n# caf\xe9\n");
}

#[test]
fn a_project_file_linked_out_of_the_project_is_refused_and_nothing_is_copied_in() {
    let env = TestEnv::new();
    let secret = "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-secret\"}}\n";
    let user = env.write("home/.claude/settings.json", secret);
    let project = env.path("work/proj");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    let local = project.join(".claude/settings.local.json");
    std::os::unix::fs::symlink(&user, &local).unwrap();
    let out = env.run([
        "hooks",
        "install",
        "claude",
        "--project",
        project.to_str().unwrap(),
    ]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outside the project"), "{err}");
    assert!(is_link(&local), "the link was replaced");
    assert_eq!(read(&user), secret.as_bytes());
    let left: Vec<_> = std::fs::read_dir(project.join(".claude"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["settings.local.json"], "written into the checkout");
}

#[test]
fn a_key_the_agent_reads_twice_is_refused_with_the_file_untouched() {
    let env = TestEnv::new();
    let original = "{\"hooks\": {}, \"model\": \"x\", \"hooks\": {\"Stop\": []}}";
    let settings = env.write("home/.claude/settings.json", original);
    let out = env.run(["hooks", "install", "claude"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the key \"hooks\" appears twice in the top-level object"),
        "{err}"
    );
    assert_eq!(read(&settings), original.as_bytes());
    let status = env.ok(["hooks", "status"]);
    assert!(status.contains("  user     unreadable  "), "{status}");
}

#[test]
fn concurrent_installs_and_removes_give_the_original_back() {
    let env = TestEnv::new();
    let original = "{\n    \"model\": \"opus\", \"n\": 1.0\n}";
    let settings = env.write("home/.claude/settings.json", original);
    for round in 0..10 {
        let children: Vec<_> = (0..20)
            .map(|i| {
                let verb = if i % 2 == 0 { "install" } else { "remove" };
                env.roost(["hooks", verb, "claude"])
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success(), "round {round}: {}", describe(&out));
        }
        env.ok(["hooks", "remove", "claude"]);
        assert_eq!(
            String::from_utf8(read(&settings)).unwrap(),
            original,
            "round {round}"
        );
    }
}

#[test]
fn a_relative_or_missing_home_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    for home in [Some("rel"), Some(""), None] {
        let mut cmd = env.roost(["hooks", "install", "claude"]);
        match home {
            Some(h) => cmd.env("HOME", h),
            None => cmd.env_remove("HOME"),
        };
        let out = cmd.output().unwrap();
        assert_eq!(exit_of(&out), Exit::Failed, "{home:?}: {}", describe(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("set HOME to your home directory"), "{err}");
        assert!(!env.path("work/.claude").exists(), "{home:?}");
        assert!(!env.path("work/rel").exists(), "{home:?}");
    }
}

#[test]
fn remove_takes_away_the_directories_install_made_and_only_those() {
    let env = TestEnv::new();
    env.ok(["hooks", "install", "claude"]);
    env.ok(["hooks", "install", "opencode"]);
    env.ok(["hooks", "remove", "claude"]);
    env.ok(["hooks", "remove", "opencode"]);
    assert!(!env.path("home/.claude").exists());
    assert!(!env.path("config/opencode").exists());
    // A directory the user had, empty, stays.
    std::fs::create_dir_all(env.path("home/.codex")).unwrap();
    env.ok(["hooks", "install", "codex"]);
    env.ok(["hooks", "remove", "codex"]);
    assert!(env.path("home/.codex").is_dir());
    assert_eq!(
        std::fs::read_dir(env.path("home/.codex")).unwrap().count(),
        0
    );
}

/// A checkout whose agent settings are links to devices, FIFOs or the
/// user's terminal: every command that reads them ends at once, small.
#[test]
fn devices_fifos_and_terminals_in_place_of_settings_are_refused_without_blocking() {
    let env = TestEnv::new();
    let project = env.path("work");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", project.join(".claude/settings.local.json")).unwrap();
    std::fs::create_dir_all(project.join(".opencode/plugin")).unwrap();
    nix::unistd::mkfifo(
        &project.join(".opencode/plugin/roost.js"),
        nix::sys::stat::Mode::S_IRWXU,
    )
    .unwrap();
    std::fs::create_dir_all(env.path("home/.claude")).unwrap();
    nix::unistd::mkfifo(
        &env.path("home/.claude/settings.json"),
        nix::sys::stat::Mode::S_IRWXU,
    )
    .unwrap();
    let run = bounded(env.roost(["hooks", "status"]), Duration::from_secs(20));
    assert_eq!(exit_of(&run.out), Exit::Ok, "{}", describe(&run.out));
    assert!(run.peak_kib < 64 << 10, "{} KiB", run.peak_kib);
    let status = String::from_utf8_lossy(&run.out.stdout);
    assert!(
        status.contains("it is a character device, not a regular file"),
        "{status}"
    );
    assert!(
        status.contains("it is a FIFO, not a regular file"),
        "{status}"
    );
    let run = bounded(
        env.roost(["hooks", "install", "claude"]),
        Duration::from_secs(20),
    );
    assert_eq!(exit_of(&run.out), Exit::Failed, "{}", describe(&run.out));
    let run = bounded(env.roost(["spawn", "a", "claude"]), Duration::from_secs(20));
    assert!(run.peak_kib < 64 << 10, "{} KiB", run.peak_kib);
    let run = bounded(env.roost(["doctor"]), Duration::from_secs(60));
    assert!(run.peak_kib < 64 << 10, "{} KiB", run.peak_kib);
    // The user's terminal: a link to /dev/tty is not read.
    std::fs::remove_file(project.join(".claude/settings.local.json")).unwrap();
    std::os::unix::fs::symlink("/dev/tty", project.join(".claude/settings.local.json")).unwrap();
    if let Some(out) = env.on_a_terminal("hooks status", b"typed by a person\n\x04") {
        let seen = String::from_utf8_lossy(&out.stdout);
        assert!(seen.contains("it is a character device"), "{seen}");
    }
}

#[test]
fn a_hostile_directory_name_reaches_the_terminal_escaped() {
    let env = TestEnv::new();
    let name = "proj\u{1b}]0;T\u{7}\u{1b}[2J\u{202e}x";
    let project = env.path("work").join(name);
    std::fs::create_dir_all(&project).unwrap();
    let dir = project.to_str().unwrap();
    for args in [
        vec!["hooks", "install", "claude", "--project", dir],
        vec!["hooks", "status"],
        vec!["hooks", "remove", "claude", "--project", dir],
    ] {
        let out = env.roost(&args).current_dir(&project).output().unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{args:?}: {}", describe(&out));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            !text.contains(['\u{1b}', '\u{7}', '\u{202e}']),
            "{args:?}: {text:?}"
        );
        assert!(
            text.contains("proj\\x1b]0;T\\x07\\x1b[2J\\u{202e}x"),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn hooks_say_which_agents_are_installed_and_suggest_a_name_mistyped() {
    let env = TestEnv::new();
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let claude = env.write("bin/claude", "#!/bin/sh\necho 2.1.332\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let out = env
        .roost(["hooks", "status"])
        .env("PATH", &path)
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&out.stdout);
    assert!(
        status.contains(&format!("claude: {}\n", claude.display())),
        "{status}"
    );
    assert!(status.contains("codex: not on PATH\n"), "{status}");
    let out = env
        .roost(["hooks", "install", "codex"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("note: codex is not on PATH here"),
        "{}",
        describe(&out)
    );
    let out = env.run(["hooks", "install", "claud"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("did you mean 'claude'?"),
        "{}",
        describe(&out)
    );
}

#[test]
fn a_home_roost_cannot_write_gets_the_hint_for_that() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.path("home/.claude")).unwrap();
    let Some(_guard) = Unwritable::new(&env.path("home/.claude")) else {
        return;
    };
    let out = env.run(["hooks", "install", "claude"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("make it and its directory readable and writable"),
        "{err}"
    );
    assert!(!err.contains("fix it by hand"), "{err}");
}

#[test]
fn codex_hooks_count_as_wired_only_once_codex_has_trusted_them() {
    let env = TestEnv::new();
    env.ok(["hooks", "install", "codex"]);
    let status = env.ok(["hooks", "status"]);
    assert!(status.contains("  user     not trusted "), "{status}");
    assert!(
        status.contains("wired, not yet trusted by codex"),
        "{status}"
    );
    // codex keeps its trust in its config.toml, by the hook's place.
    let hooks = env.path("home/.codex/hooks.json");
    let mut config = String::new();
    for event in [
        "session_start",
        "user_prompt_submit",
        "permission_request",
        "post_tool_use",
        "stop",
    ] {
        config.push_str(&format!(
            "[hooks.state.\"{}:{event}:0:0\"]\ntrusted_hash = \"sha256:{event}\"\n",
            hooks.display()
        ));
    }
    env.write("home/.codex/config.toml", &config);
    let status = env.ok(["hooks", "status"]);
    assert!(status.contains("  user     wired       "), "{status}");
    // Written again (another roost), what codex trusted was something else.
    let text = std::fs::read_to_string(&hooks).unwrap();
    std::fs::write(&hooks, text.replace(ROOST, "/other/bin/roost")).unwrap();
    let status = env.ok(["hooks", "status"]);
    assert!(status.contains("  user     stale       "), "{status}");
    env.ok(["hooks", "install", "codex"]);
    let status = env.ok(["hooks", "status"]);
    assert!(status.contains("  user     not trusted "), "{status}");
}
