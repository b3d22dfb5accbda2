//! The completion scripts `roost completions SHELL` prints, one per shell
//! of `Shell`. They hold no command names: every TAB asks the roost on
//! PATH, so extensions installed later complete without regenerating
//! anything. They live in completions/, where packagers find them.

use crate::cli::model::Shell;

/// The completion script for `shell`.
pub fn script(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => BASH,
        Shell::Zsh => ZSH,
        Shell::Fish => FISH,
    }
}

const BASH: &str = include_str!("../../completions/roost.bash");
const ZSH: &str = include_str!("../../completions/_roost");
const FISH: &str = include_str!("../../completions/roost.fish");

/// The shell a query names (`bash`, `zsh`, `fish`: the model's own words
/// for `Shell`).
pub fn shell_named(word: &str) -> Option<Shell> {
    use clap::ValueEnum;
    Shell::from_str(word, false).ok()
}

/// `bash|zsh|fish`, as a usage line writes the choice.
pub fn shell_names() -> String {
    use clap::ValueEnum;
    let names: Vec<String> = Shell::value_variants()
        .iter()
        .filter_map(|s| s.to_possible_value())
        .map(|v| v.get_name().to_string())
        .collect();
    names.join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shell_is_named_by_its_model_word_and_has_a_script() {
        assert_eq!(shell_names(), "bash|zsh|fish");
        for name in shell_names().split('|') {
            let shell = shell_named(name).unwrap();
            assert!(script(shell).contains("__complete"), "{name}");
        }
        assert_eq!(shell_named("Bash"), None);
        assert_eq!(shell_named("sh"), None);
    }
}
