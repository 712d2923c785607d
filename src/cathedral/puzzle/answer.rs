//! The answer key of a puzzle, for worksheets and trainers: the wrong move a solver is most
//! likely to try, what it gives away, and the opponent's refutation, each move explained.

use super::check::CheckReport;
use super::criteria::{
    AnalyseOptions, greedy_tempting, placement_values, solve_line, solve_options,
};
use super::greedy;
use super::themes::explain_line;
use crate::boardgame::solve;
use crate::cathedral::explain::{MoveReport, explain_move};
use crate::cathedral::file::{PositionFile, PuzzleTempting};
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

/// The stored wrong try of a puzzle file, each move explained, no solving: the move played in
/// the game a puzzle comes from (its `puzzle.game` block), or else its tempting wrong move
/// (`puzzle.tempting`, written by `cathedral puzzles refute` and `cathedral generate`), with its
/// stored value and refutation. `None` when the file stores neither, or the move played in the
/// game was the answer (it lost nothing).
pub fn stored_try(file: &PositionFile) -> Option<WrongTry> {
    let puzzle = file.puzzle.as_ref()?;
    let value = file.solution.as_ref()?.value;
    let (kind, text, played_value, refutation) = match (&puzzle.game, &puzzle.tempting) {
        (Some(game), _) => (
            TryKind::Played,
            &game.played,
            game.played_value,
            &game.refutation,
        ),
        (None, Some(t)) => (
            if t.kind == "greedy" {
                TryKind::Greedy
            } else {
                TryKind::Closest
            },
            &t.played,
            t.value,
            &t.refutation,
        ),
        (None, None) => return None,
    };
    if played_value >= value {
        return None;
    }
    let mv = parse_move(&file.position, text).ok()?;
    let played = explain_move(&file.position, mv);
    let mut replay = played.after;
    let mut reply = Vec::new();
    for text in refutation {
        let mv = parse_move(&replay, text).ok()?;
        replay.play(mv);
        reply.push(mv);
    }
    Some(WrongTry {
        kind,
        value: played_value,
        loss: value - played_value,
        reply_line: explain_line(&played.after, &reply),
        played,
    })
}

/// The `puzzle.tempting:` block that stores `wrong` (from [`wrong_try`]); `None` for the move
/// played in a game (that is the `puzzle.game:` block).
pub fn tempting_block(wrong: &WrongTry) -> Option<PuzzleTempting> {
    let kind = match wrong.kind {
        TryKind::Greedy => "greedy",
        TryKind::Closest => "closest",
        TryKind::Played => return None,
    };
    Some(PuzzleTempting {
        kind: kind.to_string(),
        played: wrong.played.notation.clone(),
        value: wrong.value,
        refutation: wrong
            .reply_line
            .iter()
            .map(|r| r.notation.clone())
            .collect(),
    })
}

/// The verdict on `mv` read from the file, no solving: when `mv` is the stored answer
/// (`solution.best_move`, its best line) or the stored wrong try ([`stored_try`], its
/// refutation). `None` for any other move, or a file without an exact solution.
pub fn stored_check(file: &PositionFile, mv: Move) -> Option<CheckReport> {
    let solution = file.solution.as_ref().filter(|s| !s.wdl)?;
    let position = &file.position;
    let best_move = parse_move(position, solution.best_move.as_deref()?).ok()?;
    let best = explain_move(position, best_move);
    let same =
        |a: Move, b: Move| a == b || (a.placement().is_some() && a.placement() == b.placement());
    if same(mv, best_move) {
        let mut replay = best.after;
        let mut reply = Vec::new();
        for text in solution.best_line.iter().skip(1) {
            let m = parse_move(&replay, text).ok()?;
            replay.play(m);
            reply.push(m);
        }
        return Some(CheckReport {
            mover: position.to_move(),
            best_value: solution.value,
            played_value: solution.value,
            reply_line: explain_line(&best.after, &reply),
            played: best.clone(),
            best,
        });
    }
    let wrong = stored_try(file)?;
    let tried = parse_move(position, &wrong.played.notation).ok()?;
    if !same(mv, tried) {
        return None;
    }
    Some(CheckReport {
        mover: position.to_move(),
        best_value: solution.value,
        best,
        played_value: wrong.value,
        played: wrong.played,
        reply_line: wrong.reply_line,
    })
}
