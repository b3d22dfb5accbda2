//! `roost ext update`: the unchanged ref, the moved pin, grown authority,
//! refusals of what install would refuse, a poisoned clone, the recorded
//! source and ref.

mod all;
mod review;
pub(crate) mod signer;

use crate::common::ext::{
    aged_snapshot, changed, clone_dir, edit_lock, index, installed, lines, lock, short, snapshot,
};
use crate::common::versions::updated;
use crate::common::*;

use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The line just above the one that starts with `prompt`.
fn line_above<'a>(text: &'a str, prompt: &str) -> &'a str {
    let all = lines(text);
    let at = all
        .iter()
        .position(|l| l.starts_with(prompt))
        .unwrap_or_else(|| panic!("no prompt in {text}"));
    assert!(at > 0, "nothing above the prompt in {text}");
    all[at - 1]
}

const GROWN: &str = "NOTE: it now asks for more than before: fleet (it had: none); with fleet its code could read any pane's screen and send prompts to any agent";

/// Pushes a new commit of note that claims `commands` (each executable).
fn claim(f: &Fixture, name: &str, commands: &[&str]) {
    f.manifest(name, commands, &[]);
    for c in commands {
        f.exec(&format!("bin/roost-{c}"), "#!/bin/sh\necho took it\n");
    }
    f.commit("claims more");
}

