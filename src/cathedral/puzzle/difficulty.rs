//! Difficulty from measured features of the solution. The formula is documented in
//! `docs/puzzles.md`; change both together.

use crate::cathedral::file::Difficulty;

/// What the difficulty is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Moves (plies) of the best line, to the end of the game.
    pub line: usize,
    /// Other moves that the sensible policy scores at least as high as the answer: they all lose.
    pub tempting: usize,
    /// How much worse the second best move is, in squares.
    pub gap: i32,
    /// Solver nodes spent on the position (the answer and the tempting move's refutation).
    pub nodes: u64,
    /// Whether the greedy player (biggest piece, most squares claimed) could pick the answer.
    pub greedy_finds_it: bool,
}

impl Features {
    /// The rating:
    /// `line` (plies of the best line, at most 12)
    /// + 2 per tempting alternative (at most 4 counted)
    /// + closeness: 3 when the second best is 1 square worse, 2 for 2, 1 for 3, else 0
    /// + effort: the number of decimal digits of the solver's node count, minus 2 (at least 0)
    /// + 3 when the greedy player would not find the answer.
    pub fn rating(&self) -> u32 {
        let line = self.line.min(12) as u32;
        let tempting = 2 * self.tempting.min(4) as u32;
        let closeness = match self.gap {
            1 => 3,
            2 => 2,
            3 => 1,
            _ => 0,
        };
        let digits = self.nodes.max(1).ilog10() + 1;
        let effort = digits.saturating_sub(2);
        let not_greedy = if self.greedy_finds_it { 0 } else { 3 };
        line + tempting + closeness + effort + not_greedy
    }

    /// The level: by [`Features::rating`], except that a puzzle the greedy player solves is
    /// always easy.
    pub fn difficulty(&self) -> Difficulty {
        if self.greedy_finds_it {
            Difficulty::Easy
        } else {
            Difficulty::of_rating(self.rating())
        }
    }
}
