//! A preset agent's state read from its screen where no hook has stamped
//! one: the preset's literal rules over the last lines of what the pane
//! shows (`ext::presets` has the matcher). A stamp always wins: only a
//! pane with no state is looked at, and only when some enabled preset has
//! screen rules, so a fleet without such presets costs no extra call.

use crate::ext::presets::{self, ScreenState};
use crate::ext::taught;
use crate::paths::Paths;
use crate::tmux::{options, AgentState, Pane, Tmux};

/// Gives each live, unstamped pane of `panes` whose agent is an enabled
/// preset with screen rules the state its screen shows, if any rule
/// matches.
pub fn read_into(tmux: &Tmux, paths: Option<&Paths>, panes: &mut [Pane]) {
    let unread = |p: &Pane| !p.dead && p.state.is_none();
    if !panes.iter().any(unread) {
        return;
    }
    let Some(paths) = paths else {
        return;
    };
    let ruled: Vec<presets::Preset> = taught::read(paths)
        .into_iter()
        .filter(|t| t.enabled && t.preset.screen.is_some())
        .filter(|t| presets::shadows_builtin(&t.preset.name).is_none())
        .map(|t| t.preset)
        .collect();
    if ruled.is_empty() {
        return;
    }
    for p in panes.iter_mut().filter(|p| unread(p)) {
        // The agent's name is anything the pane set: it only picks a preset.
        let Ok(Some(agent)) = tmux.pane_option(&p.id, options::AGENT) else {
            continue;
        };
        let Some(preset) = ruled.iter().find(|r| r.name == agent) else {
            continue;
        };
        // A pane closed since the listing shows nothing.
        let Ok(screen) = tmux.visible_screen(&p.id) else {
            continue;
        };
        if let Some((state, _)) = preset.screen_state(&screen) {
            p.state = Some(match state {
                ScreenState::Blocked => AgentState::Blocked,
                ScreenState::Working => AgentState::Working,
                ScreenState::Idle => AgentState::Idle,
            });
        }
    }
}
