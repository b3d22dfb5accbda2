//! Terminal injection: ESC sequences (`\x1b[2J`, `\x1b]0;title\x07`), a C1
//! control (U+009B), a bidi override (U+202E), a line separator (U+2028)
//! and a zero-width space (U+200B) put into every field roost prints. None
//! of those bytes may reach stdout or stderr; the escaped form must. One
//! test per field.

use crate::common::*;

use std::path::PathBuf;
use std::process::Output;

/// What a hostile field holds.
const EVIL: &str = "a\u{1b}[2Jb\u{1b}]0;title\u{7}c\u{9b}d\u{202e}e\u{2028}f\u{200b}g";

/// `EVIL` as `untrusted::printable` shows it.
const SHOWN: &str = "a\\x1b[2Jb\\x1b]0;title\\x07c\\x9bd\\u{202e}e\\u{2028}f\\u{200b}g";

/// `EVIL` as a JSON string inside roost's `--json` output.
const SHOWN_JSON: &str = "a\\u001b[2Jb\\u001b]0;title\\u0007c\\u009bd\\u202ee\\u2028f\\u200bg";

/// The raw bytes that must never be printed.
const RAW: &[&[u8]] = &[
    b"\x1b",
    b"\x07",
    b"\xc2\x9b",
    b"\xe2\x80\xae",
    b"\xe2\x80\xa8",
    b"\xe2\x80\x8b",
];

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// No raw control byte in stdout or stderr, and `escaped` in one of them.
fn assert_neutralised(out: &Output, escaped: &str) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        for raw in RAW {
            assert!(
                !contains(bytes, raw),
                "raw {raw:x?} on {stream}: {}",
                describe(out)
            );
        }
    }
    assert!(
        contains(&out.stdout, escaped.as_bytes()) || contains(&out.stderr, escaped.as_bytes()),
        "{escaped:?} is not printed: {}",
        describe(out)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        describe(out)
    );
}

fn install(env: &TestEnv, repo: &str) -> Output {
    env.run(["ext", "install", repo, "--yes"])
}

fn installed(env: &TestEnv) -> Fixture {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let out = install(env, "owner/roost-note");
    assert!(out.status.success(), "{}", describe(&out));
    f
}

fn edit_lock(env: &TestEnv, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(lock_file(env)).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(
        lock_file(env),
        serde_json::to_string_pretty(&v).unwrap() + "\n",
    )
    .unwrap();
}

/// A fixture whose manifest has `field` set to `value`.
fn with_manifest_field(env: &TestEnv, field: &str, value: &str) -> Fixture {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let mut m = serde_json::json!({"name": "note", "contract": 1, "commands": ["note"]});
    m[field] = value.into();
    f.write("roost-ext.json", &serde_json::to_string_pretty(&m).unwrap());
    f.commit("hostile manifest");
    f
}

// -------------------------------------------------------------- manifest

/// Installing with the manifest's FIELD set to controls is refused, naming
/// the field and printing none of them; nothing is recorded.
fn refused_with_controls_in(field: &str) {
    let env = TestEnv::new();
    with_manifest_field(&env, field, EVIL);
    let out = install(&env, "owner/roost-note");
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_neutralised(
        &out,
        &format!("field \"{field}\" contains a control character"),
    );
    assert!(!lock_file(&env).exists());
}

/// With the manifest's FIELD set to VALUE the install goes ahead, and the
/// consent block shows VALUE as SHOWN.
fn installed_showing(field: &str, value: &str, shown: &str) {
    let env = TestEnv::new();
    with_manifest_field(&env, field, value);
    let out = install(&env, "owner/roost-note");
    assert!(out.status.success(), "{}", describe(&out));
    assert_neutralised(&out, shown);
}

#[test]
fn manifest_description_with_controls_is_refused_naming_the_field() {
    refused_with_controls_in("description");
}

