//! The processes /proc lists: one process's place (its job, its session,
//! its terminal, when it started), and which belong to a pane's session.

/// The fields of `/proc/PID/stat` roost reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stat {
    /// The command name the process gave itself (any bytes, at most 15).
    pub name: String,
    /// `R`, `S`, `D`, `T`, `Z`…: one letter.
    pub state: char,
    pub ppid: u32,
    /// Its job (process group).
    pub pgrp: u32,
    pub session: u32,
    /// Its controlling terminal, as a device number in /proc's encoding.
    pub tty_nr: u64,
    /// The foreground job of that terminal.
    pub tpgid: i64,
    /// When it started (clock ticks after boot): with the pid, what tells
    /// it from a later process given the same id.
    pub start: u64,
}

impl Stat {
    pub fn of(pid: u32) -> Option<Stat> {
        Stat::parse(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
    }

    /// One `/proc/PID/stat` line. The command name is in parentheses and
    /// may hold anything, blanks and parentheses included: the fields start
    /// after the last `)`.
    pub fn parse(text: &str) -> Option<Stat> {
        let open = text.find('(')?;
        let close = text.rfind(')')?;
        let name = text.get(open + 1..close)?.to_string();
        let f: Vec<&str> = text[close + 1..].split_ascii_whitespace().collect();
        Some(Stat {
            name,
            state: f.first()?.chars().next()?,
            ppid: f.get(1)?.parse().ok()?,
            pgrp: f.get(2)?.parse().ok()?,
            session: f.get(3)?.parse().ok()?,
            tty_nr: f.get(4)?.parse().ok()?,
            tpgid: f.get(5)?.parse().ok()?,
            start: f.get(19)?.parse().ok()?,
        })
    }

    /// A zombie, or a process on its way out: it has ended.
    pub fn ended(&self) -> bool {
        matches!(self.state, 'Z' | 'X' | 'x')
    }
}

/// Every process /proc lists now that has not ended, with its stat.
pub fn all() -> Vec<(u32, Stat)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| Some((pid, Stat::of(pid)?)))
        .filter(|(_, s)| !s.ended())
        .collect()
}

/// Whether `pid` is the first process of a pane of the tmux server
/// `server`: a child of the server, leading a session of its own (tmux
/// makes each pane's program a session leader). A pane's recorded pid that
/// ended long ago and was given to another process is not.
pub fn leads_a_pane(pid: u32, server: u32) -> bool {
    Stat::of(pid).is_some_and(|s| !s.ended() && s.ppid == server && s.session == pid)
}

/// The processes of `table` that belong to the sessions led by `leaders`:
/// their members, and every descendant of a member or of one already in
/// `held`, one that moved to a session or job of its own included.
/// `itself` never belongs, nor does process 1.
pub fn belonging(table: &[(u32, Stat)], leaders: &[u32], held: &[u32], itself: u32) -> Vec<u32> {
    let mut found: Vec<u32> = table
        .iter()
        .filter(|(_, s)| leaders.contains(&s.session))
        .map(|(pid, _)| *pid)
        .collect();
    loop {
        let more: Vec<u32> = table
            .iter()
            .filter(|(pid, s)| {
                !found.contains(pid) && (found.contains(&s.ppid) || held.contains(&s.ppid))
            })
            .map(|(pid, _)| *pid)
            .collect();
        if more.is_empty() {
            break;
        }
        found.extend(more);
    }
    found.retain(|pid| *pid != itself && *pid != 1);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(ppid: u32, session: u32) -> Stat {
        Stat {
            name: "x".into(),
            state: 'S',
            ppid,
            pgrp: session,
            session,
            tty_nr: 0,
            tpgid: -1,
            start: 1,
        }
    }

    #[test]
    fn a_stat_line_is_read_after_the_last_parenthesis() {
        let line = "4242 (we(i)rd) name) S 10 4242 4242 34817 4250 4194560 0 0 0 0 \
                    1 2 0 0 20 0 3 0 987654 1000 200 18446744073709551615";
        let s = Stat::parse(line).unwrap();
        assert_eq!(s.name, "we(i)rd) name");
        assert_eq!(
            (s.state, s.ppid, s.pgrp, s.session, s.tty_nr, s.tpgid, s.start),
            ('S', 10, 4242, 4242, 34817, 4250, 987654)
        );
        assert!(!s.ended());
        assert!(Stat::parse("4242 (x) Z 1").is_none());
    }

    #[test]
    fn this_process_reads_its_own_stat() {
        let me = Stat::of(std::process::id()).unwrap();
        assert!(me.state.is_ascii_uppercase());
        assert!(me.pgrp > 0 && me.start > 0);
    }

    #[test]
    fn a_session_holds_its_members_and_their_descendants_and_nothing_else() {
        let table = vec![
            (100, stat(1, 100)), // the pane's first process
            (101, stat(100, 100)),
            (102, stat(101, 102)), // left for a session of its own
            (103, stat(102, 102)), // and its child
            (200, stat(1, 200)),   // another pane
            (201, stat(200, 200)),
            (300, stat(1, 300)), // a daemon that was once a child of 100
            (7, stat(100, 100)), // the caller itself
        ];
        let mut found = belonging(&table, &[100], &[], 7);
        found.sort();
        assert_eq!(found, [100, 101, 102, 103]);
        // A child of a process already held, once its session is gone.
        let table = vec![(104, stat(102, 104))];
        assert_eq!(belonging(&table, &[100], &[102], 7), [104]);
        assert_eq!(belonging(&table, &[100], &[], 7), Vec::<u32>::new());
    }
}
