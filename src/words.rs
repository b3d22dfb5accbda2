//! Words for people that several commands share: a count with its noun.

/// `1 NOUN`, `N NOUNs`: a count and a regular noun, singular or plural.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
