//! Target resolution: `%N`, `@N`, `SESSION:WINDOW[.PANE]`, or a bare window
//! name in session `main`, matched exactly against the server's panes (tmux's
//! own lookup would accept a prefix and pick a different agent).

use super::ctx::Ctx;
use crate::error::{Error, Exit, Result};
use crate::tmux::Pane;

/// The session a bare word refers to.
pub const DEFAULT_SESSION: &str = "main";

/// The pane `target` names, and where no hook has stamped its state and
/// its agent is a preset with screen rules, the state its screen shows
/// (as `status` reads it): what send and close refuse a blocked pane by.
pub fn resolve_with_state(ctx: &Ctx, target: &str) -> Result<Pane> {
    let mut pane = resolve(ctx, target)?;
    crate::agents::screen_state::read_into(
        &ctx.tmux,
        ctx.paths().ok(),
        std::slice::from_mut(&mut pane),
    );
    Ok(pane)
}

/// The pane `target` names; exit 2 when there is none.
pub fn resolve(ctx: &Ctx, target: &str) -> Result<Pane> {
    let missing = |why: String| Error::fail(ctx.cmd, why).code(Exit::NoTarget);
    if !ctx.tmux.is_running().map_err(|e| ctx.tmux_err(e))? {
        ctx.require_tmux()?;
        return Err(missing(format!(
            "no such target '{target}': roost is not running"
        )));
    }
    let panes = ctx.tmux.panes().map_err(|e| ctx.tmux_err(e))?;
    let found = find(&panes, target).map_err(|e| missing(e.to_string()))?;
    Ok(found.clone())
}

/// How messages name a target: once, with its pane id when the user named
/// it otherwise (`'alice' (%3)`, but `'%3'`).
pub fn describe(target: &str, pane_id: &str) -> String {
    if target == pane_id {
        format!("'{target}'")
    } else {
        format!("'{target}' ({pane_id})")
    }
}

/// Why a target names no one pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotFound {
    /// Nothing by that name, with the closest window name if one is close.
    Missing {
        target: String,
        near: Option<String>,
    },
    /// A window name that more than one window bears.
    Ambiguous { target: String, windows: usize },
}

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            NotFound::Missing {
                target,
                near: Some(near),
            } => {
                write!(f, "no such target '{target}'; did you mean '{near}'?")
            }
            NotFound::Missing { target, near: None } => write!(f, "no such target '{target}'"),
            NotFound::Ambiguous { target, windows } => write!(
                f,
                "'{target}' names {windows} windows; use a pane id (roost status lists them)"
            ),
        }
    }
}

/// Pure lookup of `target` among `panes`.
pub fn find<'a>(panes: &'a [Pane], target: &str) -> std::result::Result<&'a Pane, NotFound> {
    let none = || NotFound::Missing {
        target: target.to_string(),
        near: closest(panes, target),
    };
    if target.starts_with('%') {
        return panes.iter().find(|p| p.id == target).ok_or_else(none);
    }
    if target.starts_with('@') {
        return panes
            .iter()
            .find(|p| p.window_id == target && p.active)
            .ok_or_else(none);
    }
    let (session, window) = target.split_once(':').unwrap_or((DEFAULT_SESSION, target));
    let in_session = || panes.iter().filter(|p| p.session == session);
    // WINDOW as a whole first (a name may contain '.'), then WINDOW.PANE.
    let whole: Vec<&Pane> = in_session()
        .filter(|p| p.active && window_matches(p, window))
        .collect();
    match whole.len() {
        1 => return Ok(whole[0]),
        0 => {}
        n => {
            return Err(NotFound::Ambiguous {
                target: target.to_string(),
                windows: n,
            })
        }
    }
    if let Some((w, pane)) = window.rsplit_once('.') {
        if !pane.is_empty() && pane.bytes().all(|b| b.is_ascii_digit()) {
            let hits: Vec<&Pane> = in_session()
                .filter(|p| p.pane_index == pane && window_matches(p, w))
                .collect();
            if hits.len() == 1 {
                return Ok(hits[0]);
            }
        }
    }
    Err(none())
}

/// The window name (bare in main, `SESSION:NAME` elsewhere) closest to a
/// target that matched nothing, when one is close.
fn closest(panes: &[Pane], target: &str) -> Option<String> {
    let names: Vec<String> = panes
        .iter()
        .filter(|p| p.active)
        .map(|p| {
            if p.session == DEFAULT_SESSION {
                p.window_name.raw().to_string()
            } else {
                format!("{}:{}", p.session.raw(), p.window_name.raw())
            }
        })
        .collect();
    let word = target.strip_prefix("main:").unwrap_or(target);
    crate::cli::closest(word.as_bytes(), names.iter().map(String::as_str)).map(str::to_string)
}

fn window_matches(p: &Pane, window: &str) -> bool {
    p.window_name == window || p.window_index == window || p.window_id == window
}

