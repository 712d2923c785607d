//! The legal moves of a position, grouped per piece: what `cathedral moves` lists.

use crate::cathedral::moves::{Move, MoveList};
use crate::cathedral::notation::format_move;
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::Position;
use serde::Serialize;
use std::collections::BTreeMap;

/// The moves placing one piece (or the pass), in notation without the player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveGroup {
    /// The piece's name (`tavern`), or `pass`.
    pub name: String,
    /// The moves, in generation order.
    pub moves: Vec<String>,
}

/// Every legal move of a position. The serialised fields are `cathedral moves --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MovesReport {
    /// The side to move.
    pub to_move: Player,
    /// The number of legal moves.
    pub total: usize,
    /// Number of moves per piece (`pass` for a pass).
    pub per_piece: BTreeMap<String, usize>,
    /// Every legal move in canonical notation, group by group.
    pub moves: Vec<String>,
    /// The moves grouped per piece, smallest piece first, a pass last.
    #[serde(skip)]
    pub groups: Vec<MoveGroup>,
    /// Whether the game is over (no legal move).
    #[serde(skip)]
    pub game_over: bool,
}

impl MovesReport {
    /// The legal moves of `position`.
    ///
    /// ```
    /// use cathedral::analysis::moves::MovesReport;
    /// use cathedral::{Position, Rules};
    ///
    /// let report = MovesReport::of(&Position::new(Rules::CLASSIC));
    /// assert_eq!(report.groups.len(), 1); // only the Cathedral can be placed first
    /// assert_eq!(report.total, report.per_piece["cathedral"]);
    /// ```
    pub fn of(position: &Position) -> MovesReport {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let groups = groups(position, &list);
        MovesReport {
            to_move: position.to_move(),
            total: list.len(),
            per_piece: groups
                .iter()
                .map(|g| (g.name.clone(), g.moves.len()))
                .collect(),
            moves: groups.iter().flat_map(|g| g.moves.clone()).collect(),
            groups,
            game_over: position.is_game_over(),
        }
    }
}

/// The piece a move places, or `pass`.
fn group_of(mv: Move) -> String {
    mv.placement().map_or_else(
        || "pass".to_string(),
        |id| table().get(id).piece.name().to_string(),
    )
}

/// Moves grouped per piece, smallest piece first, a pass last.
fn groups(position: &Position, list: &MoveList) -> Vec<MoveGroup> {
    let mut groups: Vec<(Option<usize>, MoveGroup)> = Vec::new();
    for &mv in list {
        let order = mv.placement().map(|id| table().get(id).piece.index());
        let text = format_move(position, mv);
        match groups.iter_mut().find(|(o, _)| *o == order) {
            Some((_, group)) => group.moves.push(text),
            None => groups.push((
                order,
                MoveGroup {
                    name: group_of(mv),
                    moves: vec![text],
                },
            )),
        }
    }
    groups.sort_by_key(|(order, _)| order.unwrap_or(usize::MAX));
    groups.into_iter().map(|(_, group)| group).collect()
}
