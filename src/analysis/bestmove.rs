//! The engine's decision as data: what `cathedral bestmove` prints and its JSON.

use crate::analysis::words::{result_phrase, thousands};
use crate::cathedral::engine::{Choice, Judgement};
use crate::cathedral::explain::explain_move;
use crate::cathedral::notation::{format_line, format_move_with_player};
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use serde::Serialize;

/// One ranked move.
#[derive(Clone, Debug, Serialize)]
pub struct CandidateReport {
    /// The move in the notation, with the player.
    pub mv: String,
    /// Its value from the mover's view, in squares: exact or estimated as the decision's
    /// `judgement` says.
    pub value: f64,
    /// The expected line after it, starting with it.
    pub line: Vec<String>,
}

/// One decision, ready to print.
#[derive(Clone, Debug, Serialize)]
pub struct BestMoveReport {
    /// The side to move.
    pub mover: Player,
    /// The move chosen, in the notation with the player; `None` when the game is over.
    pub best_move: Option<String>,
    /// `exact` (proven by the solver: the move is optimal) or `estimate`.
    pub judgement: Judgement,
    /// The final score difference from the mover's view, in squares: the exact value, or the
    /// engine's estimate (to two decimals).
    pub value: f64,
    /// The value in words, saying whether it is exact or an estimate.
    pub verdict: String,
    /// The expected line, starting with the move chosen.
    pub line: Vec<String>,
    /// What the move chosen does, in words (claims, captures, near misses).
    pub explanation: Option<String>,
    /// The best moves ranked with their values (as many as were asked for), best first.
    pub candidates: Vec<CandidateReport>,
    /// The deepest finished iteration of the estimating search (0 when solved exactly).
    pub depth: u32,
    /// Nodes of the solver and the search together.
    pub nodes: u64,
    /// Time spent.
    pub seconds: f64,
    /// Nodes per second.
    pub nodes_per_second: f64,
}

impl BestMoveReport {
    /// The report of `choice`, made from `position`.
    pub fn new(position: &Position, choice: &Choice) -> BestMoveReport {
        let mover = position.to_move();
        let value = f64::from(choice.value) / 100.0;
        let verdict = match choice.judgement {
            Judgement::Exact => format!(
                "{} {} with best play (exact)",
                mover.title(),
                result_phrase(choice.value / 100)
            ),
            Judgement::Estimate => {
                let lead = if value > 0.0 {
                    format!("ahead by {value:.2} squares")
                } else if value < 0.0 {
                    format!("behind by {:.2} squares", -value)
                } else {
                    "level".to_string()
                };
                format!(
                    "{} is {lead} at the end of the game (estimate, depth {})",
                    mover.title(),
                    choice.depth
                )
            }
        };
        let seconds = choice.elapsed.as_secs_f64();
        BestMoveReport {
            mover,
            best_move: choice.best.map(|mv| format_move_with_player(position, mv)),
            judgement: choice.judgement,
            value,
            verdict,
            line: format_line(position, &choice.pv),
            explanation: choice.best.map(|mv| explain_move(position, mv).to_string()),
            candidates: choice
                .candidates
                .iter()
                .map(|c| CandidateReport {
                    mv: format_move_with_player(position, c.mv),
                    value: f64::from(c.estimate) / 100.0,
                    line: format_line(position, &c.pv),
                })
                .collect(),
            depth: choice.depth,
            nodes: choice.nodes,
            seconds,
            nodes_per_second: if seconds > 0.0 {
                choice.nodes as f64 / seconds
            } else {
                0.0
            },
        }
    }

    /// The statistics line: "depth 3, 41,230 nodes in 0.98 s".
    pub fn stats_text(&self) -> String {
        format!(
            "{}{} nodes in {:.2} s",
            if self.judgement == Judgement::Estimate {
                format!("depth {}, ", self.depth)
            } else {
                String::new()
            },
            thousands(self.nodes),
            self.seconds
        )
    }
}
