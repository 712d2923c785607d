//! How close the estimating search comes to the truth: positions with exact values (a
//! `solution:` block, `cathedral solve --yaml`), each judged by the engine's estimating search
//! alone (no solver takeover) within a budget, compared with the exact value, and optionally the
//! move it chose checked by the exact solver (`cathedral accuracy`, `docs/engine.md`).

use crate::boardgame::{SolveOptions, from_child, solve};
use crate::cathedral::engine::eval::Evaluation;
use crate::cathedral::engine::{Judgement, MAX_LEVEL, PlayOptions, choose};
use crate::cathedral::moves::Move;
use crate::cathedral::notation::format_move_with_player;
use crate::cathedral::position::Position;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The budget of each judgement, and whether to check the chosen move.
#[derive(Clone, Debug)]
pub struct AccuracyOptions {
    /// Nodes per position (reproducible); takes precedence over `time`.
    pub nodes: Option<u64>,
    /// Time per position.
    pub time: Option<Duration>,
    /// Table memory of the search, in MiB.
    pub tt_mb: usize,
    /// Solve the position after the chosen move, within this time, to measure what the move
    /// gave up; `None`: do not.
    pub check_moves: Option<Duration>,
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
    /// The evaluation the search uses.
    pub evaluation: Evaluation,
}

/// One position judged.
#[derive(Clone, Debug, Serialize)]
pub struct PositionAccuracy {
    /// The position's name (its file).
    pub name: String,
    /// The exact value, side to move's view, in squares.
    pub exact: i32,
    /// The search's estimate, in squares.
    pub estimate: f64,
    /// `|estimate - exact|`.
    pub error: f64,
    /// Whether the estimate gives the exact result: win, draw or loss (an estimate within half
    /// a square of 0 reads as a draw).
    pub result_right: bool,
    /// The move the search chose, with the player.
    pub chosen: Option<String>,
    /// The exact value of the chosen move: stored in the file's `root_values`, or solved
    /// (`check_moves`) and proven.
    pub chosen_value: Option<i32>,
    /// Whether `chosen_value` comes from the file's stored root values.
    pub from_root_values: bool,
    /// Squares the chosen move gives up (`exact - chosen_value`), when checked and proven.
    pub loss: Option<i32>,
    /// The depth the search finished and the nodes it spent.
    pub depth: u32,
    /// See `depth`.
    pub nodes: u64,
}

/// The accuracy of the search over a set of positions.
#[derive(Clone, Debug, Serialize)]
pub struct AccuracyReport {
    /// Every position judged.
    pub positions: Vec<PositionAccuracy>,
    /// The mean of `|estimate - exact|`, in squares.
    pub mean_absolute_error: f64,
    /// The share of positions whose result the estimate gets right.
    pub result_right: f64,
    /// Positions whose chosen move was checked and proven.
    pub moves_checked: usize,
    /// Of those, the positions checked by their stored root values.
    pub moves_checked_by_root_values: usize,
    /// Among those, the share where the chosen move is optimal.
    pub optimal: Option<f64>,
    /// Among those, the mean squares the chosen move gives up.
    pub mean_loss: Option<f64>,
}

/// The result a value in squares stands for: 1 win, 0 draw, -1 loss.
fn result_of(value: f64) -> i32 {
    if value > 0.5 {
        1
    } else if value < -0.5 {
        -1
    } else {
        0
    }
}

/// Judges `position`, whose exact value is `exact`, by the estimating search alone. The chosen
/// move's value is looked up in `root_values` (the exact value after each legal move) when they
/// are known, solved within [`AccuracyOptions::check_moves`] otherwise.
pub fn judge(
    name: &str,
    position: &Position,
    exact: i32,
    root_values: &HashMap<Move, i32>,
    options: &AccuracyOptions,
) -> PositionAccuracy {
    let choice = choose(
        position,
        &PlayOptions {
            nodes: options.nodes,
            time: if options.nodes.is_some() {
                None
            } else {
                options.time
            },
            threads: 1,
            level: MAX_LEVEL,
            tt_mb: options.tt_mb,
            stop: Arc::clone(&options.stop),
            exact: false,
            evaluation: options.evaluation,
            ..PlayOptions::default()
        },
        &mut |_| {},
    );
    debug_assert_eq!(choice.judgement, Judgement::Estimate);
    let estimate = f64::from(choice.value) / 100.0;
    let stored = choice.best.and_then(|mv| root_values.get(&mv).copied());
    let chosen_value = match (choice.best, options.check_moves) {
        _ if stored.is_some() => stored,
        (Some(mv), Some(limit)) => {
            let mut child = *position;
            child.play(mv);
            let solved = solve(
                &child,
                &SolveOptions {
                    threads: 1,
                    tt_mb: options.tt_mb,
                    initial_tt_mb: Some(options.tt_mb.min(4)),
                    time_limit: Some(limit),
                    root_values: false,
                    stop: Arc::clone(&options.stop),
                    ..SolveOptions::default()
                },
                &|_| {},
            );
            solved
                .value()
                .map(|v| from_child(position.keeps_turn(mv), v))
        }
        _ => None,
    };
    PositionAccuracy {
        name: name.to_string(),
        exact,
        estimate,
        error: (estimate - f64::from(exact)).abs(),
        result_right: result_of(estimate) == exact.signum(),
        chosen: choice.best.map(|mv| format_move_with_player(position, mv)),
        chosen_value,
        from_root_values: stored.is_some(),
        loss: chosen_value.map(|v| exact - v),
        depth: choice.depth,
        nodes: choice.nodes,
    }
}

impl AccuracyReport {
    /// The summary of `positions`.
    pub fn of(positions: Vec<PositionAccuracy>) -> AccuracyReport {
        let n = positions.len().max(1) as f64;
        let checked: Vec<i32> = positions.iter().filter_map(|p| p.loss).collect();
        let m = checked.len() as f64;
        AccuracyReport {
            mean_absolute_error: positions.iter().map(|p| p.error).sum::<f64>() / n,
            result_right: positions.iter().filter(|p| p.result_right).count() as f64 / n,
            moves_checked: checked.len(),
            moves_checked_by_root_values: positions.iter().filter(|p| p.from_root_values).count(),
            optimal: (!checked.is_empty())
                .then(|| checked.iter().filter(|&&l| l == 0).count() as f64 / m),
            mean_loss: (!checked.is_empty())
                .then(|| checked.iter().map(|&l| f64::from(l)).sum::<f64>() / m),
            positions,
        }
    }
}
