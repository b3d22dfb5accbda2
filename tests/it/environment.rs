//! roost in the environments users really have: every locale, tools that
//! are missing, places that cannot be written, agents that cannot start or
//! that stop, and what doctor says of each.

use crate::common::*;

use std::process::Output;
use std::time::Duration;

/// `roost ARGS` with the locale set by `vars` (and LANG/LC_ALL removed first).
fn in_locale(env: &TestEnv, vars: &[(&str, &str)], args: &[&str]) -> Output {
    let mut cmd = env.roost(args);
    cmd.env_remove("LANG").env_remove("LC_ALL");
    cmd.envs(vars.iter().copied());
    cmd.output().unwrap()
}

/// The locales a command must behave the same in.
const LOCALES: &[&[(&str, &str)]] = &[
    &[("LANG", "C.UTF-8")],
    &[("LC_ALL", "C")],
    &[("LC_ALL", "POSIX")],
    &[],
];

// ---- every locale ------------------------------------------------------------

#[test]
fn every_command_reads_the_fleet_alike_in_every_locale() {
    let env = TestEnv::new();
    let pane = env.spawn("héllo", "cat");
    env.spawn("bob", "sleep 100");
    let text = "grüße, 東京 and tabs\there";
    let first = in_locale(&env, LOCALES[0], &["send", "héllo", text]);
    assert!(first.status.success(), "{}", describe(&first));
    env.wait_for_screen(&pane, "東京");
    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
    for locale in LOCALES {
        let mut outputs = Vec::new();
        for args in [
            &["status"][..],
            &["status", "--json"],
            &["screen", "héllo"],
            &["screen", &pane],
            &["read", "héllo"],
            &["wait-done", "bob", "1"],
        ] {
            let out = in_locale(&env, locale, args);
            outputs.push(format!(
                "{args:?} -> {:?}\n{}{}",
                out.status.code(),
                stdout(&out),
                stderr(&out)
            ));
        }
        seen.push((format!("{locale:?}"), outputs));
    }
    let (base_locale, base) = &seen[0];
    let fields = |status: &str| status_fields(status, &pane).unwrap_or_default();
    assert_eq!(
        fields(&base[0])[..3],
        [pane.as_str(), "main:1.0", "héllo"],
        "{}",
        base[0]
    );
    assert!(base[2].contains("grüße, 東京 and tabs"), "{}", base[2]);
    // status is for people: outside UTF-8 it is ASCII, everything else the
    // same in every locale.
    let (c_locale, c) = &seen[1];
    assert!(c[0].is_ascii(), "{}", c[0]);
    assert_eq!(
        fields(&c[0])[..3],
        [pane.as_str(), "main:1.0", "h\\xe9llo"],
        "{}",
        c[0]
    );
    assert!(c[0].contains("  session main - 3 windows\n"), "{}", c[0]);
    for (locale, outputs) in &seen[1..] {
        assert_eq!(outputs[0], c[0], "{locale} differs from {c_locale}");
        for (want, got) in base.iter().zip(outputs).skip(1) {
            assert_eq!(got, want, "{locale} differs from {base_locale}");
        }
    }
}

#[test]
fn send_delivers_non_ascii_text_the_same_in_the_c_locale() {
    let env = TestEnv::new();
    let log = env.path("got.txt");
    let pane = env.spawn("cat", &format!("cat > '{}'", log.display()));
    let text = "ümlaut, 東京, ©";
    let out = in_locale(&env, &[("LC_ALL", "C")], &["send", "cat", text]);
    assert!(out.status.success(), "{}", describe(&out));
    let ok = wait_until(Duration::from_secs(10), || {
        std::fs::read_to_string(&log).is_ok_and(|s| s.ends_with('\n'))
    });
    assert!(ok, "nothing arrived in {pane}");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), format!("{text}\n"));
}

// ---- an agent that cannot start, or stops -------------------------------------

#[test]
fn spawn_refuses_a_program_that_does_not_exist_before_any_window_is_made() {
    let env = TestEnv::new();
    for (cmd, program, why) in [
        (&["claudee"][..], "claudee", "not found on PATH"),
        (&["claudee --resume"], "claudee", "not found on PATH"),
        (&["FOO=1 claudee"], "claudee", "not found on PATH"),
        (&["claudee", "--resume"], "claudee", "not found on PATH"),
        (
            &["./no-such-agent"],
            "./no-such-agent",
            "no such executable file",
        ),
    ] {
        let mut args = vec!["spawn", "dave"];
        args.extend(cmd);
        let out = env.run(&args);
        assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
        assert!(out.stdout.is_empty(), "{}", describe(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "roost spawn: cannot run '{program}': {why}; no window was made\n\
                 check the spelling, or give the program's full path (panes get roost's scripts, then your PATH)\n"
            ),
            "{cmd:?}"
        );
        assert!(!env.server_running(), "a server was started for {cmd:?}");
    }
    // Shell syntax and roost itself are left to the shell, as before.
    env.spawn("ok", "cd / && exec sleep 100");
    env.spawn("roosty", "roost state working; sleep 100");
    let status = env.ok(["status"]);
    assert!(!status.contains("dave"), "{status}");
}

