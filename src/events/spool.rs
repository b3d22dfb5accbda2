//! Each extension's queue of moments, `events/NAME/spool/` (owner-only):
//! one file per moment, named so that names sort in the order the moments
//! happened. Bounded: past `MAX_QUEUED` the oldest are dropped and counted,
//! and the next handler is told how many. Every change is made under the
//! queue's lock (`spool.lock`), held for a few file operations only.

use super::envelope::Envelope;
use crate::fsutil;
use nix::fcntl::{Flock, FlockArg};
use std::fs::File;
use std::path::{Path, PathBuf};

/// The most moments queued for one extension.
pub const MAX_QUEUED: usize = 64;

/// The most of one queued moment read back.
const MAX_ENTRY: u64 = 64 << 10;

pub struct Spool {
    dir: PathBuf,
}

/// What was taken: the moment, with the drops it must tell of.
pub struct Taken {
    pub envelope: Envelope,
}

impl Spool {
    /// The queue in `events_dir` (`events/NAME`), made owner-only.
    pub fn open(events_dir: &Path) -> std::io::Result<Spool> {
        fsutil::make_dirs(&events_dir.join("spool"), 0o700)?;
        Ok(Spool {
            dir: events_dir.to_path_buf(),
        })
    }

    fn queue(&self) -> PathBuf {
        self.dir.join("spool")
    }

    fn lock(&self) -> std::io::Result<Flock<File>> {
        let file = File::options()
            .create(true)
            .append(true)
            .open(self.dir.join("spool.lock"))?;
        Flock::lock(file, FlockArg::LockExclusive).map_err(|(_, e)| e.into())
    }

    fn counter(&self, name: &str) -> u64 {
        fsutil::read_regular(&self.dir.join(name), 64)
            .ok()
            .flatten()
            .and_then(|b| String::from_utf8_lossy(&b).trim().parse().ok())
            .unwrap_or(0)
    }

    fn set_counter(&self, name: &str, n: u64) -> std::io::Result<()> {
        fsutil::write_atomic(&self.dir.join(name), format!("{n}\n").as_bytes(), 0o600)
    }

    /// The queued files, oldest first.
    fn entries(&self) -> Vec<PathBuf> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(self.queue())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "json"))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    /// Queues `envelope` (its seq given here); returns how many of the
    /// oldest were dropped to keep the bound.
    pub fn push(&self, envelope: &mut Envelope) -> std::io::Result<u64> {
        let _held = self.lock()?;
        let seq = self.counter("seq") + 1;
        self.set_counter("seq", seq)?;
        envelope.seq = seq;
        let name = format!("{:039}-{:020}.json", envelope.nanos, seq);
        fsutil::write_atomic(
            &self.queue().join(name),
            serde_json::to_string(envelope)
                .unwrap_or_default()
                .as_bytes(),
            0o600,
        )?;
        let entries = self.entries();
        let over = entries.len().saturating_sub(MAX_QUEUED);
        for old in &entries[..over] {
            let _ = std::fs::remove_file(old);
        }
        if over > 0 {
            self.set_counter("dropped", self.counter("dropped") + over as u64)?;
        }
        Ok(over as u64)
    }

    /// The time of the oldest queued moment, if any.
    pub fn oldest(&self) -> Option<u128> {
        let first = self.entries().into_iter().next()?;
        let stem = first.file_stem()?.to_str()?;
        stem.split('-').next()?.parse().ok()
    }

    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// Takes the oldest moment out of the queue (at most once: the file is
    /// gone before the handler runs), with the drops not told yet.
    pub fn take(&self) -> Option<Taken> {
        let _held = self.lock().ok()?;
        loop {
            let first = self.entries().into_iter().next()?;
            let bytes = fsutil::read_regular(&first, MAX_ENTRY).ok().flatten();
            let _ = std::fs::remove_file(&first);
            let Some(mut envelope) =
                bytes.and_then(|b| serde_json::from_slice::<Envelope>(&b).ok())
            else {
                continue;
            };
            envelope.dropped = self.counter("dropped");
            if envelope.dropped > 0 {
                let _ = self.set_counter("dropped", 0);
            }
            return Some(Taken { envelope });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_keeps_the_newest_64_and_counts_the_drops() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::open(dir.path()).unwrap();
        let mut dropped = 0;
        for i in 0..100u128 {
            let mut e = Envelope::new(super::super::event::Event::Done, 1_000 + i, 0);
            dropped += spool.push(&mut e).unwrap();
        }
        assert_eq!(dropped, 36);
        assert_eq!(spool.entries().len(), MAX_QUEUED);
        let first = spool.take().unwrap().envelope;
        assert_eq!((first.nanos, first.seq, first.dropped), (1_036, 37, 36));
        let second = spool.take().unwrap().envelope;
        assert_eq!((second.nanos, second.dropped), (1_037, 0));
    }
}
