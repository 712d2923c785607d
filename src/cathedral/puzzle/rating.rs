//! Glicko-2 ratings of puzzles and learners (`docs/puzzles.md`, "Ratings").
//!
//! A puzzle's rating starts from a prior set by its difficulty grade and the number of moves
//! almost as good as the answer ([`prior`]), then is measured: simulated solvers of fixed ratings
//! ([`SOLVERS`]: the playing engine at levels 1 to 6 on a small node budget, and the sampling
//! policy) each try the puzzle [`RateOptions::attempts`] times with their own seeds; an attempt is
//! a game the solver wins when its move is the answer and loses otherwise. All attempts are one
//! Glicko-2 rating period for the puzzle ([`rate`]). Every attempt is deterministic by its seed,
//! so the same puzzle, seed and number of attempts always give the same rating.
//!
//! The learner's side is [`update`]: one attempt, both ratings updated (the web trainer's
//! `POST /api/rating` calls it).
//!
//! Glicko-2 itself is the `skillratings` crate's ([`glicko2`], [`glicko2_rating_period`]) with
//! its default system constant τ = 0.5.

use super::criteria::placement_values;
use crate::boardgame::{Rng, SolveOptions, solve};
use crate::cathedral::engine::eval::{Evaluation, Weights};
use crate::cathedral::engine::{PlayOptions, choose};
use crate::cathedral::file::{Difficulty, PositionFile, StoredGlicko, to_yaml};
use crate::cathedral::legality::parse_move;
use crate::cathedral::moves::Move;
use crate::cathedral::policy::Policy;
use crate::cathedral::position::Position;
use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2, glicko2_rating_period};
use std::time::Duration;

/// The deviation of a new rating, and the largest any rating keeps.
pub const START_DEVIATION: f64 = 350.0;
/// The volatility of a new rating.
pub const START_VOLATILITY: f64 = 0.06;
/// The rating of a new learner: the scale's centre.
pub const START_RATING: f64 = 1500.0;

/// A rating on the Glicko-2 scale (the Glicko-1 numbers: centre 1500, deviation 350 when
/// nothing is known).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    /// The rating.
    pub rating: f64,
    /// Its deviation: about 95 % of the strength lies within two deviations of the rating.
    pub deviation: f64,
    /// How erratic the results are (Glicko-2's σ).
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Glicko {
        Glicko::LEARNER
    }
}

impl Glicko {
    /// A new learner: 1500, deviation 350, volatility 0.06.
    pub const LEARNER: Glicko = Glicko {
        rating: START_RATING,
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
    };

    fn sk(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn of(rating: Glicko2Rating) -> Glicko {
        Glicko {
            rating: rating.rating,
            deviation: rating.deviation.min(START_DEVIATION),
            volatility: rating.volatility,
        }
    }

    /// As stored in a puzzle file: whole points (rating 0 to 4000, deviation 1 to 350), the
    /// volatility to 4 decimals.
    pub fn stored(self) -> StoredGlicko {
        StoredGlicko {
            rating: self.rating.round().clamp(0.0, 4000.0) as u32,
            deviation: self.deviation.round().clamp(1.0, START_DEVIATION) as u32,
            volatility: ((self.volatility * 1e4).round() / 1e4).clamp(1e-4, 1.0),
        }
    }

    /// A stored rating.
    pub fn from_stored(stored: StoredGlicko) -> Glicko {
        Glicko {
            rating: f64::from(stored.rating),
            deviation: f64::from(stored.deviation),
            volatility: stored.volatility,
        }
    }

    /// The chance that this side wins against `other` (Glicko-2's expected score).
    pub fn expected(self, other: Glicko) -> f64 {
        skillratings::glicko2::expected_score(&self.sk(), &other.sk()).0
    }
}

fn config() -> Glicko2Config {
    Glicko2Config::new()
}

/// One attempt of a learner at a puzzle: both new ratings, (learner, puzzle). A solved puzzle is
/// a win for the learner, an unsolved one a win for the puzzle. Deviations never grow past 350.
pub fn update(learner: Glicko, puzzle: Glicko, solved: bool) -> (Glicko, Glicko) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (l, p) = glicko2(&learner.sk(), &puzzle.sk(), &outcome, &config());
    (Glicko::of(l), Glicko::of(p))
}

