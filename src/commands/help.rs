//! `help [COMMAND]`, `version`, and the answer of verbs whose issue has not
//! landed yet.

use super::Args;
use crate::cli::{self, Spec};
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

pub fn not_yet(spec: &'static Spec) -> Result<u8> {
    Err(Error::fail(spec.name, "not available in this build yet")
        .hint("the name is reserved; it arrives in a later roost release"))
}
