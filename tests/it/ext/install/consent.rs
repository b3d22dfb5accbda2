//! `roost ext install`'s consent block and question: with and without the
//! fleet, out of range, no terminal, yes, no, interrupted, and the progress
//! line on a terminal.

use crate::common::*;
use crate::ext::install::{
    block, ext_with, install, note_repo, read_lock, url_of, NOT_ASKED, SIGNED, VERSION,
};

use serde_json::json;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs the install in a pane of the test's tmux server (a real terminal)
/// and answers the question with `answer`; returns (exit status, stderr).
fn install_in_a_terminal(env: &TestEnv, answer: &str) -> (String, String) {
    let status = env.path("status");
    let err = env.path("stderr");
    let pane = env.spawn(
        "installer",
        &format!(
            "trap : INT; '{ROOST}' ext install owner/roost-note 2>'{err}'; echo $? >'{status}.tmp'; mv '{status}.tmp' '{status}'",
            err = err.display(),
            status = status.display(),
        ),
    );
    let screen = env.wait_for_screen(&pane, "Install? [y/N]");
    assert!(screen.contains("commit    "), "{screen}");
    if answer.starts_with("C-") {
        env.tmux_ok(&["send-keys", "-t", &pane, answer]);
    } else {
        env.tmux_ok(&["send-keys", "-t", &pane, answer, "Enter"]);
    }
    assert!(
        wait_until(Duration::from_secs(20), || status.exists()),
        "the install never finished"
    );
    (
        std::fs::read_to_string(&status).unwrap().trim().to_string(),
        std::fs::read_to_string(&err).unwrap(),
    )
}

#[test]
fn the_consent_block_for_a_fleet_extension() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note", "notes"], &["fleet"]);
    f.git(&["tag", "v0.1.0"]);
    f.push();
    let commit = f.head();
    let out = install(
        &env,
        &[
            "owner/roost-note",
            "--ref",
            "v0.1.0",
            "--yes",
            "--grant",
            "fleet",
        ],
    );
    let url = url_of(&env, "owner/roost-note");
    let want = format!(
        "{}\nInstall? [y/N] yes (--yes)\n\
         installed note at {}: roost note, roost notes\n\
         its data directory: {}\n",
        block(&url, "v0.1.0", &commit, "roost note, roost notes", true),
        commit,
        env.path("state/roost/ext/note").display(),
    );
    assert_eq!(succeeded(&out), want);
    assert!(out.stderr.is_empty(), "{}", describe(&out));
}

