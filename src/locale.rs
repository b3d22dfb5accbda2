//! Whether roost's own output may use UTF-8: the character set the locale
//! names (LC_ALL, else LC_CTYPE, else LANG; none of them means C), and
//! whether the C library has a locale of a given name.

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

/// Whether the C library has the locale `name` installed: setting it as
/// LC_CTYPE succeeds. The locale in force is restored afterwards. Call it
/// only while no other thread may be using the locale (doctor, at its
/// start).
pub fn installed(name: &str) -> bool {
    let Ok(wanted) = std::ffi::CString::new(name) else {
        return false;
    };
    // SAFETY: setlocale is given NUL-terminated strings; the name of the
    // locale in force is copied before the next call overwrites it.
    unsafe {
        let current = libc::setlocale(libc::LC_CTYPE, std::ptr::null());
        let saved = (!current.is_null()).then(|| std::ffi::CStr::from_ptr(current).to_owned());
        let found = !libc::setlocale(libc::LC_CTYPE, wanted.as_ptr()).is_null();
        if let Some(saved) = saved {
            libc::setlocale(libc::LC_CTYPE, saved.as_ptr());
        }
        found
    }
}
