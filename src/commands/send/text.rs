//! What `send` types: TEXT with every control character that could end the
//! paste or act as a key made visible, its shape (what a terminal's line
//! mode can take of it), and the piece of it that shows the text arrived
//! on the pane's screen.

/// The longest line a terminal in canonical mode takes whole: Linux's
/// N_TTY buffer holds 4096 bytes, the newline included; a longer line is
/// cut there.
pub const MAX_LINE: usize = 4095;

/// What matters of TEXT to a program that reads its terminal: how many
/// lines it has, and how long its longest is, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub lines: usize,
    pub longest: usize,
    /// Which line is the longest (1 for the first).
    pub longest_at: usize,
}

impl Shape {
    pub fn of(text: &str) -> Shape {
        let mut shape = Shape {
            lines: 0,
            longest: 0,
            longest_at: 1,
        };
        for (n, line) in text.split('\n').enumerate() {
            shape.lines += 1;
            if line.len() > shape.longest {
                shape.longest = line.len();
                shape.longest_at = n + 1;
            }
        }
        shape
    }

    /// One line, without a newline in it.
    pub fn one_line(self) -> bool {
        self.lines == 1
    }

    /// Whether a terminal in line mode takes every line whole.
    pub fn fits_a_line(self) -> bool {
        self.longest <= MAX_LINE
    }
}

/// TEXT as it is pasted. Newline and tab keep their meaning inside the
/// paste; a carriage return (alone or before a newline) becomes a newline.
/// Every other C0 control and DEL becomes its Unicode control picture (ESC
/// is `␛`), each C1 control and each byte that is not UTF-8 becomes `�`, so
/// nothing in TEXT can close the bracketed paste or press a key.
pub fn neutralise(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\x00'..='\x1f' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
            '\x7f' => out.push('\u{2421}'),
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            _ => out.push(c),
        }
    }
    out
}

/// What to look for on the screen to know the paste arrived: the end of
/// its last line that holds anything but blanks (a tab shows as spaces, so
/// only what follows the last tab), at most 24 characters. `None` when the
/// text is all blanks.
pub fn needle(text: &str) -> Option<String> {
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let tail = line.rsplit('\t').find(|part| !part.trim().is_empty())?;
    let tail = tail.trim();
    let chars: Vec<char> = tail.chars().collect();
    let start = chars.len().saturating_sub(24);
    Some(chars[start..].iter().collect::<String>().trim().to_string())
}

/// How often `needle` stands on `screen` (its lines joined as tmux wraps
/// them, trailing blanks trimmed).
pub fn count(screen: &str, needle: &str) -> usize {
    screen
        .lines()
        .map(|l| l.trim_end().matches(needle).count())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_that_could_end_the_paste_or_press_keys_become_visible() {
        assert_eq!(
            neutralise(b"harmless line\x1b[201~\nINJECTED-SUBMIT\n"),
            "harmless line\u{241b}[201~\nINJECTED-SUBMIT\n"
        );
        assert_eq!(neutralise(b"a\tb\nc"), "a\tb\nc");
        assert_eq!(neutralise(b"a\r\nb\rc"), "a\nb\nc");
        assert_eq!(
            neutralise(b"\x03\x04\x07\x08\x7f"),
            "\u{2403}\u{2404}\u{2407}\u{2408}\u{2421}"
        );
        assert_eq!(
            neutralise("\u{9b}31m\u{9d}0;x\u{7}".as_bytes()),
            "\u{fffd}31m\u{fffd}0;x\u{2407}"
        );
        assert_eq!(neutralise(b"\xff\xfe ok"), "\u{fffd}\u{fffd} ok");
        assert_eq!(
            neutralise("gr\u{fc}\u{df}e \u{6771}".as_bytes()),
            "gr\u{fc}\u{df}e \u{6771}"
        );
        let out = neutralise(&(0u8..=255).collect::<Vec<u8>>());
        assert!(!out
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'));
    }

    #[test]
    fn the_shape_counts_lines_and_the_bytes_of_the_longest() {
        let s = Shape::of("a\nbcd\n\u{e9}\u{e9}");
        assert_eq!((s.lines, s.longest, s.longest_at), (3, 4, 3));
        assert!(!s.one_line() && s.fits_a_line());
        let most = "x".repeat(MAX_LINE);
        assert!(Shape::of(&most).one_line() && Shape::of(&most).fits_a_line());
        let over = Shape::of(&format!("{most}x"));
        assert!(over.one_line() && !over.fits_a_line());
        assert_eq!(
            Shape::of(""),
            Shape {
                lines: 1,
                longest: 0,
                longest_at: 1
            }
        );
    }

    #[test]
    fn the_needle_is_the_end_of_the_last_line_with_text() {
        assert_eq!(
            needle("a=40\nb=2\nprint(a+b)").as_deref(),
            Some("print(a+b)")
        );
        assert_eq!(needle("one\ntwo  \n\n   \n").as_deref(), Some("two"));
        assert_eq!(needle("col1\tcol2").as_deref(), Some("col2"));
        assert_eq!(
            needle("a line much longer than twenty-four characters").as_deref(),
            Some("n twenty-four characters")
        );
        assert_eq!(needle(" \n\t\n"), None);
        assert_eq!(count("x print(a+b)  \nprint(a+b)\n", "print(a+b)"), 2);
    }
}
