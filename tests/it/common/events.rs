//! Fixtures for events: an extension with a handler (`bin/roost-events`),
//! installed as users install, and ext.events written from its lock entry
//! the way the store writes it; the run log and what handlers left.

use crate::common::ext::{clone_dir, install, lock, state_dir};
use crate::common::*;
use roost::events::index::{self, Subscriber};
use roost::events::Event;
use std::path::PathBuf;

/// A handler that appends one line per run (the event, the previous
/// state, the sequence number, the drops told) to `runs` in its state
/// directory, keeps its environment and stdin, then runs `then`.
pub fn recording_handler(then: &str) -> String {
    format!(
        "#!/bin/sh\n\
         s=\"$ROOST_EXT_STATE\"\n\
         env > \"$s/env.$ROOST_EVENT_SEQ\"\n\
         cat > \"$s/json.$ROOST_EVENT_SEQ\"\n\
         echo \"$ROOST_EVENT|$ROOST_EVENT_PREVIOUS|$ROOST_EVENT_SEQ|$ROOST_EVENT_DROPPED|$ROOST_EVENT_EXIT_STATUS|$ROOST_EVENT_WINDOW|$ROOST_EVENT_SIZE\" >> \"$s/runs\"\n\
         {then}\n"
    )
}

/// Extension NAME (repo `o/NAME`) with one command and `handler` as its
/// `bin/roost-events`, installed; ext.events then says it handles `events`
/// within `timeout` seconds.
pub fn subscribed(
    env: &TestEnv,
    name: &str,
    events: &[&str],
    handler: &str,
    needs: &[&str],
    timeout: u32,
) -> PathBuf {
    let repo = format!("o/{name}");
    let f = env.ext_repo(&repo);
    let command = format!("{name}-hello");
    f.manifest(name, &[&command], needs);
    f.exec(&format!("bin/roost-{command}"), "#!/bin/sh\necho hello\n");
    f.exec("bin/roost-events", handler);
    f.commit("first");
    install(env, &repo);
    std::fs::create_dir_all(state_dir(env, name)).unwrap();
    let mut subs = index::read(&paths(env));
    subs.retain(|s| s.name != name);
    let entry = lock(env)["extensions"][name].clone();
    let mut authorities: Vec<String> = vec!["events".into()];
    authorities.extend(needs.iter().map(|n| n.to_string()));
    subs.push(Subscriber {
        name: name.into(),
        program: clone_dir(env, name).join("bin/roost-events"),
        timeout,
        events: events
            .iter()
            .map(|e| Event::from_word(e).unwrap())
            .collect(),
        authorities,
        commit: entry["commit"].as_str().unwrap_or("unknown").into(),
        on: true,
    });
    index::write(&paths(env), &subs).unwrap();
    state_dir(env, name)
}

/// Marks NAME's line of ext.events off (disabled) or on.
pub fn set_on(env: &TestEnv, name: &str, on: bool) {
    let mut subs = index::read(&paths(env));
    for s in subs.iter_mut().filter(|s| s.name == name) {
        s.on = on;
    }
    index::write(&paths(env), &subs).unwrap();
}

pub fn paths(env: &TestEnv) -> roost::paths::Paths {
    roost::paths::Paths::under(&env.path("data"), &env.path("state"), &env.path("config"))
}

/// The lines of NAME's `runs` file (see `recording_handler`).
pub fn runs(env: &TestEnv, name: &str) -> Vec<String> {
    std::fs::read_to_string(state_dir(env, name).join("runs"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

/// NAME's run log, one JSON value a line.
pub fn log(env: &TestEnv, name: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(env.path("state/roost/events").join(name).join("log"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Waits until NAME's log holds `n` records (at most `secs`); returns it.
pub fn log_of(env: &TestEnv, name: &str, n: usize, secs: u64) -> Vec<serde_json::Value> {
    wait_until(std::time::Duration::from_secs(secs), || {
        log(env, name).len() >= n
    });
    log(env, name)
}

/// The processes whose command line holds `marker`.
pub fn processes_with(marker: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .collect()
}
