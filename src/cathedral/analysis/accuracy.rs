//! How close the estimating search comes to the truth: positions with exact values (a
//! `solution:` block, `cathedral solve --yaml`), each judged by the engine's estimating search
//! alone (no solver takeover) within a budget, compared with the exact value, and optionally the
//! move it chose checked by the exact solver (`cathedral accuracy`, `docs/engine.md`).
//!
//! The report splits the figures by how long the proof took, by the kind of value (draws,
//! small margins, large) and by buildings left, with the slope of the estimate against the
//! truth, because one mean hides where the estimate is blind. A position whose result alone is
//! proven (a win/draw/loss solve) is audited against its bounds, and a position with nothing
//! proven can be compared with a deeper search of the same engine (an estimate, said so).

use crate::boardgame::{SolveOptions, from_child, solve};
use crate::cathedral::engine::eval::Evaluation;
use crate::cathedral::engine::{Choice, Judgement, MAX_LEVEL, PlayOptions, choose};
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
    /// Also judge every position with this many times the budget, as a reference where
    /// nothing is proven (and to say how much depth changes the estimate where something is).
    pub deeper: Option<u32>,
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
    /// The evaluation the search uses.
    pub evaluation: Evaluation,
}

/// What is proven of a position's value, the side to move's view, in squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Truth {
    /// The exact value (a proven draw is exact: 0).
    Exact(i32),
    /// Only bounds, from a win/draw/loss proof or an interrupted solve; `None`: unbounded.
    Bounds {
        /// The value is at least this.
        lower: Option<i32>,
        /// The value is at most this.
        upper: Option<i32>,
    },
    /// Nothing proven: only a deeper search can be compared with.
    Unknown,
}

impl Truth {
    /// The truth a win/draw/loss proof gives: +1 a win (at least 1), -1 a loss (at most -1),
    /// 0 a draw (exact).
    pub fn of_result(result: i32) -> Truth {
        match result.signum() {
            1 => Truth::Bounds {
                lower: Some(1),
                upper: None,
            },
            -1 => Truth::Bounds {
                lower: None,
                upper: Some(-1),
            },
            _ => Truth::Exact(0),
        }
    }

    /// The truth narrowed by proven bounds `lower..=upper` (bounds that meet are exact).
    pub fn within(self, lower: i32, upper: i32) -> Truth {
        let (low, high) = match self {
            Truth::Exact(_) => return self,
            Truth::Bounds { lower, upper } => (lower, upper),
            Truth::Unknown => (None, None),
        };
        let low = low.map_or(lower, |l| l.max(lower));
        let high = high.map_or(upper, |h| h.min(upper));
        if low == high {
            Truth::Exact(low)
        } else {
            Truth::Bounds {
                lower: Some(low),
                upper: Some(high),
            }
        }
    }

    /// The result the truth fixes (1 win, 0 draw, -1 loss), if it does.
    pub fn result(self) -> Option<i32> {
        match self {
            Truth::Exact(v) => Some(v.signum()),
            Truth::Bounds { lower: Some(l), .. } if l >= 1 => Some(1),
            Truth::Bounds { upper: Some(u), .. } if u <= -1 => Some(-1),
            Truth::Bounds {
                lower: Some(0),
                upper: Some(0),
            } => Some(0),
            _ => None,
        }
    }

    /// How far `estimate` lies outside what is proven (0 inside; `None` when nothing is).
    pub fn outside(self, estimate: f64) -> Option<f64> {
        let (lower, upper) = match self {
            Truth::Exact(v) => (Some(v), Some(v)),
            Truth::Bounds { lower, upper } => (lower, upper),
            Truth::Unknown => return None,
        };
        let below = lower.map_or(0.0, |l| (f64::from(l) - estimate).max(0.0));
        let above = upper.map_or(0.0, |u| (estimate - f64::from(u)).max(0.0));
        Some(below + above)
    }
}

/// One position to judge: its name, what is proven of it, how long the proof took and the exact
/// value after each root move where stored.
#[derive(Clone, Debug)]
pub struct Case {
    /// The position's name (its file).
    pub name: String,
    /// The position.
    pub position: Position,
    /// What is proven of its value.
    pub truth: Truth,
    /// Seconds the proof took, as stored with it.
    pub proof_seconds: Option<f64>,
    /// The exact value after each legal move (empty: not stored).
    pub root_values: HashMap<Move, i32>,
}

