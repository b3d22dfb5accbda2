//! The hidden `roost __event …`, started by tmux inside roost's server (a
//! `run-shell -b` job: never the agent's child) or detached by roost: it
//! reads ext.events and, for each extension subscribed to the moment,
//! queues it and drains that extension's queue under its lock, one handler
//! at a time in the order the moments happened, extensions side by side
//! (a process each, each a child subreaper). Every moment an extension
//! does not run for is logged as skipped, with why.
//!
//! `__event fire EVENT [--time=NANOS] [--depth=N] [--no-ext] [--pane=%N]
//! [--previous=STATE] [--status=N]`, and `__event session --pane=%N`
//! (records a pane's new session id for `resume`).

use super::envelope::Envelope;
use super::event::Event;
use super::handler;
use super::index::{self, Subscriber};
use super::log::{self, Outcome, Record};
use super::spool::Spool;
use super::{emit, pause};
use crate::paths::Paths;
use crate::tmux::{AgentState, Tmux};
use nix::fcntl::{Flock, FlockArg};
use std::ffi::OsString;
use std::time::{Duration, Instant};

/// How old a moment must be before it is taken: a runner started a moment
/// later for an earlier moment has queued it by then.
pub const SETTLE: Duration = Duration::from_millis(100);

/// Past this depth (a handler's command firing a moment whose handler
/// fires one…) a moment is skipped.
pub const MAX_DEPTH: u32 = 3;

/// One moment as the command line gives it.
#[derive(Debug, Default)]
pub struct Fire {
    pub event: Option<Event>,
    pub nanos: Option<u128>,
    pub depth: u32,
    pub no_ext: bool,
    pub pane: Option<String>,
    pub previous: Option<String>,
    pub status: Option<i32>,
    /// Names given by roost itself on the command line of a detached
    /// runner (a pane that is gone by the time the runner would ask).
    pub window: Option<String>,
    pub session: Option<String>,
    pub size: Option<u64>,
}

impl Fire {
    fn parse(words: &[String]) -> Option<Fire> {
        let (event, rest) = words.split_first()?;
        let mut f = Fire {
            event: Some(Event::from_word(event)?),
            ..Fire::default()
        };
        for w in rest {
            let (key, value) = w.split_once('=').unwrap_or((w, ""));
            match key {
                "--time" => f.nanos = value.parse().ok(),
                "--depth" => f.depth = value.parse().ok()?,
                "--no-ext" => f.no_ext = true,
                "--pane" if emit::is_pane_id(value) => f.pane = Some(value.into()),
                "--previous" => f.previous = AgentState::from_word(value).map(|s| s.word().into()),
                "--status" => f.status = value.parse().ok(),
                "--window" => f.window = Some(value.into()),
                "--session" => f.session = Some(value.into()),
                "--size" => f.size = value.parse().ok(),
                _ => return None,
            }
        }
        Some(f)
    }
}

/// `roost __event WORDS`: always exits 0 (a job's failure would be shown
/// in a pane); what went wrong is in the run log.
pub fn main(words: &[OsString]) -> u8 {
    let words: Vec<String> = words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let Ok(paths) = Paths::from_env() else {
        return 0;
    };
    match words.split_first() {
        Some((cmd, rest)) if cmd == "fire" => {
            if let Some(f) = Fire::parse(rest) {
                fire(&paths, &Tmux::of_job(), f);
            }
        }
        Some((cmd, rest)) if cmd == "session" => {
            if let Some(pane) = rest.first().and_then(|w| w.strip_prefix("--pane=")) {
                if emit::is_pane_id(pane) {
                    crate::agents::record_session(&Tmux::of_job(), pane);
                }
            }
        }
        _ => {}
    }
    0
}

/// Hands moment `f` to every extension subscribed to it.
pub fn fire(paths: &Paths, tmux: &Tmux, f: Fire) {
    let Some(event) = f.event else { return };
    let subs: Vec<Subscriber> = index::read(paths)
        .into_iter()
        .filter(|s| s.events.contains(&event))
        .collect();
    hand(paths, tmux, f, event, subs);
}

