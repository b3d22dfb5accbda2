//! Settings through an extension's life: listed in the consent block and
//! recorded in ext.lock at install, refused when declared wrong, carried
//! across an update (a removed key kept, a changed type falling back), kept
//! by remove and deleted by --purge, and watched by doctor.

use super::{config_dir, notify_installed, notify_repo, with_stdin};
use crate::common::ext::{edit_lock, lock};
use crate::common::*;
use std::os::unix::fs::PermissionsExt;

#[test]
fn install_lists_the_settings_in_the_consent_block_and_records_them() {
    let env = TestEnv::new();
    notify_repo(&env, "owner/roost-notify");
    let out = env.run([
        "ext",
        "install",
        "owner/roost-notify",
        "--yes",
        "--grant",
        "events",
    ]);
    let text = succeeded(&out);
    assert!(
        text.contains(
            "  about     Says when an agent is done or needs you\n\
             \x20 settings  level: enum (all|blocked), default blocked - Which moments\n\
             \x20           notify_command: string (at most 200 characters) - Command run with the event's name\n\
             \x20           token: secret - API token\n\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with(&format!(
            "its settings: {} (roost ext config notify shows and sets them)\n",
            config_dir(&env, "notify").display()
        )),
        "{text}"
    );
    let recorded = &lock(&env)["notify"]["settings"];
    assert_eq!(recorded[0]["key"], "level");
    assert_eq!(
        recorded[0]["options"],
        serde_json::json!(["all", "blocked"])
    );
    assert_eq!(recorded[2]["type"], "secret");
    // settings.env exists from the start, owner-only, with the defaults.
    let file = config_dir(&env, "notify").join("settings.env");
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .ends_with("\nROOST_SETTING_LEVEL='blocked'\n"));
    assert_eq!(super::mode(&config_dir(&env, "notify")), 0o700);
}

