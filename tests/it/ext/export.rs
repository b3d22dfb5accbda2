//! `roost ext export`: the installed set as one sorted line per pinned
//! extension, the same bytes for the same set, linked ones left out.

use crate::common::ext::{install, lock};
use crate::common::*;

/// The line export writes for the installed `name`, from ext.lock.
pub(crate) fn expected_line(env: &TestEnv, name: &str, authority: &str) -> String {
    let l = lock(env);
    let e = &l[name];
    format!(
        "{name} {} {} {} {} {authority} no unsigned {} -\n",
        e["repo"].as_str().unwrap(),
        e["ref"].as_str().unwrap(),
        e["commit"].as_str().unwrap(),
        e["tree"].as_str().unwrap(),
        e["url"].as_str().unwrap()
    )
}

#[test]
fn export_writes_one_sorted_line_per_pinned_extension_and_leaves_out_linked_ones() {
    let env = TestEnv::new();
    // Installed in the other order than their names sort.
    env.simple_ext("owner/roost-zed", "zed", &["zed"], &["fleet"]);
    install(&env, "owner/roost-zed");
    env.simple_ext("owner/roost-abc", "abc", &["abc"], &[]);
    install(&env, "owner/roost-abc");
    let checkout = env.path("checkout");
    env.ok(["ext", "new", "mine", &checkout.to_string_lossy()]);
    let out = env.run([
        "ext".as_ref(),
        "install".as_ref(),
        "--link".as_ref(),
        checkout.as_os_str(),
        "--yes".as_ref(),
    ]);
    succeeded(&out);
    let out = env.run(["ext", "export"]);
    let text = succeeded(&out);
    assert_eq!(
        text,
        format!(
            "# roost extension set, format 1\n\
             # name repo ref commit tree authority disabled signer url settings\n{}{}",
            expected_line(&env, "abc", "-"),
            expected_line(&env, "zed", "fleet")
        )
    );
    assert_eq!(
        stderr(&out),
        "roost ext export: left out mine: it is linked to a checkout, nothing is pinned\n"
    );
    // The same set, the same bytes, on stdout or in a file.
    let file = env.path("sets/roost.set");
    env.ok([
        "ext".as_ref(),
        "export".as_ref(),
        "--output".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(succeeded(&env.run(["ext", "export"])), text);
}

#[test]
fn a_disabled_extension_is_exported_as_disabled() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    install(&env, "owner/roost-note");
    env.ok(["ext", "disable", "note"]);
    let text = env.ok(["ext", "export"]);
    let line = expected_line(&env, "note", "-").replace(" no unsigned ", " yes unsigned ");
    assert!(text.ends_with(&line), "{text}");
}

#[test]
fn export_to_a_file_it_cannot_write_says_so_and_writes_nothing() {
    let env = TestEnv::new();
    let dir = env.path("ro");
    std::fs::create_dir_all(&dir).unwrap();
    let Some(_guard) = Unwritable::new(&dir) else {
        return skip_without("a directory this test can make unwritable");
    };
    let file = dir.join("roost.set");
    let out = env.run([
        "ext".as_ref(),
        "export".as_ref(),
        "-o".as_ref(),
        file.as_os_str(),
    ]);
    let err = refused(&out);
    assert!(
        err.starts_with(&format!(
            "roost ext export: cannot write {}: ",
            file.display()
        )),
        "{err}"
    );
    assert!(!file.exists());
}

/// An entry under a name install never writes (a hand edit) is named and
/// left out by export, and stops sync, which lists it.
#[test]
fn an_entry_under_a_name_install_never_writes_is_left_out_and_stops_sync() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    install(&env, "owner/roost-note");
    let clean = env.ok(["ext", "export"]);
    let mut v = lock(&env);
    v["../x"] = v["note"].clone();
    std::fs::write(lock_file(&env), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let out = env.run(["ext", "export"]);
    assert_eq!(succeeded(&out), clean);
    assert_eq!(
        stderr(&out),
        "roost ext export: left out ../x: it is not a name install writes\n"
    );
    let file = env.write("roost.set", &clean);
    let out = env.run([
        "ext".as_ref(),
        "sync".as_ref(),
        file.as_os_str(),
        "--frozen".as_ref(),
    ]);
    refused(&out);
    assert_eq!(
        stdout(&out),
        "  ../x: an ext.lock entry under a name install never writes\n"
    );
    let out = env.run([
        "ext".as_ref(),
        "sync".as_ref(),
        file.as_os_str(),
        "--prune".as_ref(),
        "--yes".as_ref(),
    ]);
    refused(&out);
    assert!(env.path("data/roost/ext/note").exists());
}
