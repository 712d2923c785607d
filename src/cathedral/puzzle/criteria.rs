//! Whether a position is a good puzzle: solved exactly within a budget, exactly one best move
//! (placements of the same piece on the same cells count as one move), better than the second
//! best by a margin; then its themes and difficulty.

use super::difficulty::Features;
use super::greedy;
use super::themes::{self, Refutation};
use crate::boardgame::{Progress, RootMove, SolveOptions, solve};
use crate::cathedral::file::Difficulty;
use crate::cathedral::file::Theme;
use crate::cathedral::moves::Move;
use crate::cathedral::placement::PlacementId;
use crate::cathedral::policy::{Policy, effect};
use crate::cathedral::position::Position;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The budget and the margin.
#[derive(Clone, Debug)]
pub struct AnalyseOptions {
    /// The best move must beat the second best by at least this many squares.
    pub margin: i32,
    /// Per solve; a position not solved in time is rejected.
    pub time_limit: Duration,
    /// A position needing more solver nodes is rejected (a deterministic budget: node counts of
    /// a one-thread solve are repeatable, times are not).
    pub max_nodes: u64,
    /// Transposition table per solve, MiB (the most it grows to; small solves use less).
    pub tt_mb: usize,
    /// Start with a table this small and grow to `tt_mb` on need (see
    /// [`SolveOptions::initial_tt_mb`]); `None` allocates `tt_mb` at once.
    pub initial_tt_mb: Option<usize>,
    /// Worker threads per solve (0 = all cores). Node counts, and so `max_nodes`, are
    /// repeatable with one thread only.
    pub threads: usize,
    /// Set it to stop: solves in flight end unproven (so their positions are rejected).
    pub stop: Arc<AtomicBool>,
}

impl Default for AnalyseOptions {
    fn default() -> Self {
        AnalyseOptions {
            margin: 1,
            time_limit: Duration::from_secs(5),
            max_nodes: 2_000_000,
            tt_mb: 16,
            initial_tt_mb: None,
            threads: 1,
            stop: Arc::default(),
        }
    }
}

/// Why a position is not a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// The game is over: there is no move to find.
    GameOver,
    /// Not solved exactly within the time limit or the node budget.
    Unsolved,
    /// Fewer than two different moves.
    OnlyMove,
    /// The best move is a pass.
    Pass,
    /// Another move is as good, or worse by less than the margin.
    NotUnique {
        /// How many squares worse the second best move is.
        gap: i32,
    },
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reject::GameOver => f.write_str("the game is over"),
            Reject::Unsolved => f.write_str("not solved exactly within the budget"),
            Reject::OnlyMove => f.write_str("there is only one move"),
            Reject::Pass => f.write_str("the best move is a pass"),
            Reject::NotUnique { gap } => {
                write!(f, "the second best move is only {gap} square(s) worse")
            }
        }
    }
}

/// A position that passed every criterion.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The puzzle position.
    pub position: Position,
    /// Exact, from the side to move's view.
    pub value: i32,
    /// The answer: the best move, better than any other by at least the margin.
    pub best_move: Move,
    /// Best play from the position to the end of the game, starting with `best_move`.
    pub best_line: Vec<Move>,
    /// The value of the best different move.
    pub second_best: i32,
    /// Different moves (placements) available.
    pub moves: usize,
    /// Whether a greedy player (biggest piece, most squares claimed) could pick the answer.
    pub greedy_finds_it: bool,
    /// The greedy move that loses least, refuted; `None` when the greedy player finds the answer.
    pub refutation: Option<Refutation>,
    /// Themes detected from the solution.
    pub themes: Vec<Theme>,
    /// What the difficulty rating is computed from.
    pub features: Features,
    /// The difficulty level of the rating.
    pub difficulty: Difficulty,
    /// Solver nodes, all solves together.
    pub nodes: u64,
}

pub(super) fn solve_options(options: &AnalyseOptions, root_values: bool) -> SolveOptions {
    SolveOptions {
        threads: options.threads,
        tt_mb: options.tt_mb,
        initial_tt_mb: options.initial_tt_mb,
        wdl: false,
        time_limit: Some(options.time_limit),
        root_values,
        stop: Arc::clone(&options.stop),
        // A solve needing more is rejected anyway: stop it there rather than at the time limit.
        max_nodes: Some(options.max_nodes),
        estimate: None,
        window: None,
        method: crate::boardgame::Method::AlphaBeta,
    }
}

