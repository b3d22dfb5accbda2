//! `roost hook AGENT [EVENT]`: what agents' hooks run. The agents domain's
//! hook.rs reads the payload and records it on the pane.

use crate::agents::HookAgent;
use crate::error::{Exit, Result};
use std::ffi::OsString;

pub fn run(agent: HookAgent, words: Vec<OsString>) -> Result<Exit> {
    Ok(match crate::agents::hook::run(agent, &words) {
        0 => Exit::Ok,
        _ => Exit::Failed,
    })
}
