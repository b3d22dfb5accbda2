//! Colour where roost uses it (status's state column, the consent block's
//! warnings, update's diff): on a terminal only, never with NO_COLOR set or
//! TERM=dumb, never to a pipe, and never an escape of the text shown.

use crate::common::*;

/// The SGR codes roost writes, and the progress line's erase.
const OURS: &[&str] = &["[31m", "[32m", "[33m", "[36m", "[1m", "[m", "[K"];

/// Every ESC in `text` starts one of roost's own sequences.
fn only_our_escapes(text: &str) {
    for (at, _) in text.match_indices('\x1b') {
        let rest = &text[at + 1..];
        assert!(
            OURS.iter().any(|o| rest.starts_with(o)),
            "a foreign escape at {at}: {text:?}"
        );
    }
}

/// No colour at all (the progress line's erase aside).
fn uncoloured(what: &str, text: &str) {
    let sgr = text
        .match_indices('\x1b')
        .any(|(at, _)| !text[at + 1..].starts_with("[K"));
    assert!(!sgr, "{what}: colour in {text:?}");
}

#[test]
fn status_colours_the_state_on_a_terminal_only() {
    let env = TestEnv::new();
    let alice = env.spawn("alice", "cat");
    let bob = env.spawn("bob", "cat");
    let carol = env.spawn("carol", "cat");
    for (pane, state) in [(&alice, "blocked"), (&bob, "done"), (&carol, "error")] {
        env.tmux_ok(&["set-option", "-p", "-t", pane, "@agent_state", state]);
    }
    let Some(out) = env.on_a_terminal("status", b"") else {
        return;
    };
    let text = stdout(&out);
    for coloured in [
        "[\x1b[33mblocked\x1b[m]",
        "[\x1b[32mdone\x1b[m]",
        "[\x1b[31merror\x1b[m]",
    ] {
        assert!(text.contains(coloured), "{coloured:?} in {text:?}");
    }
    only_our_escapes(&text);
    for vars in [&[("NO_COLOR", "1")], &[("TERM", "dumb")]] {
        let out = env.on_a_terminal_with("status", b"", vars).unwrap();
        let text = stdout(&out);
        assert!(text.contains("[blocked]"), "{vars:?}: {text:?}");
        uncoloured(&format!("{vars:?}"), &text);
    }
    // NO_COLOR set but empty does not count.
    let out = env
        .on_a_terminal_with("status", b"", &[("NO_COLOR", "")])
        .unwrap();
    assert!(
        stdout(&out).contains("\x1b[33mblocked"),
        "{}",
        describe(&out)
    );
    let piped = env.ok(["status"]);
    assert!(piped.contains("[blocked]"), "{piped}");
    uncoloured("a pipe", &piped);
}

#[test]
fn install_colours_the_consent_blocks_warnings_on_a_terminal_only() {
    let env = TestEnv::new();
    let f = env.ext_repo("owner/roost-mark");
    f.write(
        "roost-ext.json",
        r#"{"name": "mark", "contract": 1, "commands": ["mark"], "needs": ["fleet"], "roost": ">=99.0.0 <100.0.0"}"#,
    );
    f.exec("bin/roost-mark", "#!/bin/sh\necho mark\n");
    f.commit("first");
    let Some(out) = env.on_a_terminal_with(
        "ext install owner/roost-mark --yes --grant fleet",
        b"",
        &[("NO_COLOR", "1")],
    ) else {
        return;
    };
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let text = stdout(&out);
    assert!(text.contains("\nNote: it says"), "{text:?}");
    uncoloured("NO_COLOR=1", &text);
    assert!(env.ok(["ext", "remove", "mark"]).contains("mark"));
    let out = env
        .on_a_terminal("ext install owner/roost-mark --yes --grant fleet", b"")
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let text = stdout(&out);
    assert!(text.contains("  \x1b[33mwarn\x1b[m\r\n"), "{text:?}");
    assert!(text.contains("\n\x1b[33mNote:\x1b[m it says"), "{text:?}");
    assert!(
        text.contains("\x1b[33mThis extension asks to drive your agents. If you install it, the code\x1b[m\r\n"),
        "{text:?}"
    );
    only_our_escapes(&text);
}

#[test]
fn update_colours_its_diff_as_git_does_and_never_the_files_own_escapes() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    env.ok(["ext", "install", "owner/roost-note", "--yes"]);
    f.exec("bin/roost-note", "#!/bin/sh\necho '\x1b[2Jtwo'\n");
    f.commit("two");
    let piped = env.run(["ext", "update", "note", "--diff"]);
    let piped_text = stdout(&piped);
    assert!(piped_text.contains("+echo '\\x1b[2Jtwo'\n"), "{piped_text}");
    uncoloured("a pipe", &piped_text);
    // What roost writes, not what a pager adds: on a terminal the diff is
    // paged (with less when PAGER is unset).
    let cat = [("PAGER", "cat")];
    let Some(out) =
        env.on_a_terminal_with("ext update note --diff", b"", &[("NO_COLOR", "x"), cat[0]])
    else {
        return;
    };
    uncoloured("NO_COLOR=x", &stdout(&out));
    let out = env
        .on_a_terminal_with("ext update note --diff", b"", &cat)
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    let text = stdout(&out);
    for line in [
        "\x1b[1mdiff --git a/bin/roost-note b/bin/roost-note\x1b[m\r\n",
        "\x1b[36m@@ -1,4 +1,2 @@\x1b[m\r\n",
        " #!/bin/sh\r\n",
        "\x1b[31m-printf 'note'\x1b[m\r\n",
        "\x1b[32m+echo '\\x1b[2Jtwo'\x1b[m\r\n",
    ] {
        assert!(text.contains(line), "{line:?} in {text:?}");
    }
    only_our_escapes(&text);
}
