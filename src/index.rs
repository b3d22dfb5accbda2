//! ext.index, the dispatch table: one line per command,
//! `COMMAND TAB EXTENSION TAB /abs/path TAB AUTHORITIES`. The lookup is a
//! byte scan, no parser; the renderer is what every index writer uses.

use std::io::Read;

/// One line of the index, borrowed from the file's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    pub command: &'a [u8],
    pub extension: &'a [u8],
    pub path: &'a [u8],
    /// Space-separated authorities; empty for a 3-field line or an empty 4th.
    pub authorities: &'a [u8],
}

impl<'a> Entry<'a> {
    /// A line as written: 3 or 4 TAB-separated fields, the first three non-empty.
    pub fn parse(line: &'a [u8]) -> Option<Entry<'a>> {
        let mut fields = line.splitn(4, |&b| b == b'\t');
        let command = fields.next().filter(|f| !f.is_empty())?;
        let extension = fields.next().filter(|f| !f.is_empty())?;
        let path = fields.next().filter(|f| !f.is_empty())?;
        let authorities = fields.next().unwrap_or_default();
        if authorities.contains(&b'\t') {
            return None;
        }
        Some(Entry {
            command,
            extension,
            path,
            authorities,
        })
    }

    pub fn authorities(&self) -> impl Iterator<Item = &'a [u8]> {
        self.authorities
            .split(|&b| b == b' ')
            .filter(|t| !t.is_empty())
    }
}

/// The first line of `index` whose first field is exactly `word`.
pub fn lookup<'a>(index: &'a [u8], word: &[u8]) -> Option<Entry<'a>> {
    let (start, end) = find(index, word, true)?;
    Entry::parse(&index[start..end])
}

