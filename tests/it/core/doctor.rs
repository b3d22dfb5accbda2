//! `roost doctor`: extension health — ext.lock and ext.index
//! agree, every clone is there and still matches its pinned tree, linked
//! checkouts exist — beside the machine checks, without starting a server.

use crate::common::*;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

// ---------------------------------------------------------------- helpers

/// Runs `roost doctor`; insists on `code`, no panic, nothing on stderr, and
/// no server started. Returns the extension lines (everything after the
/// machine checks, the problem count included), having checked the machine
/// lines loosely.
fn doctor(env: &TestEnv, code: Exit) -> Vec<String> {
    let out = env.run(["doctor"]);
    assert_eq!(exit_of(&out), code, "{}", describe(&out));
    assert!(out.stderr.is_empty(), "{}", describe(&out));
    assert!(
        !env.socket_file().exists(),
        "doctor started a server: {}",
        env.socket_file().display()
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (line, what) in lines.iter().zip([
        "tmux ",
        "locale ",
        "socket ",
        "data ",
        "state ",
        "roost.conf ",
        "scripts ",
        "git",
    ]) {
        let tagged = ["ok    ", "note  ", "FAIL  "]
            .iter()
            .any(|tag| line.starts_with(&format!("{tag}{what}")));
        assert!(tagged, "want a {what:?} line, got {line:?} in\n{text}");
    }
    let git = lines
        .iter()
        .position(|l| l[6..].starts_with("git"))
        .unwrap_or_else(|| panic!("no git line in\n{text}"));
    // The agents' lines depend on what the machine has on PATH; they have
    // their own tests (agents_on_path below, and hooks::).
    lines[git + 1..]
        .iter()
        .filter(|l| !is_agent_line(l))
        .map(|l| l.to_string())
        .collect()
}

fn is_agent_line(line: &str) -> bool {
    let message = line.get(6..).unwrap_or_default();
    message.starts_with("agents: ")
        || [
            "claude ",
            "codex ",
            "gemini ",
            "opencode ",
            "aider ",
            "copilot ",
            "pi ",
        ]
        .iter()
        .any(|a| message.starts_with(a))
}

fn installed(env: &TestEnv, repo: &str, name: &str) -> Fixture {
    let f = env.simple_ext(repo, name, &[name], &[]);
    let out = env.run(["ext", "install", repo, "--yes"]);
    assert!(out.status.success(), "{}", describe(&out));
    f
}

fn clone_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("data/roost/ext").join(name)
}

