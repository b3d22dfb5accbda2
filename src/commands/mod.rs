//! The built-in commands: one file per verb, sharing the context (server and
//! paths, ctx.rs) and target resolution (target.rs); a parsed command
//! reaches its handler through `run`'s match.

mod close;
pub(crate) mod ctx;
mod demo;
mod doctor;
mod help;
mod hook;
mod hooks;
mod kill;
mod next;
mod pane;
mod read;
mod resume;
mod send;
mod session;
mod spawn;
mod status;
pub(crate) mod target;
mod wait;

use crate::cli::model::{Command, ExtArgs};
use crate::cli::Parsed;
use crate::error::{Exit, Result};
use ctx::Ctx;
use std::ffi::OsString;

/// Runs the built-in command `word` names with the words after it: parsed
/// by the model, then handed to its handler.
pub fn run(word: &OsString, rest: &[OsString]) -> Result<Exit> {
    let (name, command) = match crate::cli::parse(word, rest)? {
        Parsed::Shown => return Ok(Exit::Ok),
        Parsed::Run { name, command } => (name, command),
    };
    let ctx = Ctx::new(name);
    match command {
        Command::Up => session::up(&ctx, "main"),
        Command::Session(a) => session::up(&ctx, &a.name),
        Command::Spawn(a) => spawn::run(&ctx, a).and_then(|made| match made.message {
            Some(text) => send::first_message(&ctx, &made.pane, text),
            None => Ok(Exit::Ok),
        }),
        Command::Send(a) => send::run(&ctx, a),
        Command::Read(a) => read::read(&ctx, a),
        Command::Screen(a) => read::screen(&ctx, a),
        Command::Reply(a) => pane::reply(&ctx, a),
        Command::State(a) => pane::state(&ctx, a),
        Command::Hook(a) => hook::run(&ctx, a.agent, a.words),
        Command::Hooks(a) => hooks::run(&ctx, a),
        Command::Resume => resume::run(&ctx),
        Command::Next => next::next(&ctx),
        Command::Badge => next::badge(&ctx),
        Command::Whoami => pane::whoami(&ctx),
        Command::WaitDone(a) => wait::run(&ctx, a),
        Command::Status(a) => status::run(&ctx, a),
        Command::Close(a) => close::run(&ctx, a),
        Command::Kill(a) => kill::run(&ctx, a),
        Command::Doctor(a) => doctor::run(&ctx, a),
        Command::Demo => demo::run(),
        Command::Ext(ExtArgs { verb, verbose }) => {
            if verbose {
                crate::error::set_verbose();
            }
            crate::ext::verbs::run(verb)
        }
        Command::Completions(a) => help::completions(a),
        Command::Help(a) => help::help(a),
        Command::Version => help::version(word),
    }
}
