//! What a source URL needs of this machine: file:// runs git's
//! `git-upload-pack`, ssh:// runs `ssh`, https runs nothing; and whether
//! that program is on PATH.

use gix::bstr::ByteSlice;

/// A source URL as this machine sees it.
pub struct Requirements {
    /// `https`, `ssh`, `file`, …
    pub scheme: String,
    /// The program the source needs, if it needs one.
    pub program: Option<Program>,
}

/// A program a source needs: any of `names` will do; `what` says what it
/// is for people (`git`, `ssh`).
pub struct Program {
    pub names: &'static [&'static str],
    pub what: &'static str,
    /// Whether one of `names` is on PATH.
    pub found: bool,
}

/// What fetching from `url` needs of this machine; None when `url` is not
/// a URL gix can read.
pub fn requirements(url: &str) -> Option<Requirements> {
    let parsed = gix::url::parse(url.as_bytes().as_bstr()).ok()?;
    Some(Requirements {
        scheme: parsed.scheme.as_str().to_string(),
        program: needs(&parsed).map(|(names, what)| Program {
            names,
            what,
            found: missing_program(&parsed).is_none(),
        }),
    })
}

/// The program a kind of source needs on this machine: file:// runs git's
/// `git-upload-pack` (or `git upload-pack`), ssh runs `ssh`; https runs
/// nothing. `(the programs, any of which will do; what to say it is for)`.
pub(super) fn needs(url: &gix::Url) -> Option<(&'static [&'static str], &'static str)> {
    match url.scheme {
        gix::url::Scheme::File => Some((&["git-upload-pack", "git"], "git")),
        gix::url::Scheme::Ssh => Some((&["ssh"], "ssh")),
        _ => None,
    }
}

/// Says which program is missing for this kind of source, if one is.
pub(super) fn missing_program(url: &gix::Url) -> Option<String> {
    let (programs, what) = needs(url)?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    if programs
        .iter()
        .any(|p| crate::fsutil::find_program(p, &path).is_some())
    {
        return None;
    }
    Some(format!(
        "a {scheme}:// source needs {what} installed, and it is not on PATH: install {what} \
         (https sources need neither git nor ssh)",
        scheme = url.scheme.as_str(),
    ))
}
