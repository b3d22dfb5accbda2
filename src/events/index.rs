//! `${XDG_STATE_HOME}/roost/ext.events`: who subscribes to which moments,
//! derived from ext.lock as ext.index is, one line per extension:
//! `NAME<TAB>PROGRAM<TAB>TIMEOUT<TAB>EVENT,EVENT<TAB>AUTHORITIES<TAB>COMMIT<TAB>on|off`
//! (`off`: disabled). The runner reads it on every moment; a line it cannot
//! read is left out, never guessed at.

use super::event::Event;
use crate::paths::Paths;
use std::path::{Path, PathBuf};

/// The most of ext.events read: far more than any real set of extensions.
pub const MAX_INDEX: u64 = 1 << 20;

/// The default and the bounds of a handler's time, in seconds.
pub const DEFAULT_TIMEOUT: u32 = 10;
pub const MAX_TIMEOUT: u32 = 300;

/// One extension that handles events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscriber {
    pub name: String,
    /// Its `bin/roost-events`.
    pub program: PathBuf,
    /// Seconds, 1 to `MAX_TIMEOUT`.
    pub timeout: u32,
    pub events: Vec<Event>,
    /// The authorities granted (`fleet`, `events`).
    pub authorities: Vec<String>,
    pub commit: String,
    /// false: disabled.
    pub on: bool,
}

impl Subscriber {
    pub fn has(&self, authority: &str) -> bool {
        self.authorities.iter().any(|a| a == authority)
    }
}

pub fn file(paths: &Paths) -> PathBuf {
    paths.state.join("ext.events")
}

/// The file's text for `subs`, in the order given. A name, a program, a
/// commit or an authority holding a TAB or a newline cannot be written
/// (roost's names never do); such an entry is left out.
pub fn render(subs: &[Subscriber]) -> String {
    let mut out = String::new();
    for s in subs {
        let program = s.program.to_string_lossy();
        let fields = [&s.name[..], &program, &s.commit];
        let bad = |t: &str| t.is_empty() || t.contains(['\t', '\n', ',']);
        if fields.iter().any(|f| bad(f)) || s.authorities.iter().any(|a| bad(a)) {
            continue;
        }
        let events: Vec<&str> = s.events.iter().map(|e| e.word()).collect();
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            s.name,
            program,
            s.timeout,
            events.join(","),
            s.authorities.join(","),
            s.commit,
            if s.on { "on" } else { "off" }
        ));
    }
    out
}

/// The subscribers `text` describes; a malformed line is left out.
pub fn parse(text: &str) -> Vec<Subscriber> {
    text.lines().filter_map(parse_line).collect()
}

fn parse_line(line: &str) -> Option<Subscriber> {
    let f: Vec<&str> = line.split('\t').collect();
    let [name, program, timeout, events, authorities, commit, on] = f[..] else {
        return None;
    };
    if !crate::index::valid_name(name.as_bytes()) || !Path::new(program).is_absolute() {
        return None;
    }
    let timeout: u32 = timeout
        .parse()
        .ok()
        .filter(|t| (1..=MAX_TIMEOUT).contains(t))?;
    let events = events
        .split(',')
        .filter(|w| !w.is_empty())
        .map(Event::from_word)
        .collect::<Option<Vec<_>>>()?;
    let authorities = authorities
        .split(',')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let on = match on {
        "on" => true,
        "off" => false,
        _ => return None,
    };
    Some(Subscriber {
        name: name.to_string(),
        program: PathBuf::from(program),
        timeout,
        events,
        authorities,
        commit: commit.to_string(),
        on,
    })
}

/// The subscribers recorded now: none when the file is missing, not a
/// regular file, or too long to be roost's.
pub fn read(paths: &Paths) -> Vec<Subscriber> {
    match crate::fsutil::read_regular(&file(paths), MAX_INDEX) {
        Ok(Some(bytes)) => parse(&String::from_utf8_lossy(&bytes)),
        _ => Vec::new(),
    }
}

/// Writes the file for `subs` (owner-only, replaced in one step); an empty
/// list removes it, so the runner's look finds nothing at once.
pub fn write(paths: &Paths, subs: &[Subscriber]) -> std::io::Result<()> {
    let path = file(paths);
    if subs.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    crate::fsutil::write_atomic(&path, render(subs).as_bytes(), 0o600)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(name: &str, on: bool) -> Subscriber {
        Subscriber {
            name: name.into(),
            program: PathBuf::from(format!("/d/ext/{name}/bin/roost-events")),
            timeout: 10,
            events: vec![Event::Done, Event::Blocked],
            authorities: vec!["events".into(), "fleet".into()],
            commit: "0123456789abcdef0123456789abcdef01234567".into(),
            on,
        }
    }

    #[test]
    fn the_index_reads_back_what_was_rendered() {
        let subs = vec![sub("notify", true), sub("other", false)];
        let text = render(&subs);
        assert_eq!(
            text.lines().next().unwrap(),
            "notify\t/d/ext/notify/bin/roost-events\t10\tagent.done,agent.blocked\t\
             events,fleet\t0123456789abcdef0123456789abcdef01234567\ton"
        );
        assert_eq!(parse(&text), subs);
    }

    #[test]
    fn a_malformed_line_is_left_out() {
        let good = render(&[sub("notify", true)]);
        for bad in [
            good.replace("\ton", "\tmaybe"),
            good.replace("\t10\t", "\t0\t"),
            good.replace("\t10\t", "\t301\t"),
            good.replace("agent.done", "agent.finished"),
            good.replace("/d/ext", "d/ext"),
            good.replace("notify\t", "No Tify\t"),
            good.replace("\ton", ""),
        ] {
            assert!(parse(&bad).is_empty(), "{bad:?}");
        }
        let mut odd = sub("x", true);
        odd.commit = "a\tb".into();
        assert_eq!(render(&[odd]), "");
    }
}