/// Hands a made-up moment `event` (about `pane`) to extension `sub` alone,
/// through the same queue, switches and log (`roost ext exec --event`).
pub fn fire_for(paths: &Paths, tmux: &Tmux, sub: Subscriber, event: Event, pane: Option<String>) {
    let f = Fire {
        event: Some(event),
        depth: std::env::var(emit::DEPTH)
            .ok()
            .and_then(|d| d.parse::<u32>().ok())
            .map_or(0, |d| d.saturating_add(1)),
        no_ext: std::env::var_os(crate::contract::env::NO_EXT).is_some_and(|v| !v.is_empty()),
        pane,
        ..Fire::default()
    };
    hand(paths, tmux, f, event, vec![sub]);
}

fn hand(paths: &Paths, tmux: &Tmux, f: Fire, event: Event, subs: Vec<Subscriber>) {
    if subs.is_empty() {
        return;
    }
    let mut e = Envelope::new(event, f.nanos.unwrap_or_else(emit::now), f.depth);
    e.previous = f.previous.clone().unwrap_or_default();
    e.exit_status = f.status;
    e.size = f.size;
    if let Some(pane) = &f.pane {
        e.pane = pane.clone();
        if let Ok(view) = tmux.event_view(pane) {
            e.window = view.window;
            e.session = view.session;
            e.agent = view.agent;
            e.state = view.state;
        }
    }
    if let Some(w) = &f.window {
        e.window = w.clone();
    }
    if let Some(s) = &f.session {
        e.session = s.clone();
    }
    let off = crate::switch::is_off(tmux, &paths.user_conf());
    let skip = |s: &Subscriber| -> Option<String> {
        if f.no_ext {
            Some("ROOST_NO_EXT is set".into())
        } else if off {
            Some("extensions are switched off for this server".into())
        } else if !s.on {
            Some(format!("{} is disabled", s.name))
        } else if f.depth > MAX_DEPTH {
            Some(format!(
                "depth {} is past {MAX_DEPTH} (a handler's moment firing another)",
                f.depth
            ))
        } else if pause::is_paused(paths, &s.name) {
            Some(format!(
                "paused after failures; `roost ext enable {}` resumes it",
                s.name
            ))
        } else {
            None
        }
    };
    // Side by side: a process each (a subreaper is a process's), waited for.
    ignore_sigpipe();
    let mut children = Vec::new();
    for (i, sub) in subs.iter().enumerate() {
        let job = || match skip(sub) {
            Some(why) => note(paths, sub, &e, Outcome::Skipped(why), None),
            None => queue_and_drain(paths, tmux, sub, e.clone()),
        };
        if i + 1 == subs.len() {
            let _ = nix::sys::prctl::set_child_subreaper(true);
            job();
            break;
        }
        // SAFETY: the runner is one thread here (no thread is started
        // before every fork), so the child may run on.
        match unsafe { nix::unistd::fork() } {
            Ok(nix::unistd::ForkResult::Child) => {
                let _ = nix::sys::prctl::set_child_subreaper(true);
                job();
                // SAFETY: _exit ends this forked process at once, running
                // nothing the parent registered.
                unsafe { nix::libc::_exit(0) };
            }
            Ok(nix::unistd::ForkResult::Parent { child }) => children.push(child),
            Err(_) => job(),
        }
    }
    for child in children {
        let _ = nix::sys::wait::waitpid(child, None);
    }
}

fn ignore_sigpipe() {
    // SAFETY: setting a disposition to SIG_IGN runs no handler.
    let _ = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGPIPE,
            nix::sys::signal::SigHandler::SigIgn,
        )
    };
}

