//! A small deterministic generator (xorshift64) for the tests that draw
//! their cases: the same seed draws the same cases, so a failure can be run
//! again. Only tests use it (the walker's property test, the crash test's
//! kill points); no crate is added for randomness.

/// The generator; any seed but 0.
pub struct Rng(pub u64);

impl Rng {
    pub fn draw(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (which is not 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.draw() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.draw() % 100 < percent
    }

    /// One of `all` (which is not empty).
    pub fn pick<'a, T>(&mut self, all: &'a [T]) -> &'a T {
        &all[self.below(all.len())]
    }
}
