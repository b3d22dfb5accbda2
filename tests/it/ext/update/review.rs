//! `roost ext update` shows the change before it moves the pin: the diff as
//! git shows it, neutralised, capped, paged.

use crate::common::ext::{changed, install, installed, lock};
use crate::common::*;

#[test]
fn update_shows_the_change_and_moves_the_pin() {
    let env = TestEnv::new();
    let (f, old, new) = changed(&env);
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let text = stdout(&out);
    let head = format!(
        "note: {} -> {}\n\nchanged files:\n  A NEWS\n  D README\n  M bin/roost-note\n\n",
        old, new
    );
    assert!(text.starts_with(&head), "{text}");
    // The diff of each file is git's (from the hunk header on).
    let git = f.git(&[
        "diff",
        "--no-color",
        "--histogram",
        &old,
        &new,
        "--",
        "bin/roost-note",
    ]);
    let hunks = &git[git.find("@@").unwrap()..];
    assert!(
        text.contains(&format!(
            "diff --git a/bin/roost-note b/bin/roost-note\n--- a/bin/roost-note\n+++ b/bin/roost-note\n{hunks}"
        )),
        "{text}\n--- git says\n{git}"
    );
    assert!(
        text.contains(
            "diff --git a/NEWS b/NEWS\nnew file mode 100644\n--- /dev/null\n+++ b/NEWS\n@@ -0,0 +1 @@\n+v2\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "diff --git a/README b/README\ndeleted file mode 100644\n--- a/README\n+++ /dev/null\n@@ -1 +0,0 @@\n-read me\n"
        ),
        "{text}"
    );
    assert!(text.contains("\nUpdate? [y/N] yes (--yes)\n"), "{text}");
    assert!(
        text.ends_with(&format!("updated note: {} -> {}\n", old, new)),
        "{text}"
    );
    let l = lock(&env);
    assert_eq!(l["note"]["commit"], new);
    assert_eq!(l["note"]["tree"], f.tree("HEAD"));
    assert_eq!(l["note"]["ref"], "HEAD");
    assert_eq!(env.ok(["note"]), "note v2\n");
    assert_eq!(env.ok(["ext", "verify", "note"]), "note: ok\n");
    // No temporary directory or set-aside clone is left behind.
    let left: Vec<_> = std::fs::read_dir(env.path("data/roost/ext"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("note")]);
}

#[test]
fn update_shows_mode_and_symlink_changes_as_git_does() {
    let env = TestEnv::new();
    let f = env.simple_ext("owner/roost-note", "note", &["note"], &[]);
    std::os::unix::fs::symlink("bin", f.work.join("link")).unwrap();
    f.write("tool", "a\n");
    let old = f.commit("link and tool");
    install(&env, "owner/roost-note");
    std::fs::remove_file(f.work.join("link")).unwrap();
    std::os::unix::fs::symlink("roost-ext.json", f.work.join("link")).unwrap();
    f.exec("tool", "a\n");
    let new = f.commit("retarget and chmod");
    let text = env.ok(["ext", "update", "note", "--yes"]);
    let git = f.git(&["diff", "--no-color", &old, &new]);
    // git's diff, less its `index` lines (roost does not print blob ids).
    let git: String = git
        .lines()
        .filter(|l| !l.starts_with("index "))
        .map(|l| format!("{l}\n"))
        .collect();
    let want = format!(
        "note: {} -> {}\n\nchanged files:\n  M link\n  T tool\n\n{git}\n",
        old, new
    );
    assert!(text.starts_with(&want), "{text}\n--- wanted\n{want}");
    assert_eq!(lock(&env)["note"]["tree"], f.tree("HEAD"));
    assert_eq!(env.ok(["ext", "verify"]), "note: ok\n");
}

#[test]
fn update_neutralises_control_characters_in_the_change() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    f.write(
        "evil.txt",
        "clear\u{1b}[2J here\nrtl \u{202e}txt.exe\nc1 \u{9b}31m\n",
    );
    f.write("name\u{1b}[1m.txt", "x\n");
    f.commit("controls");
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let bytes = &out.stdout;
    assert!(
        !bytes.contains(&0x1b),
        "raw ESC in {}",
        String::from_utf8_lossy(bytes)
    );
    let text = stdout(&out);
    for bad in ['\u{202e}', '\u{9b}'] {
        assert!(!text.contains(bad), "raw {bad:?} in {text}");
    }
    assert!(text.contains("+clear\\x1b[2J here\n"), "{text}");
    assert!(text.contains("+rtl \\u{202e}txt.exe\n"), "{text}");
    assert!(text.contains("  A name\\x1b[1m.txt\n"), "{text}");
    assert!(
        text.contains("diff --git a/name\\x1b[1m.txt b/name\\x1b[1m.txt\n"),
        "{text}"
    );
}

