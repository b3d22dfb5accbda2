//! `help [COMMAND]`, `version`, and `completions SHELL`: what roost says
//! about itself.

use super::Args;
use crate::cli;
use crate::error::{Error, Result};

pub fn help(a: &mut Args) -> Result<u8> {
    match a.optional("COMMAND")? {
        None => print!("{}", cli::help_text()),
        Some(word) => match cli::find(word.as_bytes()) {
            Some(spec) => println!("{}\n  {}", cli::command_usage(spec.name), spec.about),
            None => {
                return Err(
                    Error::fail("help", format!("'{word}' is not a built-in command"))
                        .hint("roost help lists them; roost ext list shows extension commands"),
                )
            }
        },
    }
    Ok(0)
}

pub fn version(a: &mut Args) -> Result<u8> {
    a.options(&[])?;
    a.done()?;
    println!("{}", crate::VERSION);
    Ok(0)
}

/// `completions SHELL`: the script, from `complete.rs`.
pub fn completions(a: &mut Args) -> Result<u8> {
    a.options(&[])?;
    let shells = crate::complete::SHELLS.join(", ");
    let shell = a
        .optional("SHELL")?
        .ok_or_else(|| Error::usage("completions", format!("missing SHELL ({shells})")))?;
    a.done()?;
    match crate::complete::script(&shell) {
        Some(script) => print!("{script}"),
        None => {
            return Err(Error::usage(
                "completions",
                format!("unknown shell '{shell}' (one of {shells})"),
            ))
        }
    }
    Ok(0)
}
