//! The board game Cathedral, whole: the board, the pieces and every placement of them, positions
//! and the rules that play moves on them, move notation, explanations of what a move did, position
//! files and game records, Cathedral's knowledge for the generic search (value bounds, packing),
//! its playing engine and evaluation, the sampling policy and sampler, the opening book, its
//! analyses ([`analysis`]: the solve report, the territory view, the engine's decision), its
//! drawings ([`draw`]: terminal text, SVG, the game report), the teaching puzzles ([`puzzle`]),
//! and its adapters to the shared layers' traits (`frontend.rs`: `Playable` and `Recorded`;
//! `judge.rs`: `Judge`; `match_game.rs`: `MatchGame`).

pub mod analysis;
pub mod bitboard;
pub mod book;
pub mod cell;
pub mod draw;
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
pub mod puzzle;
pub mod rules;
pub mod sampler;
pub mod search;
pub mod service;
pub mod zobrist;
