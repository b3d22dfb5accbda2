//! `roost ext config` and the settings it keeps, against the example
//! extension share/examples/roost-notify installed from a real bare
//! repository: values typed and refused naming the rule, secrets taken
//! only from stdin, settings.env sourced by sh running nothing, the two
//! directories dispatch names; and (in `lifecycle`) the consent block,
//! update, remove and doctor.

mod files;
mod lifecycle;

use crate::common::ext::install;
use crate::common::*;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// The example extension, as a repository OWNER/REPO committed and pushed
/// (its files as the repository holds them, modes kept).
pub(crate) fn notify_repo(env: &TestEnv, repo: &str) -> Fixture {
    let f = env.ext_repo(repo);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("share/examples/roost-notify");
    for rel in ["roost-ext.json", "README.md"] {
        f.write(rel, &std::fs::read_to_string(src.join(rel)).unwrap());
    }
    for program in ["bin/roost-notify-test", "bin/roost-events"] {
        f.exec(
            program,
            &std::fs::read_to_string(src.join(program)).unwrap(),
        );
    }
    f.commit("notify");
    f
}

/// The example installed (as a script that read the block does).
pub(crate) fn notify_installed(env: &TestEnv) -> Fixture {
    let f = notify_repo(env, "owner/roost-notify");
    install(env, "owner/roost-notify");
    f
}

pub(crate) fn config_dir(env: &TestEnv, name: &str) -> PathBuf {
    env.path("config/roost/ext").join(name)
}

pub(crate) fn mode(path: &Path) -> u32 {
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

/// `roost ARGS` with `input` on stdin (a pipe, not a terminal).
pub(crate) fn with_stdin(env: &TestEnv, args: &[&str], input: &[u8]) -> Output {
    let mut child = env
        .roost(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn config_lists_every_key_with_its_value_and_where_it_came_from() {
    let env = TestEnv::new();
    notify_installed(&env);
    assert_eq!(
        env.ok(["ext", "config", "notify"]),
        "KEY             VALUE     FROM\n\
         level           blocked   default\n\
         notify_command  -         not set\n\
         token           (secret)  not set\n"
    );
    assert_eq!(
        env.ok(["ext", "config", "notify", "level", "all"]),
        "notify: level = all\n"
    );
    assert_eq!(
        env.ok([
            "ext",
            "config",
            "notify",
            "notify_command",
            "notify-send -u low"
        ]),
        "notify: notify_command = notify-send -u low\n"
    );
    assert_eq!(
        env.ok(["ext", "config", "notify"]),
        "KEY             VALUE               FROM\n\
         level           all                 set\n\
         notify_command  notify-send -u low  set\n\
         token           (secret)            not set\n"
    );
    assert_eq!(
        env.ok(["ext", "config", "notify", "level"]),
        "KEY    VALUE  FROM\nlevel  all    set\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(["ext", "config", "notify", "--json"])).unwrap();
    assert_eq!(json["settings"][0]["value"], "all");
    assert_eq!(json["settings"][0]["from"], "set");
    assert_eq!(json["settings"][2]["type"], "secret");
    assert_eq!(json["settings"][2]["value"], serde_json::Value::Null);
    assert_eq!(
        json["config"],
        config_dir(&env, "notify").display().to_string()
    );
    // Unset: back to the default.
    assert_eq!(
        env.ok(["ext", "config", "notify", "--unset", "level"]),
        "notify: unset level\n"
    );
    assert_eq!(
        env.ok(["ext", "config", "notify", "level"]),
        "KEY    VALUE    FROM\nlevel  blocked  default\n"
    );
}

#[test]
fn config_refuses_a_value_its_type_does_not_allow_naming_the_rule() {
    let env = TestEnv::new();
    notify_installed(&env);
    let out = env.run(["ext", "config", "notify", "level", "some"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext config: level: \"some\" is not one of all, blocked\n\
         level is enum (all|blocked)\n"
    );
    let long = "x".repeat(201);
    let out = env.run(["ext", "config", "notify", "notify_command", &long]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext config: notify_command: the value is 201 characters; the limit is 200\n\
         notify_command is string (at most 200 characters)\n"
    );
    let out = env.run(["ext", "config", "notify", "colour", "red"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext config: notify declares no setting \"colour\"\n\
         its settings are level, notify_command, token; `roost ext config notify` lists them\n"
    );
    let out = env.run(["ext", "config", "nothere"]);
    assert!(exits(&out, Exit::Failed).starts_with("roost ext config: no such extension: nothere\n"));
    assert!(
        !config_dir(&env, "notify").join("values.json").exists(),
        "a refusal writes nothing"
    );
}

#[test]
fn a_secret_is_never_taken_on_the_command_line_and_is_read_from_stdin() {
    let env = TestEnv::new();
    notify_installed(&env);
    let out = env.run(["ext", "config", "notify", "token", "hunter2"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext config: token is a secret, and a secret is never taken on the command line: \
         shell history, ps and an agent's transcript would keep it\n\
         give it on stdin (printf '%s' \"$TOKEN\" | roost ext config notify token), \
         or run `roost ext config notify token` on a terminal to type it unseen\n"
    );
    let secrets = config_dir(&env, "notify").join("secrets");
    assert!(!secrets.join("token").exists());

    let out = with_stdin(
        &env,
        &["ext", "config", "notify", "token"],
        b"s3cr3t-value\n",
    );
    assert_eq!(exits(&out, Exit::Ok), "", "{}", describe(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "notify: token set (kept in {}, readable by you alone)\n",
            secrets.display()
        )
    );
    assert_eq!(
        std::fs::read(secrets.join("token")).unwrap(),
        b"s3cr3t-value"
    );
    assert_eq!(mode(&secrets), 0o700);
    assert_eq!(mode(&secrets.join("token")), 0o600);
    for file in ["settings.env", "values.json"] {
        let path = config_dir(&env, "notify").join(file);
        if let Ok(text) = std::fs::read_to_string(&path) {
            assert!(!text.contains("s3cr3t"), "{file}: {text}");
        }
    }
    assert!(env
        .ok(["ext", "config", "notify"])
        .contains("\ntoken           (secret)  set\n"));
    // A NUL, or nothing, is refused and leaves the secret as it was.
    let out = with_stdin(&env, &["ext", "config", "notify", "token"], b"a\0b");
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext config: token: the value contains a NUL byte\ntoken is secret\n"
    );
    let out = with_stdin(&env, &["ext", "config", "notify", "token"], b"");
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext config: token: the value is empty\ntoken is secret\n"
    );
    assert_eq!(
        std::fs::read(secrets.join("token")).unwrap(),
        b"s3cr3t-value"
    );
    assert_eq!(
        env.ok(["ext", "config", "notify", "--unset", "token"]),
        "notify: unset token\n"
    );
    assert!(!secrets.join("token").exists());
}

#[test]
fn a_secret_can_be_typed_at_a_prompt_on_a_terminal() {
    let env = TestEnv::new();
    notify_installed(&env);
    let Some(out) = env.on_a_terminal("ext config notify token", b"typed-secret\n") else {
        return;
    };
    let seen = String::from_utf8_lossy(&out.stdout);
    assert_eq!(exit_of(&out), Exit::Ok, "{seen}");
    assert!(
        seen.contains("token (API token), typed without echo: "),
        "{seen}"
    );
    // (Typed ahead, it reaches the terminal before echo is off: what the
    // terminal shows is not this test's to judge.)
    let secret = config_dir(&env, "notify").join("secrets/token");
    assert_eq!(std::fs::read(secret).unwrap(), b"typed-secret");
}