#[test]
fn an_agent_that_exits_stays_listed_with_its_status_and_last_words() {
    let env = TestEnv::new();
    // tmux reports the exit status when it has reaped the program; under
    // load it has been seen to mark a pane dead without one (then status
    // shows `exited` alone).
    let pane = env.spawn("dave", "echo 'auth failed: no key'; sleep 0.3; exit 3");
    let line = |status: &str| {
        status_fields(status, &pane)
            .filter(|f| f[1..3] == ["main:1.0", "dave"] && f.last().unwrap().starts_with("[exited"))
            .map(|f| f.last().unwrap().clone())
    };
    let ok = wait_until(Duration::from_secs(10), || {
        line(&env.ok(["status"])).is_some_and(|l| l.ends_with("[exited 3]"))
    });
    let status = env.ok(["status"]);
    let shown = line(&status).unwrap_or_else(|| panic!("dave is not listed as exited:\n{status}"));
    assert!(ok || shown.ends_with("[exited]"), "{status}");
    let json: serde_json::Value = serde_json::from_str(&env.ok(["status", "--json"])).unwrap();
    let row = &json["sessions"][0]["panes"][1];
    assert_eq!(row["id"], pane.as_str());
    assert_eq!(row["dead"], true);
    assert!(
        row["exit_status"] == 3 || (!ok && row["exit_status"].is_null()),
        "{row}"
    );
    let screen = env.ok(["screen", "dave"]);
    assert!(screen.contains("auth failed: no key\n"), "{screen}");
    let read = env.run(["read", "dave"]);
    assert!(
        stdout(&read).contains("auth failed: no key\n"),
        "{}",
        describe(&read)
    );
    // A send to it says why; a new spawn of the name replaces it.
    let send = env.run(["send", "dave", "hello"]);
    assert_eq!(exit_of(&send), Exit::NoTarget, "{}", describe(&send));
    let again = env.spawn("dave", "sleep 100");
    assert_ne!(again, pane);
    let status = env.ok(["status"]);
    let row = status_fields(&status, &again).unwrap_or_default();
    assert_eq!(row[1..3], ["main:1.0", "dave"], "{status}");
    assert_eq!(row.last().map(String::as_str), Some("[-]"), "{status}");
    assert!(!status.contains(&pane), "{status}");
}

// ---- agent state ------------------------------------------------------------

#[test]
fn state_refuses_an_unknown_state_with_exit_1_and_stamps_nothing() {
    let env = TestEnv::new();
    let want = "roost state: unknown state 'dnoe'; nothing was stamped\n\
                use one of: idle working blocked done error\n";
    // Outside roost too, so a hook is caught when it is first tried.
    let out = env.run(["state", "dnoe"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(stderr(&out), want);
    let log = env.path("state.txt");
    let pane = env.spawn(
        "alice",
        &format!(
            "roost state dnoe 2>'{log}'; echo \"exit $?\" >>'{log}'; sleep 100",
            log = log.display()
        ),
    );
    let ok = wait_until(Duration::from_secs(10), || {
        std::fs::read_to_string(&log).is_ok_and(|s| s.contains("exit "))
    });
    assert!(ok);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("{want}exit 1\n")
    );
    let stamped = env.tmux_ok(&["show-options", "-pqv", "-t", &pane, "@agent_state"]);
    assert_eq!(stamped, "", "something was stamped");
    let done = env.run(["wait-done", "alice", "1"]);
    assert_eq!(exit_of(&done), Exit::Failed, "{}", describe(&done));
}

#[test]
fn wait_done_on_a_pane_that_never_reported_says_how_to_report() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "sleep 100");
    let out = env.run(["wait-done", "alice", "1"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost wait-done: 'alice' ({pane}) has never reported a state, so roost cannot tell when it is done (waited 1s)\n\
             its agent reports with `roost state done` from its hooks: see \"How agents report their state\" in roost(1) or the README\n"
        )
    );
}

