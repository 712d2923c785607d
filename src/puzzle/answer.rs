//! The answer key of a puzzle, for worksheets and trainers: the wrong move a solver is most
//! likely to try, what it gives away, and the opponent's refutation, each move explained.

use super::criteria::{
    AnalyseOptions, greedy_tempting, placement_values, solve_line, solve_options,
};
use super::greedy;
use super::themes::explain_line;
use crate::boardgame::solve;
use crate::cathedral::explain::{MoveReport, explain_move};
use crate::cathedral::file::PositionFile;
use crate::cathedral::legality::parse_move;
use crate::cathedral::moves::Move;
use crate::cathedral::position::Position;
use serde::Serialize;

/// Why [`wrong_try`] picked the move it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TryKind {
    /// The greedy choice (the biggest building, claiming the most squares), which is not the
    /// answer: the move a hasty player makes.
    Greedy,
    /// The greedy player may find the answer (or an equally good move): the wrong move that
    /// loses least instead.
    Closest,
    /// The move actually played in the game the puzzle comes from (`generate --from`).
    Played,
}

/// A wrong move and how it is refuted.
#[derive(Clone, Debug, Serialize)]
pub struct WrongTry {
    /// Why this move is the one shown.
    pub kind: TryKind,
    /// The move, explained.
    pub played: MoveReport,
    /// Its exact value, from the mover's view.
    pub value: i32,
    /// Squares it gives away compared with the answer.
    pub loss: i32,
    /// Best play after it (the opponent first) to the end of the game, each move explained.
    pub reply_line: Vec<MoveReport>,
}

/// The most tempting wrong move of `position` (the greedy choice if that is wrong, else the
/// wrong move closest in value to the best), refuted with best play. `None` when the position
/// does not fit the budget, the game is over, or every move is as good as the best (there is no
/// wrong move).
pub fn wrong_try(position: &Position, options: &AnalyseOptions) -> Option<WrongTry> {
    if position.is_game_over() {
        return None;
    }
    let solution = solve(position, &solve_options(options, true), &|_| {});
    if !solution.complete || !solution.is_exact() || solution.stats.nodes > options.max_nodes {
        return None;
    }
    solution.best_line.first()?;
    let value = solution.lower;
    let by_placement = placement_values(&solution.root_moves);
    let value_of = |mv: Move| by_placement.get(&mv.placement()).map_or(i32::MIN, |e| e.0);
    let greedy = greedy::choices(position);
    let greedy_wrong = greedy_tempting(&greedy, &by_placement).filter(|&m| value_of(m) < value);
    let (kind, mv) = match greedy_wrong {
        // Every greedy choice would be a wrong answer; the one that loses least.
        Some(mv) if !greedy.iter().any(|m| value_of(*m) == value) => (TryKind::Greedy, mv),
        // The closest wrong move; on ties the biggest building claiming most, then the first in
        // move order.
        _ => {
            let (_, &(_, mv)) = by_placement
                .iter()
                .filter(|(_, (v, _))| *v < value)
                .max_by_key(|(_, (v, mv))| {
                    (*v, greedy::key(position, *mv), std::cmp::Reverse(*mv))
                })?;
            (TryKind::Closest, mv)
        }
    };
    let played = explain_move(position, mv);
    let (child_value, reply, _) = solve_line(&played.after, options)?;
    let value_after = -child_value;
    if value_after >= value {
        return None;
    }
    Some(WrongTry {
        kind,
        value: value_after,
        loss: value - value_after,
        reply_line: explain_line(&played.after, &reply),
        played,
    })
}

/// The move played in the game a puzzle comes from (its `puzzle.game` block), with its stored
/// value and refutation, each move explained: no solving. `None` when the file is no puzzle from
/// a game, or the move played there was the answer (it lost nothing).
pub fn stored_try(file: &PositionFile) -> Option<WrongTry> {
    let game = file.puzzle.as_ref()?.game.as_ref()?;
    let value = file.solution.as_ref()?.value;
    if game.played_value >= value {
        return None;
    }
    let mv = parse_move(&file.position, &game.played).ok()?;
    let played = explain_move(&file.position, mv);
    let mut replay = played.after;
    let mut reply = Vec::new();
    for text in &game.refutation {
        let mv = parse_move(&replay, text).ok()?;
        replay.play(mv);
        reply.push(mv);
    }
    Some(WrongTry {
        kind: TryKind::Played,
        value: game.played_value,
        loss: value - game.played_value,
        reply_line: explain_line(&played.after, &reply),
        played,
    })
}