/// The prior rating of a grade: easy 1200, medium 1500, hard 1800.
pub fn grade_rating(difficulty: Difficulty) -> f64 {
    match difficulty {
        Difficulty::Easy => 1200.0,
        Difficulty::Medium => 1500.0,
        Difficulty::Hard => 1800.0,
    }
}

/// Points added to the prior per move almost as good as the answer ([`NEAR_BEST_CAP`] at most).
pub const NEAR_BEST_STEP: f64 = 25.0;
/// The most moves almost as good as the answer that count in the prior.
pub const NEAR_BEST_CAP: u32 = 6;

/// A puzzle's prior: its grade's rating ([`grade_rating`]) plus [`NEAR_BEST_STEP`] per move
/// within 1 square of the answer (at most [`NEAR_BEST_CAP`] of them), deviation 350, volatility
/// 0.06.
pub fn prior(difficulty: Difficulty, near_best: u32) -> Glicko {
    Glicko {
        rating: grade_rating(difficulty) + NEAR_BEST_STEP * f64::from(near_best.min(NEAR_BEST_CAP)),
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
    }
}

/// Who attempts a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    /// The playing engine at this level, with [`ENGINE_NODES`] (halved per level below 10).
    Engine(u8),
    /// The sampling policy (`policy.rs`, default weights, its noise seeded per attempt).
    Policy,
}

/// A simulated solver with its fixed rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solver {
    /// Its name in reports: `engine-3`, `policy`.
    pub name: &'static str,
    /// How it chooses.
    pub kind: SolverKind,
    /// Its rating, fixed by the one-off calibration ([`calibrate`]; `docs/puzzles.md`).
    pub rating: f64,
}

/// The engine's node budget at full strength; level L gets `ENGINE_NODES >> (10 - L)`.
pub const ENGINE_NODES: u64 = 64_000;

/// The deviation the solvers' ratings are taken with when a puzzle is rated.
pub const SOLVER_DEVIATION: f64 = 50.0;

/// The solvers, with ratings from `cathedral puzzles rate puzzles/teaching --calibrate` (seed 1,
/// 8 attempts).
pub const SOLVERS: [Solver; 7] = [
    Solver {
        name: "policy",
        kind: SolverKind::Policy,
        rating: 1827.0,
    },
    Solver {
        name: "engine-1",
        kind: SolverKind::Engine(1),
        rating: 1493.0,
    },
    Solver {
        name: "engine-2",
        kind: SolverKind::Engine(2),
        rating: 1552.0,
    },
    Solver {
        name: "engine-3",
        kind: SolverKind::Engine(3),
        rating: 1560.0,
    },
    Solver {
        name: "engine-4",
        kind: SolverKind::Engine(4),
        rating: 1667.0,
    },
    Solver {
        name: "engine-5",
        kind: SolverKind::Engine(5),
        rating: 1754.0,
    },
    Solver {
        name: "engine-6",
        kind: SolverKind::Engine(6),
        rating: 1883.0,
    },
];

/// The default seed of `cathedral puzzles rate`.
pub const DEFAULT_SEED: u64 = 1;
/// The default attempts per solver and puzzle.
pub const DEFAULT_ATTEMPTS: u32 = 8;

/// How puzzles are measured.
#[derive(Clone, Debug)]
pub struct RateOptions {
    /// Seeds every attempt (with the position and the solver).
    pub seed: u64,
    /// Attempts per solver.
    pub attempts: u32,
    /// The time limit of the solve that counts the moves almost as good as the answer, when the
    /// file does not store it.
    pub time_limit: Duration,
    /// Its node budget.
    pub max_nodes: u64,
}

impl Default for RateOptions {
    fn default() -> RateOptions {
        RateOptions {
            seed: DEFAULT_SEED,
            attempts: DEFAULT_ATTEMPTS,
            time_limit: Duration::from_secs(60),
            max_nodes: 20_000_000,
        }
    }
}

/// What was measured on one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measurement {
    /// The grade.
    pub difficulty: Difficulty,
    /// Moves other than the answer within 1 square of its value.
    pub near_best: u32,
    /// Attempts per solver.
    pub attempts: u32,
    /// Whether each attempt found the answer: per solver (in the order of [`SOLVERS`]), per
    /// attempt.
    pub solved: Vec<Vec<bool>>,
}

