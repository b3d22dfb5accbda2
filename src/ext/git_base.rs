//! `ROOST_EXT_GIT_BASE`, the place OWNER/REPO is fetched from, checked
//! before anything is fetched: a URL that would pass as recorded in
//! ext.lock, or a directory, taken as the `file://` URL of its absolute
//! path (so an update run from anywhere finds it again).

use super::error::ExtError;
use super::names;

pub const DEFAULT: &str = "https://github.com/";

/// What to do about a base `get` refuses.
pub const HINT: &str =
    "set it to an https:// or ssh:// URL, file:///DIR/ or an existing directory, or unset it";

/// The base, `DEFAULT` when unset or empty; the error says what is wrong
/// and, in its hint, what to set.
pub fn get() -> Result<String, ExtError> {
    match std::env::var(crate::contract::env::GIT_BASE) {
        Ok(b) if !b.is_empty() => normalize(&b),
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(DEFAULT.to_string()),
        Err(std::env::VarError::NotUnicode(_)) => Err(bad("(not UTF-8)", "")),
    }
}

fn bad(shown: &str, why: &str) -> ExtError {
    ExtError::refused(format!(
        "ROOST_EXT_GIT_BASE={shown} is not a base roost can fetch from{why}"
    ))
    .hint(HINT)
}

/// `base` as a URL ending in `/`.
pub fn normalize(base: &str) -> Result<String, ExtError> {
    let shown = crate::untrusted::printable(base.as_bytes());
    let url = if base.contains("://") || looks_scp(base) {
        base.to_string()
    } else {
        let dir = std::path::Path::new(base);
        if !dir.is_dir() {
            return Err(bad(&shown, " (neither a URL nor an existing directory)"));
        }
        // A relative path is resolved once, here (`..` included).
        let abs = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            dir.canonicalize()
                .map_err(|e| bad(&shown, &format!(" ({})", crate::fsutil::io_words(&e))))?
        };
        let Some(abs) = abs.to_str() else {
            return Err(bad(&shown, " (not UTF-8)"));
        };
        format!("file://{abs}")
    };
    let url = if url.ends_with('/') || url.ends_with(':') {
        url
    } else {
        format!("{url}/")
    };
    names::check_recorded_url(&format!("{url}owner/repo"))
        .map_err(|e| bad(&shown, &format!(" ({e})")))?;
    Ok(url)
}

/// `host:path` (git's scp-like form): a ':' before any '/'.
fn looks_scp(s: &str) -> bool {
    s.split_once(':')
        .is_some_and(|(before, _)| !before.contains('/') && !before.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_become_absolute_file_urls_and_nonsense_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        assert_eq!(normalize(d).unwrap(), format!("file://{d}/"));
        assert_eq!(normalize(&format!("{d}/")).unwrap(), format!("file://{d}/"));
        assert_eq!(
            normalize(&format!("file://{d}")).unwrap(),
            format!("file://{d}/")
        );
        assert_eq!(
            normalize("https://example.com/x").unwrap(),
            "https://example.com/x/"
        );
        assert!(normalize("nonsense-base").is_err());
        assert!(normalize("file://relative/dir").is_err());
        assert!(normalize(&format!("{d}/missing")).is_err());
    }
}
