//! Cathedral: an exact rules engine, position files and analysis tools for the board game.
//!
//! Data flows one way: **file -> position -> moves -> search -> report -> front end**. A position
//! file ([`file`]) becomes a [`Position`]; the position lists its legal [`Move`]s from the
//! precomputed placement table; playing a move claims regions and captures buildings by the chosen
//! [`Rules`]; [`explain`] says what happened; the generic solver in [`boardgame`] finds exact
//! values; [`analysis`] turns results into reports that the front ends print; [`present`] draws.
//!
//! The tree (see `docs/architecture.md`):
//! - [`boardgame`]: the generic core that names no game (the [`boardgame::Game`] trait, the exact
//!   solver, perft, a seeded random number generator);
//! - the Cathedral game itself, re-exported here and in [`rules`], [`notation`], [`legality`],
//!   [`explain`], [`file`] and [`sampler`];
//! - [`analysis`]: results as data; [`arena`]: engine matches; [`present`]: terminal text, SVG, HTML; [`puzzle`]: teaching
//!   puzzles on top of all of it.
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

pub mod analysis;
pub mod arena;
pub mod boardgame;
mod cathedral;
pub mod corintho;
pub mod frontend;
pub mod present;
pub mod puzzle;
#[cfg(feature = "python")]
mod python;

pub use cathedral::bitboard::Bitboard;
pub use cathedral::cell::Cell;
pub use cathedral::moves::{Move, MoveList, Spared};
pub use cathedral::piece::{Hand, Piece, SQUARES_PER_PLAYER};
pub use cathedral::placement::{PlacementId, table};
pub use cathedral::player::Player;
pub use cathedral::position::{Building, CathedralStatus, ClaimLog, Position, Side};
pub use cathedral::rules::Rules;
pub use cathedral::zobrist::Key;
pub use cathedral::{book, engine, explain, file, legality, notation, policy, rules, sampler};

/// Internals exposed for the crate's own tests and benchmarks only: not part of the API, and
/// free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::cathedral::position::SLOT_PIECES;
    pub use crate::cathedral::search::packing::split_value;
    pub use crate::cathedral::search::{FinalRange, final_ranges};
}
