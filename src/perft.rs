//! Perft: the number of move sequences of a given length, for testing move generation.

use crate::moves::MoveList;
use crate::position::Position;

/// Counts the move sequences of exactly `depth` moves from `position` (passes count as moves;
/// a finished game has none). The last ply is counted without playing its moves.
pub fn perft(position: &Position, depth: u32) -> u64 {
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(position, depth, &mut lists)
}

fn perft_with(position: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves() as u64,
        _ => {
            let (list, rest) = lists.split_first_mut().expect("one list per ply");
            position.legal_moves(list);
            let mut total = 0;
            for &mv in list.as_slice() {
                let mut child = *position;
                child.play(mv);
                total += perft_with(&child, depth - 1, rest);
            }
            total
        }
    }
}

/// Perft per root move, for finding where two move generators disagree.
pub fn divide(position: &Position, depth: u32) -> Vec<(crate::moves::Move, u64)> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