/// `roost ext new NAME` under `authors/`, linked; its directory.
fn linked(env: &TestEnv, name: &str) -> PathBuf {
    let dir = env.path("authors").join(format!("roost-{name}"));
    let out = env.run([
        "ext".as_ref(),
        "new".as_ref(),
        name.as_ref(),
        dir.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let out = env.run([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        dir.as_os_str(),
        "--yes".as_ref(),
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    std::fs::canonicalize(dir).unwrap()
}

fn agree(n: usize) -> String {
    format!("ok    extensions: {n} installed; ext.lock and ext.index agree")
}

/// What doctor says of a note installed from owner/roost-note once ext.lock
/// and ext.index disagree about it as `why` says.
fn disagreeing(why: &str) -> Vec<String> {
    vec![
        format!("FAIL  extensions: ext.lock and ext.index disagree: note: {why}"),
        "      ext.index is obeyed; roost ext repair writes it again from ext.lock".into(),
        healthy("note"),
        "1 problem found".into(),
    ]
}

fn healthy(name: &str) -> String {
    format!("ok    extension {name}: ok (matches the tree pinned at install)")
}

// ------------------------------------------------------------------ tests

#[test]
fn doctor_with_nothing_installed_says_so() {
    let env = TestEnv::new();
    assert_eq!(doctor(&env, Exit::Ok), ["ok    extensions: none installed"]);
}

#[test]
fn doctor_reports_a_healthy_install_ok() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    assert_eq!(doctor(&env, Exit::Ok), [agree(1), healthy("note")]);
}

#[test]
fn doctor_notes_a_disabled_extension_and_still_checks_its_files() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    installed(&env, "owner/roost-jot", "jot");
    env.ok(["ext", "disable", "note"]);
    let disabled =
        "note  extension note: disabled, its commands do not run (roost ext enable note turns it on)";
    assert_eq!(
        doctor(&env, Exit::Ok),
        [
            "ok    extensions: 2 installed (1 disabled); ext.lock and ext.index agree".into(),
            healthy("jot"),
            disabled.to_string(),
            healthy("note"),
        ]
    );
    std::fs::remove_dir_all(clone_dir(&env, "note")).unwrap();
    let lines = doctor(&env, Exit::Failed);
    assert_eq!(lines[2], disabled);
    assert!(
        lines[3].starts_with("FAIL  extension note: its clone "),
        "{lines:?}"
    );
}

#[test]
fn doctor_fails_a_clone_whose_file_was_modified_and_points_at_verify() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    installed(&env, "owner/roost-jot", "jot");
    std::fs::write(
        clone_dir(&env, "note").join("bin/roost-note"),
        "#!/bin/sh\necho changed\n",
    )
    .unwrap();
    assert_eq!(
        doctor(&env, Exit::Failed),
        [
            agree(2),
            healthy("jot"),
            "FAIL  extension note: differs from the tree recorded at install (1 file)".into(),
            "      roost ext verify note names the files; roost ext repair note puts them back"
                .into(),
            "1 problem found".into(),
        ]
    );
    // verify names the file, as doctor says.
    let out = env.run(["ext", "verify", "note"]);
    assert_eq!(exit_of(&out), Exit::Failed);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "note: differs from the tree recorded at install (1 file)\n  \
         modified  bin/roost-note (content)\n"
    );
}

#[test]
fn doctor_fails_a_file_whose_mode_changed() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    let exe = clone_dir(&env, "note").join("bin/roost-note");
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(
        doctor(&env, Exit::Failed),
        [
            agree(1),
            "FAIL  extension note: differs from the tree recorded at install (1 file)".into(),
            "      roost ext verify note names the files; roost ext repair note puts them back"
                .into(),
            "1 problem found".into(),
        ]
    );
}

#[test]
fn doctor_fails_a_clone_that_is_missing() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    std::fs::remove_dir_all(clone_dir(&env, "note")).unwrap();
    assert_eq!(
        doctor(&env, Exit::Failed),
        [
            agree(1),
            format!(
                "FAIL  extension note: its clone {} is missing",
                clone_dir(&env, "note").display()
            ),
            "      roost ext repair note fetches the pinned commit again".into(),
            "1 problem found".into(),
        ]
    );
}

#[test]
fn doctor_fails_an_index_that_disagrees_with_the_lock() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    // A hand edit grants the fleet in the file that is obeyed.
    let index = env.path("state/roost/ext.index");
    let text = std::fs::read_to_string(&index).unwrap();
    assert!(text.ends_with("\t\n"), "{text:?}");
    std::fs::write(&index, text.replace("\t\n", "\tfleet\n")).unwrap();
    assert_eq!(
        doctor(&env, Exit::Failed),
        disagreeing("authority differs (ext.lock: none; ext.index: fleet)")
    );
}

#[test]
fn doctor_fails_a_lock_entry_that_has_no_index_lines() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    std::fs::remove_file(env.path("state/roost/ext.index")).unwrap();
    assert_eq!(
        doctor(&env, Exit::Failed),
        disagreeing("only in ext.lock (its commands do not run)")
    );
}

#[test]
fn doctor_fails_an_unreadable_lock() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    let lock = env.path("state/roost/ext.lock");
    std::fs::write(&lock, "{ not json").unwrap();
    let lines = doctor(&env, Exit::Failed);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with(&format!(
            "FAIL  extensions: {} cannot be read: ext.lock is not valid JSON: ",
            lock.display()
        )),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        "      roost ext list shows what roost can read of it"
    );
    assert_eq!(lines[2], "1 problem found");
}

