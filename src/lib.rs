//! Cathedral: an exact rules engine, position files and analysis tools for the board game.
//!
//! Data flows one way: a position file ([`file`]) becomes a [`Position`]; the position lists its
//! legal [`Move`]s from the precomputed [`placement`] table; playing a move claims regions and
//! captures buildings by the chosen [`Rules`]; [`explain`] turns what happened into words.

pub mod bitboard;
pub mod cell;
pub mod explain;
pub mod file;
pub mod legality;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod placement;
pub mod player;
pub mod policy;
pub mod position;
pub mod puzzle;
pub mod render;
pub mod rules;
pub mod sampler;
pub mod search;
pub mod solver;
pub mod svg;
pub mod view;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use cell::Cell;
pub use moves::{Move, MoveList, Spared};
pub use piece::{Hand, Piece};
pub use placement::{PlacementId, table};
pub use player::Player;
pub use position::{Building, CathedralStatus, Position, Side};
pub use rules::Rules;
