//! git's unified diff of two texts (histogram, three lines of context),
//! each line made printable and painted as git paints it.

use crate::colour::{Colour, Paint};
use crate::untrusted::printable;
use gix::bstr::ByteSlice;
use gix::diff::blob::unified_diff::{ConsumeHunk, ContextSize, DiffLineKind, HunkHeader};
use gix::diff::blob::{Algorithm, Diff, InternedInput, UnifiedDiff};

/// The hunks that turn `before` into `after`, as `git diff` prints them
/// below a file's header: hunk headers cyan, removed lines red, added
/// lines green when `paint` allows.
pub fn unified(before: &[u8], after: &[u8], paint: Paint) -> std::io::Result<String> {
    let input = InternedInput::new(before, after);
    let diff = Diff::compute(Algorithm::Histogram, &input);
    UnifiedDiff::new(
        &diff,
        &input,
        Hunks(String::new(), paint),
        ContextSize::symmetrical(3),
    )
    .consume()
}

/// git's hunk format, each line made printable, then painted whole.
struct Hunks(String, Paint);

impl ConsumeHunk for Hunks {
    type Out = String;

    fn consume_hunk(
        &mut self,
        h: HunkHeader,
        lines: &[(DiffLineKind, &[u8])],
    ) -> std::io::Result<()> {
        let range = |start: u32, len: u32| match len {
            0 => format!("{},0", start.saturating_sub(1)),
            1 => start.to_string(),
            n => format!("{start},{n}"),
        };
        let paint = self.1;
        let header = format!(
            "@@ -{} +{} @@",
            range(h.before_hunk_start, h.before_hunk_len),
            range(h.after_hunk_start, h.after_hunk_len)
        );
        self.0.push_str(&paint.paint(Colour::Cyan, &header));
        self.0.push('\n');
        for (kind, line) in lines {
            let text = line.strip_suffix(b"\n").unwrap_or(line);
            let shown = format!("{}{}", kind.to_prefix(), printable(text.as_bytes()));
            match kind {
                DiffLineKind::Add => self.0.push_str(&paint.paint(Colour::Green, &shown)),
                DiffLineKind::Remove => self.0.push_str(&paint.paint(Colour::Red, &shown)),
                DiffLineKind::Context => self.0.push_str(&shown),
            }
            self.0.push('\n');
            if !line.ends_with(b"\n") {
                self.0.push_str("\\ No newline at end of file\n");
            }
        }
        Ok(())
    }

    fn finish(self) -> String {
        self.0
    }
}