#[test]
fn update_caps_a_long_diff() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let big: String = (0..5000).map(|i| format!("line {i}\n")).collect();
    f.write("big.txt", &big);
    f.commit("big");
    let text = env.ok(["ext", "update", "note", "--yes"]);
    assert!(
        text.contains(
            "[diff cut at 2000 lines; not shown in full: big.txt; \
             `roost ext update note --diff` prints the whole diff]\n"
        ),
        "{}",
        &text[..2000]
    );
    assert!(!text.contains("+line 4999\n"));
}

/// What runs comes first under the cap, and the files it cut are named;
/// `--diff` prints all of it and changes nothing.
#[test]
fn update_shows_the_manifest_and_bin_before_the_cap_and_names_the_files_it_cut() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let old = f.head();
    let big: String = (0..3000).map(|i| format!("line {i}\n")).collect();
    // Both sort before bin/ by path.
    f.write("aaa.txt", &big);
    f.write("README", "read me\n");
    f.write("zzz.txt", "last\n");
    f.exec("bin/roost-note", "#!/bin/sh\necho changed\n");
    f.manifest("note", &["note"], &["fleet"]);
    f.commit("big, and a changed command");
    let out = env.run(["ext", "update", "note"]);
    exits(&out, Exit::Failed);
    let text = stdout(&out);
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("no {needle:?} in {text}"))
    };
    assert!(at("+++ b/roost-ext.json") < at("+echo changed\n"), "{text}");
    assert!(at("+echo changed\n") < at("+++ b/README"), "{text}");
    assert!(at("+++ b/README") < at("+++ b/aaa.txt"), "{text}");
    assert!(
        text.contains(
            "[diff cut at 2000 lines; not shown in full: aaa.txt, zzz.txt; \
             `roost ext update note --diff` prints the whole diff]\n"
        ),
        "{text}"
    );
    let before = crate::common::snapshot(&env);
    let whole = env.ok(["ext", "update", "note", "--diff"]);
    for line in [
        "+line 2999\n",
        "+++ b/zzz.txt\n",
        "+last\n",
        "+echo changed\n",
    ] {
        assert!(whole.contains(line), "{line:?} not in the whole diff");
    }
    assert!(!whole.contains("[diff cut") && !whole.contains("Update?"));
    assert!(whole.ends_with(
        "note: nothing was changed (--diff); roost ext update note asks before it does\n"
    ));
    assert_eq!(crate::common::snapshot(&env), before);
    assert_eq!(lock(&env)["note"]["commit"], old.as_str());
}

/// A pager of `less` gets LESS=FRX when LESS is unset, as git gives it: a
/// short diff stays on the screen for the question. A LESS of one's own
/// is passed on as it is.
#[test]
fn update_pages_with_less_told_to_leave_the_diff_on_screen() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let saw = env.path("pager-saw");
    let pager = env.write(
        "pager.sh",
        &format!(
            "#!/bin/sh\necho \"LESS=[$LESS]\" >> '{}'\ncat\n",
            saw.display()
        ),
    );
    std::fs::set_permissions(&pager, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let pager = pager.to_string_lossy().into_owned();
    f.exec("bin/roost-note", "#!/bin/sh\necho two\n");
    f.commit("two");
    let Some(out) =
        env.on_a_terminal_with("ext update note --yes", b"", &[("PAGER", pager.as_str())])
    else {
        return;
    };
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(stdout(&out).contains("+echo two"), "{}", describe(&out));
    assert_eq!(env.read("pager-saw"), "LESS=[FRX]\n");
    f.exec("bin/roost-note", "#!/bin/sh\necho three\n");
    f.commit("three");
    let out = env
        .on_a_terminal_with(
            "ext update note --yes",
            b"",
            &[("PAGER", pager.as_str()), ("LESS", "-S")],
        )
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert_eq!(env.read("pager-saw"), "LESS=[FRX]\nLESS=[-S]\n");
}

