//! Text an agent, a checkout or a server could hand roost to make a
//! terminal act (an OSC title, a screen clear, colours, an OSC 52 clipboard
//! write, a C1 CSI, bidi overrides and isolates, a line separator, a
//! zero-width space), and the check that none of it reached a terminal raw.

/// An OSC 0 title, a screen clear, a colour, hidden text, an OSC 52
/// clipboard write, a C1 CSI, a bidi override and isolate, a line
/// separator and a zero-width space.
pub const EVIL: &str = "a\u{1b}]0;title\u{7}b\u{1b}[2Jc\u{1b}[31md\u{1b}[8me\u{1b}]52;c;aGk=\u{7}f\u{9b}g\u{202e}h\u{2066}i\u{2028}j\u{200b}k";

/// The raw bytes that must never reach a terminal.
pub const RAW: &[&[u8]] = &[
    b"\x1b",
    b"\x07",
    b"\xc2\x9b",
    b"\xe2\x80\xae",
    b"\xe2\x81\xa6",
    b"\xe2\x80\xa8",
    b"\xe2\x80\x8b",
];

/// What roost itself writes to a terminal that acts on it: its colours
/// (src/colour.rs) and the progress line's return and erase
/// (src/ext/git/progress.rs). Nothing else of it may.
pub const ROOST_OWN: &[&[u8]] = &[
    b"\x1b[31m",
    b"\x1b[32m",
    b"\x1b[33m",
    b"\x1b[36m",
    b"\x1b[1m",
    b"\x1b[m",
    b"\x1b[K",
];

pub fn holds(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// `bytes` without roost's own sequences.
pub fn without_roost_own(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    'outer: while i < bytes.len() {
        for own in ROOST_OWN {
            if bytes[i..].starts_with(own) {
                i += own.len();
                continue 'outer;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

pub fn assert_no_raw(what: &str, bytes: &[u8]) {
    for raw in RAW {
        assert!(
            !holds(bytes, raw),
            "{what}: raw {raw:x?} in {:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

/// Runs the tmux `command NAME`; where tmux refuses the name (3.8 and
/// later refuse C0 controls in names), NAME without them, which tmux takes.
pub fn named(env: &super::TestEnv, command: &[&str], name: &str) {
    let mut words = command.to_vec();
    words.push(name);
    let out = env.tmux(&words);
    if out.status.success() {
        return;
    }
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("invalid "), "{words:?}: {err}");
    let kept: String = name.chars().filter(|c| !c.is_ascii_control()).collect();
    words.pop();
    words.push(&kept);
    env.tmux_ok(&words);
}
