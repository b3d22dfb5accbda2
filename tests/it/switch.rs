//! The server-wide extension switch with a server running: the very next
//! `roost CMD` after a change obeys it, without a tmux process on the
//! dispatch path, and nothing stale is ever trusted (a killed server, a
//! socket left behind, another user's socket, a plain tmux server on the
//! same socket, several servers at once).

use crate::common::*;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

const ENV_EXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/env-ext");

/// One installed command `envx` (exit 7 when it runs).
fn envx(env: &TestEnv) {
    let bin = env.path("data/roost/ext/fixture/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let program = bin.join("roost-envx");
    std::fs::copy(ENV_EXT, &program).unwrap();
    env.write(
        "state/roost/ext.index",
        &format!("envx\tfixture\t{}\t\n", program.display()),
    );
}

/// A `tmux` first on PATH that logs each run, then runs the real one.
fn spy(env: &TestEnv) -> (String, PathBuf) {
    let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("tmux"))
        .find(|p| p.is_file())
        .expect("tmux on PATH");
    let dir = env.path("spy");
    std::fs::create_dir_all(&dir).unwrap();
    let log = env.path("spy.log");
    let script = dir.join("tmux");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            real.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap());
    (path, log)
}

/// `roost envx` with the spy on PATH: its exit status, and how many tmux
/// processes it started.
fn dispatch(env: &TestEnv, socket: Option<&str>) -> (Option<i32>, usize) {
    let (path, log) = spy(env);
    let _ = std::fs::remove_file(&log);
    let mut cmd = env.roost(["envx"]);
    cmd.env("PATH", path);
    if let Some(s) = socket {
        cmd.env("ROOST_SOCKET", s);
    }
    let out: Output = cmd.output().unwrap();
    let runs = std::fs::read_to_string(&log).map_or(0, |t| t.lines().count());
    (out.status.code(), runs)
}

const RAN: Option<i32> = Some(7);
/// What a word gets while the switch is off: roost's usage error, as for a
/// word never installed.
fn off() -> Option<i32> {
    exited(Exit::Usage)
}

#[test]
fn every_kind_of_change_is_obeyed_by_the_very_next_command_with_no_tmux_process() {
    for env in [TestEnv::new(), TestEnv::with_socket_name("switchy")] {
        envx(&env);
        env.ok(["spawn", "idle", "sleep 100"]);
        assert_eq!(dispatch(&env, None), (RAN, 0), "unset: on");
        let conf = env.write("work/off.conf", "set -g @roost-ext-enabled off\n");
        let steps: Vec<(Vec<&str>, Option<i32>)> = vec![
            (vec!["set", "-g", "@roost-ext-enabled", "off"], off()),
            (vec!["set", "-g", "@roost-ext-enabled", "on"], RAN),
            (vec!["set-option", "-g", "@roost-ext-enabled", "off"], off()),
            (vec!["set", "-gu", "@roost-ext-enabled"], RAN),
            (vec!["source-file", conf.to_str().unwrap()], off()),
            (vec!["set", "-g", "@roost-ext-enabled", "OFF"], RAN),
        ];
        for _round in 0..3 {
            for (change, want) in &steps {
                env.tmux_ok(change);
                assert_eq!(dispatch(&env, None), (*want, 0), "after {change:?}");
            }
        }
    }
}

#[test]
fn a_killed_server_leaves_roost_conf_to_decide_and_starts_nothing() {
    let env = TestEnv::new();
    envx(&env);
    env.ok(["spawn", "idle", "sleep 100"]);
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    let pid = env.tmux_ok(&["display-message", "-p", "#{pid}"]);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid.trim().parse().unwrap()),
        nix::sys::signal::SIGKILL,
    )
    .unwrap();
    assert!(wait_until(std::time::Duration::from_secs(5), || !env.server_running()));
    assert!(env.socket_file().exists(), "tmux removed its socket");
    // The kept file still says off, but nobody listens: roost.conf decides.
    assert_eq!(dispatch(&env, None), (RAN, 0));
    env.write("config/roost/roost.conf", "set -g @roost-ext-enabled off\n");
    assert_eq!(dispatch(&env, None).0, off());
}