/// Window and session names become targets: refuse what would make them
/// ambiguous, unprintable, or read by tmux as anything but a name.
pub fn check_name(ctx: &Ctx, what: &str, name: &str) -> Result<()> {
    match name_problem(name) {
        None => Ok(()),
        Some(why) => Err(
            Error::fail(ctx.cmd, format!("invalid {what} {:?}: {why}", name))
                .hint("use letters, digits, '-' and '_'"),
        ),
    }
}

/// A window name is a session name that is not all digits: a target reads
/// digits as the window's index, so such a window could never be named.
pub fn check_window_name(ctx: &Ctx, name: &str) -> Result<()> {
    check_name(ctx, "window name", name)?;
    if name.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::fail(
            ctx.cmd,
            format!("invalid window name {name:?}: a target of digits alone is a window index, so this window could never be named"),
        )
        .hint("add a letter, as in agent1"));
    }
    Ok(())
}

/// Why `name` cannot be a window or session name, if it cannot.
pub fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("it is empty");
    }
    if name.chars().any(char::is_control) {
        return Some("it contains a control character (a TAB or newline?)");
    }
    if crate::untrusted::printable(name.as_bytes()) != name {
        return Some("it contains a character that moves or hides text (a direction control, a zero-width or invisible character)");
    }
    if name.contains(':') || name.contains('.') {
        return Some("':' and '.' separate session, window and pane in targets");
    }
    if name.contains('#') {
        return Some("'#' starts a tmux format");
    }
    if name.starts_with(['%', '@', '=', '-']) {
        return Some("it must not start with '%', '@', '=' or '-'");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(
        id: &str,
        win: &str,
        session: &str,
        idx: &str,
        pidx: &str,
        active: bool,
        name: &str,
    ) -> Pane {
        Pane {
            id: id.into(),
            window_id: win.into(),
            session: session.into(),
            window_index: idx.into(),
            pane_index: pidx.into(),
            active,
            dead: false,
            dead_status: None,
            pid: None,
            state: None,
            command: Default::default(),
            window_name: name.into(),
            may_ask: false,
            dialog: None,
        }
    }

    fn fleet() -> Vec<Pane> {
        vec![
            pane("%0", "@0", "main", "0", "0", true, "shell"),
            pane("%1", "@1", "main", "1", "0", true, "alice"),
            pane("%2", "@1", "main", "1", "1", false, "alice"),
            pane("%3", "@2", "main", "2", "0", true, "alicebob"),
            pane("%4", "@3", "work", "0", "0", true, "alice"),
            pane("%5", "@4", "main", "3", "0", true, "v1.2"),
        ]
    }

    #[test]
    fn names_that_tmux_or_a_target_would_misread_are_refused() {
        for ok in ["alice", "my agent", "agent-1_b", "caf\u{e9}", "a;", "7a"] {
            assert_eq!(name_problem(ok), None, "{ok:?}");
        }
        for bad in [
            "",
            "a:b",
            "v1.2",
            "#(touch x)",
            "w#{pane_id}",
            "##",
            "%1",
            "@1",
            "=a",
            "-a",
            "a\tb",
            "evil\u{202e}txt",
            "zero\u{200b}width",
        ] {
            assert!(name_problem(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn bare_words_match_window_names_in_main_exactly() {
        let f = fleet();
        assert_eq!(find(&f, "alice").unwrap().id, "%1");
        assert_eq!(find(&f, "alicebob").unwrap().id, "%3");
        assert!(find(&f, "ali").is_err(), "a prefix must not match");
        assert_eq!(find(&f, "v1.2").unwrap().id, "%5");
    }

    #[test]
    fn ids_and_session_window_pane() {
        let f = fleet();
        assert_eq!(find(&f, "%2").unwrap().id, "%2");
        assert_eq!(find(&f, "@1").unwrap().id, "%1");
        assert_eq!(find(&f, "work:alice").unwrap().id, "%4");
        assert_eq!(find(&f, "main:1.1").unwrap().id, "%2");
        assert_eq!(find(&f, "main:alice.1").unwrap().id, "%2");
        assert_eq!(find(&f, "main:2").unwrap().id, "%3");
        assert_eq!(
            find(&f, "alcie").unwrap_err().to_string(),
            "no such target 'alcie'; did you mean 'alice'?"
        );
        assert_eq!(
            find(&f, "work:alic").unwrap_err().to_string(),
            "no such target 'work:alic'; did you mean 'work:alice'?"
        );
        assert_eq!(
            find(&f, "zzz").unwrap_err(),
            NotFound::Missing {
                target: "zzz".into(),
                near: None
            }
        );
        for missing in ["%9", "@9", "nope", "work:bob", "main:1.7", "other:alice"] {
            assert!(find(&f, missing).is_err(), "{missing}");
        }
    }
}
