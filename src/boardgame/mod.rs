//! The generic core: everything here names no game.
//!
//! A two-player game with a final score plugs in by implementing [`Game`]; then [`solve`] solves
//! its positions exactly (null-window probes, root-move values, a best line, progress, stop, any
//! number of threads, by alpha-beta or by proof-number search ([`ProofSearch`])), [`perft`] counts its move sequences, and a game that can also estimate
//! its positions ([`engine::Evaluate`]) is played by the estimating search of [`engine`]. `src/cathedral/search/` is the
//! Cathedral implementation; `tests/toy_game.rs` is a small one.

mod clock;
pub mod engine;
mod game;
mod instant;
mod judgement;
mod perft;
mod progress;
mod proof;
mod rng;
mod search;
mod solve;
mod threads;

pub use clock::{Allotment, Clock};
pub use game::{Game, child_window, from_child};
pub use instant::{Instant, StopAfter, stop_after};
pub use judgement::Judgement;
pub use perft::{divide, perft};
pub use proof::{ProofSearch, child_target};
pub use rng::{Rng, game_seed};
pub use search::tt::Table;
pub use solve::{
    ESTIMATE_AFTER_NODES, Estimator, GROW_AFTER_NODES, Method, Phase, Progress, RootMove, Solution,
    SolveOptions, Stats, solve,
};
pub use threads::thread_count;