impl Measurement {
    /// The prior of the puzzle.
    pub fn prior(&self) -> Glicko {
        prior(self.difficulty, self.near_best)
    }

    /// The solved attempts of each solver.
    pub fn solved_counts(&self) -> Vec<u32> {
        self.solved
            .iter()
            .map(|s| s.iter().filter(|&&x| x).count() as u32)
            .collect()
    }
}

fn mix(mut h: u64, x: u64) -> u64 {
    h ^= x;
    Rng::new(h).next_u64()
}

/// The seed of attempt `attempt` of solver `solver` at `position` in a run seeded `seed`.
pub fn attempt_seed(seed: u64, position: &Position, solver: usize, attempt: u32) -> u64 {
    let key = position.key();
    [key.0, key.1, solver as u64, u64::from(attempt)]
        .into_iter()
        .fold(seed, mix)
}

/// The move `solver` plays at `position` with `seed`.
pub fn attempt(position: &Position, solver: SolverKind, seed: u64) -> Option<Move> {
    match solver {
        SolverKind::Policy => Policy::default().choose(position, &mut Rng::new(seed)),
        SolverKind::Engine(level) => {
            let options = PlayOptions {
                nodes: Some(ENGINE_NODES),
                time: None,
                threads: 1,
                seed,
                level,
                // Calibrated on the older weakening, not the ladder's.
                halving: true,
                tt_mb: 1,
                // The solvers' ratings were calibrated with the engine of the linear features
                // and the search before its pruning near the horizon (`docs/puzzles.md`,
                // "Calibration"): the ruler stays the one they measured.
                evaluation: Evaluation::Linear(Weights::default()),
                pruning: false,
                ..PlayOptions::default()
            };
            choose(position, &options, &mut |_| {}).best
        }
    }
}

/// Moves (placements: a capture and its declined variant are one move) other than `best` whose
/// exact value is within 1 square of the best, by a one-thread solve with every root move's
/// value; `None` if it does not finish within the budget.
pub fn near_best(position: &Position, best: Move, options: &RateOptions) -> Option<u32> {
    let solution = solve(
        position,
        &SolveOptions {
            threads: 1,
            tt_mb: 16,
            initial_tt_mb: Some(4),
            wdl: false,
            time_limit: Some(options.time_limit),
            root_values: true,
            stop: Default::default(),
            max_nodes: Some(options.max_nodes),
            estimate: None,
            window: None,
            method: crate::boardgame::Method::AlphaBeta,
        },
        &|_| {},
    );
    if !solution.complete || !solution.is_exact() {
        return None;
    }
    let value = solution.lower;
    let by_placement = placement_values(&solution.root_moves);
    Some(
        by_placement
            .iter()
            .filter(|(p, (v, _))| **p != best.placement() && *v >= value - 1)
            .count() as u32,
    )
}

/// Why a file cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateError(pub String);

impl std::fmt::Display for RateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RateError {}

/// Runs every solver's attempts on the puzzle `file` (a position file with `puzzle:` and
/// `solution:` blocks). The count of moves almost as good as the answer is the file's
/// `near_best` when stored, solved for otherwise.
pub fn measure(file: &PositionFile, options: &RateOptions) -> Result<Measurement, RateError> {
    let puzzle = file
        .puzzle
        .as_ref()
        .ok_or_else(|| RateError("not a puzzle: no `puzzle:` block".into()))?;
    let difficulty: Difficulty = puzzle
        .difficulty
        .parse()
        .map_err(|e| RateError(format!("{e}")))?;
    let position = &file.position;
    let best_text = file
        .solution
        .as_ref()
        .and_then(|s| s.best_move.as_deref())
        .ok_or_else(|| {
            RateError("no `solution: best_move:` to compare the attempts with".into())
        })?;
    let best = parse_move(position, best_text)
        .map_err(|e| RateError(format!("the best move `{best_text}`: {e}")))?;
    let near_best = match puzzle.near_best {
        Some(n) => n,
        None => near_best(position, best, options).ok_or_else(|| {
            RateError("the moves near the best could not be counted within the budget".into())
        })?,
    };
    let solved = SOLVERS
        .iter()
        .enumerate()
        .map(|(i, solver)| {
            (0..options.attempts)
                .map(|a| {
                    let seed = attempt_seed(options.seed, position, i, a);
                    attempt(position, solver.kind, seed)
                        .is_some_and(|mv| mv.placement() == best.placement())
                })
                .collect()
        })
        .collect();
    Ok(Measurement {
        difficulty,
        near_best,
        attempts: options.attempts,
        solved,
    })
}

