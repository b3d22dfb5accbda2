//! Help text filled to a width, so the model's prose can be written (and
//! edited) without hand-wrapping it: every paragraph is refilled when the
//! model is built, and help fits 80 columns whatever the source looks like.

/// The width of a description paragraph (printed from column 0).
pub const PROSE: usize = 76;

/// The width of an argument's help: clap prints it 10 columns in, below
/// the argument's name.
pub const ARGUMENT: usize = 80 - 10;

/// `text` with each paragraph (lines between blank lines) filled greedily
/// to `width`. A paragraph any of whose lines starts with a blank is laid
/// out by hand (a list, an example) and kept as it is; a word longer than
/// `width` stands on a line of its own, and so does a `quoted command`
/// (which the man pages set in bold, a line at a time) that is.
pub fn fill(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for paragraph in text.split("\n\n") {
        if paragraph.lines().any(|l| l.starts_with([' ', '\t'])) {
            out.push(paragraph.to_string());
            continue;
        }
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in words(paragraph) {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        if !line.is_empty() {
            lines.push(line);
        }
        out.push(lines.join("\n"));
    }
    out.join("\n\n")
}

/// The words of a paragraph: runs of non-blanks, a `quoted span` with its
/// blanks kept as one word (with what is glued to it).
fn words(paragraph: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut word, mut quoted) = (String::new(), false);
    for c in paragraph.chars() {
        if c == '`' {
            quoted = !quoted;
        }
        if c.is_whitespace() && !quoted {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
        } else if c.is_whitespace() {
            // A line break inside a quoted span is a blank.
            word.push(' ');
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_are_filled_and_hand_laid_ones_kept() {
        assert_eq!(
            fill("one two\nthree four five six\n\n  kept   as\n  is", 9),
            "one two\nthree\nfour five\nsix\n\n  kept   as\n  is"
        );
        assert_eq!(
            fill("averyveryverylongword x", 5),
            "averyveryverylongword\nx"
        );
        assert_eq!(
            fill("run `roost hooks\ninstall claude` now", 12),
            "run\n`roost hooks install claude`\nnow"
        );
    }
}
