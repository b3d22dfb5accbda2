//! `roost send` delivers one prompt exactly once, as one bracketed paste and
//! one Enter, or fails and says what was typed: against a real program that
//! records every byte it reads (tests/fixtures/paste-reader), and against
//! the terminal's own line discipline.

use crate::common::*;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const READER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/paste-reader");

/// Whether python3 (which the reader is written in) is here.
fn have_python() -> bool {
    if on_path("python3") {
        return true;
    }
    skip_without("python3 is not installed");
    false
}

/// Starts the reader in window NAME; returns its pane and its log. With no
/// delay, waits until it is reading.
fn reader(env: &TestEnv, name: &str, delay: f64, mode: &str) -> (String, PathBuf) {
    let log = env.path(&format!("{name}.log"));
    let pane = env
        .ok([
            "spawn",
            name,
            READER,
            log.to_str().unwrap(),
            &delay.to_string(),
            mode,
        ])
        .trim()
        .to_string();
    if delay == 0.0 {
        env.wait_for_screen(&pane, "ready>");
    }
    (pane, log)
}

/// What the reader read, split into submissions: each must be one
/// bracketed paste followed by one Enter (a CR). Newlines inside a paste
/// arrive as CRs (tmux's paste); they are given back as newlines.
fn pastes(log: &Path) -> Vec<String> {
    let bytes = std::fs::read(log).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap_or_else(|_| panic!("{bytes:?}"));
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let body = rest
            .strip_prefix("\x1b[200~")
            .unwrap_or_else(|| panic!("not a paste at {rest:?} in {text:?}"));
        let (inner, after) = body
            .split_once("\x1b[201~")
            .unwrap_or_else(|| panic!("an unterminated paste in {text:?}"));
        rest = after
            .strip_prefix('\r')
            .unwrap_or_else(|| panic!("a paste without its Enter in {text:?}"));
        out.push(inner.replace('\r', "\n"));
    }
    out
}

/// Waits until the log holds `n` whole submissions.
fn wait_for_pastes(log: &Path, n: usize) -> Vec<String> {
    let ok = wait_until(Duration::from_secs(10), || {
        let bytes = std::fs::read(log).unwrap_or_default();
        String::from_utf8_lossy(&bytes)
            .matches("\x1b[201~\r")
            .count()
            >= n
    });
    assert!(ok, "fewer than {n} submissions in {:?}", std::fs::read(log));
    pastes(log)
}

#[test]
fn one_send_is_one_paste_and_one_enter() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 0.0, "echo");
    let text =
        "line one 'single' \"double\"\nsecond $HOME and `date` and $(id)\n\tthird \\n ~ ; # end";
    let out = env.run(["send", "--paste", "agent", text]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        out.stdout.is_empty() && out.stderr.is_empty(),
        "{}",
        describe(&out)
    );
    assert_eq!(wait_for_pastes(&log, 1), [text]);
    env.wait_for_screen(&pane, "third \\n ~ ; # end");
}