/// `--yes` answers the question but grants nothing: an extension that asks
/// for the fleet is installed from a script only when `--grant fleet` names
/// it, as update and rollback require of authority that grows. The
/// refusal gives the command line that would grant it.
#[test]
fn yes_installs_an_extension_that_asks_for_the_fleet_only_when_granted() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &["fleet"]);
    f.git(&["tag", "v0.1.0"]);
    f.push();
    let before = snapshot(&env);
    let out = install(&env, &["owner/roost-note", "--ref", "v0.1.0", "--yes"]);
    assert_eq!(
        exits(&out, Exit::Failed),
        "roost ext install: not installed: it asks for fleet, and --yes does not grant authority\n\
         read the block above; to accept it from a script: \
         roost ext install owner/roost-note --ref v0.1.0 --yes --grant fleet\n"
    );
    let text = stdout(&out);
    assert!(
        text.contains("This extension asks to drive your agents."),
        "{text}"
    );
    assert!(!text.contains("Install? [y/N]"), "{text}");
    assert_eq!(snapshot(&env), before);
    // The same for a checkout linked in place.
    let dir = env.path("checkout");
    f.git(&[
        "clone",
        "-q",
        f.bare.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    let out = install(&env, &["--link", dir.to_str().unwrap(), "-y"]);
    let err = exits(&out, Exit::Failed);
    assert!(
        err.ends_with(&format!(
            "roost ext install --link {} --yes --grant fleet\n",
            dir.display()
        )),
        "{err}"
    );
    assert_eq!(snapshot(&env), before);
    // Named, it is installed.
    let out = install(&env, &["owner/roost-note", "--yes", "--grant", "fleet"]);
    assert!(succeeded(&out).contains("Install? [y/N] yes (--yes)\n"));
    assert_eq!(read_lock(&env)["note"]["needs"], json!(["fleet"]));
}

#[test]
fn the_consent_block_for_an_extension_that_does_not_ask_for_the_fleet() {
    let env = TestEnv::new();
    let f = ext_with(
        &env,
        "owner/roost-mark",
        json!({
            "name": "mark",
            "contract": "1",
            "commands": ["mark"],
            "needs": [],
            "roost": ">=0.0.1 <99.0.0",
            "description": "Bookmarks for panes \u{2014} caf\u{e9}"
        }),
        &["mark"],
    );
    let commit = f.head();
    let out = install(&env, &["owner/roost-mark", "--yes"]);
    let range = format!(">=0.0.1 <99.0.0 (you have {VERSION})");
    let w = range.len();
    let want = format!(
        "  repo      {url}\n\
         \x20 ref       HEAD\n\
         \x20 commit    {commit} (pinned)\n\
         \x20 signer    unsigned (the commit carries no signature)\n\
         \x20 contract  {contract:<w$}  ok\n\
         \x20 roost     {range}  ok\n\
         \x20 claims    roost mark\n\
         \x20 about     Bookmarks for panes \u{2014} caf\u{e9}\n\
         \n\
         This extension does not ask for access to your agents.\n\
         {NOT_ASKED}\
         \n\
         Roost has checked that this is the exact commit named above. It has\n\
         NOT checked whether the code is honest. It cannot.\n\
         \n\
         {SIGNED}\
         \n\
         Nothing runs during install. Code runs when you type those commands.\n\
         \n\
         Install? [y/N] yes (--yes)\n\
         installed mark at {commit}: roost mark\n\
         its data directory: {state}\n",
        url = url_of(&env, "owner/roost-mark"),
        contract = "1 (roost speaks 1)",
        state = env.path("state/roost/ext/mark").display(),
    );
    assert_eq!(succeeded(&out), want);
    // The same text as the shared layout, line by line.
    let stdout = String::from_utf8(out.stdout).unwrap();
    for line in block(
        &url_of(&env, "owner/roost-mark"),
        "HEAD",
        &commit,
        "roost mark",
        false,
    )
    .lines()
    .filter(|l| !l.starts_with("  contract") && !l.starts_with("  roost"))
    {
        assert!(stdout.lines().any(|l| l == line), "missing line {line:?}");
    }
    assert_eq!(read_lock(&env)["mark"]["needs"], json!([]));
}

#[test]
fn a_roost_range_out_of_range_warns_and_installs() {
    let env = TestEnv::new();
    ext_with(
        &env,
        "owner/roost-mark",
        json!({"name": "mark", "contract": 1, "commands": ["mark"], "roost": ">=99.0.0 <100.0.0"}),
        &["mark"],
    );
    let out = succeeded(&install(&env, &["owner/roost-mark", "--yes"]));
    let row = format!("  roost     >=99.0.0 <100.0.0 (you have {VERSION})  warn");
    assert!(out.lines().any(|l| l == row), "{out}");
    assert!(
        out.contains(&format!(
            "\nNote: it says it is for roost >=99.0.0 <100.0.0; this is roost {VERSION}. The range is advisory: installing anyway.\n"
        )),
        "{out}"
    );
    assert!(lock_file(&env).exists());
}

#[test]
fn without_a_terminal_and_without_yes_it_shows_the_block_and_refuses() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let before = snapshot(&env);
    let out = install(&env, &["owner/roost-note"]);
    let err = refused(&out);
    let url = url_of(&env, "owner/roost-note");
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        format!("{}\n", block(&url, "HEAD", &f.head(), "roost note", false))
    );
    assert_eq!(
        err,
        "roost ext install: not installed: stdin is not a terminal\n\
         read the block above, then pass --yes to install from a script\n"
    );
    assert_eq!(
        snapshot(&env),
        before,
        "no lock, no index, no clone, no temp dir"
    );
    assert!(!env.path("data/roost").exists());
}

