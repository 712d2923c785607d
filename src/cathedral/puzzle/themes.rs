//! Themes, detected from the solution (never asserted): what the answer does and what decides
//! the outcome. A puzzle can carry several. The definitions are in `docs/puzzles.md`.

use crate::cathedral::explain::{MoveReport, NearMissReason, explain_move};
use crate::cathedral::file::Theme;
use crate::cathedral::moves::Move;
use crate::cathedral::piece::Piece;
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;

/// A tempting move that loses, and how the opponent refutes it.
#[derive(Clone, Debug)]
pub struct Refutation {
    /// The tempting move.
    pub mv: Move,
    /// Its exact value, from the mover's view.
    pub value: i32,
    /// Best play after it (the opponent moves first), to the end of the game.
    pub line: Vec<Move>,
}

/// The explanation of every move of `line` played from `position`.
pub fn explain_line(position: &Position, line: &[Move]) -> Vec<MoveReport> {
    let mut current = *position;
    line.iter()
        .map(|&mv| {
            let report = explain_move(&current, mv);
            current = report.after;
            report
        })
        .collect()
}

/// Whether `player` can place `piece` anywhere in `position` (whoever is to move).
pub fn fits_somewhere(position: &Position, player: Player, piece: Piece) -> bool {
    let free = position.free_for(player);
    table()
        .piece(Some(player), piece)
        .orientations
        .iter()
        .any(|o| o.anchors(free).any())
}

/// The opponent's pieces in hand that fitted before `mv` and fit nowhere after it.
pub fn blocked_pieces(position: &Position, after: &Position) -> Vec<Piece> {
    let opponent = position.to_move().opponent();
    let hand = position.side(opponent).hand;
    Piece::PLAYER_KINDS
        .into_iter()
        .filter(|&p| hand.count(p) > 0)
        .filter(|&p| fits_somewhere(position, opponent, p) && !fits_somewhere(after, opponent, p))
        .collect()
}

fn has_diagonal_miss(report: &MoveReport) -> bool {
    report
        .near_misses
        .iter()
        .any(|m| matches!(m.reason, NearMissReason::DiagonalContact { .. }))
}

/// The themes of a puzzle whose answer starts `best_line`; `greedy` are the greedy player's
/// choices, `refutation` how its most tempting choice is refuted.
pub fn detect(
    position: &Position,
    best_line: &[Move],
    greedy: &[Move],
    refutation: Option<&Refutation>,
) -> Vec<Theme> {
    let mover = position.to_move();
    let reports = explain_line(position, best_line);
    let Some(answer) = reports.first() else {
        return Vec::new();
    };
    let mut themes = Vec::new();
    if answer.captures().any(|b| b.owner.is_some()) {
        themes.push(Theme::Capture);
    }
    if reports
        .iter()
        .filter(|r| r.mover == mover)
        .any(|r| r.captures().any(|b| b.owner.is_none()))
    {
        themes.push(Theme::CathedralCapture);
    }
    if answer.claims.iter().any(|c| c.captured.is_none()) {
        themes.push(Theme::Claim);
    }
    if !blocked_pieces(position, &answer.after).is_empty() {
        themes.push(Theme::Block);
    }
    let refuted_diagonal = refutation.is_some_and(|r| {
        has_diagonal_miss(&explain_move(position, r.mv)) || {
            let mut after = *position;
            after.play(r.mv);
            explain_line(&after, &r.line).iter().any(has_diagonal_miss)
        }
    });
    if reports.iter().any(has_diagonal_miss) || refuted_diagonal {
        themes.push(Theme::DiagonalTrap);
    }
    // Greedy choices the solver's side plays later on the best line, with the same placement.
    let later_own: Vec<_> = best_line
        .iter()
        .zip(&reports)
        .skip(1)
        .filter(|(_, r)| r.mover == mover)
        .filter_map(|(m, _)| m.placement())
        .collect();
    let order_matters = greedy
        .iter()
        .filter_map(|m| m.placement())
        .any(|p| later_own.contains(&p));
    if answer.in_own_territory || order_matters {
        themes.push(Theme::Tempo);
    }
    if reports
        .iter()
        .all(|r| r.claims.is_empty() && r.captures().next().is_none())
    {
        themes.push(Theme::EndgameCount);
    }
    themes
}
