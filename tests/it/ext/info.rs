//! `roost ext info`: the lock entry, the manifest and both directories, as
//! text and JSON, neutralised, and when the clone is gone.

use crate::common::ext::{clone_dir, edit_lock, installed, lines, lock, state_dir};
use crate::common::*;

use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn info_shows_the_lock_entry_the_manifest_and_both_directories() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &["fleet"]);
    edit_lock(&env, |v| {
        v["note"]["later-field"] = serde_json::json!({"b": 1})
    });
    let out = env.run(["ext", "info", "note"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let text = stdout(&out);
    let clone = clone_dir(&env, "note");
    let state = state_dir(&env, "note");
    let installed = lock(&env)["note"]["installed"]
        .as_str()
        .unwrap()
        .to_string();
    let url = format!("file://{}/owner/roost-note", env.path("remote").display());
    let want = [
        "name         note".to_string(),
        "repo         owner/roost-note".into(),
        format!("url          {url}"),
        "ref          HEAD".into(),
        format!("commit       {}", f.head()),
        format!("tree         {}", f.tree("HEAD")),
        "signer       unsigned (the key that made the pinned commit object)".into(),
        "signers      unsigned (every signer agreed to)".into(),
        "commands     note".into(),
        "needs        fleet".into(),
        "contract     1".into(),
        format!("installed    {installed}"),
        "later-field  {\"b\":1}".into(),
        "manifest (roost-ext.json as found in the clone):".into(),
        "  {".into(),
    ];
    assert_eq!(&lines(&text)[..want.len()], want, "{text}");
    assert!(text.contains("    \"contract\": 1"), "{text}");
    assert!(text.ends_with(&format!(
        "clone        {}\nstate        {}\n",
        clone.display(),
        state.display()
    )));
}

#[test]
fn info_shows_the_manifest_as_found_in_the_clone() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    std::fs::write(
        clone_dir(&env, "note").join("roost-ext.json"),
        "{\"name\": \"edited\", \"contract\": 1, \"commands\": [\"note\"]}",
    )
    .unwrap();
    let text = env.ok(["ext", "info", "note"]);
    assert!(text.contains("\"name\": \"edited\""), "{text}");
}

#[test]
fn info_json_has_the_lock_entry_the_manifest_and_both_directories() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let out = env.run(["ext", "info", "note", "--json"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["name"], "note");
    assert_eq!(v["lock"], lock(&env)["note"]);
    assert_eq!(v["lock"]["commit"], f.head());
    assert_eq!(v["manifest"]["name"], "note");
    assert_eq!(v["manifest"]["commands"], serde_json::json!(["note"]));
    assert_eq!(v["clone"], clone_dir(&env, "note").to_str().unwrap());
    assert_eq!(v["state"], state_dir(&env, "note").to_str().unwrap());
}

#[test]
fn info_neutralises_control_characters_from_the_record() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    edit_lock(&env, |v| {
        v["note"]["extra"] = "a\u{1b}[2Jb\u{202e}c\u{9b}d\u{7f}".into();
    });
    for args in [
        &["ext", "info", "note"][..],
        &["ext", "info", "note", "--json"],
    ] {
        let out = env.run(args);
        assert_eq!(exits(&out, Exit::Ok), "");
        let text = stdout(&out);
        for bad in ['\u{1b}', '\u{202e}', '\u{9b}', '\u{7f}'] {
            assert!(!text.contains(bad), "{args:?} printed {bad:?}: {text}");
        }
        if args.len() == 4 {
            // Still the same value for a JSON reader.
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["lock"]["extra"], "a\u{1b}[2Jb\u{202e}c\u{9b}d\u{7f}");
        }
    }
}

#[test]
fn info_refuses_an_unknown_name_or_one_that_is_not_a_name() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // A hand-made entry named ../x and a manifest where ../x would lead.
    edit_lock(&env, |v| v["../x"] = v["note"].clone());
    env.write("data/roost/x/roost-ext.json", "{\"name\": \"x\"}");
    for name in ["../x", "nope", "x"] {
        for json in [false, true] {
            let mut args = vec!["ext", "info", name];
            if json {
                args.push("--json");
            }
            let out = env.run(&args);
            let err = exits(&out, Exit::Failed);
            assert_eq!(
                err,
                format!(
                    "roost ext info: no such extension: {name}\nroost ext list shows what is installed\n"
                )
            );
            // With --json, stdout says so too, and that it was refused.
            let said = match json {
                true => serde_json::json!({"status": "refused", "error": format!("no such extension: {name}"),
                                           "hint": "roost ext list shows what is installed"})
                .to_string(),
                false => String::new(),
            };
            let got = stdout(&out);
            match json {
                true => assert_eq!(
                    serde_json::from_str::<serde_json::Value>(&got)
                        .unwrap()
                        .to_string(),
                    said
                ),
                false => assert_eq!(got, ""),
            }
        }
    }
}

#[test]
fn info_of_an_extension_whose_clone_is_gone_still_shows_the_record() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let clone = clone_dir(&env, "note");
    std::fs::remove_dir_all(&clone).unwrap();
    let out = env.run(["ext", "info", "note"]);
    // What puts it back is said too.
    assert_eq!(
        exits(&out, Exit::Ok),
        "roost ext info: note: note's files are gone; \
         roost ext repair note puts back the files pinned in ext.lock\n"
    );
    let text = stdout(&out);
    assert!(
        text.contains(
            "manifest (roost-ext.json as found in the clone):\n  (missing or unreadable)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("clone      {}  (missing)\n", clone.display())),
        "{text}"
    );
    let v: Value = serde_json::from_str(&env.ok(["ext", "info", "note", "--json"])).unwrap();
    assert_eq!(v["manifest"], Value::Null);
    assert_eq!(v["lock"]["repo"], "owner/roost-note");
}

#[test]
fn info_does_not_follow_a_manifest_that_is_no_longer_a_file() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let manifest = clone_dir(&env, "note").join("roost-ext.json");
    std::fs::remove_file(&manifest).unwrap();
    let fifo = env.path("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink(&fifo, &manifest).unwrap();
    let mut child = env
        .roost(["ext", "info", "note"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let done = wait_until(Duration::from_secs(10), || {
        child.try_wait().unwrap().is_some()
    });
    if !done {
        child.kill().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(done, "roost ext info hung reading a FIFO");
    assert_eq!(exits(&out, Exit::Ok), "");
    assert!(stdout(&out).contains("  (missing or unreadable)\n"));
}

#[test]
fn info_json_survives_a_data_directory_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let odd = env
        .dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"data\xff"));
    std::fs::rename(env.path("data"), &odd).unwrap();
    let out = env
        .roost(["ext", "info", "note", "--json"])
        .env("XDG_DATA_HOME", &odd)
        .output()
        .unwrap();
    assert_eq!(exits(&out, Exit::Ok), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["manifest"]["name"], "note");
    assert!(v["clone"].as_str().unwrap().ends_with("/roost/ext/note"));
}