/// Streams `reader` in fixed chunks (no copy of the whole file, whatever its
/// size) and returns the first line whose first field is exactly `word`.
pub fn read_line(mut reader: impl Read, word: &[u8]) -> Option<Vec<u8>> {
    if !plausible(word) {
        return None;
    }
    // buf[..filled] always starts at a line boundary; a leading '\n' stands
    // for the start of the file so that one needle finds every line.
    // The first read is one page: a typical index is one small read. A
    // bigger one streams through 32 KiB reads into one buffer, which is
    // zeroed once, when it grows, and not at every read.
    let mut chunk = FIRST_CHUNK;
    let mut buf = vec![0; 1 + chunk];
    buf[0] = b'\n';
    let mut filled = 1;
    let mut eof = false;
    loop {
        let data = &buf[..filled];
        if let Some((start, end)) = find(data, word, false) {
            if end < filled || eof {
                return Some(data[start..end].to_vec());
            }
        } else if eof {
            return None;
        } else {
            // Keep only the unfinished last line (as "\n" + its bytes).
            let keep = scan::last_newline(data).unwrap_or(0);
            buf.copy_within(keep..filled, 0);
            filled -= keep;
        }
        if buf.len() < filled + chunk {
            buf.resize(filled + chunk, 0);
        }
        chunk = MAX_CHUNK;
        let n = loop {
            match reader.read(&mut buf[filled..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            }
        };
        filled += n;
        eof = n == 0;
    }
}

const FIRST_CHUNK: usize = 4096;
const MAX_CHUNK: usize = 32 * 1024;

fn plausible(word: &[u8]) -> bool {
    !word.is_empty() && !word.contains(&b'\t') && !word.contains(&b'\n')
}

/// Byte range of the first line starting with `word` TAB. `at_start`: the
/// slice begins with a line (else it begins with the '\n' before one).
fn find(buf: &[u8], word: &[u8], at_start: bool) -> Option<(usize, usize)> {
    if !plausible(word) {
        return None;
    }
    let start = if at_start && buf.starts_with(word) && buf.get(word.len()) == Some(&b'\t') {
        0
    } else {
        let mut needle = Vec::with_capacity(word.len() + 2);
        needle.push(b'\n');
        needle.extend_from_slice(word);
        needle.push(b'\t');
        scan::find(buf, &needle)? + 1
    };
    let end = scan::newline(&buf[start..]).map_or(buf.len(), |i| start + i);
    Some((start, end))
}

/// Byte searches that never probe the CPU. memchr's generic entry points
/// ask CPUID which vector extensions exist the first time they run, and
/// under a hypervisor each CPUID is a trap costing microseconds: more than
/// scanning a typical index. SSE2 is part of x86_64 itself, so no probe is
/// needed to use it; other targets keep memchr's own choice.
#[cfg(target_arch = "x86_64")]
mod scan {
    use memchr::arch::x86_64::sse2::{memchr::One, packedpair::Finder};

    /// Where `needle` (at least 2 bytes) first occurs in `haystack`.
    pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
        match Finder::new(needle) {
            Some(f) if haystack.len() >= f.min_haystack_len() => f.find(haystack, needle),
            _ => haystack.windows(needle.len()).position(|w| w == needle),
        }
    }

    pub fn newline(haystack: &[u8]) -> Option<usize> {
        match One::new(b'\n') {
            Some(one) => one.find(haystack),
            None => haystack.iter().position(|&b| b == b'\n'),
        }
    }

    pub fn last_newline(haystack: &[u8]) -> Option<usize> {
        match One::new(b'\n') {
            Some(one) => one.rfind(haystack),
            None => haystack.iter().rposition(|&b| b == b'\n'),
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod scan {
    pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
        memchr::memmem::find(haystack, needle)
    }

    pub fn newline(haystack: &[u8]) -> Option<usize> {
        memchr::memchr(b'\n', haystack)
    }

    pub fn last_newline(haystack: &[u8]) -> Option<usize> {
        memchr::memrchr(b'\n', haystack)
    }
}

/// The index text for these lines (sorted by command, 4 fields each).
pub fn render(entries: &[Entry<'_>]) -> Vec<u8> {
    let mut sorted: Vec<&Entry> = entries.iter().collect();
    sorted.sort_by(|a, b| a.command.cmp(b.command));
    let mut out = Vec::new();
    for e in sorted {
        for field in [e.command, e.extension, e.path] {
            out.extend_from_slice(field);
            out.push(b'\t');
        }
        out.extend_from_slice(e.authorities);
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &[u8] = b"mark\tmarker\t/x/bin/roost-mark\tfleet\nmarks\tmarker\t/x/bin/roost-marks\t\nnote\tnotes\t/n/bin/roost-note\nnote\tother\t/o/bin/roost-note\tfleet\n";

    #[test]
    fn the_first_exact_match_wins() {
        let e = lookup(INDEX, b"note").unwrap();
        assert_eq!(e.extension, b"notes");
        assert_eq!(e.authorities, b"");
        let e = lookup(INDEX, b"mark").unwrap();
        assert_eq!(e.path, b"/x/bin/roost-mark");
        assert_eq!(e.authorities().collect::<Vec<_>>(), vec![&b"fleet"[..]]);
    }

    #[test]
    fn prefixes_and_other_fields_do_not_match() {
        for miss in [
            &b"mar"[..],
            b"notes",
            b"marker",
            b"fleet",
            b"",
            b"roost-note",
            b"x/bin",
        ] {
            assert!(
                lookup(INDEX, miss).is_none(),
                "{}",
                String::from_utf8_lossy(miss)
            );
        }
        assert_eq!(lookup(INDEX, b"marks").unwrap().command, b"marks");
    }

    #[test]
    fn short_or_empty_fields_are_not_lines() {
        assert!(Entry::parse(b"a\tb").is_none());
        assert!(Entry::parse(b"a\t\t/p").is_none());
        assert!(Entry::parse(b"a\tb\t/p\tfleet\textra").is_none());
        assert!(lookup(b"a\tb\n", b"a").is_none());
    }

    #[test]
    fn streaming_finds_the_same_line_across_chunk_boundaries() {
        let mut big = Vec::new();
        for i in 0..20_000 {
            big.extend_from_slice(format!("cmd{i:05}\text{i}\t/p/{i}\t\n").as_bytes());
        }
        big.extend_from_slice(b"last\tz\t/z\tfleet");
        for word in ["cmd00000", "cmd07777", "cmd19999", "last"] {
            let streamed = read_line(&big[..], word.as_bytes()).unwrap();
            assert_eq!(
                Entry::parse(&streamed),
                lookup(&big, word.as_bytes()),
                "{word}"
            );
        }
        assert!(read_line(&big[..], b"cmd0").is_none());
        assert!(read_line(&big[..], b"nope").is_none());
        assert_eq!(
            read_line(INDEX, b"note").unwrap(),
            b"note\tnotes\t/n/bin/roost-note".to_vec()
        );
    }

    #[test]
    fn render_sorts_and_always_writes_four_fields() {
        let lines = [
            Entry::parse(b"zed\tz\t/z\t").unwrap(),
            Entry::parse(b"abc\ta\t/a\tfleet").unwrap(),
            Entry::parse(b"mid\tm\t/m").unwrap(),
        ];
        assert_eq!(
            render(&lines),
            b"abc\ta\t/a\tfleet\nmid\tm\t/m\t\nzed\tz\t/z\t\n".to_vec()
        );
    }
}

/// The name grammar of extensions and their commands: `[a-z][a-z0-9-]*`, at
/// most 32 bytes. A name that fails it never becomes a path.
pub fn valid_name(name: &[u8]) -> bool {
    matches!(name.first(), Some(b'a'..=b'z'))
        && name.len() <= 32
        && name
            .iter()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
}

/// Words the name grammar refuses, one for each way to break it; the
/// manifest's tests refuse the same ones.
#[cfg(test)]
pub(crate) const NOT_NAMES: [&str; 9] = [
    "",
    "Note",
    "2note",
    "-x",
    "../x",
    "a/b",
    "a b",
    "a_b",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

#[cfg(test)]
mod name_tests {
    #[test]
    fn the_name_grammar() {
        for ok in ["a", "note", "git-2", &"a".repeat(32)] {
            assert!(super::valid_name(ok.as_bytes()), "{ok}");
        }
        assert_eq!(super::NOT_NAMES[8].len(), 33);
        for bad in super::NOT_NAMES {
            assert!(!super::valid_name(bad.as_bytes()), "{bad}");
        }
    }
}