#[test]
fn a_plain_tmux_server_on_the_socket_is_asked_not_the_stale_file() {
    let env = TestEnv::new();
    envx(&env);
    env.ok(["spawn", "idle", "sleep 100"]);
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    env.tmux_ok(&["kill-server"]);
    assert!(wait_until(std::time::Duration::from_secs(5), || !env.server_running()));
    // Not roost's start: no hook, no kept file of its own.
    env.tmux_ok(&["-f", "/dev/null", "new-session", "-d", "-s", "plain"]);
    let (code, runs) = dispatch(&env, None);
    assert_eq!(code, RAN, "the stale file's off was trusted");
    assert_eq!(runs, 1, "the server was not asked");
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    assert_eq!(dispatch(&env, None), (off(), 1));
}

#[test]
fn a_file_the_server_did_not_write_is_not_trusted() {
    let env = TestEnv::new();
    envx(&env);
    env.ok(["spawn", "idle", "sleep 100"]);
    let file = PathBuf::from(format!("{}.roost-ext", env.socket));
    let pid = env.tmux_ok(&["display-message", "-p", "#{pid}"]);
    // Another pid, a value other than on/off, or a file others can write.
    for (text, mode) in [
        ("1 off\n".to_string(), 0o644),
        (format!("{} maybe\n", pid.trim()), 0o644),
        (format!("{} off\n", pid.trim()), 0o666),
    ] {
        std::fs::write(&file, &text).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        assert_eq!(dispatch(&env, None), (RAN, 1), "{text:?} {mode:o}");
    }
}

#[test]
fn another_users_socket_is_asked_about_not_probed() {
    if nix::unistd::getuid().as_raw() != 0 {
        skip_without("chown needs root");
        return;
    }
    let env = TestEnv::new();
    envx(&env);
    env.ok(["spawn", "idle", "sleep 100"]);
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    let socket = Path::new(&env.socket);
    std::os::unix::fs::chown(socket, Some(65534), None).unwrap();
    let (code, runs) = dispatch(&env, None);
    std::os::unix::fs::chown(socket, Some(0), None).unwrap();
    assert_eq!((code, runs), (off(), 1));
}

#[test]
fn several_servers_each_obey_their_own_switch() {
    let env = TestEnv::new();
    envx(&env);
    let other = env.path("other-roost").to_string_lossy().into_owned();
    env.ok(["spawn", "idle", "sleep 100"]);
    env.roost(["spawn", "idle", "sleep 100"])
        .env("ROOST_SOCKET", &other)
        .output()
        .unwrap();
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    assert_eq!(dispatch(&env, None), (off(), 0));
    assert_eq!(dispatch(&env, Some(&other)), (RAN, 0));
    env.tmux_ok_on(&other, &["set", "-g", "@roost-ext-enabled", "off"]);
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "on"]);
    assert_eq!(dispatch(&env, None), (RAN, 0));
    assert_eq!(dispatch(&env, Some(&other)), (off(), 0));
    env.tmux_ok_on(&other, &["kill-server"]);
}

/// From the moment roost starts its server the file is kept: the first
/// extension command asks no tmux process, whatever the umask it started
/// under (a file others could write is never trusted, so it is made 0600).
#[test]
fn the_file_is_kept_from_the_start_whatever_the_umask() {
    let env = TestEnv::new();
    envx(&env);
    let started = std::process::Command::new("sh")
        .args(["-c", &format!("umask 002; exec '{ROOST}' session work")])
        .env_clear()
        .envs(env.vars())
        .current_dir(env.path("work"))
        .output()
        .unwrap();
    assert!(started.status.success(), "{}", describe(&started));
    assert_eq!(dispatch(&env, None), (RAN, 0));
    env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
    assert_eq!(dispatch(&env, None), (off(), 0));
}