#[test]
fn a_reply_comes_back_byte_for_byte_and_is_stored_so_no_tmux_rewrites_it() {
    let env = TestEnv::new();
    let reply = "echo $HOME and ${PATH} #{pane_id} 100% \\n ~ 'q' \"q\"\ttab\nlast é";
    let pane = env.spawn_replying("alice", reply);
    assert_eq!(env.ok(["read", "alice"]), format!("{reply}\n"));
    // tmux 3.4 rewrites `$NAME` and `${` in a stored value: the stored form
    // holds neither (nor anything else a tmux version treats specially).
    let stored = env.tmux_ok(&["show-options", "-pqv", "-t", &pane, "@roost-reply"]);
    assert!(
        !stored
            .trim_end_matches('\n')
            .contains(['$', '#', '\\', '\t', '\n']),
        "{stored:?}"
    );
}

// ---- missing tools ---------------------------------------------------------------

/// A PATH holding only what is listed (symlinks to the real tools).
fn path_with_only(env: &TestEnv, tools: &[&str]) -> String {
    let dir = env.path("only-bin");
    std::fs::create_dir_all(&dir).unwrap();
    let real = std::env::var_os("PATH").unwrap();
    for tool in tools {
        let found = std::env::split_paths(&real)
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{tool} is not on PATH"));
        std::os::unix::fs::symlink(found, dir.join(tool)).unwrap();
    }
    dir.to_string_lossy().into_owned()
}

const NO_TMUX: &str = "tmux is not installed (not found on PATH); roost runs its fleet in tmux 3.0 or later: install it (apt-get install tmux, dnf install tmux, brew install tmux)";

#[test]
fn without_tmux_every_fleet_command_says_tmux_is_missing() {
    let env = TestEnv::new();
    let path = path_with_only(&env, &["sh"]);
    for args in [
        &["status"][..],
        &["status", "--json"],
        &["send", "alice", "hi"],
        &["read", "%1"],
        &["screen", "alice"],
        &["wait-done", "alice", "1"],
        &["kill"],
        &["spawn", "alice", "sh"],
    ] {
        let out = env.roost(args).env("PATH", &path).output().unwrap();
        assert_eq!(exit_of(&out), Exit::Failed, "{args:?}: {}", describe(&out));
        assert!(out.stdout.is_empty(), "{args:?}: {}", describe(&out));
        assert_eq!(
            stderr(&out),
            format!("roost {}: {NO_TMUX}\n", args[0]),
            "{args:?}"
        );
    }
}

#[test]
fn without_git_a_file_install_says_git_is_needed_and_writes_nothing() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let path = path_with_only(&env, &["sh"]);
    let out = env
        .roost(["ext", "install", "owner/roost-note", "--yes"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost ext install: cannot resolve HEAD at file://{}/owner/roost-note: \
             a file:// source needs git installed, and it is not on PATH: \
             install git (https sources need neither git nor ssh)\n",
            env.path("remote").display()
        )
    );
    assert!(listing(&env.path("data/roost/ext")).is_empty());
    assert!(!lock_file(&env).exists() && !index_file(&env).exists());
}

// ---- unwritable places -----------------------------------------------------------

