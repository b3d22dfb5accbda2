//! The moments of the fleet an extension can subscribe to, as one type
//! with the words the manifest, the index, the log and handlers use.

use crate::tmux::AgentState;

/// One moment of the fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Event {
    Working,
    Blocked,
    Done,
    Error,
    Idle,
    Spawned,
    Resumed,
    Killed,
    Exited,
    Delivered,
    ServerStart,
    ServerStop,
}

impl Event {
    /// Every event, in the order roost names them.
    pub const ALL: [Event; 12] = [
        Event::Working,
        Event::Blocked,
        Event::Done,
        Event::Error,
        Event::Idle,
        Event::Spawned,
        Event::Resumed,
        Event::Killed,
        Event::Exited,
        Event::Delivered,
        Event::ServerStart,
        Event::ServerStop,
    ];

    /// The word a manifest, the index and a handler's `ROOST_EVENT` use.
    pub fn word(self) -> &'static str {
        match self {
            Event::Working => "agent.working",
            Event::Blocked => "agent.blocked",
            Event::Done => "agent.done",
            Event::Error => "agent.error",
            Event::Idle => "agent.idle",
            Event::Spawned => "agent.spawned",
            Event::Resumed => "agent.resumed",
            Event::Killed => "agent.killed",
            Event::Exited => "agent.exited",
            Event::Delivered => "send.delivered",
            Event::ServerStart => "server.start",
            Event::ServerStop => "server.stop",
        }
    }

    /// The event `word` names exactly, if any.
    pub fn from_word(word: &str) -> Option<Event> {
        Event::ALL.into_iter().find(|e| e.word() == word)
    }

    /// The event a pane's change to `state` is.
    pub fn of_state(state: AgentState) -> Event {
        match state {
            AgentState::Idle => Event::Idle,
            AgentState::Working => Event::Working,
            AgentState::Blocked => Event::Blocked,
            AgentState::Done => Event::Done,
            AgentState::Error => Event::Error,
        }
    }

    /// Every event's word, in order.
    pub fn words() -> [&'static str; 12] {
        Event::ALL.map(Event::word)
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_reads_back_from_its_word_and_nothing_else_does() {
        for e in Event::ALL {
            assert_eq!(Event::from_word(e.word()), Some(e));
        }
        for other in ["", "done", "agent.Done", "agent.done ", "server"] {
            assert_eq!(Event::from_word(other), None, "{other:?}");
        }
        for s in AgentState::ALL {
            assert_eq!(Event::of_state(s).word(), format!("agent.{}", s.word()));
        }
        let mut words = Event::words().to_vec();
        words.dedup();
        assert_eq!(words.len(), 12);
    }
}
