//! The playing engine: a search that estimates, beside the exact solver that proves.
//!
//! Iterative deepening alpha-beta (principal variation search) with an evaluation at the depth
//! horizon, a transposition table, and move ordering from the table, killer moves, a history of
//! good moves and the game's own ordering score. It works on any [`Game`] that can also
//! [`Evaluate`] itself. Its values are estimates in hundredths of a square ([`SCALE`]); a value
//! it proves (the game ends inside the searched tree with no estimate on the way) is still
//! reported as an estimate: only the exact solver claims exactness.
//!
//! With a node budget and one thread the search is deterministic: the same position, budget and
//! seed give the same move on every machine.

mod history;
mod search;
mod table;
mod tunables;

pub use search::{Candidate, EngineInfo, EngineOptions, Thought, think};
pub use tunables::{TUNABLES, Tunable, Tunables, TuneError};

use super::{Estimator, Game};

/// Values of [`Evaluate::evaluate`] and of the engine's estimates are in hundredths of a square.
pub const SCALE: i32 = 100;

/// A game the engine can play: it estimates the final value of a position.
pub trait Evaluate: Game {
    /// What the evaluation is tuned by (its weights), so that variants can be compared in
    /// matches; `Default` is the tuned one.
    type Params: Default + Sync;

    /// The estimated final value from the side to move's view, in [`SCALE`] units (hundredths of
    /// the game's score unit). Called at the depth horizon on positions that are not over.
    fn evaluate(&self, params: &Self::Params) -> i32;

    /// What the evaluation carries from a position to its children in the search: an
    /// NNUE-style accumulator (sums of the evaluation's first layer, updated by what a move
    /// changed instead of summed again at every horizon position); `()` where it carries none.
    type Accumulator: Clone + Default + Send;

    /// Makes `out` the accumulator of this position, from scratch.
    fn accumulate(&self, _params: &Self::Params, _out: &mut Self::Accumulator) {}

    /// Makes `out` the accumulator of this position, a child of `parent` whose accumulator is
    /// `from`: what [`Evaluate::accumulate`] would make, exactly, for less.
    fn accumulate_from(
        &self,
        _parent: &Self,
        _from: &Self::Accumulator,
        params: &Self::Params,
        out: &mut Self::Accumulator,
    ) {
        self.accumulate(params, out);
    }

    /// [`Evaluate::evaluate`] with this position's accumulator: the same value, exactly.
    fn evaluate_accumulated(&self, _accumulator: &Self::Accumulator, params: &Self::Params) -> i32 {
        self.evaluate(params)
    }

    /// Whether evaluating with `params` costs enough that the search should remember the
    /// evaluations of horizon positions by key (a lookup in a table of 1.5 MB: measured a loss
    /// for Cathedral's linear features, a gain for its network, `docs/engine.md`).
    fn worth_remembering(_params: &Self::Params) -> bool {
        false
    }

    /// Whether the game's proven bounds ([`Game::window_bounds`]) are worth asking for here:
    /// the search asks at every node where they are (a node they decide is not searched, an
    /// estimate outside them is moved into them), and they cost time where they rarely decide.
    fn bounds_worth_asking(&self) -> bool {
        true
    }

    /// The exact solver's node budget for this position at the search's horizon (only where
    /// [`Evaluate::bounds_worth_asking`] holds too): on the principal line (`principal`, a few
    /// positions an iteration, whose values become the search's) or in a null-window scout
    /// (most of the horizon). A solve that finishes within it gives the exact value, or a
    /// proven bound outside the window, which the search uses instead of its estimate; one that
    /// does not leaves the estimate. Its nodes count as the search's. 0, the default: no solve.
    fn horizon_solve_budget(&self, _principal: bool) -> u64 {
        0
    }

    /// An upper bound on the plies left until the game ends, whatever is played: an iteration
    /// this deep sees every line to its end, so deeper ones would find nothing new.
    fn max_plies_left(&self) -> u32 {
        u32::MAX
    }
}

/// An [`Estimator`] for the solver ([`crate::boardgame::SolveOptions::estimate`]): this search's
/// estimate of `position` within the node budget it is given (one thread, so the same on every
/// run), rounded to whole score units.
pub fn estimator<G: Evaluate + 'static>(position: &G) -> Estimator {
    let position = *position;
    Estimator::new(move |nodes| {
        let options = EngineOptions {
            nodes: Some(nodes.max(1)),
            time: None,
            tt_mb: 16,
            ..EngineOptions::default()
        };
        let thought = think(&position, &options, &G::Params::default(), &mut |_| {});
        (f64::from(thought.estimate) / f64::from(SCALE)).round() as i32
    })
}
