//! Processes as /proc shows them, for the tests that check what `kill`
//! leaves running: every process of a pane, and whether each still runs.

use super::TestEnv;

/// One process as /proc shows it: its id and its start time, which tells
/// it from a later process given the same id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proc {
    pub pid: u32,
    start: u64,
    pub name: String,
}

impl Proc {
    /// The fields of /proc/PID/stat after the command name: (ppid, sid,
    /// start time, state), and the name.
    fn stat(pid: u32) -> Option<(u32, u32, u64, char, String)> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let open = text.find('(')?;
        let close = text.rfind(')')?;
        let name = text[open + 1..close].to_string();
        let f: Vec<&str> = text[close + 1..].split_ascii_whitespace().collect();
        let state = f.first()?.chars().next()?;
        Some((
            f.get(1)?.parse().ok()?,
            f.get(4)?.parse().ok()?,
            f.get(19)?.parse().ok()?,
            state,
            name,
        ))
    }

    /// Whether it still runs (a zombie has ended).
    pub fn alive(&self) -> bool {
        Proc::stat(self.pid).is_some_and(|(_, _, start, state, _)| {
            start == self.start && !matches!(state, 'Z' | 'X')
        })
    }
}

/// Every process of a pane whose first process is `pane_pid`: those of the
/// session tmux made for it, and every descendant of that first process
/// (one that left the session included).
pub fn processes_of(pane_pid: u32) -> Vec<Proc> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if let Some((ppid, sid, start, state, name)) = Proc::stat(pid) {
            if !matches!(state, 'Z' | 'X') {
                all.push((pid, ppid, sid, start, name));
            }
        }
    }
    let mut mine: Vec<u32> = vec![pane_pid];
    loop {
        let more: Vec<u32> = all
            .iter()
            .filter(|p| !mine.contains(&p.0) && (p.2 == pane_pid || mine.contains(&p.1)))
            .map(|p| p.0)
            .collect();
        if more.is_empty() {
            break;
        }
        mine.extend(more);
    }
    all.into_iter()
        .filter(|p| mine.contains(&p.0))
        .map(|(pid, _, _, start, name)| Proc { pid, start, name })
        .collect()
}

/// The first process of `pane`.
pub fn pane_pid(env: &TestEnv, pane: &str) -> u32 {
    env.tmux_ok(&["display-message", "-p", "-t", pane, "#{pane_pid}"])
        .trim()
        .parse()
        .unwrap()
}
