//! Teaching puzzles: late positions with exactly one best move, found by playing policy games
//! and solving them exactly (see `docs/puzzles.md`).
//!
//! - [`analyse`]: the criteria (one best move by a margin, not the greedy move) on one position
//! - [`greedy`]: the simple player whose choice a puzzle must not reward
//! - [`themes`]: themes detected from the solution
//! - [`difficulty`]: the difficulty score from measured features
//! - [`generate`]: seeded, parallel, deterministic generation into puzzle files
//! - [`check`]: is a move the answer, and if not, the refutation
//! - [`sheet`]: a printable HTML worksheet
//! - [`index`]: the README index of a puzzle directory

pub mod analyse;
pub mod check;
pub mod difficulty;
pub mod generate;
pub mod greedy;
pub mod index;
pub mod sheet;
pub mod themes;

use std::fmt;
use std::str::FromStr;

pub use analyse::{Analysis, Reject, analyse};
pub use difficulty::{Difficulty, Features};
pub use themes::Theme;

/// The question of a puzzle with exact value `value` for `mover`: "Dark to play and win by 3".
pub fn question(mover: crate::Player, value: i32) -> String {
    let who = mover.title();
    match value {
        v if v > 0 => format!(
            "{who} to play and win by {v} square{}",
            if v == 1 { "" } else { "s" }
        ),
        0 => format!("{who} to play and draw"),
        v => format!(
            "{who} to play and lose by only {} square{}",
            -v,
            if v == -1 { "" } else { "s" }
        ),
    }
}

/// A name that is not one of a list of words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{given}` is not a {what}: expected {expected}")]
pub struct ParseNameError {
    pub given: String,
    pub what: &'static str,
    pub expected: String,
}

fn parse_name<T: Copy>(
    text: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
    what: &'static str,
) -> Result<T, ParseNameError> {
    let wanted = text.trim().to_ascii_lowercase().replace('_', "-");
    all.iter()
        .copied()
        .find(|t| name(*t) == wanted)
        .ok_or_else(|| ParseNameError {
            given: text.to_string(),
            what,
            expected: all.iter().map(|t| name(*t)).collect::<Vec<_>>().join(", "),
        })
}

impl FromStr for Theme {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Theme, ParseNameError> {
        parse_name(s, &Theme::ALL, Theme::name, "theme")
    }
}

impl FromStr for Difficulty {
    type Err = ParseNameError;
    fn from_str(s: &str) -> Result<Difficulty, ParseNameError> {
        parse_name(s, &Difficulty::ALL, Difficulty::name, "difficulty")
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