/// Poisons the installed clone's .git: an fsmonitor, hooks, an include, a
/// pager, filters; each would touch `marker` if git or gix ran it.
fn poison(env: &TestEnv, name: &str) -> PathBuf {
    let marker = env.path("marker");
    let script = env.path("poison.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let git = clone_dir(env, name).join(".git");
    let hooks = env.path("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::create_dir_all(git.join("hooks")).unwrap();
    for hook in [
        "pre-commit",
        "post-checkout",
        "post-merge",
        "reference-transaction",
        "fsmonitor-watchman",
        "post-index-change",
    ] {
        std::fs::copy(&script, hooks.join(hook)).unwrap();
        std::fs::copy(&script, git.join("hooks").join(hook)).unwrap();
    }
    let s = script.display();
    let included = env.write(
        "included.config",
        &format!("[core]\n\tfsmonitor = {s}\n\tpager = {s}\n[diff]\n\texternal = {s}\n"),
    );
    let mut config = std::fs::read_to_string(git.join("config")).unwrap();
    config.push_str(&format!(
        "[core]\n\tfsmonitor = {s}\n\thooksPath = {}\n\tpager = {s}\n\tsshCommand = {s}\n\teditor = {s}\n\
         [include]\n\tpath = {}\n\
         [filter \"x\"]\n\tclean = {s}\n\tsmudge = {s}\n\tprocess = {s}\n\trequired = true\n\
         [diff]\n\texternal = {s}\n\
         [gpg]\n\tprogram = {s}\n\
         [uploadpack]\n\tpackObjectsHook = {s}\n",
        hooks.display(),
        included.display()
    ));
    std::fs::write(git.join("config"), config).unwrap();
    std::fs::write(git.join("info/attributes"), "* filter=x diff=x\n").unwrap_or_default();
    std::fs::write(
        clone_dir(env, name).join(".gitattributes"),
        "* filter=x diff=x\n",
    )
    .unwrap();
    marker
}

#[test]
fn update_with_an_unchanged_ref_says_so_and_writes_nothing() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(
        stdout(&out),
        format!("note: up to date (HEAD is still {})\n", f.head())
    );
    assert_eq!(snapshot(&env, "note"), before);
    // Without a name: every extension.
    let out = env.run(["ext", "update"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(snapshot(&env, "note"), before);
}

/// Code that ran from the pinned clone may have rewritten it to look like
/// the next commit; the diff then cannot start from it, or a change would
/// be hidden: it says so, and every file shows as added.
#[test]
fn update_never_diffs_against_a_clone_changed_since_install() {
    let env = TestEnv::new();
    let (_f, old, new) = changed(&env);
    // The installed clone now holds v2's command, byte for byte.
    let clone = env.path("data/roost/ext/note");
    std::fs::write(clone.join("bin/roost-note"), "#!/bin/sh\necho 'note v2'\n").unwrap();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let text = stdout(&out);
    let head = format!(
        "note: {old} -> {new}\n\
         ({} no longer holds the files pinned at install (roost ext verify note names them), \
         so nothing is compared with it: every file shows as added)\n\
         \nchanged files:\n  A NEWS\n  A bin/roost-note\n  A roost-ext.json\n\n",
        clone.display()
    );
    assert!(text.starts_with(&head), "{text}");
    assert!(text.contains("+echo 'note v2'\n"), "{text}");
    assert_eq!(lock(&env)["note"]["commit"], new.as_str());
}

#[test]
fn update_follows_the_recorded_ref() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    f.git(&["tag", "v1"]);
    f.push();
    let out = env.run(["ext", "install", "owner/roost-note", "--ref", "v1", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    f.exec("bin/roost-note", "#!/bin/sh\necho 'on main'\n");
    f.commit("main moves on");
    // main moved, v1 did not.
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert!(stdout(&out).starts_with("note: up to date (v1 is still "));
    f.git(&["tag", "-f", "v1"]);
    f.push();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(lock(&env)["note"]["commit"], f.head());
    assert_eq!(lock(&env)["note"]["ref"], "v1");
    assert_eq!(env.ok(["note"]), "on main\n");
}

#[test]
fn update_without_yes_and_without_a_terminal_refuses_and_changes_nothing() {
    let env = TestEnv::new();
    let (_f, old, new) = changed(&env);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note"]);
    let err = exits(&out, Exit::Failed);
    assert_eq!(
        err,
        "roost ext update: note: not updated: stdin is not a terminal\nread the change above, then pass --yes to update from a script\n"
    );
    // The change was shown before refusing.
    assert!(stdout(&out).starts_with(&format!("note: {} -> {}\n", old, new)));
    assert!(!stdout(&out).contains("Update?"));
    assert_eq!(snapshot(&env, "note"), before);
    assert_eq!(lock(&env)["note"]["commit"], old);
    assert_eq!(env.ok(["note", "a"]), "note [a]\n");
}

#[test]
fn update_with_yes_refuses_grown_authority_unless_granted_by_name() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let old = f.head();
    f.manifest("note", &["note"], &["fleet"]);
    f.commit("now wants the fleet");
    let lock_before = std::fs::read(lock_file(&env)).unwrap();
    let index_before = std::fs::read(index_file(&env)).unwrap();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext update: note: not updated: it asks for fleet now, and --yes does not grant new authority\n\
         read the change above; to accept it from a script, add --grant fleet\n"
    );
    assert!(
        stdout(&out).ends_with(&format!("{GROWN}\n")),
        "{}",
        describe(&out)
    );
    assert!(
        stdout(&out).contains("If you update it, the code"),
        "{}",
        describe(&out)
    );
    assert!(
        stdout(&out).contains("Nothing runs during update."),
        "{}",
        describe(&out)
    );
    assert_eq!(std::fs::read(lock_file(&env)).unwrap(), lock_before);
    assert_eq!(std::fs::read(index_file(&env)).unwrap(), index_before);
    assert_eq!(lock(&env)["note"]["commit"], old);
    // Named on the command line, it is granted.
    let out = env.run(["ext", "update", "note", "--yes", "--grant", "fleet"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let text = stdout(&out);
    assert_eq!(line_above(&text, "Update? [y/N]"), GROWN, "{text}");
    assert_eq!(lock(&env)["note"]["needs"], serde_json::json!(["fleet"]));
    assert!(
        index(&env).ends_with("/bin/roost-note\tfleet\n"),
        "{}",
        index(&env)
    );
    // An authority this roost does not know cannot be granted.
    let out = env.run(["ext", "update", "note", "--yes", "--grant", "network"]);
    assert!(exits(&out, Exit::Usage).starts_with(
        "roost ext update: --grant network: not an authority this roost knows (fleet, events)\n"
    ));
}

#[test]
fn update_prompt_on_a_terminal_follows_the_grown_authority_line_and_no_keeps_the_pin() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let old = f.head();
    f.manifest("note", &["note"], &["fleet"]);
    f.commit("now wants the fleet");
    let before = aged_snapshot(&env, "note");
    let Some(out) = env.on_a_terminal("ext update note", b"n\n") else {
        return;
    };
    exits(&out, Exit::Failed);
    let text = stdout(&out).replace('\r', "");
    // On a terminal its marker is coloured.
    let grown = GROWN.replace("NOTE:", "\x1b[33mNOTE:\x1b[m");
    assert_eq!(line_above(&text, "Update? [y/N] "), grown, "{text}");
    assert!(
        text.contains("roost ext update: note: not updated\n"),
        "{text}"
    );
    assert_eq!(snapshot(&env, "note"), before);
    assert_eq!(lock(&env)["note"]["commit"], old);
}

/// By the time `update` shows the change and asks, it has hung up on the
/// remote: no server process waits on the user's answer.
#[test]
fn update_has_closed_the_connection_when_it_asks() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    f.exec("bin/roost-note", "#!/bin/sh\necho two\n");
    f.commit("two");
    let calls = env.path("upload-pack-calls");
    let path = env.upload_pack_wrapper(&calls, ":");
    // script(1) gives roost a terminal; the answer waits until the prompt.
    let mut child = Command::new("script")
        .args(["-qec", &format!("{ROOST} ext update note"), "/dev/null"])
        .env_clear()
        .envs(env.vars())
        .env("PATH", path)
        .current_dir(env.path("work"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let shown = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let reader = {
        let shown = shown.clone();
        let mut stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            use std::io::Read;
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                shown.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        })
    };
    let asked = wait_until(Duration::from_secs(20), || {
        String::from_utf8_lossy(&shown.lock().unwrap()).contains("Update? [y/N]")
    });
    // The wrapper notes `end` a moment after roost closes its side.
    let closed = asked
        && wait_until(Duration::from_secs(5), || {
            upload_pack_runs(&calls) == (1, 1)
        });
    let runs = upload_pack_runs(&calls);
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"n\n").unwrap();
    child.wait().unwrap();
    reader.join().unwrap();
    let text = String::from_utf8_lossy(&shown.lock().unwrap()).replace('\r', "");
    assert!(asked, "no prompt: {text}");
    assert!(closed, "still connected while asking: {runs:?}\n{text}");
    assert!(
        text.contains("roost ext update: note: not updated\n"),
        "{text}"
    );
}

#[test]
fn update_without_grown_authority_has_no_callout() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &["fleet"]);
    f.manifest("note", &["note"], &[]);
    f.commit("no longer wants the fleet");
    let text = env.ok(["ext", "update", "note", "--yes"]);
    assert!(!text.contains("NOTE:"), "{text}");
    assert_eq!(lock(&env)["note"]["needs"], serde_json::json!([]));
    assert!(index(&env).ends_with("/bin/roost-note\t\n"));
}

