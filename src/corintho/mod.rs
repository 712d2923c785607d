//! Corintho, the second game of the rule sheets: a 4x4 stacking game for 2-4 players, on the
//! same generic core as Cathedral (`docs/corintho.md` states every rule and reading).
//!
//! - [`board`]: levels, stacks, platforms, the 24 lines of three;
//! - [`rules`]: the variants where the sheet allows two readings;
//! - [`moves`]: moves and their notation;
//! - [`position`]: positions, legal moves, claims and wins;
//! - [`search`]: the two-player game for the exact solver; [`engine`]: a paranoid search for
//!   any number of players;
//! - [`file`](mod@file): YAML position files (`game: corintho`); [`explain`]: moves in words;
//!   [`draw`]: terminal text and SVG.
//!
//! ```
//! use cathedral::boardgame::{SolveOptions, solve};
//! use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules};
//! let mut position = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
//! for mv in ["C@b1", "K@a4", "C@c2", "B@d1"] {
//!     position.play(CorinthoMove::parse(mv).unwrap());
//! }
//! // The value only: every root move's value would be a large solve.
//! let options = SolveOptions {
//!     threads: 1, tt_mb: 1, wdl: true, root_values: false, ..SolveOptions::default()
//! };
//! let solution = solve(&position, &options, &|_| {});
//! assert_eq!(solution.value(), Some(1));
//! ```

pub mod board;
pub mod certificate;
pub mod draw;
pub mod engine;
pub mod explain;
pub mod file;
pub mod frontend;
pub mod judge;
mod match_game;
pub mod moves;
pub mod position;
pub mod record;
pub mod refusal;
pub mod rules;
pub mod search;
// The solver's game with symmetry folding and the immediate-win test.
pub mod folded;

pub use board::{Board, EXTENSIONS, LINES, Level, Square, Stack};
pub use folded::Folded;
pub use moves::CorinthoMove;
pub use position::{CorinthoPosition, Outcome};
pub use refusal::{CorinthoMoveError, IllegalCorinthoMove, ParseCorinthoMoveError};
pub use rules::{Answer, CorinthoRules, Lock, Placement};
