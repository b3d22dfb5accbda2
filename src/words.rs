//! Words for people that several commands share: a count with its noun, a
//! list in a sentence.

/// `1 NOUN`, `N NOUNs`: a count and a regular noun, singular or plural.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lists_read_as_a_sentence() {
        let l = |v: &[&str]| super::list(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(l(&[]), "");
        assert_eq!(l(&["a"]), "a");
        assert_eq!(l(&["a", "b", "c"]), "a, b and c");
    }
}
