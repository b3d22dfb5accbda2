//! What a command reads: settings.env (sourced by sh, it assigns and runs
//! nothing; every name carries the ROOST_SETTING_ prefix), the secret in
//! its own file, and the two directories dispatch names, with no secret in
//! the command's environment or argv.

use super::{config_dir, notify_installed, with_stdin};
use crate::common::ext::install;
use crate::common::*;
use std::process::Command;

/// `. FILE; printf %s "$VAR"` in sh, in a directory where a command
/// substitution would leave a file behind.
fn sourced(env: &TestEnv, file: &std::path::Path, var: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", &format!(". \"$1\" && printf '%s' \"${var}\""), "sh"])
        .arg(file)
        .current_dir(env.path("work"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn settings_env_sourced_by_sh_runs_nothing() {
    let env = TestEnv::new();
    notify_installed(&env);
    let value = "it's $(touch ran-dollar) `touch ran-backtick` ${HOME} \\\nsecond line";
    env.ok(["ext", "config", "notify", "notify_command", value]);
    let file = config_dir(&env, "notify").join("settings.env");
    assert_eq!(sourced(&env, &file, "ROOST_SETTING_NOTIFY_COMMAND"), value);
    assert_eq!(sourced(&env, &file, "ROOST_SETTING_LEVEL"), "blocked");
    for left in ["ran-dollar", "ran-backtick"] {
        assert!(!env.path("work").join(left).exists(), "sourcing ran {left}");
    }
    let text = std::fs::read_to_string(&file).unwrap();
    let names: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains('='))
        .filter_map(|l| l.split_once('=').map(|(n, _)| n))
        .collect();
    assert_eq!(
        names,
        ["ROOST_SETTING_LEVEL", "ROOST_SETTING_NOTIFY_COMMAND"]
    );
}

#[test]
fn a_key_named_path_gives_roost_setting_path_never_path() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-keys");
    f.write(
        "roost-ext.json",
        &serde_json::json!({"name": "keys", "contract": 1, "commands": ["keys"],
            "settings": [
                {"key": "path", "type": "string", "label": "A path", "default": "/nowhere"},
                {"key": "ld_preload", "type": "string", "label": "x", "default": "/evil.so"}]})
        .to_string(),
    );
    f.exec(
        "bin/roost-keys",
        "#!/bin/sh\n. \"$ROOST_EXT_CONFIG/settings.env\"\n\
         printf '%s|%s|%s\\n' \"$ROOST_SETTING_PATH\" \"$ROOST_SETTING_LD_PRELOAD\" \"${LD_PRELOAD:-unset}\"\n\
         command -v sh >/dev/null && echo 'PATH still finds sh'\n",
    );
    f.commit("keys");
    install(&env, "owner/roost-keys");
    assert_eq!(
        env.ok(["keys"]),
        "/nowhere|/evil.so|unset\nPATH still finds sh\n"
    );
}

#[test]
fn a_command_reads_its_settings_and_secret_and_no_secret_reaches_its_environment() {
    let env = TestEnv::new();
    notify_installed(&env);
    // What notify_command runs: a script recording its arguments.
    let seen = env.path("work/called");
    let hook = env.path("work/record");
    std::fs::write(
        &hook,
        format!("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{}'\n", seen.display()),
    )
    .unwrap();
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    env.ok(["ext", "config", "notify", "level", "all"]);
    let command = format!("{} from-notify", hook.display());
    env.ok(["ext", "config", "notify", "notify_command", &command]);
    let out = with_stdin(
        &env,
        &["ext", "config", "notify", "token"],
        b"tok-4217-secret",
    );
    succeeded(&out);
    assert_eq!(
        env.ok(["notify-test"]),
        "level: all\ntoken: set, 15 bytes\n"
    );
    assert_eq!(
        std::fs::read_to_string(&seen).unwrap(),
        "from-notify notify.test\n"
    );
    let log = std::fs::read_to_string(env.path("state/roost/ext/notify/notify.log")).unwrap();
    assert!(log.ends_with(" notify.test\n"), "{log}");

    // The same command, replaced by one that dumps what it was given.
    let clone = env.path("data/roost/ext/notify/bin/roost-notify-test");
    let dump = "#!/bin/sh\ntr '\\0' '\\n' < /proc/$$/environ > \"$ROOST_EXT_STATE/environ\"\n\
                tr '\\0' '\\n' < /proc/$$/cmdline > \"$ROOST_EXT_STATE/cmdline\"\n";
    std::fs::write(&clone, dump).unwrap();
    env.ok(["notify-test", "an-argument"]);
    let state = env.path("state/roost/ext/notify");
    let environ = std::fs::read_to_string(state.join("environ")).unwrap();
    let cmdline = std::fs::read_to_string(state.join("cmdline")).unwrap();
    assert!(
        environ.contains(&format!(
            "\nROOST_EXT_CONFIG={}\n",
            config_dir(&env, "notify").display()
        )),
        "{environ}"
    );
    assert!(
        environ.contains(&format!(
            "\nROOST_EXT_SECRETS={}\n",
            config_dir(&env, "notify").join("secrets").display()
        )),
        "{environ}"
    );
    assert!(!environ.contains("tok-4217"), "{environ}");
    assert!(
        !environ.contains("ROOST_SETTING_"),
        "settings are read, not handed: {environ}"
    );
    assert!(!cmdline.contains("tok-4217"), "{cmdline}");
}