#[test]
fn doctor_notes_a_linked_extension_without_failing() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-jot", "jot");
    let dir = linked(&env, "note");
    assert_eq!(
        doctor(&env, Exit::Ok),
        [
            agree(2),
            healthy("jot"),
            format!(
                "note  extension note: linked to {} (not pinned, not hashed)",
                dir.display()
            ),
        ]
    );
}

#[test]
fn doctor_fails_a_linked_extension_whose_checkout_is_gone() {
    let env = TestEnv::new();
    let dir = linked(&env, "note");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        doctor(&env, Exit::Failed),
        [
            agree(1),
            format!(
                "FAIL  extension note: linked to {}, which is missing",
                dir.display()
            ),
            "      roost ext remove note, or put the checkout back".into(),
            "1 problem found".into(),
        ]
    );
}

#[test]
fn doctor_names_the_line_of_roost_conf_tmux_cannot_parse() {
    let env = TestEnv::new();
    let conf = env.write(
        "config/roost/roost.conf",
        "set -g mouse on\nbogus-command\n",
    );
    let out = env.run(["doctor"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let want = format!(
        "FAIL  roost.conf {}: line 2: unknown command: bogus-command\n      fix each line named; roost's server warns of the same at its start\n",
        conf.display(),
    );
    assert!(text.contains(&want), "want {want:?} in\n{text}");
    assert!(text.ends_with("1 problem found\n"), "{text}");
    assert!(!env.socket_file().exists());
}

#[test]
fn doctor_names_the_line_of_a_roost_conf_command_that_fails() {
    let env = TestEnv::new();
    let conf = env.write(
        "config/roost/roost.conf",
        "set -g mouse on\n\n%if \"#{==:a,a}\"\nset -g bogus-option on\n%endif\nset -g status on\nset -g also-bogus x\n",
    );
    let out = env.run(["doctor"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let want = format!(
        "FAIL  roost.conf {}: line 4: invalid option: bogus-option; line 7: invalid option: also-bogus\n",
        conf.display(),
    );
    assert!(text.contains(&want), "want {want:?} in\n{text}");
    assert!(!env.socket_file().exists());
}

#[test]
fn doctor_accepts_a_roost_conf_tmux_loads() {
    let env = TestEnv::new();
    let conf = env.write("config/roost/roost.conf", "set -g mouse on\n");
    let out = env.run(["doctor"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "ok    roost.conf {} loads without errors\n",
            conf.display()
        )),
        "{text}"
    );
}

#[test]
fn doctor_reads_a_running_server_without_disturbing_it() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    env.spawn("alice", "sleep 30");
    let out = env.run(["doctor"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(": server running\n"), "{text}");
    let kept: Vec<&str> = text.lines().filter(|l| !is_agent_line(l)).collect();
    assert!(
        kept.join("\n")
            .ends_with(&format!("{}\n{}", agree(1), healthy("note"))),
        "{text}"
    );
    assert!(env.server_running());
}

#[test]
fn doctor_refuses_arguments() {
    let env = TestEnv::new();
    let out = env.run(["doctor", "now"]);
    quiet(&out, Exit::Usage);
    assert!(!env.socket_file().exists());
}

#[test]
fn panes_get_a_terminal_type_with_bracketed_paste_and_doctor_names_it() {
    let env = TestEnv::new();
    let got = env.path("term.txt");
    env.spawn(
        "t",
        &format!("echo \"$TERM\" > '{}'; sleep 30", got.display()),
    );
    let ok = wait_until(std::time::Duration::from_secs(10), || {
        std::fs::read_to_string(&got).is_ok_and(|t| t.ends_with('\n'))
    });
    assert!(ok, "{:?}", std::fs::read_to_string(&got));
    // tmux before 3.3 gives `screen` unless told otherwise.
    assert_eq!(env.read("term.txt"), "tmux-256color\n");
    let text = String::from_utf8(env.run(["doctor"]).stdout).unwrap();
    assert!(
        text.contains("ok    terminal tmux-256color for the panes\n"),
        "{text}"
    );
    env.tmux_ok(&["set-option", "-g", "default-terminal", "screen"]);
    let text = String::from_utf8(env.run(["doctor"]).stdout).unwrap();
    assert!(
        text.contains(
            "note  terminal: panes get TERM=screen, which has no bracketed paste: programs such as vim never ask for one, and a prompt sent to them runs as keys; set -g default-terminal tmux-256color in roost.conf\n"
        ),
        "{text}"
    );
}

/// `doctor --json`: the same checks as one JSON object on stdout, each
/// with its name, verdict and message (and the fix for a problem); the
/// exit status is the text's.
#[test]
fn doctor_json_gives_each_check_its_name_verdict_and_message() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note");
    let text = env.run(["doctor"]);
    std::fs::write(env.path("state/roost/ext.lock"), "{ not json").unwrap();
    let out = env.run(["doctor", "--json"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert!(out.stderr.is_empty(), "{}", describe(&out));
    assert!(!env.socket_file().exists(), "doctor started a server");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(json["version"], 1);
    assert_eq!(json["problems"], 1);
    let checks = json["checks"].as_array().unwrap();
    let names: Vec<&str> = checks.iter().map(|c| c["name"].as_str().unwrap()).collect();
    for want in [
        "tmux",
        "locale",
        "socket",
        "data",
        "state",
        "roost.conf",
        "scripts",
        "git",
        "extensions",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    for c in checks {
        let verdict = c["verdict"].as_str().unwrap();
        assert!(["ok", "note", "problem"].contains(&verdict), "{c}");
        assert!(!c["message"].as_str().unwrap().is_empty(), "{c}");
        assert_eq!(c["fix"].is_string(), verdict == "problem", "{c}");
    }
    let bad: Vec<&serde_json::Value> = checks
        .iter()
        .filter(|c| c["verdict"] == "problem")
        .collect();
    assert_eq!(bad.len(), 1, "{checks:?}");
    assert_eq!(bad[0]["name"], "extensions");
    assert_eq!(
        bad[0]["fix"],
        "roost ext list shows what roost can read of it"
    );
    // Healthy, it exits 0 as the text does.
    assert_eq!(exit_of(&text), Exit::Ok, "{}", describe(&text));
}

/// A locale is checked for being installed, not only for its name: a
/// UTF-8 name the C library does not have is a note saying so (roost's
/// programs fall back to C there), one it has is ok.
#[test]
fn doctor_notes_a_locale_that_is_not_installed() {
    let env = TestEnv::new();
    let line = |value: &str| {
        let out = env
            .roost(["doctor"])
            .env_remove("LANG")
            .env_remove("LC_CTYPE")
            .env("LC_ALL", value)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .find(|l| l[6..].starts_with("locale "))
            .unwrap_or_else(|| panic!("no locale line in\n{text}"))
            .to_string()
    };
    assert_eq!(line("C.UTF-8"), "ok    locale LC_ALL=C.UTF-8");
    let missing = line("xx_YY.UTF-8");
    assert!(
        missing.starts_with("note  locale LC_ALL=xx_YY.UTF-8: not installed"),
        "{missing}"
    );
}

/// With no tmux on PATH while roost's server runs, doctor says tmux is
/// missing and that a server listens that it cannot talk to: never that
/// the socket is stale (the next command would not start a new server).
#[test]
fn doctor_without_tmux_names_the_listening_server_not_a_stale_socket() {
    let env = TestEnv::new();
    env.spawn("alice", "sleep 30");
    let out = env
        .roost(["doctor"])
        .env("PATH", env.path("empty-path"))
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("stale"), "{text}");
    let line = text
        .lines()
        .find(|l| l[6..].starts_with("socket "))
        .unwrap_or_else(|| panic!("no socket line in\n{text}"));
    assert!(line.starts_with("note  socket "), "{text}");
    assert!(
        line.contains(": a server listens (process ")
            && line.ends_with("), but there is no tmux on PATH to talk to it"),
        "{text}"
    );
    assert!(env.server_running());
}

/// doctor says whether extension commands run, and why not: the server's
/// switch (kept beside its socket, so dispatch asks tmux nothing, or no
/// longer kept), roost.conf when no server runs, ROOST_NO_EXT in this
/// shell. It never starts a server to find out.
#[test]
fn doctor_says_whether_extension_commands_run_and_what_decides() {
    let env = TestEnv::new();
    let line = |extra: &[(&str, &str)]| {
        let mut cmd = env.roost(["doctor"]);
        for (k, v) in extra {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<String> = text
            .lines()
            .filter(|l| l[6..].starts_with("switch"))
            .map(String::from)
            .collect();
        lines
    };
    let none: Vec<String> = Vec::new();
    assert_eq!(line(&[]), none, "no server, no roost.conf: nothing to say");
    env.write("config/roost/roost.conf", "set -g @roost-ext-enabled off\n");
    assert_eq!(
        line(&[]),
        ["note  switch: extension commands are off: roost.conf sets @roost-ext-enabled off"]
    );
    assert!(!env.socket_file().exists(), "doctor started a server");
    std::fs::remove_file(env.path("config/roost/roost.conf")).unwrap();
    env.spawn("alice", "sleep 100");
    assert_eq!(
        line(&[]),
        ["ok    switch: extension commands are on; the server keeps the switch beside its socket, so they ask tmux nothing"]
    );
    assert_eq!(
        line(&[("ROOST_NO_EXT", "1")]),
        [
            "ok    switch: extension commands are on; the server keeps the switch beside its socket, so they ask tmux nothing",
            "note  switch: extension commands are off in this shell: ROOST_NO_EXT is set"
        ]
    );
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    assert_eq!(
        line(&[]),
        ["note  switch: extension commands are off: @roost-ext-enabled is off on the running server (set -g @roost-ext-enabled on turns them on)"]
    );
    env.tmux_ok(&["set-hook", "-g", "after-new-window", "display y"]);
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "on"]);
    assert_eq!(
        line(&[]),
        ["note  switch: extension commands are on; the switch is no longer kept beside the socket (a hook changed after the server started, or the server is not one roost started), so each one asks tmux: restarting roost's server keeps it again"]
    );
}

/// No agent on PATH: one line says so, and where doctor looked.
#[test]
fn doctor_says_when_no_agent_is_on_path() {
    let env = TestEnv::new();
    let out = env
        .roost(["doctor"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "\nnote  agents: none of claude, codex, gemini, opencode, aider, copilot, pi is on PATH (looked in /usr/bin:/bin)\n"
        ),
        "{text}"
    );
}

/// Stand-ins for agents whose `--version` misbehaves: one leaves a child
/// holding its stdout, one writes without end, one hangs, one is slow as a
/// cold Node start. doctor asks them all at once, each bounded.
#[test]
fn doctor_asks_the_agents_versions_at_once_each_bounded_in_time_and_output() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (name, script) in [
        ("claude", "#!/bin/sh\necho 2.1.332; sleep 60 &\n"),
        ("codex", "#!/bin/sh\nexec yes 0.1\n"),
        ("gemini", "#!/bin/sh\nsleep 3; echo 0.61.0\n"),
        ("opencode", "#!/bin/sh\nsleep 3; echo 1.18.33\n"),
        ("aider", "#!/bin/sh\nexec sleep 600\n"),
    ] {
        let p = env.write(&format!("bin/{name}"), script);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut cmd = env.roost(["doctor"]);
    cmd.env("PATH", format!("{}:/usr/bin:/bin", bin.display()));
    let run = bounded(cmd, std::time::Duration::from_secs(40));
    assert!(run.peak_kib < 64 << 10, "{} KiB", run.peak_kib);
    // The two slow ones ran side by side, and the hung one was given up
    // at its bound: well under the sum.
    assert!(
        run.took < std::time::Duration::from_secs(25),
        "{:?}",
        run.took
    );
    let text = String::from_utf8_lossy(&run.out.stdout);
    assert!(text.contains("ok    claude 2.1.332 at "), "{text}");
    assert!(text.contains("ok    gemini 0.61.0 at "), "{text}");
    assert!(text.contains("ok    opencode 1.18.33 at "), "{text}");
    assert!(
        text.contains("its --version printed more than 64 KiB and no version number"),
        "{text}"
    );
    assert!(
        text.contains("its --version did not answer within 15 s"),
        "{text}"
    );
}

/// A server option a pane set, printed by doctor: escaped, never raw.
#[test]
fn doctor_prints_what_the_server_says_escaped() {
    let env = TestEnv::new();
    let pane = env.spawn("a", "sleep 100000");
    let _ = pane;
    env.tmux_ok(&[
        "set-option",
        "-g",
        "default-terminal",
        "xterm\u{1b}]0;TITLE\u{7}\u{1b}[2J\u{202e}",
    ]);
    let out = env.run(["doctor"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains(['\u{1b}', '\u{7}', '\u{202e}']), "{text:?}");
    assert!(
        text.contains("xterm\\x1b]0;TITLE\\x07\\x1b[2J\\u{202e}"),
        "{text}"
    );
}

/// tmux missing is one problem, said once; the socket line names its path once.
#[test]
fn doctor_counts_a_missing_tmux_once_and_names_the_socket_once() {
    let env = TestEnv::new();
    // git is there (the sandbox's file:// source needs it), tmux is not.
    let only_git = env.path("only-git");
    std::fs::create_dir_all(&only_git).unwrap();
    let git = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("git"))
        .find(|p| p.is_file())
        .unwrap();
    std::os::unix::fs::symlink(git, only_git.join("git")).unwrap();
    let out = env
        .roost(["doctor"])
        .env("PATH", &only_git)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with("\n1 problem found\n"), "{text}");
    let socket = env.socket_file();
    let line = text
        .lines()
        .find(|l| l[6..].starts_with("socket "))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        line.matches(&socket.display().to_string()).count(),
        1,
        "{line}"
    );
}

/// FAIL is red on a terminal (and note yellow), as gh and brew colour theirs.
#[test]
fn doctor_colours_its_verdicts_on_a_terminal() {
    let env = TestEnv::new();
    let empty = env.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let Some(out) = env.on_a_terminal_with("doctor", b"", &[]) else {
        return;
    };
    let _ = empty;
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(seen.contains("\u{1b}[33mnote\u{1b}[m"), "{seen:?}");
    let Some(out) =
        env.on_a_terminal_with("doctor", b"", &[("ROOST_SOCKET", "/nonexistent/dir/sock")])
    else {
        return;
    };
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(seen.contains("\u{1b}[31mFAIL\u{1b}[m"), "{seen:?}");
}

/// What an agent's `--version` leaves running is ended with it: a child it
/// left holding the pipe after it printed its version, and one it waits on
/// while it hangs (its whole process group goes at the deadline). roost
/// waits on neither.
#[test]
fn doctor_ends_what_an_agents_version_leaves_running() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let pids = env.path("pids");
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let machine = std::env::var("PATH").unwrap();
    for (name, script) in [
        ("claude", "echo 2.1.332\nsleep 60 &\necho $! >> \"$PIDS\""),
        (
            "aider",
            "echo $$ >> \"$PIDS\"\nsleep 600 &\necho $! >> \"$PIDS\"\nwait",
        ),
    ] {
        let body = format!(
            "#!/bin/sh\nPATH='{machine}'\nPIDS='{}'\n{script}\n",
            pids.display()
        );
        let p = env.write(&format!("bin/{name}"), &body);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut cmd = env.roost(["doctor"]);
    cmd.env("PATH", format!("{}:/usr/bin:/bin", bin.display()));
    let run = bounded(cmd, std::time::Duration::from_secs(60));
    let text = stdout(&run.out);
    assert!(text.contains("ok    claude 2.1.332 at "), "{text}");
    assert!(
        text.contains("its --version did not answer within 15 s"),
        "{text}"
    );
    assert!(
        run.took < std::time::Duration::from_secs(25),
        "{:?}",
        run.took
    );
    let listed = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(listed.lines().count(), 3, "{listed}");
    // A process that is gone, or a zombie waiting for whoever reaps
    // orphans here, runs no more.
    let running = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(") ").map(|(_, r)| !r.starts_with('Z')))
            .unwrap_or(false)
    };
    let ended = wait_until(std::time::Duration::from_secs(3), || {
        !listed.lines().any(running)
    });
    assert!(ended, "still running of {listed}");
}