#[test]
fn concurrent_sends_to_one_pane_each_arrive_as_their_own_paste() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (_pane, log) = reader(&env, "agent", 0.0, "echo");
    let texts: Vec<String> = (1..=6)
        .map(|i| format!("message {i} from sender {i}\nits second line {i}"))
        .collect();
    let senders: Vec<_> = texts
        .iter()
        .map(|t| {
            env.roost(["send", "--paste", "agent", t])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for s in senders {
        let out = s.wait_with_output().unwrap();
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    }
    let mut got = wait_for_pastes(&log, texts.len());
    got.sort();
    let mut want = texts.clone();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn a_pane_in_copy_mode_is_taken_out_of_it_first_with_vi_and_emacs_keys() {
    if !have_python() {
        return;
    }
    for keys in ["vi", "emacs"] {
        let env = TestEnv::new();
        let (pane, log) = reader(&env, "agent", 0.0, "echo");
        env.tmux_ok(&["set-option", "-g", "mode-keys", keys]);
        env.tmux_ok(&["copy-mode", "-t", &pane]);
        let mode = env.tmux_ok(&["display-message", "-p", "-t", &pane, "#{pane_in_mode}"]);
        assert_eq!(mode.trim(), "1");
        let out = env.run(["send", "agent", "sent during copy mode"]);
        assert_eq!(exit_of(&out), Exit::Ok, "{keys}: {}", describe(&out));
        let out = env.run(["send", "agent", "second prompt"]);
        assert_eq!(exit_of(&out), Exit::Ok, "{keys}: {}", describe(&out));
        assert_eq!(
            wait_for_pastes(&log, 2),
            ["sent during copy mode", "second prompt"],
            "{keys}"
        );
        let mode = env.tmux_ok(&["display-message", "-p", "-t", &pane, "#{pane_in_mode}"]);
        assert_eq!(mode.trim(), "0", "{keys}");
    }
}

#[test]
fn text_cannot_end_the_paste_or_press_keys() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (_pane, log) = reader(&env, "agent", 0.0, "echo");
    let hostile = "harmless line\x1b[201~\nINJECTED-SUBMIT\n\x1b[31mred\x1b[0m \x1b]0;title\x07 \
                   \x03\x04\x1a\x08\x7f \u{9b}201~ \u{9d}0;x\u{9c} tab\there\r\nend";
    let out = env.run(["send", "--paste", "agent", hostile]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let got = wait_for_pastes(&log, 1);
    assert_eq!(
        got,
        ["harmless line\u{241b}[201~\nINJECTED-SUBMIT\n\u{241b}[31mred\u{241b}[0m \u{241b}]0;title\u{2407} \
          \u{2403}\u{2404}\u{241a}\u{2408}\u{2421} \u{fffd}201~ \u{fffd}0;x\u{fffd} tab\there\nend"]
    );
}

#[test]
fn multi_line_and_long_text_wait_until_the_program_asks_for_a_paste() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    // Still starting: in the terminal's line mode for 1.5 s.
    let (_pane, log) = reader(&env, "agent", 1.5, "echo");
    let long: String = "x".repeat(6000) + " end of the long line";
    let text = format!("a=40\nb=2\n{long}");
    let started = Instant::now();
    let out = env.run(["send", "--paste", "agent", &text]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "it did not wait"
    );
    assert_eq!(wait_for_pastes(&log, 1), [text]);
}

#[test]
fn a_program_that_is_not_reading_gets_nothing_and_exit_4() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 30.0, "echo");
    for text in ["a=40\nb=2\nprint(a+b)", "one line"] {
        let out = env.run(["send", "--wait", "1", "agent", text]);
        assert_eq!(exit_of(&out), Exit::NotReady, "{}", describe(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "roost send: 'agent' ({pane}) is not reading its terminal (busy, or still starting) after 1s; nothing was typed\n\
                 wait for it (roost wait-done agent), or give it longer with --wait SECONDS\n"
            )
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    let screen = env.screen(&pane);
    assert!(!screen.contains("a=40"), "something was typed: {screen}");
    assert_eq!(std::fs::read(&log).unwrap(), b"");
}

#[test]
fn one_line_right_after_spawn_waits_until_the_program_reads() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    // The reader sleeps in line mode, then takes raw mode, which discards
    // whatever the terminal held: a line typed at once would be lost.
    let (_pane, log) = reader(&env, "agent", 1.0, "echo");
    let started = Instant::now();
    let out = env.run(["send", "agent", "first words"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "it did not wait"
    );
    assert_eq!(wait_for_pastes(&log, 1), ["first words"]);
}

/// An agent that has reported nothing yet may draw its prompt, then clear
/// the screen and draw it again, dropping what came between (Gemini CLI
/// resuming a session does): send waits until its screen stands still.
#[test]
fn an_agent_that_redraws_its_prompt_as_it_starts_gets_the_text_after() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 1.0, "redraw");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@roost-agent", "gemini"]);
    let out = env.run(["send", "agent", "first words"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(wait_for_pastes(&log, 1), ["first words"]);
    let dropped = std::fs::read(log.with_extension("log.dropped")).unwrap();
    assert_eq!(String::from_utf8_lossy(&dropped), "");
}

#[test]
fn several_lines_to_a_program_that_did_not_ask_are_refused_not_split() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "keys", 0.0, "nobracket");
    let out = env.run([
        "send",
        "--wait",
        "1",
        "keys",
        "line one\nline two\nline three",
    ]);
    assert_eq!(exit_of(&out), Exit::NotReady, "{}", describe(&out));
    let why = if tmux_reports_paste_requests(&env, &pane) {
        "takes keys and did not ask for a bracketed paste, so each newline of TEXT would act as Enter; nothing was typed\n\
         send each line as its own submission with --lines, or TEXT as one line\n"
            .to_string()
    } else {
        format!(
            "cannot be seen to have asked for a bracketed paste (tmux {} does not say; 3.7 and later do), so each newline of TEXT could act as Enter; nothing was typed\n\
             if its program asks for bracketed paste (most agents' prompts do), say so with --paste; or submit each line on its own with --lines\n",
            tmux_version(&env)
        )
    };
    assert_eq!(stderr(&out), format!("roost send: 'keys' ({pane}) {why}"));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(std::fs::read(&log).unwrap(), b"");
}

