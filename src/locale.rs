//! Whether roost's own output may use UTF-8: the character set the locale
//! names (LC_ALL, else LC_CTYPE, else LANG; none of them means C).

/// Whether the locale roost runs in is a UTF-8 one.
pub fn is_utf8() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .into_iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .is_some_and(|value| names_utf8(&value))
}

/// Whether a locale's name says UTF-8 (`C.UTF-8`, `en_US.utf8`).
pub fn names_utf8(locale: &str) -> bool {
    let l = locale.to_ascii_lowercase();
    l.contains("utf-8") || l.contains("utf8")
}
