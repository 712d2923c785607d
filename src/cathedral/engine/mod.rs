//! Cathedral's playing engine: the exact solver as soon as the position can be solved within a
//! part of the budget, the estimating search ([`crate::boardgame::engine`]) with Cathedral's
//! evaluation ([`eval`]) before that; below full strength, a level of the [`ladder`].

pub mod accumulator;
pub mod eval;
pub mod inputs;
pub mod ladder;
pub mod network;

use eval::Evaluation;

use crate::boardgame::Instant;
use crate::boardgame::engine::{Candidate, EngineInfo, EngineOptions, SCALE, Tunables, think};
use crate::boardgame::{Clock, SolveOptions, solve};
use crate::cathedral::moves::Move;
use crate::cathedral::position::Position;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The strongest level.
pub const MAX_LEVEL: u8 = 10;

/// Buildings left in the larger hand up to which an exact solve is tried first, with a quarter
/// of the budget. One more than [`QUICK_PROOF_BUILDINGS`]: at 9 buildings a quarter of a
/// second proves about one position in six, the rest of the budget still goes to the estimating
/// search, and it measured +68 Elo at 1 s a move over trying from 8 (`docs/engine.md`, "Where
/// the solver starts").
pub const EXACT_TRY_BUILDINGS: u32 = 9;

/// Buildings left in the larger hand up to which the solver proves nearly every position within
/// 1,000,000 nodes (all but 1.5 % of the engine's own games' positions, `docs/engine.md`): where
/// a game's endgame is judged exactly with a small budget (whole-game puzzles, territory maps)
/// and where a clock stops counting moves that need thought.
pub const QUICK_PROOF_BUILDINGS: u32 = 8;

/// The budget of one decision.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// A node budget (deterministic with one thread). Takes precedence over `time`.
    pub nodes: Option<u64>,
    /// A time budget.
    pub time: Option<Duration>,
    /// A game clock instead of a time per move: the engine shares it out ([`Clock::allot`]),
    /// more to a critical move, over the moves it expects to think about (those before the
    /// solver can take over). Ignored with `nodes`.
    pub clock: Option<Clock>,
    /// On a clock, whether to spend more on critical moves (the search's
    /// [`EngineOptions::target`]); off, every move gets its share's target and no more (to
    /// measure what the management brings).
    pub manage_time: bool,
    /// Threads of the exact try and the estimating search (0: every core; one with a node
    /// budget, so that the answer is the same on every run).
    pub threads: usize,
    /// Seeds the noise and the slips of levels below [`MAX_LEVEL`]: vary it from game to game
    /// for games that differ.
    pub seed: u64,
    /// 1 (weakest) to [`MAX_LEVEL`] (full strength): a rung of the [`ladder`].
    pub level: u8,
    /// Weakens the levels below the top the older way instead of the ladder's: each level down
    /// halves the budget and adds half a square of noise, with no slips and no exact solve. The
    /// puzzles' rating solvers, the puzzle generator and the sampler were calibrated on it, and
    /// their records name it ("engine level 3 (20000 nodes at level 10)").
    pub halving: bool,
    /// Table memory in MiB, for the solver and the search each.
    pub tt_mb: usize,
    /// Set to stop soon with the best move so far.
    pub stop: Arc<AtomicBool>,
    /// The evaluation (the default one; others to measure them).
    pub evaluation: Evaluation,
    /// Whether the exact solver may take over (off only to measure what it brings).
    pub exact: bool,
    /// How many of the best moves to rank with their values (1 for play).
    pub candidates: usize,
    /// A move whose value is wanted too, from the same search as the best move's
    /// ([`Choice::also`]): whole-game analysis measures the move played this way.
    pub also: Option<Move>,
    /// The search's pruning near the horizon ([`EngineOptions::pruning`]; on for play).
    pub pruning: bool,
    /// The search's tunable constants ([`EngineOptions::tunables`]): the declared ones unless a
    /// tuner changed them in a build with the `tune` feature.
    pub tunables: Tunables,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            nodes: None,
            time: Some(Duration::from_secs(1)),
            clock: None,
            manage_time: true,
            threads: 1,
            seed: 0,
            level: MAX_LEVEL,
            halving: false,
            tt_mb: 64,
            stop: Arc::default(),
            evaluation: Evaluation::default(),
            exact: true,
            candidates: 1,
            also: None,
            pruning: true,
            tunables: Tunables::default(),
        }
    }
}

pub use crate::boardgame::Judgement;

