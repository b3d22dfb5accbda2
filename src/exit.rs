//! How roost exits: every status it can end with, in one type. What each
//! means, in general and for each command, is the command model's
//! (`cli::model::exits`), which help, the man pages and README follow.

/// Every status roost documents. An extension's command replaces roost, so
/// its statuses are its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done.
    Ok,
    /// 1: refused or failed, with a message saying what to do; also a check
    /// (`doctor`, `ext verify`, `ext check`) that found a problem.
    Failed,
    /// 2: a malformed command line, or an unknown command.
    Usage,
    /// 2: the target pane, window or session does not exist, or is gone.
    NoTarget,
    /// 3: `send`: the target is blocked; nothing was typed.
    Blocked,
    /// 4: `send`: the program could not take the text in time; nothing was
    /// typed.
    NotReady,
    /// 5: `send`: the text was typed but the program did not take it, so
    /// Enter was not pressed.
    TypedNotSubmitted,
    /// 6: `send`: the text and Enter were typed, but the program did not
    /// read the Enter, or its prompt hook did not report the prompt.
    NotConfirmed,
    /// 130: interrupted (Ctrl-C) at a question or while working; what was
    /// begun is undone.
    Interrupted,
}

impl Exit {
    /// Every status, in the order of their codes.
    pub const ALL: [Exit; 9] = [
        Exit::Ok,
        Exit::Failed,
        Exit::Usage,
        Exit::NoTarget,
        Exit::Blocked,
        Exit::NotReady,
        Exit::TypedNotSubmitted,
        Exit::NotConfirmed,
        Exit::Interrupted,
    ];

    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Failed => 1,
            Exit::Usage | Exit::NoTarget => 2,
            Exit::Blocked => 3,
            Exit::NotReady => 4,
            Exit::TypedNotSubmitted => 5,
            Exit::NotConfirmed => 6,
            Exit::Interrupted => 130,
        }
    }

    /// 0 when `ok`, else 1: a check's verdict.
    pub fn check(ok: bool) -> Exit {
        if ok {
            Exit::Ok
        } else {
            Exit::Failed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Exit;

    #[test]
    fn all_holds_every_status_once_in_the_order_of_their_codes() {
        let codes: Vec<u8> = Exit::ALL.iter().map(|e| e.code()).collect();
        assert!(codes.windows(2).all(|w| w[0] <= w[1]), "{codes:?}");
        for (i, a) in Exit::ALL.iter().enumerate() {
            assert!(!Exit::ALL[i + 1..].contains(a), "{a:?} twice");
            // A new variant must be added to ALL: this match fails to
            // compile until it is named here too.
            match a {
                Exit::Ok
                | Exit::Failed
                | Exit::Usage
                | Exit::NoTarget
                | Exit::Blocked
                | Exit::NotReady
                | Exit::TypedNotSubmitted
                | Exit::NotConfirmed
                | Exit::Interrupted => {}
            }
        }
    }
}