/// The version tmux gives of itself, without `tmux `.
fn tmux_version(env: &TestEnv) -> String {
    let v = env.tmux_ok(&["-V"]);
    v.trim().trim_start_matches("tmux ").to_string()
}

/// Whether this tmux reports a program's request for bracketed paste
/// (`bracket_paste_flag`, tmux 3.7 and later).
fn tmux_reports_paste_requests(env: &TestEnv, pane: &str) -> bool {
    !env.tmux_ok(&["display-message", "-p", "-t", pane, "#{bracket_paste_flag}"])
        .trim()
        .is_empty()
}

#[test]
fn a_program_that_reads_without_echo_gets_its_prompt_once() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (_pane, log) = reader(&env, "agent", 0.0, "noecho");
    let out = env.run(["send", "agent", "echo first-try"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(wait_for_pastes(&log, 1), ["echo first-try"]);
}

#[test]
fn a_line_mode_reader_gets_one_line_and_each_line_with_lines() {
    let env = TestEnv::new();
    let got = env.path("got.txt");
    let pane = env.spawn("cat", &format!("cat > '{}'", got.display()));
    let out = env.run(["send", "cat", "- a reply that starts with a dash"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let out = env.run(["send", "--wait", "1", "cat", "two\nlines"]);
    assert_eq!(exit_of(&out), Exit::NotReady, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost send: 'cat' ({pane}) reads lines in the terminal's line mode and never asks for a bracketed paste, so TEXT of more than one line would not arrive as one prompt; nothing was typed\n\
             send each line as its own submission with --lines, or TEXT as one line\n"
        )
    );
    let out = env.run(["send", "--lines", "cat", "two\nlines"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let want = "- a reply that starts with a dash\ntwo\nlines\n";
    let ok = wait_until(Duration::from_secs(10), || {
        std::fs::read_to_string(&got).unwrap_or_default() == want
    });
    assert!(ok, "{:?}", std::fs::read_to_string(&got));
}

#[test]
fn words_after_target_are_text_and_a_lone_dash_reads_stdin() {
    let env = TestEnv::new();
    let got = env.path("got.txt");
    env.spawn("cat", &format!("cat > '{}'", got.display()));
    let out = env.run(["send", "cat", "--force", "-v", "--wait", "5"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let out = env
        .cmd(["send", "cat", "-"])
        .write_stdin("- from standard input\n")
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let want = "--force -v --wait 5\n- from standard input\n";
    let ok = wait_until(Duration::from_secs(10), || {
        std::fs::read_to_string(&got).unwrap_or_default() == want
    });
    assert!(ok, "{:?}", std::fs::read_to_string(&got));
}

#[test]
fn where_a_prompt_hook_is_wired_only_its_report_counts() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 0.0, "hook");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@roost-hooked", "stand-in"]);
    let text = "first prompt\nwith a second line";
    let out = env.run(["send", "--paste", "agent", text]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(wait_for_pastes(&log, 1), [text]);

    let (pane, _log) = reader(&env, "silent", 0.0, "echo");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@roost-hooked", "stand-in"]);
    let out = env.run(["send", "silent", "nobody reports this"]);
    assert_eq!(exit_of(&out), Exit::NotConfirmed, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost send: the text and Enter were typed into 'silent' ({pane}), but its agent's prompt hook did not report it within 15s\n\
             do not send it again: look at the pane (roost screen silent) first\n"
        )
    );
}

/// A pane option, empty when unset.
fn option(env: &TestEnv, pane: &str, name: &str) -> String {
    env.tmux_ok(&["show-options", "-pqv", "-t", pane, name])
        .trim_end()
        .to_string()
}

/// prompt_key as roost computes it (FNV-1a, 64 bits).
fn key(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.trim().bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// An agent's start hook marks the pane while send waits for the program
/// to read: the first prompt then counts only once the prompt hook
/// reports it (a second after its Enter), not as soon as it was read.
#[test]
fn a_pane_marked_hooked_while_send_waits_counts_the_prompt_hook_report() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 1.0, "starthook");
    let text = "right after spawn";
    let out = env.run(["send", "agent", text]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(option(&env, &pane, "@roost-prompt-seen"), key(text));
    assert_eq!(wait_for_pastes(&log, 1), [text]);
}

/// An agent spawned by name whose prompt hook roost's wiring runs (for this
/// roost) is marked hooked from the start: its first prompt, sent before it
/// reported anything (opencode reports nothing before one), counts only
/// once the hook reports it. codex's installed hooks run only once a
/// person trusts them, and hooks not installed never run: no mark.
#[test]
fn an_agent_spawned_with_its_hooks_installed_is_hook_confirmed_from_its_first_prompt() {
    if !have_python() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let bin = env.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in ["opencode", "claude", "codex"] {
        let log = env.path(&format!("{name}.log"));
        let fake = bin.join(name);
        std::fs::write(
            &fake,
            format!(
                "#!/bin/sh\nexec '{READER}' '{}' 0 latehook\n",
                log.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let roost = |args: &[&str]| {
        let out = env.roost(args).env("PATH", &path).output().unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    roost(&["hooks", "install", "opencode"]);
    roost(&["hooks", "install", "codex"]);
    let oc = roost(&["spawn", "oc", "opencode"]);
    assert_eq!(option(&env, &oc, "@roost-hooked"), "opencode");
    for name in ["claude", "codex"] {
        let pane = roost(&["spawn", name, name]);
        assert_eq!(option(&env, &pane, "@roost-hooked"), "", "{name}");
    }
    let text = "the first prompt";
    roost(&["send", "oc", text]);
    assert_eq!(option(&env, &oc, "@roost-prompt-seen"), key(text));
    assert_eq!(wait_for_pastes(&env.path("opencode.log"), 1), [text]);
}

#[test]
fn when_idle_waits_until_the_agent_is_neither_working_nor_blocked() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 0.0, "echo");
    let stamp = |state: &str| {
        env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", state]);
    };
    stamp("working");
    let sender = env
        .roost(["send", "--when-idle", "agent", "after the turn"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    assert_eq!(std::fs::read(&log).unwrap(), b"", "typed while working");
    stamp("blocked");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(std::fs::read(&log).unwrap(), b"", "typed into a dialog");
    stamp("done");
    let out = sender.wait_with_output().unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(wait_for_pastes(&log, 1), ["after the turn"]);
}

#[test]
fn a_hidden_prompt_of_the_terminal_gets_its_line_once() {
    let env = TestEnv::new();
    let got = env.path("got.txt");
    let pane = env.spawn(
        "secret",
        &format!(
            "stty -echo; echo 'password:'; read -r p; printf '%s|\\n' \"$p\" > '{}'; sleep 100",
            got.display()
        ),
    );
    env.wait_for_screen(&pane, "password:");
    let out = env.run(["send", "secret", "hunter2"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    // The shell makes the file before printf fills it: wait for the line.
    let line = || std::fs::read_to_string(&got).unwrap_or_default();
    let ok = wait_until(Duration::from_secs(10), || line().ends_with('\n'));
    assert!(ok, "nothing read: {:?}", line());
    assert_eq!(line(), "hunter2|\n");
}

#[test]
fn a_program_that_reads_nothing_is_no_success() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, _log) = reader(&env, "ticker", 0.0, "ticks");
    let out = env.run(["send", "ticker", "are you there"]);
    assert_eq!(exit_of(&out), Exit::TypedNotSubmitted, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost send: the text was typed into 'ticker' ({pane}) but its program did not take it within 3s, so Enter was not pressed\n\
             do not send it again: look at the pane (roost screen ticker), then press Enter there or clear the line\n"
        )
    );
}

#[test]
fn text_after_target_and_a_double_dash_is_text_even_with_dashes() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 0.0, "echo");
    for args in [
        &["send", "agent", "--", "-v is verbose"][..],
        &["send", "--", "agent", "--force is text here"],
        &["send", "--wait", "5", &pane, "--", "--"],
    ] {
        let out = env.run(args);
        assert_eq!(exit_of(&out), Exit::Ok, "{args:?}: {}", describe(&out));
    }
    assert_eq!(
        wait_for_pastes(&log, 3),
        ["-v is verbose", "--force is text here", "--"]
    );
    let out = env.run(["send", "--wait", "soon", "agent", "x"]);
    assert_eq!(exit_of(&out), Exit::Usage, "{}", describe(&out));
    assert_eq!(
        stderr(&out).lines().next(),
        Some("roost send: --wait must be a positive whole number, not 'soon'")
    );
    let out = env.run(["send", "%99", "x"]);
    assert_eq!(exit_of(&out), Exit::NoTarget, "{}", describe(&out));
    assert_eq!(stderr(&out), "roost send: no such target '%99'\n");
}

#[test]
fn a_prompt_sent_to_vim_right_after_spawn_is_text_never_commands() {
    if !on_path("vim") {
        skip_without("vim is not installed");
        return;
    }
    let env = TestEnv::new();
    let file = env.path("buffer.txt");
    // Started by a wrapper: whatever is typed before vim runs, the
    // terminal echoes, and vim then reads as keys.
    let pane = env.spawn(
        "vim",
        &format!("sleep 0.5; exec vim -u NONE -N '{}'", file.display()),
    );
    let pane = pane.as_str();
    // Typed as keys in normal mode, these would insert, delete and quit.
    let out = env.run(["send", "vim", "ia line dd"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let out = env.run(["send", "--paste", "vim", "hello :q! dd\nworld ZZ"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    env.tmux_ok(&["send-keys", "-t", pane, "Escape", ":wq", "Enter"]);
    let written = || std::fs::read_to_string(&file).unwrap_or_default();
    let ok = wait_until(Duration::from_secs(10), || written().ends_with('\n'));
    assert!(ok, "vim never wrote its buffer: {}", env.screen(pane));
    // Both pastes went in as text; Enter in normal mode moves nothing on a
    // one-line buffer, so the second paste follows the first.
    assert_eq!(written(), "ia line ddhello :q! dd\nworld ZZ\n");
}

#[test]
fn copy_mode_entered_again_just_before_the_paste_cannot_split_it() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "agent", 0.0, "echo");
    // Copy mode entered between roost's look at the pane and its paste, as
    // one scroll of the wheel at the wrong moment does: the paste's buffer
    // is loaded just before it, and this hook runs right then.
    env.tmux_ok(&[
        "set-hook",
        "-g",
        "after-load-buffer",
        &format!("copy-mode -t {pane}"),
    ]);
    let text = "first line\nsecond line\nthird line";
    let out = env.run(["send", "--paste", "agent", text]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(wait_for_pastes(&log, 1), [text]);
}

#[test]
fn with_lines_a_blank_line_is_an_enter_alone_for_the_python_repl() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let pane = env.spawn("py", "python3 -q -i");
    env.wait_for_screen(&pane, ">>>");
    // The REPL ends a block at a blank line; each line is its own submission.
    let text = "def answer():\n    return 41 + 1\n\nprint('the answer is', answer())";
    let out = env.run(["send", "--lines", "py", text]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    env.wait_for_screen(&pane, "the answer is 42");
}

#[test]
fn lines_that_stop_part_way_say_which_were_submitted() {
    let env = TestEnv::new();
    let got = env.path("got.txt");
    let pane = env.spawn(
        "once",
        &format!("read line; echo \"$line\" > '{}'; sleep 60", got.display()),
    );
    let out = env.run(["send", "--lines", "--wait", "1", "once", "first\nsecond"]);
    assert_eq!(exit_of(&out), Exit::NotReady, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost send: 'once' ({pane}) is not reading its terminal (busy, or still starting) after 1s; nothing was typed (line 2 of 2; line 1 was submitted)\n\
             wait for it (roost wait-done once), or give it longer with --wait SECONDS\n"
        )
    );
    assert_eq!(std::fs::read_to_string(&got).unwrap(), "first\n");
}

#[test]
fn copy_mode_entered_during_the_wait_does_not_hide_the_paste_request() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    // Still starting for a second, then asks for bracketed paste.
    let (pane, log) = reader(&env, "agent", 1.0, "echo");
    let text = "first line\nsecond line";
    let sender = env
        .roost(["send", "--paste", "--wait", "5", "agent", text])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // One scroll of the wheel while send waits for the program.
    std::thread::sleep(Duration::from_millis(300));
    env.tmux_ok(&["copy-mode", "-t", &pane]);
    let out = sender.wait_with_output().unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(wait_for_pastes(&log, 1), [text]);
}

#[test]
fn several_lines_to_the_python_repl_are_one_paste_where_it_asked_else_refused() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let pane = env.spawn("py", "python3 -q -i");
    env.wait_for_screen(&pane, ">>>");
    // One submission holding two statements is a SyntaxError; two
    // submissions would print both words.
    let asked = env
        .tmux_ok(&[
            "display-message",
            "-p",
            "-t",
            &pane,
            "#{bracket_paste_flag}",
        ])
        .trim()
        == "1";
    let out = env.run(["send", "--wait", "2", "py", "print('one')\nprint('two')"]);
    if asked {
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        env.wait_for_screen(&pane, "SyntaxError");
    } else {
        assert_eq!(exit_of(&out), Exit::NotReady, "{}", describe(&out));
        std::thread::sleep(Duration::from_millis(300));
    }
    let screen = env.screen(&pane);
    assert!(
        !screen.lines().any(|l| l == "one" || l == "two"),
        "{screen}"
    );
}

/// An io error reaches the user in words, without std's `(os error N)`:
/// standard input that is a directory cannot be read.
#[test]
fn send_names_an_unreadable_stdin_in_words() {
    let env = TestEnv::new();
    let out = env
        .roost(["send", "alice", "-"])
        .stdin(std::fs::File::open(env.path("work")).unwrap())
        .output()
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Failed, "{}", describe(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "roost send: cannot read standard input: Is a directory\n"
    );
}

/// A shell takes a command line and hands the terminal to the command it
/// runs: the job at the terminal is then another one, which has read less
/// of anything than the shell had. The line was taken all the same: a
/// command that runs on (`sleep`, `cargo test`) is delivered, at once.
#[test]
fn a_command_line_that_runs_on_is_taken_once_the_shell_runs_it() {
    if !on_path("bash") {
        skip_without("bash is not installed");
        return;
    }
    let env = TestEnv::new();
    let shells: Vec<String> = (1..=6)
        .map(|i| env.spawn(&format!("b{i}"), "bash"))
        .collect();
    for pane in &shells {
        let ok = wait_until(Duration::from_secs(10), || {
            !env.screen(pane).trim().is_empty()
        });
        assert!(ok, "bash never showed its prompt");
    }
    for pane in &shells {
        let started = Instant::now();
        let out = env.run(["send", pane, "sleep 5"]);
        assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "took {:?}",
            started.elapsed()
        );
        let command = || {
            env.tmux_ok(&[
                "display-message",
                "-p",
                "-t",
                pane,
                "#{pane_current_command}",
            ])
        };
        assert!(
            wait_until(Duration::from_secs(4), || command().trim() == "sleep"),
            "the line never ran: {}",
            command()
        );
    }
}

/// The same, without the race a real shell leaves (it hands the terminal
/// on a moment after it read the Enter, by when roost may have seen the
/// read): a program that hands it to a job made beforehand, at once.
#[test]
fn an_enter_read_by_a_new_job_at_the_terminal_was_taken() {
    if !have_python() {
        return;
    }
    let env = TestEnv::new();
    let (pane, log) = reader(&env, "shell", 0.0, "handoff");
    let started = Instant::now();
    let out = env.run(["send", "shell", "sleep 5"]);
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    env.wait_for_screen(&pane, "running");
    assert_eq!(pastes(&log), ["sleep 5"]);
}

/// A program that reads lines in the terminal's line mode and never asked
/// for a bracketed paste cannot take text of several lines as one prompt,
/// nor a line longer than the terminal holds: refused at once (not after
/// all of --wait), and a line too long is said to be too long for it at
/// all, with or without --lines. A line of 4095 bytes is the most it takes.
#[test]
fn a_line_mode_program_is_refused_at_once_what_cannot_reach_it() {
    let env = TestEnv::new();
    let got = env.path("got.txt");
    let pane = env.spawn("cat", &format!("cat > '{}'", got.display()));
    env.ok(["send", "cat", "first"]);
    let refused = |args: &[&str]| {
        let started = Instant::now();
        let out = env.run(args);
        let took = started.elapsed();
        assert_eq!(exit_of(&out), Exit::NotReady, "{}", describe(&out));
        assert!(took < Duration::from_secs(5), "refused after {took:?}");
        stderr(&out)
    };
    assert_eq!(
        refused(&["send", "--wait", "20", "cat", "two\nlines"]),
        format!(
            "roost send: 'cat' ({pane}) reads lines in the terminal's line mode and never asks for a bracketed paste, so TEXT of more than one line would not arrive as one prompt; nothing was typed\n\
             send each line as its own submission with --lines, or TEXT as one line\n"
        )
    );
    let long = "y".repeat(5000);
    let too_long = format!(
        "roost send: 'cat' ({pane}) reads lines in the terminal's line mode, which takes at most 4095 bytes in one line: a line of 5000 bytes cannot reach it at all; nothing was typed\n\
         split it into shorter lines (--lines submits each on its own)\n"
    );
    assert_eq!(refused(&["send", "--wait", "20", "cat", &long]), too_long);
    // With --lines, the line too long is found before any line is typed.
    let lines = format!("short\n{long}");
    assert_eq!(
        refused(&["send", "--lines", "--wait", "20", "cat", &lines]),
        too_long.replace(
            "a line of 5000 bytes cannot",
            "line 2 of 2 is 5000 bytes and cannot"
        )
    );
    let most = "z".repeat(4095);
    env.ok(["send", "cat", &most]);
    let want = format!("first\n{most}\n");
    let ok = wait_until(Duration::from_secs(10), || {
        std::fs::read_to_string(&got).unwrap_or_default() == want
    });
    assert!(ok, "{:?}", std::fs::read_to_string(&got).map(|s| s.len()));
}

/// `--when-idle` on a pane that stays blocked says it was still blocked
/// when the time ran out, and does not recommend --when-idle.
#[test]
fn when_idle_that_runs_out_says_the_pane_was_still_blocked() {
    let env = TestEnv::new();
    let pane = env.spawn("agent", "cat");
    env.tmux_ok(&["set-option", "-p", "-t", &pane, "@agent_state", "blocked"]);
    let started = Instant::now();
    let out = env.run(["send", "--when-idle", "--wait", "1", "agent", "hello"]);
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(exit_of(&out), Exit::Blocked, "{}", describe(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "roost send: 'agent' ({pane}) was still blocked after 1s: it is waiting for a person; nothing was typed\n\
             answer it there first (roost screen agent shows it), or send anyway with --force\n"
        )
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!env.screen(&pane).contains("hello"), "text was delivered");
}
