//! The analysis layer: results as data that any front end can print or serialise. [`accuracy`]
//! measures the estimating search against exact values; [`report`] is
//! the solve report (verdict, best line with each move's effect and the running scores, grouped
//! root moves, statistics); [`words`] puts values and counts into words; [`view`] describes a
//! position for JSON; [`bestmove`] is the playing engine's decision; [`game`] judges every move of
//! a game; [`standings`] scores matches and tournaments from game records; [`territory`] predicts who
//! owns each cell at the end.

pub mod accuracy;
pub mod bestmove;
pub mod game;
pub mod report;
pub mod standings;
pub mod territory;
pub mod view;
pub mod words;