/// The engine's decision.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move to play; `None` when the game is over.
    pub best: Option<Move>,
    /// The value of the position from the side to move's view, in hundredths of a square:
    /// exact (a whole number of squares) or estimated, as `judgement` says.
    pub value: i32,
    /// Exact or estimated.
    pub judgement: Judgement,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    /// The best [`PlayOptions::candidates`] moves with their values (exact or estimated, as
    /// `judgement` says), best first; for an exact answer, the moves whose value was proven.
    pub candidates: Vec<Candidate<Move>>,
    /// [`PlayOptions::also`] with its value (exact or estimated, as `judgement` says), when the
    /// search finished an iteration, or when the solver proved it among the candidates.
    pub also: Option<Candidate<Move>>,
    /// The deepest finished iteration of the estimating search (0 for an exact answer).
    pub depth: u32,
    /// Nodes of the solver and the search together.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Below the top level, the error people make that it made on this move instead of its
    /// search's move ([`ladder::Slip`]): `best` is the slip's move, the rest is what its search
    /// found.
    pub slip: Option<ladder::Slip>,
}

/// The budget of one decision after the level and the clock, and the noise.
struct Scaled {
    nodes: Option<u64>,
    /// With a clock, the time to aim at.
    target: Option<Duration>,
    /// The most the decision may take.
    limit: Option<Duration>,
    /// The deepest iteration.
    max_depth: Option<u32>,
    noise: i32,
}

/// The budget and noise of `level` in `position` ([`ladder::rung`]): a rung with a search of its
/// own searches that much at most (the caller's nodes and time still cap it); the top rung
/// searches the caller's budget, shared out of the clock when there is one.
fn level_scaled(position: &Position, options: &PlayOptions) -> Scaled {
    if options.halving {
        return halved(position, options);
    }
    let rung = ladder::rung(options.level);
    let (nodes, max_depth) = match rung.search {
        ladder::Search::Full => (options.nodes, None),
        ladder::Search::Nodes(n) => (Some(options.nodes.map_or(n, |c| c.min(n))), None),
        ladder::Search::Depth(d) => (options.nodes, Some(d)),
    };
    let (target, limit) = match (nodes, options.clock) {
        (None, Some(clock)) => {
            let share = clock.allot(moves_to_think(position));
            if options.manage_time {
                (Some(share.target), Some(share.limit))
            } else {
                (None, Some(share.target))
            }
        }
        _ => (None, options.time),
    };
    Scaled {
        nodes,
        target,
        limit,
        max_depth,
        noise: rung.noise,
    }
}

/// [`PlayOptions::halving`]'s budget and noise: each level below the top halves the budget and
/// adds noise of half a square per level to the root moves' estimates.
fn halved(position: &Position, options: &PlayOptions) -> Scaled {
    let below = u32::from(MAX_LEVEL.saturating_sub(options.level.clamp(1, MAX_LEVEL)));
    let full = PlayOptions {
        nodes: options.nodes.map(|n| (n >> below).max(1)),
        halving: false,
        level: MAX_LEVEL,
        ..options.clone()
    };
    let scaled = level_scaled(position, &full);
    let halve = |t: Option<Duration>| t.map(|t| t / (1u32 << below));
    Scaled {
        target: halve(scaled.target),
        limit: halve(scaled.limit),
        noise: below as i32 * SCALE / 2,
        ..scaled
    }
}

/// The side to move's moves that will need thought: its buildings in hand down to where the
/// solver usually answers at once (two fewer than [`QUICK_PROOF_BUILDINGS`]), and at least two.
fn moves_to_think(position: &Position) -> u32 {
    let own = position.side(position.to_move()).hand.buildings();
    own.saturating_sub(QUICK_PROOF_BUILDINGS - 2).max(2)
}

