//! The git layer's errors as text: an error and its causes on one line,
//! the way every git operation here reports what it could not do.

pub type Result<T> = std::result::Result<T, String>;

/// An error and its causes on one line.
pub fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

pub fn io(what: &str, e: std::io::Error) -> String {
    format!("{what}: {e}")
}
