//! Game analysis for any game, naming none: what a game must offer to be judged ([`Judge`],
//! within a [`Budget`]), every move of a recorded game judged and marked ([`game`]), and the
//! standings of matches and tournaments from game records
//! ([`standings`]). Each game's own analyses (Cathedral's solve report, territory view and
//! engine decision) live in its folder.

pub mod bench;
pub mod game;
mod judge;
pub mod standings;

pub use judge::{Budget, Judge, REVIEW_TT_MB, Recheck};
