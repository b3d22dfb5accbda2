//! The states an agent reports of itself (`roost state`, its hooks), as one
//! type, and the formats by which tmux reads them off a pane without ever
//! printing what else the pane's option may hold.

use super::options::STATE;

/// What an agent says it is doing. A pane whose state option holds any
/// other word reads as having no state, everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AgentState {
    Idle,
    Working,
    Blocked,
    Done,
    Error,
}

impl AgentState {
    /// Every state, in the order roost names them.
    pub const ALL: [AgentState; 5] = [
        AgentState::Idle,
        AgentState::Working,
        AgentState::Blocked,
        AgentState::Done,
        AgentState::Error,
    ];

    /// The states a waiter stops at.
    pub const FINAL: [AgentState; 3] = [AgentState::Done, AgentState::Idle, AgentState::Error];

    /// The word stamped on the pane and shown to the user.
    pub fn word(self) -> &'static str {
        match self {
            AgentState::Idle => "idle",
            AgentState::Working => "working",
            AgentState::Blocked => "blocked",
            AgentState::Done => "done",
            AgentState::Error => "error",
        }
    }

    /// The state `word` names exactly, if any.
    pub fn from_word(word: &str) -> Option<AgentState> {
        AgentState::ALL.into_iter().find(|s| s.word() == word)
    }

    /// Every state's word, in order.
    pub fn words() -> [&'static str; 5] {
        AgentState::ALL.map(AgentState::word)
    }

    /// Whether a waiter stops at it.
    pub fn is_final(self) -> bool {
        AgentState::FINAL.contains(&self)
    }
}

impl std::fmt::Display for AgentState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// A format that expands to the pane's state when it is a known one, and
/// to nothing otherwise: the option's own bytes never reach the output.
pub(super) fn known_format() -> String {
    let mut out = String::new();
    for state in AgentState::ALL.iter().rev() {
        let state = state.word();
        out = format!("#{{?#{{==:#{{{STATE}}},{state}}},{state},{out}}}");
    }
    out
}

/// A format that is 1 while a pane is alive and not in a final state.
pub(super) fn unfinished_format() -> String {
    let mut inner = "1".to_string();
    for state in AgentState::FINAL.iter().rev() {
        let state = state.word();
        inner = format!("#{{?#{{==:#{{{STATE}}},{state}}},0,{inner}}}");
    }
    format!("#{{?pane_dead,0,{inner}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_reads_back_from_its_word_and_nothing_else_does() {
        for state in AgentState::ALL {
            assert_eq!(AgentState::from_word(state.word()), Some(state));
            assert_eq!(state.to_string(), state.word());
        }
        assert_eq!(
            AgentState::words(),
            ["idle", "working", "blocked", "done", "error"]
        );
        for other in ["", "Done", "done ", "finished"] {
            assert_eq!(AgentState::from_word(other), None, "{other:?}");
        }
        let finals: Vec<_> = AgentState::ALL
            .into_iter()
            .filter(|s| s.is_final())
            .collect();
        assert_eq!(
            finals,
            [AgentState::Idle, AgentState::Done, AgentState::Error]
        );
    }

    #[test]
    fn clap_reads_the_same_words() {
        use clap::ValueEnum;
        for state in AgentState::ALL {
            assert_eq!(AgentState::from_str(state.word(), false), Ok(state));
        }
    }
}
