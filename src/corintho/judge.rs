//! Corintho for whole-game analysis and standings: [`Judge`] on [`CorinthoPosition`].
//!
//! Values are win/draw/loss for the side to move: +1, 0, -1 ("points"). A position is judged
//! exactly by the solver ([`crate::boardgame::solve`], win/draw/loss only) when it proves the
//! value within the analysis's budget (its node budget, else its time per position; two-player
//! games only); otherwise by the paranoid engine ([`super::engine::best_move`]), whose value
//! maps to an estimate: +1 for a forced win it found, -1 for a forced loss, otherwise its threat
//! count (lines one stack short of a row) clamped to ±4 and divided by 8, so within ±0.5 — read
//! as a draw ([`Judge::DRAW_BAND`] 0.5).
//!
//! Standings score a finished game 0 for a win, 1 for a draw and 2 for a loss (lower is better,
//! as Cathedral's unplaced squares).

use super::engine::{best_move, value_for};
use super::position::Outcome;
use super::record::{CorinthoRecord, result_words};
use super::{CorinthoMove, CorinthoPosition};
use crate::analysis::game::Judged;
use crate::analysis::{Budget, Judge};
use crate::boardgame::Judgement;
use crate::boardgame::{SolveOptions, solve};
use serde::Serialize;

/// A Corintho seat: the player's index from 0; serialised from 1, as `show --json`'s `to_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat(pub u8);

impl Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.0 + 1)
    }
}

/// The paranoid engine's depth for a budget: 2 under 10,000 nodes, 3 under 1,000,000, else 4;
/// 3 with a time budget: a fixed depth per budget, so that the estimate of a position does not
/// depend on the machine.
pub fn engine_depth_for(budget: &Budget) -> u32 {
    match budget.nodes {
        Some(n) if n < 10_000 => 2,
        Some(n) if n < 1_000_000 => 3,
        Some(_) => 4,
        None => 3,
    }
}

/// The paranoid engine's value as an estimate in [-1, 1]: ±1 for a forced result found, the
/// threat count clamped to ±4 and divided by 8 otherwise.
pub fn estimate_of(value: i32) -> f64 {
    if value > 9000 {
        1.0
    } else if value < -9000 {
        -1.0
    } else {
        f64::from(value.clamp(-4, 4)) / 8.0
    }
}

/// Whether `mv` wins at once for the side to move.
fn wins_at_once(position: &CorinthoPosition, mv: CorinthoMove) -> bool {
    let mut after = *position;
    after.play(mv);
    after.outcome() == Outcome::Won(position.to_move())
}

impl Judge for CorinthoPosition {
    type Seat = Seat;

    const THRESHOLDS: [f64; 3] = [0.25, 0.75, 1.5];
    const DRAW_BAND: f64 = 0.5;
    const UNITS: &'static str = "points";
    const VALUE_LEGEND: &'static str = "Values are the mover's, in points (+1 win, 0 draw, -1 loss): exact (+1) when the solver proved them, ~ estimates of the paranoid engine otherwise (~+1.0 a forced win it found, within ~0.5 its count of threats).";
    const RESULT_LEGEND: &'static str = "result: the winner, or drawn";
    const SCORE_COLUMN: &'static str = "score";
    const SCORE_WORDS: &'static str = "score";
    const STANDINGS_LEGEND: &'static str = "Ranked by score over all finished games, lowest first: 0 for a win, 1 for a draw, 2 for a loss; a match is two games with the players' seats swapped, won by the lower total.";

