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

/// A puzzle's title in words that name its idea, made from what the answer does (its
/// explanation) and the puzzle's themes: "Dark's Bridge at c1-c3 captures Light's Tavern",
/// "Light's Manor at a1-b2 claims 6 squares", "Dark's Stable at e4-e5 leaves Light's Castle
/// nowhere to go", "Light's Tavern at j1 waits in its own territory".
pub fn idea_title(position: &Position, answer: Move, themes: &[Theme]) -> String {
    let report = explain_move(position, answer);
    let mover = report.mover.title();
    let opponent = report.mover.opponent().title();
    let Some(building) = report.placed.as_ref() else {
        return format!("{mover} passes, and that is best");
    };
    let piece = building.piece.title();
    // Where it goes, as its first and last cell ("c1-c2"): two puzzles with the same idea and
    // building still read apart.
    let cells = building.cells.cells_by_file();
    let at = match (cells.first(), cells.last()) {
        (Some(a), Some(b)) if a != b => format!(" at {a}-{b}"),
        (Some(a), _) => format!(" at {a}"),
        _ => String::new(),
    };
    let who = format!("{mover}'s {piece}{at}");
    let captured: Vec<String> = report
        .captures()
        .map(|b| match b.owner {
            Some(owner) => format!("{}'s {}", owner.title(), b.piece.title()),
            None => "the Cathedral".to_string(),
        })
        .collect();
    let claimed: u32 = report.claims.iter().map(|c| c.size).sum();
    let squares = |n: u32| format!("{n} square{}", if n == 1 { "" } else { "s" });
    if !captured.is_empty() {
        return format!("{who} captures {}", captured.join(" and "));
    }
    let blocked = blocked_pieces(position, &report.after);
    if claimed > 0 {
        let mut title = format!("{who} claims {}", squares(claimed));
        if let Some(first) = blocked.first() {
            title.push_str(&format!(
                " and leaves {opponent}'s {} nowhere to go",
                first.title()
            ));
        }
        return title;
    }
    if let Some(first) = blocked.first() {
        return format!("{who} leaves {opponent}'s {} nowhere to go", first.title());
    }
    if report.in_own_territory {
        return format!("{who} waits in its own territory");
    }
    if themes.contains(&Theme::DiagonalTrap) {
        return format!("{who}: a corner-to-corner contact leaks");
    }
    if themes.contains(&Theme::CathedralCapture) {
        return format!("{who} prepares the Cathedral's capture");
    }
    if themes.contains(&Theme::Tempo) {
        return format!("{who} first: the order decides");
    }
    format!("{who} fits now: count what still fits")
}