#[test]
fn update_refuses_a_commit_that_claims_a_core_command() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    claim(&f, "note", &["note", "send"]);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert!(
        err.contains("command \"send\" is a roost core command; an extension cannot claim it"),
        "{err}"
    );
    assert_eq!(snapshot(&env, "note"), before);
    assert!(!stdout(&out).contains("Update?"));
}

#[test]
fn update_refuses_a_commit_that_claims_another_extensions_command() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    claim(&f, "note", &["note", "mark"]);
    let before = aged_snapshot(&env, "note");
    let mark_before = listing(&clone_dir(&env, "mark"));
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert_eq!(
        err,
        "roost ext update: note: the new commit claims mark, which the installed extension mark holds; nothing was changed\n\
         remove mark first (roost ext remove mark), then update note again\n"
    );
    assert_eq!(snapshot(&env, "note"), before);
    assert_eq!(listing(&clone_dir(&env, "mark")), mark_before);
    assert_eq!(env.ok(["mark"]), "mark\n");
}

/// The same for an agent preset: a later commit may not teach an agent
/// another installed extension teaches, by update or by rollback.
#[test]
fn update_and_rollback_refuse_a_commit_that_teaches_another_extensions_agent() {
    let env = TestEnv::new();
    let preset = serde_json::json!({"name": "qwen", "program": "qwen",
        "first_message": {"by": "argument"}, "resume": ["--resume", "{id}"],
        "state": {"hooks": true}, "send": {"bracketed_paste": true, "settle_ms": 0}});
    let teaching = |f: &Fixture, name: &str, agents: serde_json::Value| {
        f.write(
            "roost-ext.json",
            &serde_json::json!({"name": name, "contract": 1, "commands": [name],
                "agents": agents})
            .to_string(),
        );
    };
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    teaching(&f, "note", serde_json::json!([preset]));
    f.commit("teaches qwen");
    crate::common::ext::install(&env, "owner/roost-note");
    teaching(&f, "note", serde_json::json!([]));
    f.commit("teaches nothing");
    env.ok(["ext", "update", "note", "--yes"]);
    let m = installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    teaching(&m, "mark", serde_json::json!([preset]));
    m.commit("teaches qwen");
    env.ok(["ext", "update", "mark", "--yes"]);
    teaching(&f, "note", serde_json::json!([preset]));
    f.commit("teaches qwen again");
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext update: note: the new commit claims the agent qwen, which the installed extension mark holds; nothing was changed\n\
         remove mark first (roost ext remove mark), then update note again\n"
    );
    assert_eq!(snapshot(&env, "note"), before);
    let out = env.run(["ext", "rollback", "note", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert!(
        err.contains(
            "claims the agent qwen, which the installed extension mark holds; nothing was changed"
        ),
        "{err}"
    );
    assert_eq!(snapshot(&env, "note"), before);
}

#[test]
fn update_refuses_a_renamed_extension() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    claim(&f, "jotter", &["note"]);
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert_eq!(
        err,
        "roost ext update: note: the new commit's manifest names it 'jotter'; refusing a renamed extension\nremove note, then install the repository under its new name\n"
    );
    assert_eq!(snapshot(&env, "note"), before);
}