/// Solves `position` exactly with its best line, or `None` if it does not fit the budget.
pub fn solve_line(position: &Position, options: &AnalyseOptions) -> Option<(i32, Vec<Move>, u64)> {
    solve_line_watched(position, options, &|_| {})
}

/// [`solve_line`], reporting the solver's progress to `progress`.
pub fn solve_line_watched(
    position: &Position,
    options: &AnalyseOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Option<(i32, Vec<Move>, u64)> {
    let solution = solve(position, &solve_options(options, false), progress);
    let ok = solution.is_exact()
        && solution.stats.nodes <= options.max_nodes
        && (position.is_game_over() || !solution.best_line.is_empty());
    ok.then_some((solution.lower, solution.best_line, solution.stats.nodes))
}

/// The value of each different move at the root: one entry per placement (its capture variants
/// are the same move), holding the best variant's value and move.
pub(super) fn placement_values(
    root_moves: &[RootMove<Move>],
) -> BTreeMap<Option<PlacementId>, (i32, Move)> {
    let mut by_placement: BTreeMap<Option<PlacementId>, (i32, Move)> = BTreeMap::new();
    for root in root_moves {
        let entry = by_placement
            .entry(root.mv.placement())
            .or_insert((root.lower, root.mv));
        if root.lower > entry.0 {
            *entry = (root.lower, root.mv);
        }
    }
    by_placement
}

/// Among the greedy player's choices, the one that loses least (the first in move order on
/// ties).
pub(super) fn greedy_tempting(
    greedy: &[Move],
    by_placement: &BTreeMap<Option<PlacementId>, (i32, Move)>,
) -> Option<Move> {
    let value_of = |mv: Move| by_placement.get(&mv.placement()).map_or(i32::MIN, |e| e.0);
    greedy
        .iter()
        .copied()
        .max_by_key(|&m| (value_of(m), std::cmp::Reverse(m)))
}

/// Checks every criterion on `position` and, if it is a puzzle, detects themes and difficulty.
pub fn analyse(position: &Position, options: &AnalyseOptions) -> Result<Analysis, Reject> {
    if position.is_game_over() {
        return Err(Reject::GameOver);
    }
    let solution = solve(position, &solve_options(options, true), &|_| {});
    if !solution.complete
        || !solution.is_exact()
        || solution.best_line.is_empty()
        || solution.stats.nodes > options.max_nodes
    {
        return Err(Reject::Unsolved);
    }
    let value = solution.lower;
    let by_placement = placement_values(&solution.root_moves);
    if by_placement.len() < 2 {
        return Err(Reject::OnlyMove);
    }
    let best_move = solution.best_line[0];
    if best_move.is_pass() {
        return Err(Reject::Pass);
    }
    let second_best = by_placement
        .iter()
        .filter(|(p, _)| **p != best_move.placement())
        .map(|(_, (v, _))| *v)
        .max()
        .unwrap_or(i32::MIN);
    let gap = value - second_best;
    if gap < options.margin {
        return Err(Reject::NotUnique { gap });
    }
    let mut nodes = solution.stats.nodes;

    let greedy = greedy::choices(position);
    let greedy_finds_it = greedy
        .iter()
        .any(|m| m.placement() == best_move.placement());
    let refutation = if greedy_finds_it {
        None
    } else {
        let tempting = greedy_tempting(&greedy, &by_placement);
        match tempting {
            Some(mv) => {
                let mut after = *position;
                after.play(mv);
                let (child, line, n) = solve_line(&after, options).ok_or(Reject::Unsolved)?;
                nodes += n;
                Some(Refutation {
                    mv,
                    value: -child,
                    line,
                })
            }
            None => None,
        }
    };

    // Tempting alternatives: different moves the sensible policy scores at least as high as the
    // answer. All of them lose (the answer is unique).
    let policy = Policy::default();
    let best_score = policy.score(&effect(position, best_move));
    let tempting = by_placement
        .iter()
        .filter(|(p, _)| **p != best_move.placement())
        .filter(|(_, (_, mv))| !mv.is_pass() && policy.score(&effect(position, *mv)) >= best_score)
        .count();
    let features = Features {
        line: solution.best_line.len(),
        tempting,
        gap,
        nodes,
        greedy_finds_it,
    };
    let themes = themes::detect(position, &solution.best_line, &greedy, refutation.as_ref());
    Ok(Analysis {
        position: *position,
        value,
        best_move,
        best_line: solution.best_line,
        second_best,
        moves: by_placement.len(),
        greedy_finds_it,
        refutation,
        themes,
        difficulty: features.difficulty(),
        features,
        nodes,
    })
}
