//! Whole-game analysis (`cathedral analyse`): every position of a game judged (exactly when the
//! solver proves it, by the engine's estimate otherwise), what each move gave up, marks,
//! turning points, missed captures and claims in words, and a per-player summary.
//!
//! Each position is judged once, independently of the others (so the work runs in parallel and,
//! with a node budget, gives the same answer on every machine). A move's loss is the value of the
//! position before it minus the value it leaves, both from the mover's view:
//! `loss(i) = value(i) + value(i + 1)`, as the value after the move is from the opponent's view.

use crate::cathedral::engine::{Choice, Judgement, PlayOptions, choose};
use crate::cathedral::explain::{MoveReport, explain_move};
use crate::cathedral::file::GameRecord;
use crate::cathedral::moves::Move;
use crate::cathedral::notation::format_move_with_player;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A move losing at least this many squares is an inaccuracy (`?!`).
pub const INACCURACY: f64 = 2.0;
/// A move losing at least this many squares is a mistake (`?`).
pub const MISTAKE: f64 = 4.0;
/// A move losing at least this many squares is a blunder (`??`).
pub const BLUNDER: f64 = 8.0;
/// An exact value is a draw when it is 0 (values are whole numbers); an estimate within this
/// many squares of 0 is read as a draw, as estimates are not that precise.
pub const DRAW_BAND: f64 = 1.5;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// `?!`: lost [`INACCURACY`] squares or more.
    Inaccuracy,
    /// `?`: lost [`MISTAKE`] squares or more, or turned the result one step down (a win into a
    /// draw, a draw into a loss).
    Mistake,
    /// `??`: lost [`BLUNDER`] squares or more, or turned a win into a loss.
    Blunder,
}

