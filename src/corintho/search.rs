//! Corintho as a [`Game`] for the generic solver and perft: two players, values win +1, draw 0,
//! loss -1 from the side to move's view.

use super::moves::CorinthoMove;
use super::position::{CorinthoPosition, Outcome};
use crate::boardgame::Game;

impl Game for CorinthoPosition {
    type Move = CorinthoMove;
    type Buffer = Vec<CorinthoMove>;

    const MIN_VALUE: i32 = -1;
    const MAX_VALUE: i32 = 1;

    fn key(&self) -> (u64, u64) {
        // The plain key has its varying bits low and constant ones high, and the table picks
        // its bucket from the high bits of the second half: mix both halves. Each step is a
        // bijection of the pair, so the mixed key still identifies the position completely.
        let (a, b) = CorinthoPosition::key(self);
        let a = mix(a);
        (a, mix(b ^ a.rotate_left(29)))
    }

    fn generate(&self, buffer: &mut Vec<CorinthoMove>) {
        CorinthoPosition::generate(self, buffer);
    }

    fn moves(buffer: &mut Vec<CorinthoMove>) -> &mut [CorinthoMove] {
        buffer
    }

    fn play(&mut self, mv: CorinthoMove) {
        CorinthoPosition::play(self, mv);
    }

    fn terminal_value(&self) -> i32 {
        match self.outcome() {
            Outcome::Won(p) if p == self.to_move() => 1,
            Outcome::Won(_) => -1,
            Outcome::Drawn | Outcome::Ongoing => 0,
        }
    }

    fn move_score(&self, mv: CorinthoMove) -> i32 {
        // Moves that make a row (a claim the opponent must answer) first, then moves towards
        // the centre.
        let claim = i32::from(self.makes_row(mv));
        let centre = mv.destination().map_or(0, |sq| {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            3 - ((2 * f - 3).abs() + (2 * r - 3).abs()) / 2
        });
        claim * 100 + centre
    }

    fn encode(mv: CorinthoMove) -> u32 {
        mv.encode()
    }

    fn decode(code: u32) -> CorinthoMove {
        CorinthoMove::decode(code)
    }
}

/// The SplitMix64 finaliser: a bijection of `u64` that spreads every bit over all bits.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
