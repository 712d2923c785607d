//! Difficulty from measured features of the solution. The formula is documented in
//! `docs/puzzles.md`; change both together.

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// The level of a rating: easy up to [`EASY_MAX`], medium up to [`MEDIUM_MAX`], hard above.
    pub fn of_rating(rating: u32) -> Difficulty {
        match rating {
            0..=EASY_MAX => Difficulty::Easy,
            r if r <= MEDIUM_MAX => Difficulty::Medium,
            _ => Difficulty::Hard,
        }
    }
}

/// The highest rating of an easy puzzle.
pub const EASY_MAX: u32 = 12;
/// The highest rating of a medium puzzle.
pub const MEDIUM_MAX: u32 = 15;

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