impl Mark {
    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// "inaccuracy", "mistake", "blunder".
    pub fn word(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// Win, draw or loss for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Losing.
    Loss,
    /// Level.
    Draw,
    /// Winning.
    Win,
}

impl Outcome {
    /// The outcome a value (squares, from the player's view) stands for.
    pub fn of(value: f64, judgement: Judgement) -> Outcome {
        let band = match judgement {
            Judgement::Exact => 0.5,
            Judgement::Estimate => DRAW_BAND,
        };
        if value > band {
            Outcome::Win
        } else if value < -band {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// "a win", "a draw", "a loss".
    pub fn phrase(self) -> &'static str {
        match self {
            Outcome::Win => "a win",
            Outcome::Draw => "a draw",
            Outcome::Loss => "a loss",
        }
    }
}

/// The judgement of one position.
#[derive(Clone, Debug, Serialize)]
pub struct Judged {
    /// The value from the side to move's view, in squares.
    pub value: f64,
    /// Exact (proven) or an estimate.
    pub judgement: Judgement,
    /// The best move, in the notation; `None` when the game is over.
    pub best: Option<String>,
    /// The expected line from the best move.
    pub line: Vec<String>,
    /// The value of the move played here, from the same search as `value` (so the two compare
    /// like for like); `None` at the end of the game or when no search iteration finished.
    pub played_value: Option<f64>,
    #[serde(skip)]
    best_move: Option<Move>,
}

/// One move of the game, judged.
#[derive(Clone, Debug, Serialize)]
pub struct PlyAnalysis {
    /// The move's number, from 1.
    pub ply: usize,
    /// Who played it.
    pub mover: Player,
    /// The move played, in the notation.
    pub played: String,
    /// The position before the move, judged from the mover's view.
    pub before: Judged,
    /// The value the move leaves, from the mover's view (the next position's value, negated).
    pub after_value: f64,
    /// Whether `after_value` is exact.
    pub after_judgement: Judgement,
    /// Squares the move gave up against the best move (never below 0): exact only when both
    /// values are.
    pub loss: f64,
    /// Whether `loss` rests on two exact values.
    pub loss_is_exact: bool,
    /// The mark, if the move lost enough.
    pub mark: Option<Mark>,
    /// The result the mover could reach before the move, and the one it can reach after.
    pub outcome_before: Outcome,
    /// See `outcome_before`.
    pub outcome_after: Outcome,
    /// Whether the move changed the result for the mover.
    pub turning_point: bool,
    /// Notes in words: what the move missed, what it allowed.
    pub notes: Vec<String>,
}

/// One player's summary.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayerSummary {
    /// Moves the player made (passes included).
    pub moves: usize,
    /// The mean loss per move, in squares.
    pub average_loss: f64,
    /// Counts of marks.
    pub inaccuracies: usize,
    /// See `inaccuracies`.
    pub mistakes: usize,
    /// See `inaccuracies`.
    pub blunders: usize,
    /// Moves judged on two exact values.
    pub exact_moves: usize,
}

/// The analysis of a whole game.
#[derive(Clone, Debug, Serialize)]
pub struct GameAnalysis {
    /// Every move (of an analysis stopped early, see [`assemble`]: every move whose two positions
    /// were judged).
    pub plies: Vec<PlyAnalysis>,
    /// The final position's value from the side to move's view (exact: the game is over, or
    /// the solver proved it); of an analysis stopped early, the last position judged.
    pub end: Judged,
    /// Light's summary.
    pub light: PlayerSummary,
    /// Dark's summary.
    pub dark: PlayerSummary,
    /// The moves (numbers) where the result changed.
    pub turning_points: Vec<usize>,
    /// The marks' thresholds in squares: inaccuracy, mistake, blunder.
    pub thresholds: [f64; 3],
}

/// Judges one position, and `played` in it.
fn judge(position: &Position, played: Option<Move>, options: &PlayOptions) -> Judged {
    let options = PlayOptions {
        also: played,
        ..options.clone()
    };
    let choice: Choice = choose(position, &options, &mut |_| {});
    // The played move's value comes from the deepest finished iteration: so do the best move
    // and its value here, so that the two compare like for like (the best move of a play may
    // come from an unfinished deeper iteration).
    let finished = choice
        .also
        .as_ref()
        .filter(|_| choice.judgement == Judgement::Estimate)
        .and(choice.candidates.first());
    let (value, best_move, pv) = match finished {
        Some(best) => (best.estimate, Some(best.mv), best.pv.clone()),
        None => (choice.value, choice.best, choice.pv.clone()),
    };
    let played_value = match (&choice.also, played) {
        // The best move played loses nothing.
        (_, Some(mv)) if Some(mv) == best_move => Some(value),
        (Some(also), _) => Some(also.estimate),
        _ => None,
    };
    Judged {
        value: f64::from(value) / 100.0,
        judgement: if position.is_game_over() {
            Judgement::Exact
        } else {
            choice.judgement
        },
        best: best_move.map(|mv| format_move_with_player(position, mv)),
        line: crate::cathedral::notation::format_line(position, &pv),
        played_value: played_value.map(|v| f64::from(v) / 100.0),
        best_move,
    }
}

/// Whether a move turned the result for the mover: a change of outcome counts when both values
/// are exact, or when the move also lost at least [`INACCURACY`] squares (so that the noise of
/// estimates near a boundary does not make turning points).
pub fn turns_result(loss: f64, before: Outcome, after: Outcome, exact: bool) -> bool {
    after < before && (exact || loss >= INACCURACY)
}

/// The mark of a move that lost `loss` squares and took the mover from `before` to `after`
/// (`exact`: both values proven).
pub fn mark_of(loss: f64, before: Outcome, after: Outcome, exact: bool) -> Option<Mark> {
    let steps_down = if turns_result(loss, before, after, exact) {
        (before as i32) - (after as i32)
    } else {
        0
    };
    if loss >= BLUNDER || steps_down >= 2 {
        Some(Mark::Blunder)
    } else if loss >= MISTAKE || steps_down == 1 {
        Some(Mark::Mistake)
    } else if loss >= INACCURACY {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// "Dark Castle (b2,b3,c2,d2,d3)".
fn building_words(building: &crate::cathedral::position::Building) -> String {
    format!("{} ({})", building.label(), building.cells)
}

/// What a move gains at once: captures and claimed squares.
fn gains(report: &MoveReport) -> (Vec<String>, u32) {
    let captures = report.captures().map(building_words).collect();
    let claimed = report.claims.iter().map(|c| c.size).sum();
    (captures, claimed)
}

/// Notes on a move: captures or claims the best move had and the played one lacks, and what the
/// played move allows the opponent's best reply to capture or claim.
fn notes(
    position: &Position,
    played: Move,
    before: &Judged,
    after: &Judged,
    loss: f64,
) -> Vec<String> {
    let mut notes = Vec::new();
    if loss < INACCURACY {
        return notes;
    }
    let mover = position.to_move();
    let report = explain_move(position, played);
    let (played_captures, played_claimed) = gains(&report);
    if let Some(best) = before.best_move.filter(|&b| b != played) {
        let best_report = explain_move(position, best);
        let (best_captures, best_claimed) = gains(&best_report);
        let best_text = format_move_with_player(position, best);
        for capture in best_captures
            .iter()
            .filter(|c| !played_captures.contains(c))
        {
            notes.push(format!(
                "missed capture: {best_text} would have captured {capture}"
            ));
        }
        if best_claimed > played_claimed {
            notes.push(format!(
                "missed claim: {best_text} claims {} squares, the move played {}",
                best_claimed, played_claimed
            ));
        }
    }
    if let Some(reply) = after.best_move {
        let after_position = report.after;
        let reply_report = explain_move(&after_position, reply);
        let (captures, claimed) = gains(&reply_report);
        let reply_text = format_move_with_player(&after_position, reply);
        for capture in &captures {
            notes.push(format!("allows {reply_text} to capture {capture}",));
        }
        if captures.is_empty() && claimed >= 3 {
            let cells: Vec<String> = reply_report
                .claims
                .iter()
                .map(|c| c.cells.to_string())
                .collect();
            notes.push(format!(
                "allows {reply_text} to claim {claimed} squares ({})",
                cells.join("; ")
            ));
        }
    }
    if notes.is_empty()
        && let Some(best) = &before.best
    {
        notes.push(format!(
            "{} could have played {best} (value {:+.2} instead of {:+.2})",
            mover.title(),
            before.value,
            before.value - loss
        ));
    }
    notes
}

/// Judges position `i` of `game` (`positions` are `game.positions()`), and the move played there.
pub fn judge_position(
    game: &GameRecord,
    positions: &[Position],
    i: usize,
    options: &PlayOptions,
) -> Judged {
    judge(&positions[i], game.moves.get(i).map(|m| m.mv), options)
}

/// Analyses `game` with `options` per position (its budget, level and seed), calling `progress`
/// with the number of positions judged so far and their total.
pub fn analyse_game(
    game: &GameRecord,
    options: &PlayOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> GameAnalysis {
    let positions = game.positions();
    let done = AtomicUsize::new(0);
    let total = positions.len();
    let judged: Vec<Judged> = (0..total)
        .into_par_iter()
        .map(|i| {
            let judged = judge_position(game, &positions, i, options);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            judged
        })
        .collect();
    assemble(game, &judged)
}

/// Move `i` of `game` (from 0) judged, from the judgements of the position before it
/// (`before`) and after it (`next`); `positions` are `game.positions()`.
pub fn ply_analysis(
    game: &GameRecord,
    positions: &[Position],
    i: usize,
    before: &Judged,
    next: &Judged,
) -> PlyAnalysis {
    let position = &positions[i];
    let played = game.moves[i].mv;
    let mover = position.to_move();
    // Two proven values compare exactly; otherwise the played move is measured in the same
    // search as the best one (two separate searches may stop at depths of different parity
    // and disagree by squares in the opening).
    let loss_is_exact = before.judgement == Judgement::Exact && next.judgement == Judgement::Exact;
    let (after_value, after_judgement) = match before.played_value {
        Some(value) if !loss_is_exact => (value, before.judgement),
        _ => (-next.value, next.judgement),
    };
    let loss = (before.value - after_value).max(0.0);
    let outcome_before = Outcome::of(before.value, before.judgement);
    let outcome_after = Outcome::of(after_value, after_judgement);
    PlyAnalysis {
        ply: i + 1,
        mover,
        played: format_move_with_player(position, played),
        before: before.clone(),
        after_value,
        after_judgement,
        loss,
        loss_is_exact,
        mark: mark_of(loss, outcome_before, outcome_after, loss_is_exact),
        outcome_before,
        outcome_after,
        turning_point: turns_result(loss, outcome_before, outcome_after, loss_is_exact),
        notes: notes(position, played, before, next, loss),
    }
}

/// The analysis of `game` from the judgements of its first positions, in order (at least one):
/// every move whose two positions are judged, the summaries of those moves, and `end` the last
/// position judged. With every position judged, the analysis of the whole game.
///
/// # Panics
///
/// When `judged` is empty or longer than the game's positions.
pub fn assemble(game: &GameRecord, judged: &[Judged]) -> GameAnalysis {
    assert!(!judged.is_empty() && judged.len() <= game.moves.len() + 1);
    let positions = game.positions();
    let plies: Vec<PlyAnalysis> = judged
        .windows(2)
        .enumerate()
        .map(|(i, pair)| ply_analysis(game, &positions, i, &pair[0], &pair[1]))
        .collect();
    let summary = |player: Player| {
        let mut summary = PlayerSummary::default();
        let mut sum = 0.0;
        for ply in plies.iter().filter(|p| p.mover == player) {
            summary.moves += 1;
            sum += ply.loss;
            summary.exact_moves += usize::from(ply.loss_is_exact);
            match ply.mark {
                Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
                Some(Mark::Mistake) => summary.mistakes += 1,
                Some(Mark::Blunder) => summary.blunders += 1,
                None => {}
            }
        }
        if summary.moves > 0 {
            summary.average_loss = sum / summary.moves as f64;
        }
        summary
    };
    GameAnalysis {
        turning_points: plies
            .iter()
            .filter(|p| p.turning_point)
            .map(|p| p.ply)
            .collect(),
        light: summary(Player::Light),
        dark: summary(Player::Dark),
        plies,
        end: judged[judged.len() - 1].clone(),
        thresholds: [INACCURACY, MISTAKE, BLUNDER],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_their_thresholds() {
        use Outcome::*;
        for exact in [true, false] {
            assert_eq!(mark_of(1.99, Win, Win, exact), None);
            assert_eq!(mark_of(2.0, Win, Win, exact), Some(Mark::Inaccuracy));
            assert_eq!(mark_of(3.99, Win, Win, exact), Some(Mark::Inaccuracy));
            assert_eq!(mark_of(4.0, Win, Win, exact), Some(Mark::Mistake));
            assert_eq!(mark_of(7.99, Loss, Loss, exact), Some(Mark::Mistake));
            assert_eq!(mark_of(8.0, Win, Win, exact), Some(Mark::Blunder));
            // Losing enough squares to change the result is a mistake (one step) or a
            // blunder (two).
            assert_eq!(mark_of(2.0, Win, Draw, exact), Some(Mark::Mistake));
            assert_eq!(mark_of(2.0, Win, Loss, exact), Some(Mark::Blunder));
        }
        // A proven result turned down counts whatever the squares; an estimated one only with
        // a real loss.
        assert_eq!(mark_of(1.0, Win, Draw, true), Some(Mark::Mistake));
        assert_eq!(mark_of(1.0, Draw, Loss, true), Some(Mark::Mistake));
        assert_eq!(mark_of(1.0, Win, Loss, true), Some(Mark::Blunder));
        assert_eq!(mark_of(1.0, Win, Draw, false), None);
        assert!(turns_result(1.0, Win, Draw, true));
        assert!(!turns_result(1.0, Win, Draw, false));
        assert!(!turns_result(9.0, Win, Win, true));
        assert_eq!(Outcome::of(0.5, Judgement::Exact), Draw);
        assert_eq!(Outcome::of(1.0, Judgement::Exact), Win);
        assert_eq!(Outcome::of(1.5, Judgement::Estimate), Draw);
        assert_eq!(Outcome::of(1.51, Judgement::Estimate), Win);
        assert_eq!(Outcome::of(-1.51, Judgement::Estimate), Loss);
    }
}
