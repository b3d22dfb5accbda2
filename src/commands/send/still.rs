//! Waiting for a pane's screen to stand still: a TUI handles what it read
//! after reading it, and an agent still starting draws its prompt, and
//! then perhaps a dialog over it, in bursts.

use crate::tmux::Tmux;
use std::time::{Duration, Instant};

/// After a program in raw mode has read the text, Enter waits until its
/// screen has stood still this long: a TUI handles what it read after
/// reading it, and one still starting (an agent that gathers keys typed
/// before its prompt is drawn) would drop an Enter that came first.
pub const STILL: Duration = Duration::from_millis(300);

/// The same for an agent roost knows: their TUIs redraw in bursts, and
/// under load a burst can come after 300 ms of stillness.
pub const STILL_AGENT: Duration = Duration::from_millis(600);

/// The longest a wait for a still screen lasts (a program that streams
/// output never stands still).
pub const STILL_AT_MOST: Duration = Duration::from_secs(5);

/// Waits until `pane`'s screen has not changed for `still`, or
/// `STILL_AT_MOST` has passed, or `deadline`; returns the screen as it
/// stood last (with its attributes' escape sequences), if tmux gave it.
pub fn until_still(tmux: &Tmux, pane: &str, still: Duration, deadline: Instant) -> Option<String> {
    let end = deadline.min(Instant::now() + STILL_AT_MOST);
    let mut last = tmux.screen_now(pane).ok();
    let mut since = Instant::now();
    while Instant::now() < end {
        std::thread::sleep(Duration::from_millis(30));
        let now = tmux.screen_now(pane).ok();
        if now != last {
            last = now;
            since = Instant::now();
        } else if since.elapsed() >= still {
            break;
        }
    }
    last
}