#[test]
fn update_refuses_a_commit_that_fails_an_install_gate() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    std::os::unix::fs::symlink("/etc/passwd", f.work.join("escape")).unwrap();
    f.commit("escape");
    let before = aged_snapshot(&env, "note");
    let out = env.run(["ext", "update", "note", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert!(
        err.contains("the symlink escape points to the absolute path /etc/passwd"),
        "{err}"
    );
    assert_eq!(snapshot(&env, "note"), before);
}

#[test]
fn update_fires_nothing_from_a_poisoned_clone_config() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let marker = poison(&env, "note");
    // A pager is used only on a terminal; set one anyway.
    let script = env.path("poison.sh");
    let unchanged = env
        .roost(["ext", "update", "note"])
        .env("PAGER", &script)
        .output()
        .unwrap();
    assert_eq!(exits(&unchanged, Exit::Ok), "");
    assert!(!marker.exists(), "the unchanged update fired something");
    let out = env
        .roost(["ext", "verify", "note"])
        .env("PAGER", &script)
        .output()
        .unwrap();
    exits(&out, Exit::Failed); // .gitattributes was added by the poisoning
    assert!(stdout(&out).contains("added     .gitattributes"));
    assert!(!marker.exists(), "verify fired something");
    f.exec("bin/roost-note", "#!/bin/sh\necho 'note v2'\n");
    f.commit("v2");
    let changed = env
        .roost(["ext", "update", "note", "--yes"])
        .env("PAGER", &script)
        .output()
        .unwrap();
    assert_eq!(exits(&changed, Exit::Ok), "");
    assert!(!marker.exists(), "the changed update fired something");
    // The poisoned clone is not what was pinned: nothing is compared with it.
    let text = stdout(&changed);
    assert!(
        text.contains("no longer holds the files pinned at install"),
        "{text}"
    );
    assert!(
        text.contains("\nchanged files:\n  A bin/roost-note\n"),
        "{text}"
    );
    assert_eq!(env.ok(["note"]), "note v2\n");
    assert!(!marker.exists());
}

#[test]
fn update_never_passes_the_locks_repo_or_ref_on_as_options() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let marker = env.path("marker");
    let upload = format!("--upload-pack=touch {}", marker.display());
    let url = lock(&env)["note"]["url"].as_str().unwrap().to_string();
    for (field, value, why) in [
        ("ref", upload.as_str(), "ext.lock's ref"),
        ("ref", "a..b", "ext.lock's ref"),
        ("repo", "../../etc", "ext.lock's repo"),
        ("repo", "-o/r", "ext.lock's repo"),
        ("repo", "https://example.invalid/o/r", "ext.lock's repo"),
        ("url", upload.as_str(), "ext.lock's url"),
        ("url", "ssh://-oProxyCommand=x/o/r", "ext.lock's url"),
        ("url", "http://example.invalid/o/r", "ext.lock's url"),
    ] {
        edit_lock(&env, |v| v["note"][field] = value.into());
        let before = aged_snapshot(&env, "note");
        let out = env.run(["ext", "update", "note", "--yes"]);
        let err = exits(&out, Exit::Failed);
        assert!(
            err.starts_with(&format!("roost ext update: note: {why}: ")),
            "{field}={value}: {err}"
        );
        assert_eq!(snapshot(&env, "note"), before);
        assert!(!marker.exists());
        edit_lock(&env, |v| {
            v["note"]["ref"] = "HEAD".into();
            v["note"]["repo"] = "owner/roost-note".into();
            v["note"]["url"] = url.as_str().into();
        });
    }
}