#[test]
fn spawn_and_install_name_an_unwritable_directory_before_anything_else() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    let data = env.path("data");
    let Some(_ro) = Unwritable::new(&data) else {
        skip_without("a way to make a directory unwritable (chattr or a non-root user)");
        return;
    };
    let want = |cmd: &str| {
        format!(
            "roost {cmd}: cannot write roost's files: {roost} cannot be made: {data} is not writable\n\
             make it writable, or set XDG_DATA_HOME to a directory you can write\n",
            roost = data.join("roost").display(),
            data = data.display()
        )
    };
    let out = env.run(["spawn", "alice", "sleep 100"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(stderr(&out), want("spawn"));
    assert!(!env.server_running());
    let out = env.run(["ext", "install", "owner/roost-note", "--yes"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert!(
        out.stdout.is_empty(),
        "the consent block was shown: {}",
        describe(&out)
    );
    assert_eq!(stderr(&out), want("ext install"));
    let doctor = env.run(["doctor"]);
    assert_eq!(exit_of(&doctor), Exit::Failed, "{}", describe(&doctor));
    assert!(
        stdout(&doctor).contains(&format!(
            "FAIL  data {}: {} cannot be made: {} is not writable\n      make it writable, or set XDG_DATA_HOME to a directory you can write\n",
            data.join("roost").display(),
            data.join("roost").display(),
            data.display()
        )),
        "{}",
        stdout(&doctor)
    );
}

// ---- doctor -------------------------------------------------------------------

#[test]
fn doctor_reports_an_option_the_server_will_refuse_in_roost_conf() {
    let env = TestEnv::new();
    let conf = env.write(
        "config/roost/roost.conf",
        "set -g mouse on\nset -g no-such-option on\n",
    );
    let out = env.run(["doctor"]);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("FAIL  roost.conf "))
        .unwrap_or_else(|| panic!("no roost.conf failure in\n{text}"));
    assert!(
        line.starts_with(&format!("FAIL  roost.conf {}: ", conf.display()))
            && line.contains("invalid option: no-such-option"),
        "{line}"
    );
    assert!(!env.server_running(), "doctor started roost's server");
}

#[test]
fn doctor_says_which_tools_and_locale_roost_has() {
    let env = TestEnv::new();
    let out = in_locale(&env, &[("LC_ALL", "C")], &["doctor"]);
    let text = stdout(&out);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        text.contains("note  locale LC_ALL=C: not UTF-8; roost works the same, but an attached tmux shows non-ASCII text as '_' (set LANG=C.UTF-8 for your terminal)\n"),
        "{text}"
    );
    assert!(
        text.contains("ok    git: installs come from file:// sources, and git-upload-pack or git is on PATH\n"),
        "{text}"
    );
    let path = path_with_only(&env, &["sh"]);
    let out = env.roost(["doctor"]).env("PATH", &path).output().unwrap();
    let text = stdout(&out);
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert!(text.starts_with(&format!("FAIL  {NO_TMUX}\n")), "{text}");
    assert!(
        text.contains("FAIL  git: ROOST_EXT_GIT_BASE names a file:// source, which needs git, and git is not on PATH\n      install git, or unset ROOST_EXT_GIT_BASE to install over https (which needs neither git nor ssh)\n"),
        "{text}"
    );
}

#[test]
fn doctor_says_when_an_installed_extensions_source_needs_a_missing_tool() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    let path = path_with_only(&env, &["sh", "tmux"]);
    let out = env.roost(["doctor"]).env("PATH", &path).output().unwrap();
    let text = stdout(&out);
    let source = format!("file://{}/owner/roost-note", env.path("remote").display());
    assert!(
        text.contains(&format!(
            "ok    extension note: ok (matches the tree pinned at install)\n\
             note  extension note: its source {source} needs git, which is not on PATH: \
             install git before update, outdated or rollback\n"
        )),
        "{text}"
    );
    // The command itself still runs without git.
    let out = env.roost(["note"]).env("PATH", &path).output().unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
}

// ---- XDG base directories -------------------------------------------------------

/// An empty or relative XDG variable means its default under HOME (the XDG
/// rule): here HOME's defaults lead to the test's directories, so the
/// extension installed there is found and run.
#[test]
fn an_empty_or_relative_xdg_variable_means_the_default_under_home() {
    let env = TestEnv::new();
    env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    let home = env.path("home");
    std::fs::create_dir_all(home.join(".local")).unwrap();
    for (link, to) in [
        (".local/state", "../../state"),
        (".local/share", "../../data"),
        (".config", "../config"),
    ] {
        std::os::unix::fs::symlink(to, home.join(link)).unwrap();
    }
    let out = env
        .roost(["note", "x"])
        .env("XDG_STATE_HOME", "state")
        .env("XDG_DATA_HOME", "")
        .env("XDG_CONFIG_HOME", "./config")
        .output()
        .unwrap();
    assert_eq!(stdout(&out), "note [x]\n", "{}", describe(&out));
    let out = env
        .roost(["ext", "info", "note", "--json"])
        .env("XDG_STATE_HOME", "state")
        .env_remove("XDG_DATA_HOME")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["state"],
        home.join(".local/state/roost/ext/note").to_str().unwrap(),
        "{}",
        describe(&out)
    );
    assert_eq!(
        v["clone"],
        home.join(".local/share/roost/ext/note").to_str().unwrap()
    );
}

/// A relative HOME is refused, naming the variable that would do instead;
/// absolute XDG variables need no HOME at all. The dispatcher, which needs
/// the state directory, finds nothing (the usage error).
#[test]
fn a_relative_home_is_refused_unless_the_xdg_variables_are_absolute() {
    let env = TestEnv::new();
    let out = env
        .roost(["ext", "list"])
        .env("HOME", "relhome")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_STATE_HOME")
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        "roost ext list: HOME (relhome) is not an absolute path; set HOME or XDG_DATA_HOME to one\n"
    );
    let out = env
        .roost(["ext", "list"])
        .env("HOME", "relhome")
        .env("XDG_STATE_HOME", "rel/state")
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert!(
        stderr(&out).ends_with("set HOME or XDG_STATE_HOME to one\n"),
        "{}",
        describe(&out)
    );
    env.cmd(["ext", "list"])
        .env("HOME", "relhome")
        .assert()
        .stdout("no extensions installed\n");
    env.cmd(["ext", "list"])
        .env_remove("HOME")
        .assert()
        .stdout("no extensions installed\n");
    let out = env
        .roost(["note"])
        .env("HOME", "relhome")
        .env_remove("XDG_STATE_HOME")
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
}
