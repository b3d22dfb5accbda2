//! Where an extension's commits are fetched from: the base URL for
//! OWNER/REPO, and the source, ref and ids a pin in ext.lock records, held
//! to the checks typed input passes (ext.lock is untrusted).

use super::{lock, names};

/// Why a source cannot be used: the base is unusable, or a recorded value
/// fails its check.
#[derive(Debug)]
pub enum OriginError {
    /// `ROOST_EXT_GIT_BASE` cannot be used, and why.
    Base(String),
    /// A recorded field (`repo`, `url`, `ref`) fails its check.
    Field(&'static str, String),
    /// A recorded id (`commit`, `tree`) is not 40 lowercase hex digits; the
    /// value as shown.
    Id(&'static str, String),
}

impl std::fmt::Display for OriginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OriginError::Base(why) => f.write_str(why),
            OriginError::Field(what, why) => write!(f, "ext.lock's {what}: {why}"),
            OriginError::Id(what, shown) => write!(
                f,
                "ext.lock's {what} '{shown}' is not 40 lowercase hex digits"
            ),
        }
    }
}

/// Where OWNER/REPO is fetched from: `${ROOST_EXT_GIT_BASE:-https://github.com/}`
/// (see `base`), or why that base cannot be used.
pub fn url_for(repo: &str) -> Result<String, OriginError> {
    let base = super::git_base::get().map_err(|e| OriginError::Base(e.to_string()))?;
    Ok(format!("{base}{repo}"))
}

/// Where a pinned entry is fetched from: its recorded source, or for an
/// entry from before sources were recorded, the base + its OWNER/REPO.
pub fn recorded_url(pin: &lock::Pin) -> Result<String, OriginError> {
    names::check_recorded_repo(&pin.repo).map_err(|e| OriginError::Field("repo", e.to_string()))?;
    match &pin.url {
        Some(url) => {
            names::check_recorded_url(url).map_err(|e| OriginError::Field("url", e.to_string()))?;
            Ok(url.clone())
        }
        None => {
            names::parse_repo(&pin.repo).map_err(|e| OriginError::Field("repo", e.to_string()))?;
            url_for(&pin.repo)
        }
    }
}

/// A pin's commit and tree as ext.lock holds them: 40 lowercase hex digits
/// each (both are printed and compared).
pub fn recorded_ids(pin: &lock::Pin) -> Result<(), OriginError> {
    for (what, id) in [("commit", &pin.commit), ("tree", &pin.tree)] {
        if !names::is_full_sha(id) || id.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(OriginError::Id(
                what,
                crate::untrusted::printable(id.as_bytes()),
            ));
        }
    }
    Ok(())
}

/// The ref a pinned entry follows: `None` for the remote's HEAD.
pub fn recorded_ref(pin: &lock::Pin) -> Result<Option<&str>, OriginError> {
    if pin.git_ref == "HEAD" {
        return Ok(None);
    }
    names::check_ref(&pin.git_ref).map_err(|e| OriginError::Field("ref", e.to_string()))?;
    Ok(Some(&pin.git_ref))
}
