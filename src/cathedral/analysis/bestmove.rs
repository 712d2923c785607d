//! The engine's decision as data: what `cathedral bestmove` prints and its JSON.

use crate::cathedral::book::{Book, BookMove};
use crate::cathedral::engine::{Choice, Judgement};
use crate::cathedral::explain::explain_move;
use crate::cathedral::notation::{format_line, format_move_with_player};
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::present::words::{result_phrase, thousands};
use serde::Serialize;

/// An estimate's lead in words: "ahead by 2.50 squares", "behind by 1.00 squares", "level".
fn lead_text(value: f64) -> String {
    if value > 0.0 {
        format!("ahead by {value:.2} squares")
    } else if value < 0.0 {
        format!("behind by {:.2} squares", -value)
    } else {
        "level".to_string()
    }
}

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
    /// Where the decision came from the opening book: the book's moves in the position with
    /// their statistics (absent when the engine searched).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub book: Option<BookReport>,
    /// Below the top level, the error people make that the level made on this move instead of
    /// its search's move, in words (absent when it made none): `line` and `candidates` are
    /// still what its search found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slip: Option<String>,
}

/// The opening book's say in a position.
#[derive(Clone, Debug, Serialize)]
pub struct BookReport {
    /// The book's name.
    pub name: String,
    /// The engine's nodes per move in the book's games.
    pub nodes_per_move: u64,
    /// Every move of the book in the position, best first: its games, mean final margin and
    /// worst result for the side that plays it.
    pub moves: Vec<BookMove>,
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
                let lead = lead_text(value);
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
            book: None,
            slip: choice.slip.map(|slip| slip.describe().to_string()),
        }
    }

    /// The decision of the opening book, if `position` is in it: the book's move (the best mean
    /// margin among moves with at least two games), its mean margin as the value (an estimate:
    /// engine games at a fixed budget) and the book's `candidates` best moves ranked.
    pub fn from_book(
        position: &Position,
        book: &Book,
        candidates: usize,
    ) -> Option<BestMoveReport> {
        let moves = book.lookup(position)?;
        let chosen = book.choice(position)?;
        let mover = position.to_move();
        let value = (chosen.margin * 100.0).round() / 100.0;
        let lead = lead_text(value);
        let games = if chosen.games == 1 {
            "1 game".to_string()
        } else {
            format!("{} games", chosen.games)
        };
        let mut ranked: Vec<&BookMove> = vec![chosen];
        ranked.extend(moves.iter().filter(|m| m.mv != chosen.mv));
        Some(BestMoveReport {
            mover,
            best_move: Some(chosen.text.clone()),
            judgement: Judgement::Estimate,
            value,
            verdict: format!(
                "{} is {lead} at the end of the game (estimate: the opening book, the mean of {games} of engine self-play at {} nodes a move)",
                mover.title(),
                thousands(book.nodes_per_move)
            ),
            line: vec![chosen.text.clone()],
            explanation: Some(explain_move(position, chosen.mv).to_string()),
            candidates: ranked
                .iter()
                .take(candidates.max(1))
                .map(|m| CandidateReport {
                    mv: m.text.clone(),
                    value: m.margin,
                    line: vec![m.text.clone()],
                })
                .collect(),
            depth: 0,
            nodes: 0,
            seconds: 0.0,
            nodes_per_second: 0.0,
            slip: None,
            book: Some(BookReport {
                name: book.name.clone(),
                nodes_per_move: book.nodes_per_move,
                moves: moves.to_vec(),
            }),
        })
    }

    /// The statistics line: "depth 3, 41,230 nodes in 0.98 s".
    pub fn stats_text(&self) -> String {
        if let Some(book) = &self.book {
            return format!(
                "From the opening book ({} known here; --book none searches instead)",
                crate::present::words::count(book.moves.len() as i64, "move")
            );
        }
        format!(
            "{}{} in {:.2} s",
            if self.judgement == Judgement::Estimate {
                format!("depth {}, ", self.depth)
            } else {
                String::new()
            },
            crate::present::words::count_large(self.nodes, "node"),
            self.seconds
        )
    }
}
