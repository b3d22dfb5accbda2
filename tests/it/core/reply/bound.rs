//! A reply is bounded and costs time linear in its size: `roost reply -`
//! keeps the first 1 MiB (never half a UTF-8 character), reads and drops
//! the rest, says so on stderr, and stores what it keeps in one tmux call.

use crate::common::*;

use std::time::Duration;

const MAX: usize = 1024 * 1024;

/// `roost reply -` as it runs inside `pane`, fed `input`.
fn reply_in(env: &TestEnv, pane: &str, input: &[u8]) -> Run {
    let mut cmd = env.roost(["reply", "-"]);
    cmd.env("TMUX", format!("{},1,0", env.socket_file().display()))
        .env("TMUX_PANE", pane);
    bounded_typed(cmd, Some(input), Duration::from_secs(60))
}

/// Text that needs escaping where tmux keeps it: `$`, `#`, `%`, quotes,
/// non-ASCII (two- and three-byte characters), TABs and newlines.
fn text_of(len: usize) -> Vec<u8> {
    let line = "a reply line with $HOME, #{x}, 100% 'q' \"q\" caf\u{e9} \u{6771}\u{4eac}\tend\n";
    line.as_bytes().iter().copied().cycle().take(len).collect()
}

#[test]
fn a_reply_of_20_mb_is_cut_to_its_first_mib_fast() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "cat");
    // The bound falls inside a three-byte character.
    let mut input = text_of(MAX - 1);
    input.extend_from_slice("\u{6771}".as_bytes());
    input.extend(text_of(20 * 1024 * 1024));
    let run = reply_in(&env, &pane, &input);
    assert_eq!(exit_of(&run.out), Exit::Ok, "{}", describe(&run.out));
    assert!(run.took < Duration::from_secs(5), "took {:?}", run.took);
    assert!(run.peak_kib < 64 * 1024, "peak {} KiB", run.peak_kib);
    // The cut is before the character.
    let mut kept = input[..MAX - 1].to_vec();
    assert!(std::str::from_utf8(&kept).is_ok());
    assert_eq!(
        stderr(&run.out),
        format!(
            "roost reply: the reply is {} bytes, more than the {MAX} (1 MiB) a reply keeps; its first {} bytes were recorded\n",
            input.len(),
            kept.len()
        )
    );
    while kept.last() == Some(&b'\n') {
        kept.pop();
    }
    kept.push(b'\n');
    let read = env.run(["read", "alice"]);
    assert_eq!(exit_of(&read), Exit::Ok, "{}", describe(&read));
    assert!(
        read.stdout == kept,
        "the kept reply differs from the first MiB"
    );
}

#[test]
fn a_reply_of_exactly_the_bound_is_kept_whole_and_quietly() {
    let env = TestEnv::new();
    let pane = env.spawn("alice", "cat");
    let mut input = b"x".repeat(MAX - 1);
    input.push(b'.');
    let run = reply_in(&env, &pane, &input);
    assert_eq!(exit_of(&run.out), Exit::Ok, "{}", describe(&run.out));
    assert_eq!(stderr(&run.out), "");
    assert!(run.took < Duration::from_secs(5), "took {:?}", run.took);
    let mut want = input.clone();
    want.push(b'\n');
    assert!(env.run(["read", "alice"]).stdout == want);
    // And one past it loses its last byte.
    input.push(b'!');
    let run = reply_in(&env, &pane, &input);
    assert!(stderr(&run.out).contains("its first 1048576 bytes were recorded"));
    assert!(env.run(["read", "alice"]).stdout == want);
}