#[test]
fn answering_yes_at_the_terminal_installs() {
    let env = TestEnv::new();
    // On a terminal the question is the consent: the authority it asks for
    // needs no --grant.
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &["fleet"]);
    let (status, err) = install_in_a_terminal(&env, "y");
    assert_eq!(status, "0", "{err}");
    assert_eq!(err, "");
    assert_eq!(read_lock(&env)["note"]["commit"], f.head());
    assert_eq!(read_lock(&env)["note"]["needs"], json!(["fleet"]));
    assert_eq!(env.ok(["note"]), "note\n");
}

#[test]
fn answering_no_at_the_terminal_installs_nothing() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let (status, err) = install_in_a_terminal(&env, "n");
    assert_eq!(status, "1");
    assert_eq!(err, "roost ext install: not installed\n");
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert!(!env.path("state/roost/ext/note").exists());
    // (The tmux server has its own files under data/roost; install has none.)
    assert!(
        !env.path("data/roost/ext").exists(),
        "{:?}",
        snapshot(&env).iter().map(|(p, _, _)| p).collect::<Vec<_>>()
    );
}

#[test]
fn interrupting_the_question_installs_nothing_and_leaves_nothing() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let (status, err) = install_in_a_terminal(&env, "C-c");
    assert_eq!(status, "130");
    assert_eq!(err, "roost ext install: not installed\n");
    assert!(!lock_file(&env).exists());
    assert!(!index_file(&env).exists());
    assert!(
        !env.path("data/roost/ext").exists(),
        "{:?}",
        snapshot(&env).iter().map(|(p, _, _)| p).collect::<Vec<_>>()
    );
}

#[test]
fn interrupting_the_fetch_leaves_nothing() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    // The fetch, once asked for, is held up for a moment.
    let fetching = env.path("fetching");
    let path = env.upload_pack_wrapper(
        &env.path("upload-pack-calls"),
        &format!("touch '{}'; sleep 1", fetching.display()),
    );
    let child = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("PATH", path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(wait_until(Duration::from_secs(10), || fetching.exists()));
    assert!(
        env.path("data/roost/ext").exists(),
        "the temporary clone is being made"
    );
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out.status.success(), "{}", describe(&out));
    assert!(!lock_file(&env).exists());
    assert!(
        !env.path("data/roost/ext").exists(),
        "{:?}",
        snapshot(&env).iter().map(|(p, _, _)| p).collect::<Vec<_>>()
    );
}

#[test]
fn on_a_terminal_install_shows_its_progress_on_one_line_then_takes_it_away() {
    let env = TestEnv::new();
    note_repo(&env).commit("first");
    let Some(out) = env.on_a_terminal("ext install owner/roost-note --yes", b"") else {
        return;
    };
    let seen = succeeded(&out);
    let url = format!("file://{}/owner/roost-note", env.path("remote").display());
    // Each step rewrites the one line; nothing else is printed meanwhile.
    let steps: Vec<&str> = seen.split("\r\x1b[K").filter(|s| !s.is_empty()).collect();
    let (last, drawn) = steps.split_last().unwrap();
    let want = [
        format!("roost: connecting to {url}"),
        "roost: HEAD is ".to_string(),
        "roost: received ".to_string(),
        // Checkout and hashing count their files as they go; the count
        // reached is drawn last.
        "roost: checking out: 2/2 files".to_string(),
        "roost: hashing: 2/2 files".to_string(),
    ];
    let mut at = 0;
    for step in drawn {
        assert!(
            !step.contains('\n'),
            "a progress step spans lines: {step:?}"
        );
        if at < want.len() && step.starts_with(&want[at]) {
            at += 1;
        }
    }
    assert_eq!(at, want.len(), "steps missing from {drawn:?}");
    // The line is gone before the block and the result are printed.
    assert!(last.starts_with("  repo      file://"), "{last:?}");
    assert!(last.contains("installed note"), "{last:?}");
    // Piped, the same install prints not one byte of it.
    env.ok(["ext", "remove", "note"]);
    let out = install(&env, &["owner/roost-note", "--yes"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("connecting"));
    assert!(!out.stderr.contains(&b'\r'));
}
