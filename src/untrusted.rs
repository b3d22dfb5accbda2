//! Printing text roost did not write (manifests, lock and index fields, git
//! messages, and the fleet's names, states, replies and screens): control characters, line and paragraph separators, direction
//! controls and invisible characters become visible escapes, so nothing
//! printed can repaint the terminal, forge a line or hide a word.

/// Text from outside roost (a name a pane gave itself, what a server or a
/// program said), kept as it came. It has no `Display`: it reaches people
/// only through `shown` or `for_people`, which escape what would act on a
/// terminal, so printing it raw does not compile. `raw` gives it as it is,
/// to pass on (to tmux, a file, a JSON string) or to compare.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Outside(String);

impl Outside {
    pub fn new(text: impl Into<String>) -> Outside {
        Outside(text.into())
    }

    /// The text as it came: never for a terminal.
    pub fn raw(&self) -> &str {
        &self.0
    }

    /// The text fit for a terminal (`printable`).
    pub fn shown(&self) -> String {
        printable(self.0.as_bytes())
    }

    /// The text fit for a person's terminal in its locale (`for_people`).
    pub fn for_people(&self) -> String {
        for_people(self.0.as_bytes())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl From<&str> for Outside {
    fn from(text: &str) -> Outside {
        Outside::new(text)
    }
}

impl From<String> for Outside {
    fn from(text: String) -> Outside {
        Outside(text)
    }
}

impl PartialEq<str> for Outside {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Outside {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for Outside {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

/// As a JSON string, byte for byte (`json` escapes what a terminal would act on).
impl serde::Serialize for Outside {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// `bytes` as printable text: C0, DEL, C1 and every character `hidden`
/// names escaped as `\xNN` or `\u{NNNN}`, invalid UTF-8 as `\xNN`.
pub fn printable(bytes: &[u8]) -> String {
    escaped(bytes, false, false)
}

/// A path as it may be printed: its directories' names are whatever bytes
/// someone gave them.
pub fn path(p: &std::path::Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    printable(p.as_os_str().as_bytes())
}

/// `printable`, keeping newlines and TABs: for text of many lines (an
/// agent's reply, a screen) shown on a terminal.
pub fn printable_lines(bytes: &[u8]) -> String {
    escaped(bytes, true, false)
}

/// `printable`, with every character outside ASCII escaped too: for a
/// terminal whose locale is not UTF-8.
pub fn printable_ascii(bytes: &[u8]) -> String {
    escaped(bytes, false, true)
}

/// `printable` where the locale is UTF-8, `printable_ascii` elsewhere: a
/// name shown to people in a line of their own language's text.
pub fn for_people(bytes: &[u8]) -> String {
    if crate::locale::is_utf8() {
        printable(bytes)
    } else {
        printable_ascii(bytes)
    }
}

fn escaped(bytes: &[u8], lines: bool, ascii: bool) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let kept = lines && (c == '\n' || c == '\t');
            if !kept && (c.is_control() || hidden(c) || (ascii && !c.is_ascii())) {
                if (c as u32) < 0x100 {
                    out.push_str(&format!("\\x{:02x}", c as u32));
                } else {
                    out.push_str(&format!("\\u{{{:04x}}}", c as u32));
                }
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// `text` as one word of a command line a person may copy into a POSIX
/// shell: as it is when every character is plainly part of a word
/// (`alice`, `%3`, `main:1.0`), else in single quotes (a quote inside as
/// `'\''`); and printable, so a name holding an escape cannot act on the
/// terminal (such a name is then shown, not copied whole).
pub fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && !text.starts_with(['-', '~', '#', '='])
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "%@_+:,./-=".contains(c));
    if plain {
        return text.to_string();
    }
    printable(format!("'{}'", text.replace('\'', "'\\''")).as_bytes())
}

/// Pretty JSON that is safe to print and means the same to a JSON reader:
/// serde_json escapes C0 inside strings; DEL, C1 and bidi controls (only
/// ever inside strings) become `\uXXXX` too. Keys come out sorted at every
/// depth, whatever order a type declares its fields in: `v` goes through a
/// `serde_json::Value`, whose maps are `BTreeMap`s.
pub fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    let value = serde_json::to_value(v).unwrap_or_default();
    neutral_json(&serde_json::to_string_pretty(&value).unwrap_or_default())
}

/// `json` on one line: for output read a line at a time (JSON lines).
pub fn json_line<T: serde::Serialize + ?Sized>(v: &T) -> String {
    let value = serde_json::to_value(v).unwrap_or_default();
    neutral_json(&serde_json::to_string(&value).unwrap_or_default())
}

/// JSON text with every control or hidden character but the newline
/// written as its escape (inside a string, where alone they can stand).
fn neutral_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\n' || !(c.is_control() || hidden(c)) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{:04x}", c as u32));
        }
    }
    out
}

/// Characters that move or hide text rather than show it: the line and
/// paragraph separators (a terminal may break the line there), direction
/// controls (they reorder what follows), and the invisible ones (zero-width
/// spaces and joiners, word joiner, invisible operators, the byte-order
/// mark, soft hyphen, Mongolian vowel separator, interlinear annotations).
fn hidden(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{061c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
    )
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn json_sorts_the_keys_of_a_type_at_every_depth() {
        #[derive(serde::Serialize)]
        struct Inner {
            zed: u8,
            alpha: Option<u8>,
        }
        #[derive(serde::Serialize)]
        struct Outer {
            z: Inner,
            a: &'static str,
        }
        let v = Outer {
            z: Inner {
                zed: 1,
                alpha: None,
            },
            a: "\u{1b}",
        };
        assert_eq!(
            super::json(&v),
            "{\n  \"a\": \"\\u001b\",\n  \"z\": {\n    \"alpha\": null,\n    \"zed\": 1\n  }\n}"
        );
    }

    #[test]
    fn a_shell_word_is_plain_or_single_quoted_and_printable() {
        use super::shell_word;
        for plain in ["alice", "%3", "@2", "main:1.0", "my-agent_2"] {
            assert_eq!(shell_word(plain), plain);
        }
        assert_eq!(shell_word("my agent"), "'my agent'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word("$(x)"), "'$(x)'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("-x"), "'-x'");
        assert_eq!(shell_word("a\u{1b}[2J"), "'a\\x1b[2J'");
    }

    #[test]
    fn controls_are_escaped_and_text_is_kept() {
        assert_eq!(printable(b"plain text-1.0"), "plain text-1.0");
        assert_eq!(printable(b"a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(printable(b"tab\there\nnl\x7f"), "tab\\x09here\\x0anl\\x7f");
        assert_eq!(printable("c1\u{9b}31m".as_bytes()), "c1\\x9b31m");
        assert_eq!(printable("evil\u{202e}txt".as_bytes()), "evil\\u{202e}txt");
        assert_eq!(printable(b"bad\xffutf8"), "bad\\xffutf8");
        assert_eq!(
            printable("caf\u{e9} \u{2014}".as_bytes()),
            "caf\u{e9} \u{2014}"
        );
    }

    #[test]
    fn lines_keep_newlines_and_tabs_and_ascii_escapes_the_rest() {
        assert_eq!(
            super::printable_lines(b"one\ttwo\nthree\x1b]52;c;eA==\x07\r"),
            "one\ttwo\nthree\\x1b]52;c;eA==\\x07\\x0d"
        );
        assert_eq!(
            super::printable_ascii("caf\u{e9} \u{2014}\u{202e}".as_bytes()),
            "caf\\xe9 \\u{2014}\\u{202e}"
        );
    }

    #[test]
    fn separators_and_invisible_characters_are_escaped() {
        assert_eq!(
            printable(">=1.0.0\u{2028}needs  none".as_bytes()),
            ">=1.0.0\\u{2028}needs  none"
        );
        assert_eq!(printable("a\u{2029}b".as_bytes()), "a\\u{2029}b");
        assert_eq!(printable("ro\u{200b}ost".as_bytes()), "ro\\u{200b}ost");
        assert_eq!(
            printable("x\u{200d}\u{2060}\u{feff}\u{ad}".as_bytes()),
            "x\\u{200d}\\u{2060}\\u{feff}\\xad"
        );
        for c in [
            '\u{2028}', '\u{2029}', '\u{200b}', '\u{2066}', '\u{202e}', '\u{061c}',
        ] {
            assert!(!printable(c.to_string().as_bytes()).contains(c), "{c:?}");
            assert!(!super::json(&c.to_string()).contains(c), "{c:?}");
        }
    }
}
