//! Themes, detected from the solution (never asserted): what the answer does and what decides
//! the outcome. A puzzle can carry several. The definitions are in `docs/puzzles.md`.

use super::analyse::Refutation;
use crate::explain::{MoveReport, NearMissReason, explain_move};
use crate::moves::Move;
use crate::piece::Piece;
use crate::placement::table;
use crate::player::Player;
use crate::position::Position;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    /// The answer captures an opponent building.
    Capture,
    /// The solver's side captures the Cathedral on the best line.
    CathedralCapture,
    /// The answer claims a region (without a capture).
    Claim,
    /// The answer leaves an opponent building with nowhere to go: a piece in the opponent's
    /// hand that fitted before the move fits nowhere after it.
    Block,
    /// A wall leaking at a corner contact: a diagonal-contact near miss on the best line, or on
    /// the tempting move or its refutation.
    DiagonalTrap,
    /// A waiting move in one's own territory, or the tempting move is right but only later (the
    /// solver's side plays it further down the best line).
    Tempo,
    /// Nothing is claimed or captured on the best line: the result is decided by counting what
    /// still fits.
    EndgameCount,
}

impl Theme {
    pub const ALL: [Theme; 7] = [
        Theme::Capture,
        Theme::CathedralCapture,
        Theme::Claim,
        Theme::Block,
        Theme::DiagonalTrap,
        Theme::Tempo,
        Theme::EndgameCount,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Capture => "capture",
            Theme::CathedralCapture => "cathedral-capture",
            Theme::Claim => "claim",
            Theme::Block => "block",
            Theme::DiagonalTrap => "diagonal-trap",
            Theme::Tempo => "tempo",
            Theme::EndgameCount => "endgame-count",
        }
    }

    /// "Capture", "Cathedral capture"...
    pub fn title(self) -> &'static str {
        match self {
            Theme::Capture => "Capture",
            Theme::CathedralCapture => "Cathedral capture",
            Theme::Claim => "Claim",
            Theme::Block => "Block",
            Theme::DiagonalTrap => "Diagonal trap",
            Theme::Tempo => "Tempo",
            Theme::EndgameCount => "Endgame count",
        }
    }
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
