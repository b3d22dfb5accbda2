//! An agent by the name a pane or a command gives it: one roost knows, or
//! one an enabled extension's preset teaches (ext.agents is read only for
//! a name that is no built-in agent's). The one type every place that acts
//! on a pane's agent matches on, so a new kind of agent is a variant the
//! compiler makes each of them handle.

use super::Agent;
use crate::ext::taught::{self, Taught};
use crate::paths::Paths;

/// An agent roost can drive by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Known {
    Builtin(Agent),
    /// Taught by an enabled extension, under a name no built-in agent has.
    Preset(Box<Taught>),
}

impl Known {
    /// The agent `name` is: a built-in one, else the enabled preset of
    /// that name (none when `paths` cannot be known).
    pub fn named(paths: Option<&Paths>, name: &str) -> Option<Known> {
        if let Some(agent) = Agent::from_name(name) {
            return Some(Known::Builtin(agent));
        }
        if name.is_empty() || crate::ext::presets::shadows_builtin(name).is_some() {
            return None;
        }
        taught::find(paths?, name)
            .filter(|t| t.enabled)
            .map(|t| Known::Preset(Box::new(t)))
    }

    /// The name it goes by (`roost spawn x NAME`, `@roost-agent`).
    pub fn name(&self) -> &str {
        match self {
            Known::Builtin(agent) => agent.name(),
            Known::Preset(t) => &t.preset.name,
        }
    }

    /// What ends it as a person ends it, typed at its prompt (`roost
    /// close`): the agent's own command, or its preset's `exit`.
    pub fn exit_text(&self) -> Option<&str> {
        match self {
            Known::Builtin(agent) => Some(agent.exit_command()),
            Known::Preset(t) => t.preset.exit.as_deref(),
        }
    }
}
