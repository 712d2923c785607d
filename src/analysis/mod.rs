//! The analysis layer: results as data that any front end can print or serialise. [`report`] is
//! the solve report (verdict, best line with each move's effect and the running scores, grouped
//! root moves, statistics); [`moves`] lists the legal moves per piece; [`words`] puts values and counts into words; [`view`] describes a
//! position for JSON; [`bestmove`] is the playing engine's decision; [`game`] judges every move of
//! a game; [`standings`] scores matches and tournaments from game records.

pub mod bestmove;
pub mod game;
pub mod moves;
pub mod report;
pub mod standings;
pub mod view;
pub mod words;