#[test]
fn install_refuses_an_invalid_declaration_naming_it() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-bad");
    f.write(
        "roost-ext.json",
        &serde_json::json!({"name": "bad", "contract": 1, "commands": ["bad"],
            "settings": [{"key": "level", "type": "enum", "options": ["a"], "default": "b", "label": "L"}]})
        .to_string(),
    );
    f.exec("bin/roost-bad", "#!/bin/sh\n");
    f.commit("bad");
    let out = env.run(["ext", "install", "owner/roost-bad", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert!(
        err.contains(
            "field \"settings[0]\": setting \"level\": \"default\": \"b\" is not one of a"
        ),
        "{err}"
    );
    assert!(!env.path("state/roost/ext.lock").exists());
    assert!(!config_dir(&env, "bad").exists());
}

#[test]
fn an_entry_recorded_without_settings_has_none_whatever_the_manifest_says() {
    let env = TestEnv::new();
    notify_installed(&env);
    edit_lock(&env, |v| {
        v["notify"].as_object_mut().unwrap().remove("settings");
    });
    assert_eq!(
        env.ok(["ext", "config", "notify"]),
        "notify has no settings\n"
    );
    let out = env.run(["ext", "config", "notify", "level", "all"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext config: notify declares no setting \"level\"\n\
         notify declares no settings; `roost ext config notify` lists them\n"
    );
}

#[test]
fn update_keeps_a_removed_keys_value_and_falls_back_on_a_changed_type() {
    let env = TestEnv::new();
    let f = notify_installed(&env);
    env.ok(["ext", "config", "notify", "level", "all"]);
    env.ok(["ext", "config", "notify", "notify_command", "notify-send"]);
    // The next commit: level becomes a bool, notify_command goes, sound comes.
    f.write(
        "roost-ext.json",
        &serde_json::json!({"name": "notify", "contract": 1, "commands": ["notify-test"],
            "settings": [
                {"key": "level", "type": "bool", "default": false, "label": "Only blocked"},
                {"key": "sound", "type": "bool", "default": true, "label": "Sound"},
                {"key": "token", "type": "secret", "label": "API token"}]})
        .to_string(),
    );
    f.commit("settings changed");
    let out = env.run(["ext", "update", "notify", "--yes"]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(exit_of(&out), Exit::Ok, "{text}");
    for line in [
        "settings added: sound\n",
        "settings removed: notify_command (a value set for one is kept, shown as no longer declared)\n",
        "setting level changes from enum (all|blocked) to bool (true|false): a value set that does not fit falls back to the default\n",
    ] {
        assert!(text.contains(line), "want {line:?} in\n{text}");
    }
    assert_eq!(
        env.ok(["ext", "config", "notify"]),
        "KEY             VALUE        FROM\n\
         level           false        default (the value set (all) no longer fits bool (true|false): the value must be true or false)\n\
         sound           true         default\n\
         token           (secret)     not set\n\
         notify_command  notify-send  no longer declared\n"
    );
    let env_file =
        std::fs::read_to_string(config_dir(&env, "notify").join("settings.env")).unwrap();
    assert!(
        env_file.ends_with("\nROOST_SETTING_LEVEL='false'\nROOST_SETTING_SOUND='true'\n"),
        "{env_file}"
    );
    // The kept value can be unset by its key.
    assert_eq!(
        env.ok(["ext", "config", "notify", "--unset", "notify_command"]),
        "notify: unset notify_command\n"
    );
}

#[test]
fn remove_keeps_settings_and_secrets_and_purge_deletes_them() {
    let env = TestEnv::new();
    notify_installed(&env);
    env.ok(["ext", "config", "notify", "level", "all"]);
    succeeded(&with_stdin(
        &env,
        &["ext", "config", "notify", "token"],
        b"t0k",
    ));
    let config = config_dir(&env, "notify");
    let out = env.ok(["ext", "remove", "notify"]);
    assert!(
        out.ends_with(&format!(
            "kept its settings and secrets: {}\n(roost ext remove notify --purge deletes them)\n",
            config.display()
        )),
        "{out}"
    );
    assert!(config.join("secrets/token").exists());
    assert!(config.join("values.json").exists());
    let out = env.ok(["ext", "remove", "notify", "--purge"]);
    assert!(
        out.ends_with(&format!(
            "deleted its settings and secrets: {}\n",
            config.display()
        )),
        "{out}"
    );
    assert!(!config.exists());
}

#[test]
fn remove_purge_deletes_settings_and_secrets_at_once() {
    let env = TestEnv::new();
    notify_installed(&env);
    succeeded(&with_stdin(
        &env,
        &["ext", "config", "notify", "token"],
        b"t0k",
    ));
    let out = env.ok(["ext", "remove", "notify", "--purge"]);
    assert!(out.contains("deleted its settings and secrets: "), "{out}");
    assert!(!config_dir(&env, "notify").exists());
}

#[test]
fn doctor_complains_when_secrets_are_open_to_others() {
    let env = TestEnv::new();
    notify_installed(&env);
    succeeded(&with_stdin(
        &env,
        &["ext", "config", "notify", "token"],
        b"t0k",
    ));
    let doctor = env.run(["doctor"]);
    assert!(!stdout(&doctor).contains("too open"), "{}", stdout(&doctor));
    let token = config_dir(&env, "notify").join("secrets/token");
    std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
    let doctor = env.run(["doctor"]);
    assert_eq!(exit_of(&doctor), Exit::Failed, "{}", describe(&doctor));
    let text = stdout(&doctor);
    assert!(
        text.contains(&format!(
            "extension notify: permissions 0644 for {} are too open: its secrets must be readable by you alone",
            token.display()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("chmod go= {}", token.display())),
        "{text}"
    );
}

#[test]
fn rollback_returns_to_the_settings_recorded_with_the_earlier_pin() {
    let env = TestEnv::new();
    let f = notify_installed(&env);
    let file = config_dir(&env, "notify").join("settings.env");
    let before = std::fs::read_to_string(&file).unwrap();
    f.write(
        "roost-ext.json",
        &serde_json::json!({"name": "notify", "contract": 1, "commands": ["notify-test"],
            "settings": [{"key": "volume", "type": "number", "integer": true,
                          "min": 0, "max": 10, "default": 3, "label": "Volume"}]})
        .to_string(),
    );
    f.commit("volume only");
    succeeded(&env.run(["ext", "update", "notify", "--yes"]));
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .ends_with("\nROOST_SETTING_VOLUME='3'\n"));
    assert_eq!(lock(&env)["notify"]["settings"][0]["key"], "volume");
    // The earlier pin handles events again: that is asked, as fleet is.
    let out = env.run(["ext", "rollback", "notify", "--yes", "--grant", "events"]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(exit_of(&out), Exit::Ok, "{text}");
    assert!(
        text.contains("settings added: level, notify_command, token\n"),
        "{text}"
    );
    assert!(text.contains("settings removed: volume "), "{text}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    assert_eq!(lock(&env)["notify"]["settings"][0]["key"], "level");
}

#[test]
fn an_extension_without_settings_gets_no_configuration_directory() {
    let env = TestEnv::new();
    crate::common::ext::installed(&env, "owner/roost-note", "note", &["note"], &[]);
    assert!(!config_dir(&env, "note").exists());
    assert_eq!(env.ok(["ext", "config", "note"]), "note has no settings\n");
    let out = env.ok(["ext", "remove", "note"]);
    assert!(!out.contains("settings"), "{out}");
}
