//! What the consent block and an update's change say of an extension's
//! events: that its code runs on its own, on which moments, for how long,
//! and what that adds to `fleet`; and, for an update, which moments it
//! adds or drops. Words only: asking is the caller's.

use super::events_decl::Declared;
use super::manifest::Manifest;

/// The paragraph for an extension that declares events (`ACT` as the
/// consent block fills it in); `None` for one that declares none.
pub fn paragraph(m: &Manifest) -> Option<String> {
    let d = m.events.as_ref()?;
    let mut text = format!(
        "This extension asks to run code on its own. If you ACT, its
bin/roost-events runs without you typing anything, each time one of
these happens, for at most {} s each time:
  {}",
        d.timeout,
        super::events_decl::words(&d.on)
    );
    if m.needs.iter().any(|n| n == "fleet") {
        text.push_str(
            "
With fleet as well, code that runs on its own can read any pane's
screen and send prompts to any agent while nobody is watching.",
        );
    }
    Some(text)
}

/// The consent block's last line: when the extension's code runs.
pub fn when_it_runs(m: &Manifest) -> &'static str {
    match (m.events.is_some(), m.commands.is_empty()) {
        (false, _) => "Nothing runs during WHEN. Code runs when you type those commands.",
        (true, true) => "Nothing runs during WHEN. Code runs on the moments above.",
        (true, false) => {
            "Nothing runs during WHEN. Code runs when you type those commands,
and on the moments above."
        }
    }
}

/// The moments `new` adds to `old` (what was consented to before).
pub fn added(old: Option<&Declared>, new: Option<&Declared>) -> Vec<&'static str> {
    let had = old.map_or(&[][..], |d| &d.on[..]);
    new.map_or(&[][..], |d| &d.on[..])
        .iter()
        .filter(|e| !had.contains(e))
        .map(|e| e.word())
        .collect()
}

/// The change's lines about events: moments added and removed, and a
/// changed time; none when nothing changed.
pub fn change_lines(old: Option<&Declared>, new: Option<&Declared>) -> Vec<String> {
    let mut lines = Vec::new();
    let grown = added(old, new);
    let removed = added(new, old);
    if !grown.is_empty() {
        lines.push(format!(
            "events: now also runs on its own on {}",
            grown.join(", ")
        ));
    }
    if !removed.is_empty() {
        lines.push(format!("events: no longer runs on {}", removed.join(", ")));
    }
    match (old, new) {
        (Some(o), Some(n)) if o.timeout != n.timeout => lines.push(format!(
            "events: at most {} s each time (was {} s)",
            n.timeout, o.timeout
        )),
        _ => {}
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::event::Event;

    fn d(on: &[Event], timeout: u32) -> Declared {
        Declared {
            on: on.to_vec(),
            timeout,
        }
    }

    #[test]
    fn the_change_names_moments_added_and_removed() {
        let old = d(&[Event::Done, Event::Idle], 10);
        let new = d(&[Event::Done, Event::Blocked], 30);
        assert_eq!(
            change_lines(Some(&old), Some(&new)),
            [
                "events: now also runs on its own on agent.blocked",
                "events: no longer runs on agent.idle",
                "events: at most 30 s each time (was 10 s)",
            ]
        );
        assert_eq!(
            change_lines(None, Some(&old)),
            ["events: now also runs on its own on agent.done, agent.idle"]
        );
        assert!(change_lines(Some(&old), Some(&old)).is_empty());
    }
}