/// A hook set after the start may remove or hide the keeper (a user's
/// `set-hook -g after-set-option …` without an index replaces them all; a
/// session's hook hides the global one): from then on the file is gone and
/// the server is asked, so every change is still obeyed.
#[test]
fn once_a_hook_changes_the_server_is_asked_and_every_change_still_obeyed() {
    for hook in [
        vec!["set-hook", "-g", "after-set-option", "set -g @x 1"],
        vec!["set-hook", "-t", "main", "after-set-option", "set -g @x 1"],
    ] {
        let env = TestEnv::new();
        envx(&env);
        env.ok(["spawn", "idle", "sleep 100"]);
        assert_eq!(dispatch(&env, None), (RAN, 0));
        env.tmux_ok(&hook);
        for (value, want) in [("off", off()), ("on", RAN), ("off", off())] {
            env.tmux_ok(&["set", "-g", "@roost-ext-enabled", value]);
            assert_eq!(dispatch(&env, None), (want, 1), "{hook:?} then {value}");
        }
    }
}

/// A relative ROOST_SOCKET names the socket from where roost runs: the
/// server keeps the file beside that socket, whoever changes the option
/// and from wherever.
#[test]
fn a_relative_socket_path_is_one_socket_and_one_file() {
    let env = TestEnv::new();
    envx(&env);
    let relative = "./rel-roost";
    let spawned = env
        .roost(["spawn", "idle", "sleep 100"])
        .env("ROOST_SOCKET", relative)
        .output()
        .unwrap();
    assert!(spawned.status.success(), "{}", describe(&spawned));
    let absolute = env.path("work/rel-roost");
    assert!(
        absolute.exists(),
        "the socket is not at {}",
        absolute.display()
    );
    // A change made from another directory, through the absolute path.
    let set = std::process::Command::new("tmux")
        .args([
            "-S",
            absolute.to_str().unwrap(),
            "set",
            "-g",
            "@roost-ext-enabled",
            "off",
        ])
        .current_dir("/")
        .output()
        .unwrap();
    assert!(set.status.success(), "{}", describe(&set));
    assert_eq!(dispatch(&env, Some(relative)), (off(), 0));
    env.tmux_ok_on(absolute.to_str().unwrap(), &["kill-server"]);
}

/// Hooks are options: roost's keeper taken away with `set-option` (no
/// set-hook, so the guard never runs), or the value it last wrote put in
/// doubt by hand, and the file is given up: every change that follows is
/// still obeyed (the server is asked).
#[test]
fn the_keeper_removed_by_set_option_or_its_record_edited_gives_the_file_up() {
    for change in [
        vec!["set-option", "-gu", "after-set-option[77]"],
        vec!["set-option", "-gu", "after-set-option[76]"],
        vec!["set-option", "-gu", "after-set-option[78]"],
        vec!["set-option", "-gu", "after-set-hook[77]"],
        vec!["set-option", "-g", "@roost-ext-synced", "(doubt)"],
    ] {
        let env = TestEnv::new();
        envx(&env);
        env.ok(["spawn", "idle", "sleep 100"]);
        assert_eq!(dispatch(&env, None), (RAN, 0));
        env.tmux_ok(&change);
        for (value, want) in [("off", off()), ("on", RAN), ("off", off())] {
            env.tmux_ok(&["set", "-g", "@roost-ext-enabled", value]);
            assert_eq!(dispatch(&env, None).0, want, "{change:?} then {value}");
        }
    }
}

/// `@roost-ext-synced` set by hand to any other value: the keeper writes
/// the option's value again at once, so the file never says what the
/// option does not.
#[test]
fn the_record_set_by_hand_is_corrected_at_once() {
    for value in ["on", "off", "(start)", "junk"] {
        let env = TestEnv::new();
        envx(&env);
        env.ok(["spawn", "idle", "sleep 100"]);
        env.tmux_ok(&["set", "-g", "@roost-ext-synced", value]);
        assert_eq!(dispatch(&env, None), (RAN, 0), "synced {value}");
        env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "off"]);
        assert_eq!(dispatch(&env, None), (off(), 0), "synced {value}, then off");
        env.tmux_ok(&["set", "-g", "@roost-ext-synced", value]);
        assert_eq!(dispatch(&env, None).0, off(), "synced {value} while off");
        env.tmux_ok(&["set", "-g", "@roost-ext-enabled", "on"]);
        assert_eq!(dispatch(&env, None).0, RAN, "synced {value}, then on");
    }
}