/// The puzzle's rating from its measurement, the solvers rated `solver_ratings` (in the order
/// of [`SOLVERS`]): Glicko-2 from the prior, one rating period per round of attempts (round `a`:
/// every solver's attempt `a`), each attempt a game the puzzle wins when the solver misses.
/// (One period for all attempts would overshoot: Glicko-2 evaluates a period's expectations at
/// the rating it starts from, far from the truth when the prior is.)
pub fn rate(measurement: &Measurement, solver_ratings: &[f64]) -> Glicko {
    let mut puzzle = measurement.prior();
    for a in 0..measurement.attempts as usize {
        let games: Vec<(Glicko2Rating, Outcomes)> = solver_ratings
            .iter()
            .zip(&measurement.solved)
            .filter_map(|(&rating, solved)| {
                let solver = Glicko2Rating {
                    rating,
                    deviation: SOLVER_DEVIATION,
                    volatility: START_VOLATILITY,
                };
                let outcome = if *solved.get(a)? {
                    Outcomes::LOSS
                } else {
                    Outcomes::WIN
                };
                Some((solver, outcome))
            })
            .collect();
        puzzle = Glicko::of(glicko2_rating_period(&puzzle.sk(), &games, &config()));
    }
    puzzle
}

/// The fixed ratings of [`SOLVERS`].
pub fn solver_ratings() -> Vec<f64> {
    SOLVERS.iter().map(|s| s.rating).collect()
}

/// A rated puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// What was measured.
    pub measurement: Measurement,
    /// The new rating.
    pub glicko: Glicko,
}

/// Measures and rates the puzzle `file` with the fixed solver ratings.
pub fn rate_puzzle(file: &PositionFile, options: &RateOptions) -> Result<Rated, RateError> {
    let measurement = measure(file, options)?;
    let glicko = rate(&measurement, &solver_ratings());
    Ok(Rated {
        measurement,
        glicko,
    })
}

/// The one-off calibration of the solvers' ratings: a joint fit of solvers and puzzles. The
/// puzzles are rated as [`rate`] does; each solver is rated against the puzzles so rated (the
/// fixed point of a Glicko-2 rating period from deviation 350 over all its attempts, where its
/// expected score equals its actual score); then every solver is shifted by the same amount so
/// that the mean of the puzzles' ratings equals the mean of their priors (the priors fix the
/// scale's origin, which the results alone leave free). Repeated until no solver's rating moves
/// by more than 0.01.
pub fn calibrate(measurements: &[Measurement]) -> Vec<f64> {
    let mut solvers = vec![START_RATING; SOLVERS.len()];
    if measurements.is_empty() {
        return solvers;
    }
    let n = measurements.len() as f64;
    let prior_mean = measurements.iter().map(|m| m.prior().rating).sum::<f64>() / n;
    for _ in 0..500 {
        let before = solvers.clone();
        let puzzles: Vec<Glicko> = measurements.iter().map(|m| rate(m, &solvers)).collect();
        for (i, rating) in solvers.iter_mut().enumerate() {
            let mut games = Vec::new();
            for (m, p) in measurements.iter().zip(&puzzles) {
                games.extend(m.solved[i].iter().map(|&solved| {
                    let outcome = if solved {
                        Outcomes::WIN
                    } else {
                        Outcomes::LOSS
                    };
                    (p.sk(), outcome)
                }));
            }
            *rating = fixed_point(*rating, &games);
        }
        let mean = measurements
            .iter()
            .map(|m| rate(m, &solvers).rating)
            .sum::<f64>()
            / n;
        let shift = prior_mean - mean;
        solvers.iter_mut().for_each(|r| *r += shift);
        let moved = solvers
            .iter()
            .zip(&before)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        if moved < 0.01 {
            break;
        }
    }
    solvers
}

