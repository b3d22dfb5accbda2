//! The command line every hook roost writes runs.

use std::path::Path;

/// The command line a hook runs: this roost's absolute path, quoted for a
/// shell, then `hook AGENT EVENT`.
pub fn hook_command(roost: &Path, agent: &str, event: &str) -> String {
    let path = shell_words::quote(&roost.to_string_lossy()).into_owned();
    if event.is_empty() {
        format!("{path} hook {agent}")
    } else {
        format!("{path} hook {agent} {event}")
    }
}