/// Decides the move of `position`: exactly when the solver proves it within a quarter of the
/// budget (of the clock's target with a clock; full strength only), by the estimating search
/// otherwise. `info` gets the search's
/// progress after each iteration.
pub fn choose(
    position: &Position,
    options: &PlayOptions,
    info: &mut dyn FnMut(&EngineInfo<Move>),
) -> Choice {
    let start = Instant::now();
    let Scaled {
        nodes,
        target,
        limit,
        max_depth,
        noise,
    } = level_scaled(position, options);
    // The halving levels are the top rung's search, weakened.
    let rung = ladder::rung(if options.halving {
        MAX_LEVEL
    } else {
        options.level
    });
    let halved_below_top = options.halving && options.level < MAX_LEVEL;
    let mut spent = 0;
    let left = position
        .side(crate::Player::Light)
        .hand
        .buildings()
        .max(position.side(crate::Player::Dark).hand.buildings());
    if options.exact
        && rung.exact
        && !halved_below_top
        && !position.cathedral_to_place()
        && left <= EXACT_TRY_BUILDINGS
    {
        let solved = solve(
            position,
            &SolveOptions {
                threads: if nodes.is_some() { 1 } else { options.threads },
                tt_mb: options.tt_mb,
                initial_tt_mb: Some(options.tt_mb.min(4)),
                wdl: false,
                time_limit: target.or(limit).map(|t| t / 4),
                stop: Arc::clone(&options.stop),
                // `also` alone does not ask for every root move's value, which costs more than
                // the value: its caller can solve the position after it instead.
                root_values: options.candidates > 1,
                max_nodes: nodes.map(|n| n / 4),
                estimate: None,
                window: None,
                method: crate::boardgame::Method::AlphaBeta,
            },
            &|_| {},
        );
        spent = solved.stats.nodes;
        if solved.is_exact() && (position.is_game_over() || !solved.best_line.is_empty()) {
            let mut candidates: Vec<Candidate<Move>> = solved
                .root_moves
                .iter()
                .filter(|r| r.is_exact())
                .map(|r| Candidate {
                    mv: r.mv,
                    estimate: r.lower * SCALE,
                    pv: if solved.best_line.first() == Some(&r.mv) {
                        solved.best_line.clone()
                    } else {
                        vec![r.mv]
                    },
                })
                .collect();
            // Best first; the best line's move first among equals.
            candidates.sort_by_key(|c| {
                (
                    std::cmp::Reverse(c.estimate),
                    solved.best_line.first() != Some(&c.mv),
                )
            });
            let also = options
                .also
                .and_then(|mv| candidates.iter().find(|c| c.mv == mv).cloned());
            candidates.truncate(options.candidates.max(1));
            return Choice {
                candidates,
                also,
                best: solved.best_line.first().copied(),
                value: solved.lower * SCALE,
                judgement: Judgement::Exact,
                pv: solved.best_line,
                depth: 0,
                nodes: spent,
                elapsed: start.elapsed(),
                slip: None,
            };
        }
    }
    let thought = think(
        position,
        &EngineOptions {
            nodes: nodes.map(|n| n.saturating_sub(spent).max(1)),
            time: limit.map(|t| t.saturating_sub(start.elapsed())),
            target: target.map(|t| t.saturating_sub(start.elapsed())),
            tt_mb: options.tt_mb,
            seed: options.seed,
            noise,
            stop: Arc::clone(&options.stop),
            multi_pv: options.candidates.max(1),
            also_rank: options
                .also
                .map(|mv| vec![<Position as crate::boardgame::Game>::encode(mv)])
                .unwrap_or_default(),
            pruning: options.pruning,
            tunables: options.tunables,
            max_depth: max_depth.unwrap_or(EngineOptions::default().max_depth),
            // `think` searches on one thread with a node budget.
            threads: crate::boardgame::thread_count(options.threads),
            ..EngineOptions::default()
        },
        &options.evaluation,
        info,
    );
    let mut choice = Choice {
        best: thought.best,
        value: thought.estimate,
        judgement: Judgement::Estimate,
        pv: thought.pv,
        candidates: thought.candidates,
        also: thought.also.into_iter().next(),
        depth: thought.depth,
        nodes: spent + thought.nodes,
        elapsed: start.elapsed(),
        slip: None,
    };
    if let Some((slip, mv)) = ladder::slip(rung, position, options.seed) {
        choice.best = Some(mv);
        choice.pv = vec![mv];
        choice.slip = Some(slip);
    }
    choice
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_tunables_reach_the_search_in_a_tune_build() {
        use crate::boardgame::engine::{EngineOptions, TUNABLES, Tunables, think};
        let name = "puzzles/bench/t10-01.yaml";
        let position = crate::cathedral::file::load(name.as_ref())
            .unwrap()
            .position;
        let search = |tunables: Tunables| {
            think(
                &position,
                &EngineOptions {
                    nodes: None,
                    time: None,
                    max_depth: 3,
                    tunables,
                    ..Default::default()
                },
                &Default::default(),
                &mut |_| {},
            )
        };
        let declared = search(Tunables::default());
        // Each tunable at the far end of its range searches another tree to the same depth (or,
        // without the feature, cannot be set, and the search is the declared one's).
        for tunable in TUNABLES {
            for value in [tunable.min, tunable.max] {
                if value == tunable.default {
                    continue;
                }
                let mut tunables = Tunables::default();
                let set = tunables.set_number(tunable.name, value);
                let thought = search(tunables);
                if Tunables::settable() {
                    assert_eq!(set, Ok(()));
                    assert_eq!(thought.depth, 3, "{name}, {}={value}", tunable.name);
                    assert!(thought.best.is_some());
                } else {
                    assert!(set.is_err());
                    assert_eq!(thought.nodes, declared.nodes, "{}={value}", tunable.name);
                }
            }
        }
        if Tunables::settable() {
            // Pruning fewer late moves, or more, changes the tree.
            let mut fewer = Tunables::default();
            fewer.set("late_moves", "1").unwrap();
            let mut more = Tunables::default();
            more.set("late_moves", "400").unwrap();
            assert!(search(fewer).nodes < declared.nodes, "{name}");
            assert!(search(more).nodes > declared.nodes, "{name}");
        }
    }
}
