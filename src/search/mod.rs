//! A generic exact game solver: negamax alpha-beta over a final score, a shared lock-free
//! transposition table, null-window probes and threads spread by "being searched" marks. A game
//! plugs in through [`game::Game`]; Cathedral's knowledge lives in [`cathedral`].

pub mod busy;
pub mod cathedral;
pub mod game;
pub mod negamax;
pub mod packing;
pub mod parallel;
pub mod tt;