/// One position judged.
#[derive(Clone, Debug, Serialize)]
pub struct PositionAccuracy {
    /// The position's name (its file).
    pub name: String,
    /// What is proven of the position's value.
    pub truth: Truth,
    /// The exact value, side to move's view, in squares, when proven.
    pub exact: Option<i32>,
    /// The search's estimate, in squares.
    pub estimate: f64,
    /// `|estimate - exact|`, when the value is exact.
    pub error: Option<f64>,
    /// How far the estimate lies outside the proven bounds (0 inside; for an exact value, the
    /// error).
    pub outside: Option<f64>,
    /// Whether the estimate gives the proven result: win, draw or loss (an estimate within
    /// half a square of 0 reads as a draw); `None` when no result is proven.
    pub result_right: Option<bool>,
    /// Buildings left in the larger hand.
    pub buildings_left: u32,
    /// Seconds the proof took, as stored.
    pub proof_seconds: Option<f64>,
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
    /// The estimate of the deeper search ([`AccuracyOptions::deeper`]), in squares.
    pub deeper: Option<f64>,
}

/// The figures of one part of the positions with exact values.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Slice {
    /// Which part: "draws", "10-60 s", "9 buildings".
    pub label: String,
    /// Positions in it.
    pub positions: usize,
    /// The mean of `|estimate - exact|`, in squares.
    pub mean_absolute_error: f64,
    /// The mean of `estimate - exact`: above 0, the estimate is too hopeful for the mover.
    pub mean_signed_error: f64,
    /// The share of positions whose result the estimate gets right.
    pub result_right: f64,
    /// The least-squares slope of the estimate against the exact value (1: the estimate
    /// follows the value square for square; below 1, it flattens margins); `None` when the
    /// exact values do not vary.
    pub slope: Option<f64>,
    /// The mean of `|estimate - deeper estimate|` (`deeper`), in squares.
    pub mean_deeper_difference: Option<f64>,
}

/// The audit of the positions whose value is only bounded.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BoundsAudit {
    /// Positions with bounds only.
    pub positions: usize,
    /// Of those, the estimates outside the bounds: certainly wrong.
    pub outside: usize,
    /// The mean distance outside the bounds, over all of them (0 for those inside).
    pub mean_outside: f64,
    /// Positions whose bounds fix the result (a proven win or loss).
    pub result_fixed: usize,
    /// Of those, the share whose result the estimate gets right.
    pub result_right: Option<f64>,
}

/// How a deeper search's estimate differs from the budget's (an estimate against an estimate:
/// no truth).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DeeperComparison {
    /// Which positions: "all", "12 buildings left".
    pub label: String,
    /// The deeper search's budget as a multiple of the judged one.
    pub factor: u32,
    /// Positions compared.
    pub positions: usize,
    /// The mean of `|estimate - deeper|`, in squares.
    pub mean_absolute_difference: f64,
    /// The mean of `estimate - deeper`.
    pub mean_signed_difference: f64,
    /// The share whose result (win, draw or loss) the two agree on.
    pub result_agrees: f64,
    /// The slope of the estimate against the deeper one.
    pub slope: Option<f64>,
}

/// What the exact results are among the positions whose estimate falls in one band: whether
/// an estimate near 0 means a draw as often as the data says.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CalibrationBand {
    /// The band of estimates, in squares: "-0.5..+0.5".
    pub estimates: String,
    /// Positions with exact values whose estimate falls in it.
    pub positions: usize,
    /// Of those, exact wins, draws and losses for the side to move.
    pub wins: usize,
    /// See `wins`.
    pub draws: usize,
    /// See `wins`.
    pub losses: usize,
}

