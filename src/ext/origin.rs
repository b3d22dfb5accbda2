//! Where an extension's commits are fetched from: the base URL for
//! OWNER/REPO, and the source, ref and ids a pin in ext.lock records, held
//! to the checks typed input passes (ext.lock is untrusted).

use super::error::{ExtError, Result};
use super::{lock, names};

/// A recorded field (`repo`, `url`, `ref`) that fails its check: the record
/// stands in the way.
fn field(what: &str, e: ExtError) -> ExtError {
    ExtError::failed(format!("ext.lock's {what}: {e}"))
}

/// Where OWNER/REPO is fetched from: `${ROOST_EXT_GIT_BASE:-https://github.com/}`
/// (see `base`), or why that base cannot be used.
pub fn url_for(repo: &str) -> Result<String> {
    Ok(format!("{}{repo}", super::git_base::get()?))
}

/// Where a pinned entry is fetched from: its recorded source, or for an
/// entry from before sources were recorded, the base + its OWNER/REPO.
pub fn recorded_url(pin: &lock::Pin) -> Result<String> {
    names::check_recorded_repo(&pin.repo).map_err(|e| field("repo", e))?;
    match &pin.url {
        Some(url) => {
            names::check_recorded_url(url).map_err(|e| field("url", e))?;
            Ok(url.clone())
        }
        None => {
            names::parse_repo(&pin.repo).map_err(|e| field("repo", e))?;
            url_for(&pin.repo)
        }
    }
}

/// A pin's commit and tree as ext.lock holds them: 40 lowercase hex digits
/// each (both are printed and compared).
pub fn recorded_ids(pin: &lock::Pin) -> Result<()> {
    for (what, id) in [("commit", &pin.commit), ("tree", &pin.tree)] {
        if !names::is_full_sha(id) || id.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(ExtError::failed(format!(
                "ext.lock's {what} '{}' is not 40 lowercase hex digits",
                crate::untrusted::printable(id.as_bytes())
            )));
        }
    }
    Ok(())
}

/// The ref a pinned entry follows: `None` for the remote's HEAD.
pub fn recorded_ref(pin: &lock::Pin) -> Result<Option<&str>> {
    if pin.git_ref == "HEAD" {
        return Ok(None);
    }
    names::check_ref(&pin.git_ref).map_err(|e| field("ref", e))?;
    Ok(Some(&pin.git_ref))
}