#[test]
fn manifest_description_bidi_is_escaped_in_the_consent_block() {
    installed_showing(
        "description",
        "about \u{202e}txt.exe",
        "about \\u{202e}txt.exe",
    );
}

#[test]
fn manifest_roost_range_with_controls_is_refused_naming_the_field() {
    refused_with_controls_in("roost");
}

#[test]
fn manifest_roost_range_with_a_line_separator_cannot_forge_a_row() {
    installed_showing(
        "roost",
        ">=0.1.0 <9.0.0\u{2028}  needs     none",
        ">=0.1.0 <9.0.0\\u{2028}  needs     none",
    );
}

#[test]
fn manifest_roost_range_bidi_is_escaped_in_the_consent_block() {
    installed_showing("roost", ">=0.1.0 <9.0.0\u{202e}", ">=0.1.0 <9.0.0\\u{202e}");
}

// ------------------------------------------------------------- ext.index

/// An executable the hostile index line points at.
fn target(env: &TestEnv) -> String {
    let path = env.path("bin/roost-x");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "#!/bin/sh\necho ran\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

fn write_index(env: &TestEnv, text: &str) {
    std::fs::create_dir_all(index_file(env).parent().unwrap()).unwrap();
    std::fs::write(index_file(env), text).unwrap();
}

/// The dispatcher never prints an extension name that is not a valid name:
/// such a line is a miss, the plain usage error.
#[test]
fn index_extension_name_never_reaches_the_dispatcher_output() {
    let env = TestEnv::new();
    write_index(&env, &format!("x\t{EVIL}\t{}\tnet\n", target(&env)));
    let out = env.run(["x"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
    assert_neutralised(&out, "usage: roost [");
    assert!(out.stdout.is_empty());
}

#[test]
fn index_authority_in_the_unknown_authority_refusal() {
    let env = TestEnv::new();
    write_index(&env, &format!("x\tnote\t{}\tfleet {EVIL}\n", target(&env)));
    let out = env.run(["x"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_neutralised(&out, &format!("needs authority '{SHOWN}'"));
}

#[test]
fn index_extension_name_in_the_list_warning() {
    let env = TestEnv::new();
    installed(&env);
    let mut text = std::fs::read_to_string(index_file(&env)).unwrap();
    text.push_str(&format!("ghost\t{EVIL}\t/nowhere\t\n"));
    write_index(&env, &text);
    let out = env.run(["ext", "list"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_neutralised(&out, &format!("  {SHOWN}: only in ext.index"));
}

#[test]
fn index_command_in_the_list_warning() {
    let env = TestEnv::new();
    let f = installed(&env);
    drop(f);
    let clone = env.path("data/roost/ext/note");
    let mut text = std::fs::read_to_string(index_file(&env)).unwrap();
    text.push_str(&format!(
        "{EVIL}\tnote\t{}/bin/roost-x\t\n",
        clone.display()
    ));
    write_index(&env, &text);
    let out = env.run(["ext", "list"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_neutralised(
        &out,
        &format!("note: commands differ (ext.lock: note; ext.index: {SHOWN} note)"),
    );
}

#[test]
fn index_authority_in_the_list_warning() {
    let env = TestEnv::new();
    installed(&env);
    let text = std::fs::read_to_string(index_file(&env)).unwrap();
    write_index(
        &env,
        &text.replace("/bin/roost-note\t\n", &format!("/bin/roost-note\t{EVIL}\n")),
    );
    let out = env.run(["ext", "list"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_neutralised(
        &out,
        &format!("note: authority differs (ext.lock: none; ext.index: {SHOWN})"),
    );
}

#[test]
fn index_unreadable_line_in_the_list_warning() {
    let env = TestEnv::new();
    installed(&env);
    let mut text = std::fs::read_to_string(index_file(&env)).unwrap();
    text.push_str(&format!("{EVIL}\n"));
    write_index(&env, &text);
    let out = env.run(["ext", "list"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_neutralised(&out, &format!("(unreadable line: {SHOWN})"));
}

// -------------------------------------------------------------- ext.lock

fn lock_field_everywhere(field: &str) {
    let env = TestEnv::new();
    installed(&env);
    edit_lock(&env, |v| v["note"][field] = EVIL.into());
    let out = env.run(["ext", "list", "--json"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_neutralised(&out, &format!("\"{field}\": \"{SHOWN_JSON}\""));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0][field], EVIL);

    let out = env.run(["ext", "info", "note", "--json"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_neutralised(&out, &format!("\"{field}\": \"{SHOWN_JSON}\""));

    let out = env.run(["ext", "info", "note"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    // The key column is as wide as `installed`.
    assert_neutralised(&out, &format!("{field:<9}  {SHOWN}\n"));
}

#[test]
fn lock_ref_in_list_and_info() {
    lock_field_everywhere("ref");
}

#[test]
fn lock_repo_in_list_and_info() {
    lock_field_everywhere("repo");
}

#[test]
fn lock_commit_in_list() {
    let env = TestEnv::new();
    installed(&env);
    edit_lock(&env, |v| v["note"]["commit"] = EVIL.into());
    let out = env.run(["ext", "list"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    // The short commit: its first 7 characters.
    assert_neutralised(&out, "a\\x1b[2Jb");
}

// ------------------------------------------------------------ file names

#[test]
fn file_name_in_verify_output() {
    let env = TestEnv::new();
    installed(&env);
    std::fs::write(env.path("data/roost/ext/note").join(EVIL), "x").unwrap();
    let out = env.run(["ext", "verify", "note"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_neutralised(&out, &format!("  added     {SHOWN}\n"));
}

#[test]
fn file_name_in_the_update_diff() {
    let env = TestEnv::new();
    let f = installed(&env);
    f.write(EVIL, "x\n");
    f.commit("a hostile name");
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_neutralised(&out, &format!("  A {SHOWN}\n"));
    assert_neutralised(&out, &format!("diff --git a/{SHOWN} b/{SHOWN}\n"));
}

// ------------------------------------------------------------- git errors

/// The URL is printed raw by install.rs (`cannot resolve {shown} at {url}`)
/// and the git error by git.rs, neither of which this change may edit:
/// reported, ignored until fixed.
#[test]
fn git_error_text_naming_the_remote() {
    let env = TestEnv::new();
    let base = format!("file://{}/{EVIL}/", env.path("remote").display());
    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("ROOST_EXT_GIT_BASE", &base)
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_neutralised(&out, SHOWN);
}

/// An environment whose data directory holds the hostile bytes: the clone's
/// path, in verify's messages and in the git errors it passes on.
fn hostile_data_home() -> (TestEnv, PathBuf) {
    let env = TestEnv::new();
    let data = env.path(&format!("data-{EVIL}"));
    std::fs::create_dir_all(&data).unwrap();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    (env, data.join("roost/ext/note"))
}

#[test]
fn git_error_text_in_verify_when_the_clones_git_cannot_be_read() {
    let (env, clone) = hostile_data_home();
    std::fs::remove_dir_all(clone.join(".git")).unwrap();
    std::fs::write(clone.join("README"), "x").unwrap();
    let out = env
        .roost(["ext", "verify", "note"])
        .env(
            "XDG_DATA_HOME",
            clone.parent().unwrap().parent().unwrap().parent().unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_neutralised(&out, "the clone's .git cannot be read: ");
    assert_neutralised(&out, SHOWN);
}

#[test]
fn clone_path_in_verify_when_the_clone_is_missing() {
    let (env, clone) = hostile_data_home();
    std::fs::remove_dir_all(&clone).unwrap();
    let out = env
        .roost(["ext", "verify", "note"])
        .env(
            "XDG_DATA_HOME",
            clone.parent().unwrap().parent().unwrap().parent().unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_neutralised(&out, &format!("data-{SHOWN}/roost/ext/note does not exist"));
}