/// Hooks are options, and `set-option` can put anything in one of roost's
/// slots, not only empty it: from then on the file is given up, and every
/// change that follows is obeyed. The same for the copy of roost's slots
/// the watchers compare them with, changed by hand.
#[test]
fn the_keeper_replaced_by_set_option_gives_the_file_up() {
    for change in [
        vec!["set-option", "-g", "after-set-option[77]", "display x"],
        vec!["set-option", "-g", "after-set-option[76]", "display x"],
        vec!["set-option", "-g", "after-set-option[78]", "display x"],
        vec!["set-option", "-g", "after-set-hook[77]", "display x"],
        vec!["set-option", "-gu", "after-set-hook"],
        vec!["set-option", "-g", "@roost-ext-hooks", "x"],
        vec!["set-option", "-gu", "@roost-ext-hooks"],
    ] {
        let env = TestEnv::new();
        envx(&env);
        env.ok(["spawn", "idle", "sleep 100"]);
        assert_eq!(dispatch(&env, None), (RAN, 0));
        // tmux 3.0 sets no hook with set-option: nothing to give up there.
        let changed = env.tmux(&change);
        if !changed.status.success() {
            assert!(
                env.tmux_ok(&["-V"]).starts_with("tmux 3.0"),
                "{change:?}: {}",
                describe(&changed)
            );
            continue;
        }
        for (value, want) in [("off", off()), ("on", RAN), ("off", off())] {
            env.tmux_ok(&["set", "-g", "@roost-ext-enabled", value]);
            assert_eq!(dispatch(&env, None), (want, 1), "{change:?} then {value}");
        }
    }
}

/// The whole `after-set-option` array emptied or replaced at once leaves no
/// hook of roost's to run after it (SECURITY.md says so), but the guard
/// still sees the next `set-hook`: from then on every change is obeyed.
#[test]
fn the_whole_array_replaced_is_given_up_at_the_next_set_hook() {
    for change in [
        vec!["set-option", "-gu", "after-set-option"],
        vec!["set-option", "-g", "after-set-option", "display x"],
    ] {
        let env = TestEnv::new();
        envx(&env);
        env.ok(["spawn", "idle", "sleep 100"]);
        assert_eq!(dispatch(&env, None), (RAN, 0));
        env.tmux_ok(&change);
        env.tmux_ok(&["set-hook", "-g", "after-new-window", "display y"]);
        for (value, want) in [("off", off()), ("on", RAN), ("off", off())] {
            env.tmux_ok(&["set", "-g", "@roost-ext-enabled", value]);
            assert_eq!(dispatch(&env, None), (want, 1), "{change:?} then {value}");
        }
    }
}

/// The whole array emptied or replaced leaves no hook to notice, typed on
/// its own or in a config sourced into the server (how roost.conf is
/// reloaded; tmux has no hook after `source-file`), even one that turns the
/// switch off in its next line. The next roost command that speaks to the
/// server notices (every call carries the watchers' comparison): from then
/// on every change is obeyed.
#[test]
fn the_whole_array_replaced_is_given_up_at_roosts_next_call_to_the_server() {
    for (change, command) in [
        ("set -gu after-set-option", vec!["status"]),
        (
            "set -g after-set-option 'display x'",
            vec!["spawn", "two", "cat"],
        ),
        (
            "set -gu after-set-option\nset -g @roost-ext-enabled off",
            vec!["status"],
        ),
    ] {
        let env = TestEnv::new();
        envx(&env);
        env.ok(["spawn", "idle", "sleep 100"]);
        assert_eq!(dispatch(&env, None), (RAN, 0));
        let conf = env.write("work/reload.conf", &format!("{change}\n"));
        env.tmux_ok(&["source-file", conf.to_str().unwrap()]);
        env.ok(&command);
        let command = (change, command);
        for (value, want) in [("off", off()), ("on", RAN), ("off", off())] {
            env.tmux_ok(&["set", "-g", "@roost-ext-enabled", value]);
            assert_eq!(dispatch(&env, None), (want, 1), "{command:?} then {value}");
        }
    }
}