/// With PAGER unset, the diff on a terminal goes through `less`, as git
/// pages it, with LESS=FRX; with no `less` either, it is printed as it is.
#[test]
fn update_pages_with_less_when_pager_is_unset() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // A `less` first on PATH that says it ran, and with what, then shows
    // what it was given; beside it only what the run needs (script(1) for
    // the terminal, git-upload-pack for the fetch).
    let bin = env.path("pager-bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["git-upload-pack", "script"] {
        let Some(found) = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|dir| dir.join(tool))
            .find(|p| p.is_file())
        else {
            skip_without(&format!("{tool} is not installed"));
            return;
        };
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    let saw = env.path("less-saw");
    let less = bin.join("less");
    std::fs::write(
        &less,
        format!(
            "#!/bin/sh\necho \"LESS=[$LESS] args=[$*]\" >> '{}'\nexec /bin/cat\n",
            saw.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&less, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = bin.to_string_lossy().into_owned();
    f.exec("bin/roost-note", "#!/bin/sh\necho two\n");
    f.commit("two");
    let Some(out) = env.on_a_terminal_with("ext update note --yes", b"", &[("PATH", &path)]) else {
        return;
    };
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(stdout(&out).contains("+echo two"), "{}", describe(&out));
    assert_eq!(env.read("less-saw"), "LESS=[FRX] args=[]\n");
    // No `less`: the diff is printed all the same.
    std::fs::remove_file(&less).unwrap();
    f.exec("bin/roost-note", "#!/bin/sh\necho three\n");
    f.commit("three");
    let out = env
        .on_a_terminal_with("ext update note --yes", b"", &[("PATH", &path)])
        .unwrap();
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(stdout(&out).contains("+echo three"), "{}", describe(&out));
    assert_eq!(env.read("less-saw"), "LESS=[FRX] args=[]\n");
}

/// A pager quit before it has read the whole diff (`q` in less) is no
/// reason for roost to die of SIGPIPE: the question still comes, and the
/// answer still counts.
#[test]
fn a_pager_quit_early_leaves_the_update_to_go_on() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    // More than a pipe holds, so the pager's end is met while writing.
    let long: String = (0..1900)
        .map(|i| format!("line {i} of a long file, {}\n", "x".repeat(80)))
        .collect();
    f.write("LONG", &long);
    f.commit("long");
    let Some(out) = env.on_a_terminal_with("ext update note --yes", b"", &[("PAGER", "/bin/true")])
    else {
        return;
    };
    assert_eq!(exit_of(&out), Exit::Ok, "{}", describe(&out));
    assert!(
        stdout(&out).contains("updated note: "),
        "{}",
        describe(&out)
    );
    assert_eq!(lock(&env)["note"]["commit"], f.head());
}

#[test]
fn update_caps_a_diff_of_one_huge_line() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    f.write("min.js", &"x".repeat(2 << 20));
    f.commit("minified");
    let out = env.run(["ext", "update", "note", "--yes"]);
    assert_eq!(exits(&out, Exit::Ok), "");
    let text = stdout(&out);
    assert!(text.len() < 512 * 1024, "{} bytes", text.len());
    assert!(
        text.contains("+++ b/min.js\n"),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert!(
        text.contains("[diff cut at "),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert_eq!(lock(&env)["note"]["commit"], f.head());
}

/// An update that changes a file larger than roost diffs (a 6 MiB text
/// file) names it instead of diffing it, and many changed files past the
/// cap are counted, not diffed: the update stays fast and small.
#[test]
fn update_names_a_file_too_large_to_diff_and_stops_diffing_past_the_cap() {
    let env = TestEnv::new();
    let f = installed(&env, "owner/roost-note", "note", &["note"], &[]);
    let big: String = (0..700_000).map(|i| format!("l{i}\n")).collect();
    assert!(big.len() > 4 << 20);
    f.write("big.txt", &big);
    for i in 0..300 {
        f.write(
            &format!("many/{i:03}.txt"),
            &(0..20).map(|j| format!("{i} {j}\n")).collect::<String>(),
        );
    }
    f.commit("big and many");
    let run = bounded(
        env.roost(["ext", "update", "note", "--yes"]),
        std::time::Duration::from_secs(60),
    );
    assert_eq!(exits(&run.out, Exit::Ok), "");
    let text = stdout(&run.out);
    assert!(
        text.contains(&format!(
            "diff --git a/big.txt b/big.txt\nnew file mode 100644\n(a file of {:.1} MiB: larger than the 4.0 MiB roost diffs; compare it yourself)\n",
            big.len() as f64 / (1 << 20) as f64
        )),
        "{}",
        &text[..text.len().min(3000)]
    );
    assert!(
        text.contains(", and 211 more; `roost ext update note --diff` prints the whole diff]\n"),
        "{}",
        &text[text.len().saturating_sub(3000)..]
    );
    assert!(run.peak_kib < 128 * 1024, "peak {} KiB", run.peak_kib);
    assert_eq!(lock(&env)["note"]["commit"], f.head());
}
