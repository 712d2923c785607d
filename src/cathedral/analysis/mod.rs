//! Cathedral's analyses as data that any front end can print or serialise: [`report`] is the
//! solve report (verdict, best line with each move's effect and the running scores, grouped root
//! moves, statistics); [`view`] describes a position for JSON; [`bestmove`] is the playing
//! engine's decision; [`territory`] predicts who owns each cell at the end; [`accuracy`] measures
//! the estimating search against exact values; [`study_check`] proves a study's answers. The analysis of whole games, written once for
//! every game, is [`crate::analysis`].

pub mod accuracy;
pub mod bestmove;
pub mod report;
pub mod study_check;
pub mod territory;
pub mod view;
