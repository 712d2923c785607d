//! A small seeded random number generator: the same seed gives the same numbers on every
//! machine, so sampled games, generated puzzles and engine runs are reproducible.

/// A tiny deterministic random number generator (splitmix64). Not for cryptography.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`; the same seed always gives the same numbers.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny modulo bias does not matter here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The seed of game number `game` of a run with master seed `seed` (a sampling run, a puzzle
/// generation, a match's pairs): games of one run differ, and each can be played again alone.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    Rng::new(seed ^ game.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}
