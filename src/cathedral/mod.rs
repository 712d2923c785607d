//! The board game Cathedral: the board, the pieces and every placement of them, positions and the
//! rules that play moves on them, move notation, explanations of what a move did, position files,
//! and Cathedral's knowledge for the generic search (value bounds, packing) and for sampling
//! (a playing policy).

pub mod bitboard;
pub mod book;
pub mod cell;
pub mod engine;
pub mod explain;
pub mod file;
mod frontend;
mod judge;
pub mod legality;
mod match_game;
pub mod moves;
pub mod notation;
pub mod piece;
pub mod placement;
pub mod player;
pub mod policy;
pub mod position;
pub mod rules;
pub mod sampler;
pub mod search;
pub mod zobrist;
