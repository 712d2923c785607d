//! Checking an answer: is this move the best one? If not, what it loses and the opponent's
//! refuting line, each move explained.

use super::criteria::{AnalyseOptions, solve_line_watched};
use super::themes::explain_line;
use crate::boardgame::Progress;
use crate::cathedral::explain::{MoveReport, explain_move};
use crate::cathedral::moves::Move;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use crate::present::words::{count, result_phrase};
use serde::Serialize;
use std::fmt;

/// The verdict on one move. Its JSON (`cathedral check --json`) adds `correct` and `loss`.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The player who made the move being checked.
    pub mover: Player,
    /// The exact value of the position (best play), from the mover's view.
    pub best_value: i32,
    /// A best move and its explanation.
    pub best: MoveReport,
    /// The exact value after the move played, from the mover's view.
    pub played_value: i32,
    /// The move played, explained.
    pub played: MoveReport,
    /// Best play after the move played (the opponent first), each move explained.
    pub reply_line: Vec<MoveReport>,
}

impl CheckReport {
    /// Whether the move played is as good as the best move.
    pub fn is_correct(&self) -> bool {
        self.played_value == self.best_value
    }

    /// Squares the move played gives away compared with the best move.
    pub fn loss(&self) -> i32 {
        self.best_value - self.played_value
    }
}

/// Which of its two solves [`check_watched`] is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckStage {
    /// Solving the puzzle position: the best value and move.
    Position,
    /// Solving the position after the move being checked.
    AfterMove,
}

/// Solves the position and the position after `mv`; `None` if either does not fit the budget.
pub fn check(position: &Position, mv: Move, options: &AnalyseOptions) -> Option<CheckReport> {
    check_watched(position, mv, options, &|_, _| {})
}

/// [`check`], reporting each solve's progress to `progress`.
pub fn check_watched(
    position: &Position,
    mv: Move,
    options: &AnalyseOptions,
    progress: &(dyn Fn(CheckStage, &Progress) + Sync),
) -> Option<CheckReport> {
    let (best_value, best_line, _) = solve_line_watched(position, options, &|p| {
        progress(CheckStage::Position, p);
    })?;
    let best_move = *best_line.first()?;
    let played = explain_move(position, mv);
    let (child_value, reply, _) = solve_line_watched(&played.after, options, &|p| {
        progress(CheckStage::AfterMove, p);
    })?;
    Some(CheckReport {
        mover: position.to_move(),
        best_value,
        best: explain_move(position, best_move),
        played_value: -child_value,
        reply_line: explain_line(&played.after, &reply),
        played,
    })
}

impl Serialize for CheckReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Json<'a> {
            correct: bool,
            mover: Player,
            best_value: i32,
            played_value: i32,
            loss: i32,
            played: &'a MoveReport,
            best: &'a MoveReport,
            reply_line: &'a [MoveReport],
        }
        Json {
            correct: self.is_correct(),
            mover: self.mover,
            best_value: self.best_value,
            played_value: self.played_value,
            loss: self.loss(),
            played: &self.played,
            best: &self.best,
            reply_line: &self.reply_line,
        }
        .serialize(serializer)
    }
}

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| format!("{by}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mover = self.mover.title();
        if self.is_correct() {
            writeln!(
                f,
                "Correct: {} is best; with best play {mover} {}.",
                self.played.notation,
                result_phrase(self.best_value)
            )?;
            writeln!(f, "{}", indent(&self.played.to_string(), "  "))?;
        } else {
            let lost = self.loss();
            writeln!(
                f,
                "Not the answer: {} gives away {}. After it {mover} {} with best play; after the best move {mover} {}.",
                self.played.notation,
                count(lost, "square"),
                result_phrase(self.played_value),
                result_phrase(self.best_value)
            )?;
            writeln!(f, "Your move:")?;
            writeln!(f, "{}", indent(&self.played.to_string(), "  "))?;
        }
        if !self.reply_line.is_empty() {
            let opponent = self.mover.opponent().title();
            if self.is_correct() {
                writeln!(f, "Best play continues ({opponent} first):")?;
            } else {
                writeln!(f, "{opponent}'s refutation, with best play to the end:")?;
            }
            for (i, report) in self.reply_line.iter().enumerate() {
                writeln!(f, "{:>3}. {}", i + 1, report.notation)?;
                writeln!(f, "{}", indent(&report.to_string(), "       "))?;
            }
        }
        if !self.is_correct() {
            writeln!(
                f,
                "The answer: {} ({mover} {}).",
                self.best.notation,
                result_phrase(self.best_value)
            )?;
            writeln!(f, "{}", indent(&self.best.to_string(), "  "))?;
        }
        Ok(())
    }
}