/// Logs one outcome of `sub` for moment `e`.
fn note(
    paths: &Paths,
    sub: &Subscriber,
    e: &Envelope,
    outcome: Outcome,
    ran: Option<&handler::Ran>,
) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let record = Record {
        seq: e.seq,
        event: e.event.clone(),
        pane: e.pane.clone(),
        start: crate::ext::lock::utc_timestamp(std::time::SystemTime::now()),
        duration_ms: ran.map_or(0, |r| r.duration.as_millis() as u64),
        failed: outcome.failed(),
        outcome: outcome.words(),
        head: ran.map_or_else(String::new, |r| text(&r.capture.head)),
        tail: ran.map_or_else(String::new, |r| text(&r.capture.tail())),
        cut: ran.map_or(0, |r| r.capture.cut),
        commit: sub.commit.clone(),
    };
    let _ = log::append(paths, &sub.name, &record);
}

/// Queues `e` for `sub`, then drains the queue unless another runner holds
/// it (that one will run `e`).
fn queue_and_drain(paths: &Paths, tmux: &Tmux, sub: &Subscriber, mut e: Envelope) {
    let dir = super::place::dir(paths, &sub.name);
    let Ok(spool) = Spool::open(&dir) else {
        note(
            paths,
            sub,
            &e,
            Outcome::SpawnError("cannot create its queue".into()),
            None,
        );
        return;
    };
    match spool.push(&mut e) {
        Ok(0) => {}
        Ok(n) => note(paths, sub, &e, Outcome::Dropped(n), None),
        Err(_) => {
            note(
                paths,
                sub,
                &e,
                Outcome::SpawnError("cannot queue the moment".into()),
                None,
            );
            return;
        }
    }
    let lock_path = dir.join("run.lock");
    loop {
        let Ok(file) = std::fs::File::options()
            .create(true)
            .append(true)
            .open(&lock_path)
        else {
            return;
        };
        let Ok(held) = Flock::lock(file, FlockArg::LockExclusiveNonblock) else {
            return;
        };
        drain(paths, tmux, sub, &spool);
        drop(held);
        // A runner that queued while this one held the lock and found it
        // taken has left its moment here: look once more after letting go.
        if spool.is_empty() {
            return;
        }
    }
}

fn drain(paths: &Paths, tmux: &Tmux, sub: &Subscriber, spool: &Spool) {
    let started = Instant::now();
    while let Some(oldest) = spool.oldest() {
        // Wait until the oldest moment is SETTLE old (by the emitter's
        // clock), so an earlier moment's runner can queue it first.
        let age = emit::now().saturating_sub(oldest);
        if age < SETTLE.as_nanos() {
            let left = SETTLE.as_nanos() - age;
            std::thread::sleep(Duration::from_nanos(u64::try_from(left).unwrap_or(0)));
            continue;
        }
        let Some(taken) = spool.take() else { return };
        let e = taken.envelope;
        if pause::is_paused(paths, &sub.name) {
            let why = format!(
                "paused after failures; `roost ext enable {}` resumes it",
                sub.name
            );
            note(paths, sub, &e, Outcome::Skipped(why), None);
            continue;
        }
        let ran = handler::run(paths, tmux, sub, &e);
        let failed = ran.outcome.failed();
        note(paths, sub, &e, ran.outcome.clone(), Some(&ran));
        if let Some(n) = pause::count(paths, &sub.name, failed) {
            note(paths, sub, &e, Outcome::Paused(n), None);
        }
        let _ = started;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_takes_only_known_words() {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let f = Fire::parse(&w(
            "agent.done --time=5 --depth=1 --pane=%3 --previous=working --status=2",
        ))
        .unwrap();
        assert_eq!((f.event, f.nanos, f.depth), (Some(Event::Done), Some(5), 1));
        assert_eq!(
            (f.pane.as_deref(), f.previous.as_deref(), f.status),
            (Some("%3"), Some("working"), Some(2))
        );
        let f = Fire::parse(&w("agent.done --previous=")).unwrap();
        assert_eq!(f.previous, None);
        assert!(Fire::parse(&w("agent.finished")).is_none());
        assert!(Fire::parse(&w("agent.done --what")).is_none());
        assert!(Fire::parse(&w("agent.done --pane=x")).is_none());
    }
}
