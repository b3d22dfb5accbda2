//! `help [COMMAND [VERB]]`, `version`, and `completions SHELL`: what roost
//! says about itself. Help text comes from the command model.

use crate::cli::model::{CompletionsArgs, HelpArgs};
use crate::error::{Error, Exit, Result};

pub fn help(a: HelpArgs) -> Result<Exit> {
    let mut root = crate::cli::built();
    let mut cmd = &mut root;
    for word in &a.words {
        let found = cmd
            .get_subcommands()
            .find(|c| c.get_name() == word || c.get_all_aliases().any(|x| x == word))
            .map(|c| c.get_name().to_string());
        let Some(name) = found else {
            let what = if cmd.get_name() == "roost" {
                format!(
                    "'{word}' is not a built-in command (roost ext list shows extension commands)"
                )
            } else {
                format!("'{word}' is not a verb of roost {}", cmd.get_name())
            };
            return Err(Error::usage("help", what));
        };
        cmd = cmd.find_subcommand_mut(&name).expect("found above");
    }
    print!("{}", cmd.render_long_help());
    Ok(Exit::Ok)
}

pub fn version() -> Result<Exit> {
    println!("{}", crate::VERSION);
    Ok(Exit::Ok)
}

/// `completions SHELL`: the script, from `complete.rs`.
pub fn completions(a: CompletionsArgs) -> Result<Exit> {
    print!("{}", crate::complete::script(a.shell));
    Ok(Exit::Ok)
}
