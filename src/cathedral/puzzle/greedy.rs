//! The simple greedy player a puzzle must not reward: it places its biggest piece, and among the
//! placements of that size the one claiming the most squares (captured buildings included).

use crate::cathedral::moves::{Move, MoveList};
use crate::cathedral::policy::effect;
use crate::cathedral::position::Position;

/// The greedy key of a move: (building size, squares claimed). Passes rank last.
pub fn key(position: &Position, mv: Move) -> (u32, u32) {
    if mv.is_pass() {
        return (0, 0);
    }
    let e = effect(position, mv);
    (e.size, e.claimed)
}

/// Every move the greedy player might pick: all those with the highest key (it has no reason to
/// prefer one of them).
pub fn choices(position: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let keyed: Vec<((u32, u32), Move)> = list.iter().map(|&m| (key(position, m), m)).collect();
    let Some(best) = keyed.iter().map(|(k, _)| *k).max() else {
        return Vec::new();
    };
    keyed
        .into_iter()
        .filter(|(k, _)| *k == best)
        .map(|(_, m)| m)
        .collect()
}
