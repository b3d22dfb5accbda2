//! The server's start: the user's roost.conf sourced (errors named by
//! file and line), none at all, ROOST_HOME and its scripts on PATH.

use crate::common::*;
use crate::core::wait_for_file;

// ---- the server's start ------------------------------------------------------

#[test]
fn the_users_roost_conf_is_sourced_at_server_start() {
    let env = TestEnv::new();
    env.write("config/roost/roost.conf", "set -g @roost-test-option yes\n");
    env.spawn("alice", "sleep 100");
    assert_eq!(
        env.tmux_ok(&["show-options", "-gv", "@roost-test-option"]),
        "yes\n"
    );
    // roost's base config was loaded before it.
    assert_eq!(
        env.tmux_ok(&["show-options", "-gv", "automatic-rename"]),
        "off\n"
    );
}

#[test]
fn errors_in_roost_conf_are_a_warning_naming_file_and_line_at_server_start() {
    let env = TestEnv::new();
    for (text, line) in [
        (
            "set -g @roost-test-option yes\n\nset -g bogus-option on\n",
            "line 3: invalid option: bogus-option",
        ),
        (
            "set -g mouse on\nbogus-command\n",
            "line 2: unknown command: bogus-command",
        ),
    ] {
        let conf = env.write("config/roost/roost.conf", text);
        let out = env
            .roost(["up"])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "roost up: warning: {}: {line}\n\
                 the server started without it: fix roost.conf, then roost kill and roost to load it again (roost doctor checks it)\n\
                 roost up: session main is running (socket={}); not attaching without a terminal\n",
                conf.display(),
                env.socket
            ),
        );
        assert!(env.server_running());
        env.ok(["kill"]);
    }
}

#[test]
fn a_server_starts_without_a_roost_conf() {
    let env = TestEnv::new();
    let out = env.run(["spawn", "alice", "sleep 100"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(stderr(&out), "");
    assert_eq!(
        env.tmux_ok(&["show-options", "-gqv", "@roost-test-option"]),
        ""
    );
}

#[test]
fn roost_home_is_in_the_server_environment_and_its_scripts_come_first_on_path() {
    let env = TestEnv::new();
    let file = env.path("pane-path");
    env.spawn(
        "alice",
        &format!("echo \"$PATH\" > '{}'; sleep 100", file.display()),
    );
    let home = env.path("data/roost/home");
    assert_eq!(
        env.tmux_ok(&["show-environment", "-g", "ROOST_HOME"]),
        format!("ROOST_HOME={}\n", home.display())
    );
    let path = wait_for_file(&file);
    let first = path.trim_end().split(':').next().unwrap().to_string();
    let scripts = home.join("bin");
    assert_eq!(first, scripts.to_string_lossy());
    let link = std::fs::read_link(scripts.join("roost")).expect("bin/roost is a symlink");
    assert_eq!(
        std::fs::canonicalize(link).unwrap(),
        std::fs::canonicalize(ROOST).unwrap()
    );
}
