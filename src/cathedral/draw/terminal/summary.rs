//! The text under the board: whose turn, the rules, each player's hand and score, the
//! Cathedral, and the result once the game is over.

use super::RenderStyle;
use super::palette::{legend, player_name};
use crate::cathedral::piece::Hand;
use crate::cathedral::player::Player;
use crate::cathedral::position::{CathedralStatus, Position};
use crate::cathedral::rules::CathedralTiming;

/// `1 square`, `2 squares`.
fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `tavern x2, stable x1, bridge x1 = 9 squares`, or `empty = 0 squares`.
pub fn hand_text(hand: &Hand) -> String {
    let items: Vec<String> = hand
        .kinds()
        .map(|piece| format!("{} x{}", piece.name(), hand.count(piece)))
        .collect();
    let list = if items.is_empty() {
        "empty".to_string()
    } else {
        items.join(", ")
    };
    format!("{list} = {}", plural(hand.squares(), "square"))
}

/// Where the Cathedral is, in words.
pub fn cathedral_text(position: &Position) -> String {
    match position.cathedral_status() {
        CathedralStatus::ToPlace => match position.rules().cathedral {
            CathedralTiming::First => "to place (Light's first move)".to_string(),
            CathedralTiming::AfterFirstMove => {
                "to place (by Light after Dark's first move, along with Light's first building)"
                    .to_string()
            }
        },
        CathedralStatus::OnBoard => format!("on the board ({})", position.cathedral()),
        CathedralStatus::Gone => "captured, out of the game".to_string(),
    }
}

/// The result line of a finished game, plain text.
pub fn result_text(position: &Position) -> String {
    let light = position.unplaced_squares(Player::Light);
    let dark = position.unplaced_squares(Player::Dark);
    match position.winner() {
        Some(player) => format!(
            "{} wins: {} against {}",
            player.title(),
            plural(light.min(dark), "unplaced square"),
            light.max(dark)
        ),
        None => format!(
            "draw: both players have {}",
            plural(light, "unplaced square")
        ),
    }
}

/// The summary block: one fact per line.
pub fn summary(position: &Position, style: RenderStyle) -> String {
    let mut lines = Vec::new();
    if position.is_game_over() {
        lines.push(format!("Game over: {}", result_text(position)));
    } else {
        lines.push(format!(
            "{} to move ({})",
            player_name(position.to_move(), style),
            plural(position.count_moves(), "legal move")
        ));
    }
    lines.push(format!("Rules: {}", position.rules()));
    lines.push(format!("Cathedral: {}", cathedral_text(position)));
    for player in Player::BOTH {
        let side = position.side(player);
        let placed = position
            .buildings()
            .filter(|b| b.owner == Some(player))
            .count();
        lines.push(format!(
            "{}: {} unplaced (score, lower is better), territory {}, {} placed, {}",
            player_name(player, style),
            plural(side.hand.squares(), "square"),
            plural(side.territory.count(), "square"),
            plural(placed as u32, "building"),
            if side.first_move_made {
                "first move made"
            } else {
                "first move still to come"
            }
        ));
        lines.push(format!("  hand: {}", hand_text(&side.hand)));
    }
    lines.push(legend(style));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cathedral::piece::Piece;

    #[test]
    fn full_hand_lists_every_kind() {
        let text = hand_text(&Hand::FULL);
        assert!(text.starts_with("tavern x2, stable x2, inn x2, bridge x1"));
        assert!(text.ends_with("academy x1 = 47 squares"));
        assert_eq!(hand_text(&Hand::EMPTY), "empty = 0 squares");
        assert!(Piece::PLAYER_KINDS.iter().all(|p| text.contains(p.name())));
    }
}