#[test]
fn update_without_a_name_updates_each_and_reports_every_refusal() {
    let env = TestEnv::new();
    let note = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let mark = installed(&env, "owner/roost-mark", "mark", &["mark"], &[]);
    let zed = installed(&env, "owner/roost-zed", "zed", &["zed"], &[]);
    let mark_old = mark.head();
    let note_old = note.head();
    claim(&mark, "renamed", &["mark"]);
    note.exec("bin/roost-note", "#!/bin/sh\necho 'note v2'\n");
    note.commit("v2");
    let out = env.run(["ext", "update", "--yes"]);
    let err = exits(&out, Exit::Failed);
    assert_eq!(
        err,
        "roost ext update: mark: the new commit's manifest names it 'renamed'; refusing a renamed extension\n\
         remove mark, then install the repository under its new name\n\
         roost ext update: not every extension was updated (mark was not)\n"
    );
    let text = stdout(&out);
    assert!(
        text.ends_with(&format!(
            "zed: up to date (HEAD is still {zed})\n\
             \n\
             summary:\n\
             \x20 mark: refused: the new commit's manifest names it 'renamed'; refusing a renamed extension\n\
             \x20 note: updated: {} -> {}\n\
             \x20 zed: unchanged: HEAD is still {}\n",
            short(&note_old),
            short(&note.head()),
            short(&zed.head()),
            zed = zed.head(),
        )),
        "{text}"
    );
    assert_eq!(lock(&env)["note"]["commit"], note.head());
    assert_eq!(lock(&env)["mark"]["commit"], mark_old);
    assert_eq!(env.ok(["note"]), "note v2\n");
    assert_eq!(env.ok(["mark"]), "mark\n");
}

#[test]
fn update_refuses_an_unknown_name() {
    let env = TestEnv::new();
    installed(&env, "owner/roost-note", "note", &["note"], &[]);
    for name in ["nope", "../x"] {
        let out = env.run(["ext", "update", name, "--yes"]);
        let err = exits(&out, Exit::Failed);
        assert!(
            err.starts_with(&format!("roost ext update: no such extension: {name}\n")),
            "{err}"
        );
    }
}

#[test]
fn update_restores_a_missing_clone() {
    let env = TestEnv::new();
    let (f, _old, new) = changed(&env);
    std::fs::remove_dir_all(clone_dir(&env, "note")).unwrap();
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(lock(&env)["note"]["commit"], new);
    assert_eq!(lock(&env)["note"]["tree"], f.tree("HEAD"));
    assert_eq!(env.ok(["note"]), "note v2\n");
}

/// The source an extension was installed from is recorded in its entry,
/// and update fetches from there: ROOST_EXT_GIT_BASE only shapes new
/// installs. `list --json` shows it.
#[test]
fn update_fetches_from_the_recorded_source_not_todays_git_base() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let url = format!("file://{}/owner/roost-note", env.path("remote").display());
    assert_eq!(lock(&env)["note"]["url"], url.as_str());
    f.exec("bin/roost-note", "#!/bin/sh\necho two\n");
    f.commit("two");
    let out = env
        .roost(["ext", "update", "note", "--yes"])
        .env("ROOST_EXT_GIT_BASE", "file:///nowhere/at/all/")
        .output()
        .unwrap();
    assert_eq!(exits(&out, Exit::Ok), "");
    assert_eq!(lock(&env)["note"]["commit"], f.head());
    assert_eq!(lock(&env)["note"]["url"], url.as_str());
    assert_eq!(env.ok(["note"]), "two\n");
    let listed: serde_json::Value =
        serde_json::from_str(&env.ok(["ext", "list", "--json"])).unwrap();
    assert_eq!(listed[0]["url"], url.as_str());
}

#[test]
fn update_records_the_pin_it_replaced() {
    let env = TestEnv::new();
    let (f, v1, v2) = updated(&env);
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], v2);
    let previous = &l["note"]["previous"];
    assert_eq!(previous["commit"], v1);
    assert_eq!(previous["tree"], f.tree(&v1));
    assert_eq!(previous["ref"], "HEAD");
    assert_eq!(previous["repo"], "owner/roost-note");
    assert_eq!(previous["commands"], json!(["note"]));
    assert_eq!(previous["needs"], json!([]));
    assert!(previous["url"].as_str().unwrap().starts_with("file://"));
    let info = env.ok(["ext", "info", "note"]);
    assert!(
        info.contains(&format!(
            "\nprevious   {v1} (roost ext rollback note returns to it)\n"
        )),
        "{info}"
    );
}