/// The rating at which one Glicko-2 rating period (from deviation 350) over `games` no longer
/// moves it: the maximum-likelihood rating against those opponents.
fn fixed_point(mut rating: f64, games: &[(Glicko2Rating, Outcomes)]) -> f64 {
    for _ in 0..1000 {
        let start = Glicko {
            rating,
            ..Glicko::LEARNER
        };
        let next = glicko2_rating_period(&start.sk(), games, &config()).rating;
        let step = (next - rating).clamp(-400.0, 400.0);
        rating += step;
        if step.abs() < 1e-3 {
            break;
        }
    }
    rating
}

/// The Glicko-2 rating stored in a puzzle file, if any (the trainer's puzzle list shows it).
pub fn glicko_of(file: &PositionFile) -> Option<StoredGlicko> {
    file.puzzle.as_ref().and_then(|p| p.glicko)
}

/// The text of the puzzle file `text` (which loads as `file`) with `near_best` and `glicko`
/// stored in its `puzzle:` block, everything else as written: the two fields' lines are
/// replaced, or added at the end of the block, as the canonical writer would write them. A file
/// whose block cannot be found that way (written by hand in flow style) is written whole in the
/// canonical form instead.
pub fn with_rating(
    text: &str,
    file: &PositionFile,
    near_best: u32,
    glicko: StoredGlicko,
) -> Result<String, RateError> {
    let mut updated = file.clone();
    let puzzle = updated
        .puzzle
        .as_mut()
        .ok_or_else(|| RateError("not a puzzle: no `puzzle:` block".into()))?;
    puzzle.near_best = Some(near_best);
    puzzle.glicko = Some(glicko);
    let spliced = splice(text, near_best, glicko);
    let loads_as = |t: &str| {
        crate::cathedral::file::parse_str("rated", t)
            .ok()
            .is_some_and(|f| f == updated)
    };
    match spliced {
        Some(t) if loads_as(&t) => Ok(t),
        _ => {
            let whole = to_yaml(&updated);
            if loads_as(&whole) {
                Ok(whole)
            } else {
                Err(RateError("the rated file would not load back".into()))
            }
        }
    }
}

/// The fields' lines as the canonical writer writes them, indented for the `puzzle:` block.
fn field_lines(near_best: u32, glicko: StoredGlicko) -> String {
    #[derive(Serialize)]
    struct Fields {
        near_best: u32,
        glicko: StoredGlicko,
    }
    let yaml = serde_saphyr::to_string(&Fields { near_best, glicko }).unwrap_or_default();
    yaml.lines().map(|l| format!("  {l}\n")).collect()
}

fn splice(text: &str, near_best: u32, glicko: StoredGlicko) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let start = lines.iter().position(|l| l.trim_end() == "puzzle:")?;
    // The block: the lines after `puzzle:` that are indented, blank or comments.
    let mut end = start + 1;
    while end < lines.len() {
        let l = lines[end];
        if l.starts_with(' ') || l.trim().is_empty() {
            end += 1;
        } else {
            break;
        }
    }
    // Blank lines at the block's end stay after it.
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    let mut out = String::with_capacity(text.len() + 80);
    lines[..=start].iter().for_each(|l| out.push_str(l));
    let mut skipping = false;
    for l in &lines[start + 1..end] {
        let content = l.trim_start_matches(' ');
        let indent = l.len() - content.len();
        if indent == 2 && !content.starts_with('-') {
            skipping = content.starts_with("near_best:") || content.starts_with("glicko:");
        }
        if !skipping {
            out.push_str(l);
        }
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&field_lines(near_best, glicko));
    lines[end..].iter().for_each(|l| out.push_str(l));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_the_winner_and_shrinks_both_deviations() {
        let learner = Glicko::LEARNER;
        let puzzle = Glicko {
            rating: 1700.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let (l, p) = update(learner, puzzle, true);
        assert!(l.rating > learner.rating && p.rating < puzzle.rating);
        assert!(l.deviation < learner.deviation && p.deviation < puzzle.deviation);
        let (l, p) = update(learner, puzzle, false);
        assert!(l.rating < learner.rating && p.rating > puzzle.rating);
    }

    #[test]
    fn stored_rounds_and_clamps() {
        let g = Glicko {
            rating: 1523.4,
            deviation: 87.6,
            volatility: 0.059_996,
        };
        assert_eq!(
            g.stored(),
            StoredGlicko {
                rating: 1523,
                deviation: 88,
                volatility: 0.06
            }
        );
    }
}
