//! The processes /proc lists: one process's place (its job, its session,
//! its terminal, when it started).

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
