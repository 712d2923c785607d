//! Cathedral: an exact rules engine, position files and analysis tools for the board game.
//!
//! Data flows one way: **file -> position -> moves -> search -> report -> front end**. A position
//! file ([`file`](mod@file)) becomes a [`Position`]; the position lists its legal [`Move`]s from the
//! precomputed placement table; playing a move claims regions and captures buildings by the chosen
//! [`Rules`]; [`explain`] says what happened; the generic solver in [`boardgame`] finds exact
//! values; [`report`] turns a solve into a report that the front ends print; [`draw`] draws.
//!
//! The tree (see `docs/architecture.md`): shared layers that name no game, each game whole in
//! its own folder, and the front ends on top.
//! - [`boardgame`]: the generic core (the [`boardgame::Game`] trait, the exact solver, the
//!   estimating search, perft, a seeded random number generator); [`files`]: located file errors,
//!   reading and atomic writing; [`present`]: words, tables and terminal styles; [`frontend`]:
//!   what a front end needs of a game and the commands written once for every game;
//!   [`analysis`]: whole-game analysis and standings for any game; [`arena`]: engine matches for
//!   any game;
//! - Cathedral, re-exported here: its types at the root, and [`rules`], [`notation`],
//!   [`legality`], [`explain`], [`file`](mod@file), [`engine`], [`policy`], [`sampler`], [`book`], its
//!   analyses ([`report`], [`view`], [`territory`], [`bestmove`], [`accuracy`]), its drawings
//!   ([`draw`]) and its teaching puzzles ([`puzzle`]);
//! - [`corintho`]: the second game.
//!
//! ```
//! use cathedral::{MoveList, Position, Rules};
//!
//! let file = cathedral::file::load(std::path::Path::new("puzzles/examples/opening.yaml"))?;
//! let mut moves = MoveList::new();
//! file.position.legal_moves(&mut moves);
//! assert!(!moves.is_empty());
//! assert_eq!(Position::new(Rules::CLASSIC).to_move(), cathedral::Player::Light);
//! # Ok::<(), cathedral::file::FileError>(())
//! ```

#![warn(missing_docs)]

/// This version of the toolkit (SemVer), the same in the crate, the Python package, the web
/// board and every release artefact (`tests/release.rs` keeps them equal).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit this build is made from, its first 12 hex digits (`unknown` where the build could
/// not tell: `build.rs`).
pub const COMMIT: &str = env!("CATHEDRAL_COMMIT");

/// The version with its commit, as `cathedral --version`, the web board's footer and the
/// server's health answer say it: `0.1.0 (commit 1a2b3c4d5e6f)`.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CATHEDRAL_COMMIT"),
    ")"
);

// The shared layers, in the order they may use each other (tests/layers.rs keeps it so).
pub mod analysis;
pub mod arena;
pub mod boardgame;
pub mod files;
pub mod frontend;
pub mod play;
pub mod present;
// The games.
mod cathedral;
pub mod corintho;
#[cfg(feature = "python")]
mod python;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use cathedral::analysis::{accuracy, bestmove, report, study_check, territory, view};
pub use cathedral::bitboard::Bitboard;
pub use cathedral::cell::Cell;
pub use cathedral::moves::{Move, MoveList, Spared};
pub use cathedral::piece::{Hand, Piece, SQUARES_PER_PLAYER};
pub use cathedral::placement::{PlacementId, table};
pub use cathedral::player::Player;
pub use cathedral::position::{Building, CathedralStatus, ClaimLog, Position, Side};
pub use cathedral::rules::Rules;
pub use cathedral::zobrist::Key;
pub use cathedral::{
    book, draw, engine, explain, file, legality, notation, policy, puzzle, rules, sampler, service,
};

/// Internals exposed for the crate's own tests and benchmarks only: not part of the API, and
/// free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::cathedral::position::SLOT_PIECES;
    pub use crate::cathedral::search::packing::split_value;
    pub use crate::cathedral::search::{FinalRange, final_ranges};
}
