//! Names and directories are data: a tmux format (`#(…)` runs a command,
//! `#{…}` expands) or a final `;` in a directory, a window or session name,
//! or a program's words reaches tmux literally or is refused, for every
//! verb that passes one, on a server's first start and with it up.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Directory names that tmux would read as formats or as a command's end.
const DIRS: &[&str] = &["#(cd;touch canary)", "w#{pane_id}", "a##b", "x;"];

/// Names that tmux would read as formats.
const FORMAT_NAMES: &[&str] = &["#(cd;touch canary)", "w#{pane_id}", "##"];

/// Every file named `canary` below the test's directory (the HOME of the
/// server's shells included), after giving a tmux job time to run.
fn canaries(env: &TestEnv) -> Vec<PathBuf> {
    std::thread::sleep(Duration::from_millis(300));
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.file_name().is_some_and(|n| n == "canary") {
                out.push(path.clone());
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                walk(&path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(env.dir.path(), &mut out);
    out
}

fn pane_format(env: &TestEnv, pane: &str, format: &str) -> String {
    env.tmux_ok(&["display-message", "-p", "-t", pane, format])
        .trim_end_matches('\n')
        .to_string()
}

/// The pane's working directory, once its program has started (tmux has
/// none to report before).
fn cwd_of(env: &TestEnv, pane: &str) -> String {
    let mut cwd = String::new();
    wait_until(Duration::from_secs(5), || {
        cwd = pane_format(env, pane, "#{pane_current_path}");
        !cwd.is_empty()
    });
    cwd
}

/// `roost ARGS` run from `dir`; returns the pane id it printed.
fn spawn_in(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = env.roost(args).current_dir(dir).output().unwrap();
    succeeded(&out).trim().to_string()
}

#[test]
fn a_directory_holding_a_tmux_format_is_the_panes_own_directory_and_runs_nothing() {
    for name in DIRS {
        let env = TestEnv::new();
        let dir = env.path("work").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let want = dir.to_string_lossy().into_owned();
        // The first start: new-session, then new-window, both from `dir`.
        let alice = spawn_in(&env, &dir, &["spawn", "alice", "cat"]);
        assert_eq!(cwd_of(&env, &alice), want, "{name}");
        assert_eq!(cwd_of(&env, "=main:0"), want, "{name}");
        // With the server up.
        let bob = spawn_in(&env, &dir, &["spawn", "bob", "cat"]);
        assert_eq!(cwd_of(&env, &bob), want, "{name}");
        // A new session started from there.
        let out = env
            .roost(["session", "work"])
            .current_dir(&dir)
            .output()
            .unwrap();
        quiet(&out, Exit::Ok);
        assert_eq!(cwd_of(&env, "=work:0"), want, "{name}");
        // --cwd, from elsewhere, as given and relative.
        let carol = env.ok(["spawn", "--cwd", &want, "carol", "cat"]);
        assert_eq!(cwd_of(&env, carol.trim()), want);
        let dave = env.ok(["spawn", "--cwd", name, "dave", "cat"]);
        assert_eq!(cwd_of(&env, dave.trim()), want);
        assert_eq!(canaries(&env), Vec::<PathBuf>::new(), "{name}");
    }
}

#[test]
fn spawn_cwd_starts_the_pane_there_and_refuses_what_is_not_a_directory() {
    let env = TestEnv::new();
    let dir = env.path("project");
    std::fs::create_dir_all(&dir).unwrap();
    let pane = env.ok(["spawn", "--cwd", dir.to_str().unwrap(), "alice", "sh"]);
    assert_eq!(cwd_of(&env, pane.trim()), dir.to_string_lossy());
    // A relative program is looked up from the pane's directory.
    std::fs::write(dir.join("agent"), "#!/bin/sh\nexec cat\n").unwrap();
    std::process::Command::new("chmod")
        .args(["+x"])
        .arg(dir.join("agent"))
        .status()
        .unwrap();
    env.ok(["spawn", "--cwd", dir.to_str().unwrap(), "bob", "./agent"]);
    let before = env.tmux_ok(&["list-windows", "-a", "-F", "#{window_name}"]);
    assert_refusal(
        &env.run(["spawn", "--cwd", "nowhere", "carol", "cat"]),
        Exit::Failed,
        "roost spawn: --cwd 'nowhere': no such directory; no window was made\n",
    );
    env.write("work/file", "");
    assert_refusal(
        &env.run(["spawn", "--cwd", "file", "carol", "cat"]),
        Exit::Failed,
        "roost spawn: --cwd 'file' is not a directory; no window was made\n",
    );
    assert_eq!(
        env.tmux_ok(&["list-windows", "-a", "-F", "#{window_name}"]),
        before
    );
}

#[test]
fn window_and_session_names_holding_tmux_formats_are_refused_and_run_nothing() {
    let env = TestEnv::new();
    let refused_everywhere = |env: &TestEnv| {
        for name in FORMAT_NAMES {
            let out = env.run(["spawn", name, "cat"]);
            assert_refusal(&out, Exit::Failed, "roost spawn: invalid window name");
            assert!(
                stderr(&out).contains("'#' starts a tmux format"),
                "{}",
                describe(&out)
            );
            let out = env.run(["session", name]);
            assert_refusal(&out, Exit::Failed, "roost session: invalid session name");
            // The verbs that look a name up find none and run nothing.
            assert_refusal(
                &env.run(["kill", name]),
                Exit::NoTarget,
                "roost kill: no such target or session",
            );
            for verb in ["read", "screen", "wait-done"] {
                assert_refusal(
                    &env.run([verb, name]),
                    Exit::NoTarget,
                    &format!("roost {verb}: no such target"),
                );
            }
        }
    };
    refused_everywhere(&env);
    assert!(!env.server_running(), "a refused name started the server");
    env.spawn("alice", "cat");
    refused_everywhere(&env);
    let windows = env.tmux_ok(&["list-windows", "-a", "-F", "#{session_name}:#{window_name}"]);
    assert!(
        !windows.contains('#') && !windows.contains('%'),
        "{windows}"
    );
    assert_eq!(canaries(&env), Vec::<PathBuf>::new());
}

#[test]
fn a_window_name_of_digits_alone_is_refused_as_it_would_read_as_an_index() {
    let env = TestEnv::new();
    for name in ["1", "42", "007"] {
        let out = env.run(["spawn", name, "cat"]);
        assert_refusal(&out, Exit::Failed, &format!("roost spawn: invalid window name \"{name}\": a target of digits alone is a window index"));
        assert!(
            stderr(&out).contains("\nadd a letter, as in agent1\n"),
            "{}",
            describe(&out)
        );
    }
    assert!(!env.server_running(), "a refused spawn started the server");
    let pane = env.spawn("agent1", "cat");
    let out = env.run(["screen", "agent1"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(pane.starts_with('%'));
}

#[test]
fn a_final_semicolon_in_a_name_or_a_programs_word_stays_part_of_it() {
    let env = TestEnv::new();
    let out = env.path("work/out.txt");
    env.ok([
        "spawn",
        "a;",
        "sh",
        "-c",
        "printf '%s|%s' \"$0\" \"$1\" > out.txt; exec cat",
        "x;",
        ";",
    ]);
    assert!(
        wait_until(Duration::from_secs(5), || out.exists()),
        "the program never ran"
    );
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "x;|;");
    let windows = env.tmux_ok(&["list-windows", "-t", "=main", "-F", "#{window_name}"]);
    assert_eq!(windows, "sh\na;\n");
    // A session whose name ends in ';', beside one named without it.
    quiet(&env.run(["session", "w"]), Exit::Ok);
    quiet(&env.run(["session", "w;"]), Exit::Ok);
    let sessions = || env.tmux_ok(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(sessions(), "main\nw\nw;\n");
    quiet(&env.run(["kill", "w;"]), Exit::Ok);
    assert_eq!(sessions(), "main\nw\n");
}

/// A stand-in `claude` in the test's `bin/` that prints its arguments and
/// stays; returns the PATH that finds it first.
fn stand_in_claude(env: &TestEnv) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = bin.join("claude");
    std::fs::write(&fake, "#!/bin/sh\necho \"args: $*\"\nexec sleep 100000\n").unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap())
}

/// Writes roost's record of spawned agents for the test's server.
fn record_agents(env: &TestEnv, entries: serde_json::Value) {
    let socket = env.socket_file().to_string_lossy().into_owned();
    let record = serde_json::json!({ "servers": { socket: entries } });
    env.write("state/roost/agents.json", &record.to_string());
}

/// `roost resume` opens each recorded agent in a window of its recorded
/// name, in its recorded directory (an agent spawned from a directory
/// holding a format, or a name ending in `;`), on a server's first start
/// and with it up, and tmux runs nothing of either.
#[test]
fn resume_opens_a_recorded_name_and_directory_literally_and_runs_nothing() {
    for up in [false, true] {
        let env = TestEnv::new();
        let path = stand_in_claude(&env);
        if up {
            env.spawn("idle", "sleep 100000");
        }
        let mut entries = Vec::new();
        for (i, dir) in DIRS.iter().enumerate() {
            let dir = env.path("work").join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            entries.push(serde_json::json!({
                "session": "main",
                "name": format!("agent{i};"),
                "agent": "claude",
                "cwd": dir.to_string_lossy(),
                "session_id": format!("id-{i}"),
            }));
        }
        record_agents(&env, serde_json::Value::Array(entries));
        let out = env.roost(["resume"]).env("PATH", &path).output().unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        for (i, dir) in DIRS.iter().enumerate() {
            let name = format!("agent{i};");
            let panes = env.tmux_ok(&[
                "list-panes",
                "-s",
                "-t",
                "=main",
                "-F",
                "#{pane_id} #{window_name}",
            ]);
            let pane = panes
                .lines()
                .find_map(|l| l.strip_suffix(&format!(" {name}")))
                .unwrap_or_else(|| panic!("no window {name}: {panes}\n{}", describe(&out)))
                .to_string();
            let want = env.path("work").join(dir).to_string_lossy().into_owned();
            assert_eq!(cwd_of(&env, &pane), want, "{dir}");
            env.wait_for_screen(&pane, &format!("args: --resume id-{i}"));
            assert_eq!(
                env.tmux_ok(&["show-options", "-pqv", "-t", &pane, "@roost-session-id"]),
                format!("id-{i}\n")
            );
        }
        assert_eq!(canaries(&env), Vec::<PathBuf>::new(), "server up: {up}");
    }
}

/// A record edited by hand to hold what spawn and the hooks never record
/// (a name tmux would expand, a session id that reads as an option) is
/// named and left alone; the rest is resumed.
#[test]
fn resume_leaves_a_record_spawn_would_never_write_and_says_so() {
    let env = TestEnv::new();
    let path = stand_in_claude(&env);
    let dir = env.path("work").to_string_lossy().into_owned();
    let entry = |session: &str, name: &str, id: &str| {
        serde_json::json!({
            "session": session, "name": name, "agent": "claude",
            "cwd": dir, "session_id": id,
        })
    };
    record_agents(
        &env,
        serde_json::json!([
            entry("main", "#(cd;touch canary)", "a"),
            entry("#(cd;touch canary)", "bob", "b"),
            entry("main", "carol", "--dangerously-skip-permissions"),
            entry("main", "dave", "d"),
        ]),
    );
    let out = env.roost(["resume"]).env("PATH", &path).output().unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(
        lines[0],
        "main:#(cd;touch canary) (claude): not resumed: its window name is invalid: \
         '#' starts a tmux format (the record was edited by hand?)"
    );
    assert!(
        lines[1].contains("not resumed: its session name is invalid"),
        "{stdout}"
    );
    assert_eq!(
        lines[2],
        "main:carol (claude): not resumed: its session id is not one an agent reports \
         (the record was edited by hand?)"
    );
    assert!(
        lines[3].starts_with("main:dave (claude): resumed in %"),
        "{stdout}"
    );
    assert_eq!(
        env.tmux_ok(&["list-windows", "-a", "-F", "#{session_name}:#{window_name}"])
            .lines()
            .filter(|l| l.ends_with(":dave"))
            .count(),
        1
    );
    assert_eq!(
        env.tmux_ok(&["list-sessions", "-F", "#{session_name}"]),
        "main\n"
    );
    assert_eq!(canaries(&env), Vec::<PathBuf>::new());
}

/// `spawn --session` opens the window in that session, from outside roost
/// and from inside a pane of another session, making a missing session
/// without attaching; resume's record names that session. A session name
/// spawn could not use is refused before anything starts.
#[test]
fn spawn_session_opens_the_window_there_and_records_that_session() {
    let env = TestEnv::new();
    let out = env.run(["spawn", "--session", "a:b", "alice", "cat"]);
    assert_refusal(
        &out,
        Exit::Failed,
        "roost spawn: invalid session name \"a:b\"",
    );
    assert!(
        !env.server_running(),
        "a refused session started the server"
    );
    let path = stand_in_claude(&env);
    let out = env
        .roost(["spawn", "--session", "work", "alice", "claude"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let pane = stdout(&out).trim_end().to_string();
    assert_eq!(
        pane_format(&env, &pane, "#{session_name}:#{window_name}"),
        "work:alice"
    );
    let sessions = || env.tmux_ok(&["list-sessions", "-F", "#{session_name}"]);
    assert_eq!(sessions(), "work\n", "only the session asked for is made");
    // From inside a pane of main, --session still decides.
    let inside = env.spawn("bob", "cat");
    assert_eq!(pane_format(&env, &inside, "#{session_name}"), "main");
    let tmux_var = format!("{},1,0", env.socket_file().display());
    let carol = env
        .roost(["spawn", "--session", "work", "carol", "cat"])
        .env("TMUX", &tmux_var)
        .env("TMUX_PANE", &inside)
        .output()
        .unwrap();
    let carol = succeeded(&carol).trim_end().to_string();
    assert_eq!(
        pane_format(&env, &carol, "#{session_name}:#{window_name}"),
        "work:carol"
    );
    let dave = env
        .roost(["spawn", "dave", "cat"])
        .env("TMUX", &tmux_var)
        .env("TMUX_PANE", &inside)
        .output()
        .unwrap();
    let dave = succeeded(&dave).trim_end().to_string();
    assert_eq!(pane_format(&env, &dave, "#{session_name}"), "main");
    // The name is unique per session: alice may be spawned in main too.
    env.spawn("alice", "cat");
    let record: serde_json::Value =
        serde_json::from_str(&env.read("state/roost/agents.json")).unwrap();
    let socket = env.socket_file().to_string_lossy().into_owned();
    let entries = record["servers"][socket.as_str()].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{record}");
    assert_eq!(entries[0]["session"], "work", "{record}");
    assert_eq!(entries[0]["name"], "alice", "{record}");
}