#[test]
fn doctor_checks_the_version_and_the_wiring_of_the_agents_on_path() {
    let env = TestEnv::new();
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for (name, version) in [
        ("claude", "2.1.332 (Claude Code)"),
        ("codex", "codex-cli 0.99.0"),
    ] {
        let fake = bin.join(name);
        std::fs::write(&fake, format!("#!/bin/sh\necho '{version}'\n")).unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let doctor = || {
        let out = env.roost(["doctor"]).env("PATH", &path).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (_, text) = doctor();
    let claude = bin.join("claude");
    assert!(
        text.contains(&format!(
            "ok    claude 2.1.332 at {} (a version roost knows)\n",
            claude.display()
        )),
        "{text}"
    );
    assert!(text.contains("note  codex 0.99.0 at "), "{text}");
    assert!(
        text.contains("roost's wiring was checked against 0.171.0"),
        "{text}"
    );
    assert!(text.contains("note  claude hooks not wired"), "{text}");
    env.ok(["hooks", "install", "claude"]);
    let (_, text) = doctor();
    assert!(text.contains("ok    claude hooks in "), "{text}");
    // Hooks that run another roost are a problem, with the fix.
    let settings = env.path("home/.claude/settings.json");
    let moved = std::fs::read_to_string(&settings).unwrap().replace(
        assert_cmd::cargo::cargo_bin("roost").to_str().unwrap(),
        "/old/roost",
    );
    std::fs::write(&settings, moved).unwrap();
    let (code, text) = doctor();
    assert_eq!(code, exited(Exit::Failed), "{text}");
    assert!(text.contains("FAIL  claude hooks in "), "{text}");
    assert!(
        text.contains("      run roost hooks install claude\n"),
        "{text}"
    );
}

#[test]
fn doctor_names_a_preset_that_an_agent_roost_now_knows_hides() {
    let env = TestEnv::new();
    crate::core::resume::install_qwen_preset(&env);
    // Installed when `claude` was no agent roost knew (install refuses the
    // name now): a later roost made it built in. A hand edit stands in for
    // that history; disable and enable derive ext.agents again.
    let mut lock: serde_json::Value =
        serde_json::from_slice(&std::fs::read(lock_file(&env)).unwrap()).unwrap();
    lock["qwen"]["agents"][0]["name"] = "claude".into();
    std::fs::write(lock_file(&env), serde_json::to_vec_pretty(&lock).unwrap()).unwrap();
    env.ok(["ext", "disable", "qwen"]);
    env.ok(["ext", "enable", "qwen"]);
    let lines = doctor(&env, Exit::Ok);
    assert!(
        lines.contains(
            &"note  agent claude: the preset of the extension qwen is hidden: claude is an agent roost knows, which wins"
                .to_string()
        ),
        "{lines:?}"
    );
    let status = env.ok(["hooks", "status"]);
    assert!(
        status.contains(
            "claude: a preset of the extension qwen (hidden: roost knows this agent itself)\n"
        ),
        "{status}"
    );
}
