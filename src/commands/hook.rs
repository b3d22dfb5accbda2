//! `roost hook AGENT [EVENT]`: what agents' hooks run. The agents domain's
//! hook.rs reads the payload and records it on the pane. AGENT may be an
//! enabled extension's preset, whose hooks send the generic payload.

use super::ctx::Ctx;
use crate::agents::known::Known;
use crate::agents::{HookAgent, HookWord};
use crate::error::{Error, Exit, Result};
use std::ffi::OsString;

pub fn run(ctx: &Ctx, word: HookWord, words: Vec<OsString>) -> Result<Exit> {
    let (agent, name) = match word {
        HookWord::Builtin(a) => (a, a.name().to_string()),
        // Only a word that is no built-in agent reads ext.agents.
        HookWord::Other(w) => match preset(ctx, &w) {
            Some(name) => (HookAgent::Generic, name),
            None => {
                return Err(Error::usage(
                    "hook",
                    format!(
                        "unknown agent '{}' (one of {})",
                        crate::untrusted::printable(w.as_bytes()),
                        HookAgent::names()
                    ),
                ))
            }
        },
    };
    Ok(match crate::agents::hook::run(agent, &name, &words) {
        0 => Exit::Ok,
        _ => Exit::Failed,
    })
}

/// The name of the enabled preset called `word`, if any.
fn preset(ctx: &Ctx, word: &str) -> Option<String> {
    match Known::named(ctx.paths().ok(), word)? {
        Known::Preset(t) => Some(t.preset.name),
        Known::Builtin(_) => None,
    }
}