/// The exact results by band of estimate: below -1.5, -1.5 to -0.5, -0.5 to +0.5 (read as a
/// draw), +0.5 to +1.5, above +1.5.
fn calibration(positions: &[PositionAccuracy]) -> Vec<CalibrationBand> {
    let labels = [
        "below -1.5",
        "-1.5..-0.5",
        "-0.5..+0.5",
        "+0.5..+1.5",
        "above +1.5",
    ];
    let mut bands: Vec<CalibrationBand> = labels
        .iter()
        .map(|label| CalibrationBand {
            estimates: (*label).to_string(),
            positions: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        })
        .collect();
    for p in positions {
        let Some(exact) = p.exact else { continue };
        // The middle band is what `result_of` reads as a draw, its edges included.
        let e = p.estimate;
        let band = if e < -1.5 {
            0
        } else if e < -0.5 {
            1
        } else if e <= 0.5 {
            2
        } else if e <= 1.5 {
            3
        } else {
            4
        };
        let b = &mut bands[band];
        b.positions += 1;
        match exact.signum() {
            1 => b.wins += 1,
            0 => b.draws += 1,
            _ => b.losses += 1,
        }
    }
    bands
}

/// The accuracy of the search over a set of positions.
#[derive(Clone, Debug, Serialize)]
pub struct AccuracyReport {
    /// Every position judged.
    pub positions: Vec<PositionAccuracy>,
    /// Positions with exact values: the figures below are over them.
    pub exact_positions: usize,
    /// The mean of `|estimate - exact|`, in squares.
    pub mean_absolute_error: f64,
    /// The share of positions whose result the estimate gets right.
    pub result_right: f64,
    /// The least-squares slope and intercept of the estimate against the exact value.
    pub slope: Option<f64>,
    /// See `slope`.
    pub intercept: Option<f64>,
    /// The figures by how long the proof took (quick proofs flatter an estimate).
    pub by_proof_time: Vec<Slice>,
    /// The figures by the kind of value: draws, small margins (1-3 squares), large (4 or more).
    pub by_value: Vec<Slice>,
    /// The figures by buildings left in the larger hand.
    pub by_buildings: Vec<Slice>,
    /// The exact results by band of estimate (positions with exact values).
    pub calibration: Vec<CalibrationBand>,
    /// The positions with bounds only, audited.
    pub bounds: Option<BoundsAudit>,
    /// Every position's estimate against the deeper search's (`deeper`).
    pub deeper: Option<DeeperComparison>,
    /// The same by buildings left in the larger hand.
    pub deeper_by_buildings: Vec<DeeperComparison>,
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

/// The estimating search's choice at `nodes` (or `time`), alone: no solver takeover.
fn estimate(position: &Position, nodes: Option<u64>, options: &AccuracyOptions) -> Choice {
    let choice = choose(
        position,
        &PlayOptions {
            nodes,
            time: if nodes.is_some() { None } else { options.time },
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
    choice
}

/// Judges `case` by the estimating search alone. The chosen move's value is looked up in the
/// case's root values when they are known, solved within [`AccuracyOptions::check_moves`]
/// otherwise (only where the position's value is exact: a loss needs it).
pub fn judge(case: &Case, options: &AccuracyOptions) -> PositionAccuracy {
    let position = &case.position;
    let choice = estimate(position, options.nodes, options);
    let deeper = options.deeper.map(|factor| {
        // A time budget grows as the node budget does.
        let deeper_options = AccuracyOptions {
            time: options.time.map(|t| t * factor),
            ..options.clone()
        };
        let nodes = options.nodes.map(|n| n.saturating_mul(u64::from(factor)));
        f64::from(estimate(position, nodes, &deeper_options).value) / 100.0
    });
    let estimate = f64::from(choice.value) / 100.0;
    let exact = match case.truth {
        Truth::Exact(v) => Some(v),
        _ => None,
    };
    let stored = choice
        .best
        .and_then(|mv| case.root_values.get(&mv).copied());
    let chosen_value = match (choice.best, options.check_moves, exact) {
        _ if stored.is_some() => stored,
        (Some(mv), Some(limit), Some(_)) => {
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
        name: case.name.clone(),
        truth: case.truth,
        exact,
        estimate,
        error: exact.map(|v| (estimate - f64::from(v)).abs()),
        outside: case.truth.outside(estimate),
        result_right: case.truth.result().map(|r| result_of(estimate) == r),
        buildings_left: position.buildings_left(),
        proof_seconds: case.proof_seconds,
        chosen: choice.best.map(|mv| format_move_with_player(position, mv)),
        chosen_value,
        from_root_values: stored.is_some(),
        loss: exact.zip(chosen_value).map(|(v, c)| v - c),
        depth: choice.depth,
        nodes: choice.nodes,
        deeper,
    }
}

/// The least-squares slope and intercept of `y` against `x`; `None` when `x` does not vary.
fn fit(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    if points.len() < 2 {
        return None;
    }
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let var_x = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum::<f64>();
    if var_x < 1e-9 {
        return None;
    }
    let cov = points
        .iter()
        .map(|p| (p.0 - mean_x) * (p.1 - mean_y))
        .sum::<f64>();
    let slope = cov / var_x;
    Some((slope, mean_y - slope * mean_x))
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0usize), |(s, c), v| (s + v, c + 1));
    if count == 0 { 0.0 } else { sum / count as f64 }
}

/// The figures of the exact positions among `part`, labelled; `None` when it has none.
fn slice(label: &str, part: &[&PositionAccuracy]) -> Option<Slice> {
    let exact: Vec<(&PositionAccuracy, f64)> = part
        .iter()
        .filter_map(|p| p.exact.map(|v| (*p, f64::from(v))))
        .collect();
    if exact.is_empty() {
        return None;
    }
    let deeper: Vec<f64> = exact
        .iter()
        .filter_map(|(p, _)| p.deeper.map(|d| (p.estimate - d).abs()))
        .collect();
    Some(Slice {
        label: label.to_string(),
        positions: exact.len(),
        mean_absolute_error: mean(exact.iter().map(|(p, v)| (p.estimate - v).abs())),
        mean_signed_error: mean(exact.iter().map(|(p, v)| p.estimate - v)),
        result_right: mean(
            exact
                .iter()
                .map(|(p, _)| f64::from(u8::from(p.result_right == Some(true)))),
        ),
        slope: fit(&exact
            .iter()
            .map(|(p, v)| (*v, p.estimate))
            .collect::<Vec<_>>())
        .map(|(slope, _)| slope),
        mean_deeper_difference: (!deeper.is_empty()).then(|| mean(deeper.into_iter())),
    })
}

/// The proof-time band of a position: quick proofs flatter an estimate.
fn proof_time_band(seconds: Option<f64>) -> (u8, &'static str) {
    match seconds {
        Some(s) if s < 1.0 => (0, "proof under 1 s"),
        Some(s) if s < 10.0 => (1, "proof 1-10 s"),
        Some(s) if s < 60.0 => (2, "proof 10-60 s"),
        Some(_) => (3, "proof 60 s or more"),
        None => (4, "proof time not stored"),
    }
}

/// The kind of an exact value: draws apart, small margins, large ones.
fn value_band(exact: i32) -> (u8, &'static str) {
    match exact.abs() {
        0 => (0, "draws"),
        1..=3 => (1, "margin 1-3"),
        _ => (2, "margin 4 or more"),
    }
}

/// The slices of `positions` grouped by `band` (key order).
fn slices<K: Ord>(
    positions: &[PositionAccuracy],
    band: impl Fn(&PositionAccuracy) -> Option<(K, String)>,
) -> Vec<Slice> {
    let mut groups: std::collections::BTreeMap<K, (String, Vec<&PositionAccuracy>)> =
        std::collections::BTreeMap::new();
    for p in positions {
        if let Some((key, label)) = band(p) {
            groups
                .entry(key)
                .or_insert_with(|| (label, Vec::new()))
                .1
                .push(p);
        }
    }
    groups
        .values()
        .filter_map(|(label, part)| slice(label, part))
        .collect()
}

impl AccuracyReport {
    /// The summary of `positions`; `deeper` is the factor they were also judged at, if any.
    pub fn of(positions: Vec<PositionAccuracy>, deeper: Option<u32>) -> AccuracyReport {
        let all: Vec<&PositionAccuracy> = positions.iter().collect();
        let overall = slice("all", &all);
        let fitted = fit(&positions
            .iter()
            .filter_map(|p| p.exact.map(|v| (f64::from(v), p.estimate)))
            .collect::<Vec<_>>());
        let bounded: Vec<&PositionAccuracy> = positions
            .iter()
            .filter(|p| matches!(p.truth, Truth::Bounds { .. }))
            .collect();
        let fixed: Vec<bool> = bounded.iter().filter_map(|p| p.result_right).collect();
        let bounds = (!bounded.is_empty()).then(|| BoundsAudit {
            positions: bounded.len(),
            outside: bounded
                .iter()
                .filter(|p| p.outside.is_some_and(|o| o > 0.0))
                .count(),
            mean_outside: mean(bounded.iter().filter_map(|p| p.outside)),
            result_fixed: fixed.len(),
            result_right: (!fixed.is_empty())
                .then(|| mean(fixed.iter().map(|&r| f64::from(u8::from(r))))),
        });
        let compare = |label: String, part: &mut dyn Iterator<Item = &PositionAccuracy>| {
            let pairs: Vec<(f64, f64)> = part
                .filter_map(|p| p.deeper.map(|d| (d, p.estimate)))
                .collect();
            deeper
                .filter(|_| !pairs.is_empty())
                .map(|factor| DeeperComparison {
                    label,
                    factor,
                    positions: pairs.len(),
                    mean_absolute_difference: mean(pairs.iter().map(|(d, e)| (e - d).abs())),
                    mean_signed_difference: mean(pairs.iter().map(|(d, e)| e - d)),
                    result_agrees: mean(
                        pairs
                            .iter()
                            .map(|(d, e)| f64::from(u8::from(result_of(*d) == result_of(*e)))),
                    ),
                    slope: fit(&pairs).map(|(slope, _)| slope),
                })
        };
        let deeper_all = compare("all".to_string(), &mut positions.iter());
        let mut buildings: Vec<u32> = positions.iter().map(|p| p.buildings_left).collect();
        buildings.sort_unstable();
        buildings.dedup();
        let deeper_by_buildings: Vec<DeeperComparison> = buildings
            .iter()
            .filter_map(|&b| {
                compare(
                    format!("{} left", crate::present::words::count(b, "building")),
                    &mut positions.iter().filter(|p| p.buildings_left == b),
                )
            })
            .collect();
        let checked: Vec<i32> = positions.iter().filter_map(|p| p.loss).collect();
        let m = checked.len() as f64;
        AccuracyReport {
            exact_positions: overall.as_ref().map_or(0, |s| s.positions),
            mean_absolute_error: overall.as_ref().map_or(0.0, |s| s.mean_absolute_error),
            result_right: overall.as_ref().map_or(0.0, |s| s.result_right),
            slope: fitted.map(|f| f.0),
            intercept: fitted.map(|f| f.1),
            by_proof_time: slices(&positions, |p| {
                let (key, label) = proof_time_band(p.proof_seconds);
                Some((key, label.to_string()))
            }),
            by_value: slices(&positions, |p| {
                p.exact.map(|v| {
                    let (key, label) = value_band(v);
                    (key, label.to_string())
                })
            }),
            by_buildings: slices(&positions, |p| {
                Some((
                    p.buildings_left,
                    format!(
                        "{} left",
                        crate::present::words::count(p.buildings_left, "building")
                    ),
                ))
            }),
            calibration: calibration(&positions),
            bounds,
            deeper: deeper_all,
            deeper_by_buildings,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_line_and_refuses_a_point_cloud_without_spread() {
        let line: Vec<(f64, f64)> = (-5..=5)
            .map(|x| (f64::from(x), 0.5 * f64::from(x) + 1.0))
            .collect();
        let (slope, intercept) = fit(&line).unwrap();
        assert!((slope - 0.5).abs() < 1e-12 && (intercept - 1.0).abs() < 1e-12);
        assert_eq!(fit(&[(2.0, 1.0), (2.0, 3.0)]), None);
        assert_eq!(fit(&[(2.0, 1.0)]), None);
    }

    #[test]
    fn bounds_fix_results_and_measure_how_far_an_estimate_is_outside() {
        let win = Truth::of_result(1);
        assert_eq!(win.result(), Some(1));
        assert_eq!(win.outside(2.5), Some(0.0));
        assert_eq!(win.outside(0.25), Some(0.75));
        let loss = Truth::of_result(-3);
        assert_eq!(loss.result(), Some(-1));
        assert_eq!(loss.outside(-0.5), Some(0.5));
        assert_eq!(Truth::of_result(0), Truth::Exact(0));
        assert_eq!(Truth::Exact(-2).outside(1.0), Some(3.0));
        let open = Truth::Bounds {
            lower: Some(-3),
            upper: Some(4),
        };
        assert_eq!(open.result(), None);
        assert_eq!(open.outside(5.0), Some(1.0));
        assert_eq!(Truth::Unknown.outside(1.0), None);
        assert_eq!(
            Truth::Unknown.within(-3, 4),
            Truth::Bounds {
                lower: Some(-3),
                upper: Some(4)
            }
        );
        assert_eq!(win.within(-3, 4).result(), Some(1));
        assert_eq!(win.within(-3, 1), Truth::Exact(1));
        assert_eq!(Truth::Exact(2).within(-3, 4), Truth::Exact(2));
        assert_eq!(Truth::Unknown.result(), None);
    }

    fn judged(exact: Option<i32>, truth: Truth, estimate: f64, seconds: f64) -> PositionAccuracy {
        PositionAccuracy {
            name: String::new(),
            truth,
            exact,
            estimate,
            error: exact.map(|v| (estimate - f64::from(v)).abs()),
            outside: truth.outside(estimate),
            result_right: truth.result().map(|r| result_of(estimate) == r),
            buildings_left: if seconds > 5.0 { 10 } else { 9 },
            proof_seconds: Some(seconds),
            chosen: None,
            chosen_value: None,
            from_root_values: false,
            loss: None,
            depth: 1,
            nodes: 1,
            deeper: Some(estimate + 1.0),
        }
    }

    #[test]
    fn the_report_splits_by_proof_time_value_and_buildings() {
        let positions = vec![
            judged(Some(0), Truth::Exact(0), 1.0, 0.5),
            judged(Some(0), Truth::Exact(0), 0.25, 20.0),
            judged(Some(2), Truth::Exact(2), 2.0, 3.0),
            judged(Some(-6), Truth::Exact(-6), -3.0, 100.0),
            judged(None, Truth::of_result(1), 0.0, 30.0),
            judged(None, Truth::of_result(-1), -2.0, 30.0),
            judged(None, Truth::Unknown, 4.0, 30.0),
        ];
        let report = AccuracyReport::of(positions, Some(20));
        assert_eq!(report.exact_positions, 4);
        assert!((report.mean_absolute_error - (1.0 + 0.25 + 0.0 + 3.0) / 4.0).abs() < 1e-12);
        assert!((report.result_right - 0.75).abs() < 1e-12);
        let draws = &report.by_value[0];
        assert_eq!((draws.label.as_str(), draws.positions), ("draws", 2));
        assert!((draws.result_right - 0.5).abs() < 1e-12);
        assert_eq!(draws.slope, None);
        assert!((draws.mean_signed_error - 0.625).abs() < 1e-12);
        let labels: Vec<&str> = report
            .by_proof_time
            .iter()
            .map(|s| s.label.as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "proof under 1 s",
                "proof 1-10 s",
                "proof 10-60 s",
                "proof 60 s or more"
            ]
        );
        assert_eq!(report.by_buildings.len(), 2);
        let bands: Vec<(usize, usize, usize)> = report
            .calibration
            .iter()
            .map(|b| (b.wins, b.draws, b.losses))
            .collect();
        // Estimates -3, 0.25, 1 and 2 for exact -6, 0, 0 and 2.
        assert_eq!(
            bands,
            [(0, 0, 1), (0, 0, 0), (0, 1, 0), (0, 1, 0), (1, 0, 0)]
        );
        let audit = report.bounds.unwrap();
        assert_eq!(
            (audit.positions, audit.outside, audit.result_fixed),
            (2, 1, 2)
        );
        assert_eq!(audit.result_right, Some(0.5));
        let deeper = report.deeper.unwrap();
        assert_eq!(deeper.positions, 7);
        assert!((deeper.mean_signed_difference + 1.0).abs() < 1e-12);
        assert_eq!(deeper.slope.map(|s| (s * 1e9).round() / 1e9), Some(1.0));
        let by: Vec<(&str, usize)> = report
            .deeper_by_buildings
            .iter()
            .map(|d| (d.label.as_str(), d.positions))
            .collect();
        assert_eq!(by, [("9 buildings left", 2), ("10 buildings left", 5)]);
    }
}