    fn judge(&self, played: Option<CorinthoMove>, budget: &Budget) -> Judged<CorinthoMove> {
        let me = self.to_move();
        match self.outcome() {
            Outcome::Ongoing => {}
            outcome => {
                return Judged {
                    value: match outcome {
                        Outcome::Won(p) if p == me => 1.0,
                        Outcome::Won(_) => -1.0,
                        _ => 0.0,
                    },
                    judgement: Judgement::Exact,
                    best: None,
                    line: Vec::new(),
                    played_value: None,
                    best_move: None,
                    nodes: None,
                    deeper: false,
                };
            }
        }
        if self.rules().players == 2 {
            let options = SolveOptions {
                threads: 1,
                tt_mb: budget.tt_mb.clamp(1, 64),
                wdl: true,
                root_values: false,
                max_nodes: budget.nodes,
                time_limit: budget.time,
                stop: budget.stop.clone(),
                ..SolveOptions::default()
            };
            let solution = solve(self, &options, &|_| {});
            if let Some(value) = solution.value() {
                // The proven line's first move; without a line, the solve's best so far.
                let best = solution
                    .best_line
                    .first()
                    .or(solution.best_so_far.as_ref())
                    .copied()
                    .filter(|&mv| self.check(mv).is_ok());
                let line = if solution.best_line.is_empty() {
                    best.iter().map(ToString::to_string).collect()
                } else {
                    solution.best_line.iter().map(ToString::to_string).collect()
                };
                return Judged {
                    value: f64::from(value),
                    judgement: Judgement::Exact,
                    best: best.map(|mv| mv.to_string()),
                    line,
                    played_value: played
                        .filter(|&mv| Some(mv) == best)
                        .map(|_| f64::from(value)),
                    best_move: best,
                    nodes: None,
                    deeper: false,
                };
            }
        }
        let depth = engine_depth_for(budget);
        let Some((best, raw)) = best_move(self, depth) else {
            // No legal move in an ongoing game does not happen; judge it level.
            return Judged {
                value: 0.0,
                judgement: Judgement::Estimate,
                best: None,
                line: Vec::new(),
                played_value: None,
                best_move: None,
                nodes: None,
                deeper: false,
            };
        };
        let value = estimate_of(raw);
        let played_value = played.map(|mv| {
            if mv == best {
                value
            } else {
                let mut child = *self;
                child.play(mv);
                estimate_of(value_for(&child, me, depth.saturating_sub(1)))
            }
        });
        Judged {
            value,
            judgement: Judgement::Estimate,
            best: Some(best.to_string()),
            line: vec![best.to_string()],
            played_value,
            best_move: Some(best),
            nodes: None,
            deeper: false,
        }
    }

    /// A win at once that the best move had and the move played lacks; a win at once that the
    /// move played allows the next player.
    fn move_notes(
        &self,
        played: CorinthoMove,
        best: Option<CorinthoMove>,
        reply: Option<CorinthoMove>,
    ) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(best) = best.filter(|&b| wins_at_once(self, b) && !wins_at_once(self, played)) {
            notes.push(format!("missed win: {best} wins at once"));
        }
        let mut after = *self;
        after.play(played);
        if let Some(reply) = reply.filter(|&r| {
            after.outcome() == Outcome::Ongoing && after.check(r).is_ok() && wins_at_once(&after, r)
        }) {
            notes.push(format!(
                "allows {reply}: Player {} wins at once",
                after.to_move() + 1
            ));
        }
        notes
    }

    fn seats(start: &CorinthoPosition) -> Vec<Seat> {
        (0..start.rules().players).map(Seat).collect()
    }

    fn seat_to_move(&self) -> Seat {
        Seat(self.to_move())
    }

    fn seat_title(seat: Seat) -> String {
        format!("Player {}", seat.0 + 1)
    }

    fn seat_key(seat: Seat) -> String {
        format!("player_{}", seat.0 + 1)
    }

    fn result_line(record: &CorinthoRecord) -> Option<String> {
        match record.final_position().outcome() {
            Outcome::Won(p) => Some(match record.names.get(p as usize) {
                Some(name) => format!("Result: {name} (player {}) wins.", p + 1),
                None => format!("Result: player {} wins.", p + 1),
            }),
            Outcome::Drawn => Some("Result: drawn.".to_string()),
            Outcome::Ongoing => None,
        }
    }

    fn result_short(record: &CorinthoRecord) -> String {
        result_words(&record.final_position()).unwrap_or_else(|| "unfinished".to_string())
    }

    fn player_names(record: &CorinthoRecord) -> Option<Vec<String>> {
        let players = record.start_position().rules().players as usize;
        (record.names.len() >= players).then(|| record.names[..players].to_vec())
    }

    /// 0 for the winner, 2 for every other player; 1 for everyone in a draw.
    fn scores(record: &CorinthoRecord) -> Option<Vec<u32>> {
        let end = record.final_position();
        let players = end.rules().players;
        match end.outcome() {
            Outcome::Won(w) => Some((0..players).map(|p| if p == w { 0 } else { 2 }).collect()),
            Outcome::Drawn => Some(vec![1; players as usize]),
            Outcome::Ongoing => None,
        }
    }
}
