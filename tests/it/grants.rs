//! What ext.index grants an extension whose ext.lock entry cannot be read
//! (a hand edit): list, verify, info and doctor say what the index still
//! runs instead of calling it "never run", and a write that would derive
//! the index again (installing another extension) refuses rather than stop
//! those commands without a word; removing the entry is the way out.

use crate::common::*;

/// `note` (needs fleet) installed, then `needs` deleted from its ext.lock
/// entry by hand.
fn hand_edited(env: &TestEnv) {
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &["fleet"]);
    succeeded(&env.run(["ext", "install", &f.repo, "--yes", "--grant", "fleet"]));
    let text = std::fs::read_to_string(lock_file(env)).unwrap();
    let mut lock: serde_json::Value = serde_json::from_str(&text).unwrap();
    lock["note"]
        .as_object_mut()
        .unwrap()
        .remove("needs")
        .unwrap();
    std::fs::write(lock_file(env), serde_json::to_string_pretty(&lock).unwrap()).unwrap();
}

const WHY: &str =
    "not an entry install could have written (missing field `needs`; a hand edit of ext.lock?)";
const GRANTED: &str = "yet ext.index, which is obeyed, still runs note (with fleet)";

#[test]
fn reports_say_what_the_index_still_runs_for_an_unreadable_entry() {
    let env = TestEnv::new();
    hand_edited(&env);
    // The premise: the index is obeyed, and runs it.
    assert_eq!(env.ok(["note"]), "note\n");
    let list = env.run(["ext", "list"]);
    assert_eq!(succeeded(&list), format!("note  ({WHY}; {GRANTED})\n"));
    let verify = env.run(["ext", "verify"]);
    assert_eq!(exits(&verify, Exit::Failed), "");
    assert_eq!(stdout(&verify), format!("note: {WHY}; {GRANTED}\n"));
    let info = env.run(["ext", "info", "note"]);
    assert!(
        stdout(&info).contains(&format!("{WHY}; {GRANTED}")),
        "{}",
        stdout(&info)
    );
    let doctor = env.run(["doctor"]);
    let text = format!(
        "{}{}",
        stdout(&doctor),
        String::from_utf8_lossy(&doctor.stderr)
    );
    assert!(text.contains(&format!("extension note: {WHY}")), "{text}");
    assert!(
        text.contains("note: its ext.lock entry cannot be read, yet ext.index still runs note (authority: fleet)"),
        "{text}"
    );
    for out in [&list, &verify, &info, &doctor] {
        let all = format!("{}{}", stdout(out), String::from_utf8_lossy(&out.stderr));
        assert!(!all.contains("never run"), "{all}");
    }
}

#[test]
fn installing_another_extension_refuses_to_drop_the_commands_silently() {
    let env = TestEnv::new();
    hand_edited(&env);
    let other = env.simple_ext("owner/roost-other", "other", &["other"], &[]);
    let (lock_before, index_before) = (
        std::fs::read(lock_file(&env)).unwrap(),
        std::fs::read(index_file(&env)).unwrap(),
    );
    let out = env.run(["ext", "install", &other.repo, "--yes"]);
    assert_eq!(
        refused(&out),
        "roost ext install: ext.lock's entry note cannot be read (missing field `needs`), and ext.index \
         still runs its commands (note); rewriting ext.index from ext.lock would stop them without a word, \
         so nothing was changed\n\
         roost ext remove note (then install it again), or put its ext.lock entry back as it was\n"
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), lock_before);
    assert_eq!(std::fs::read(index_file(&env)).unwrap(), index_before);
    assert!(!env.path("data/roost/ext/other").exists());
    assert_eq!(env.ok(["note"]), "note\n");
    // The way out: remove it (said, not silent), then the install goes on.
    succeeded(&env.run(["ext", "remove", "note"]));
    assert_eq!(
        std::fs::read_to_string(index_file(&env)).unwrap_or_default(),
        ""
    );
    succeeded(&env.run(["ext", "install", &other.repo, "--yes"]));
    let list = env.ok(["ext", "list"]);
    assert!(list.contains("other"), "{list}");
    assert!(!list.contains("note"), "{list}");
}
