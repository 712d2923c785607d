//! Perft: the number of move sequences of a given length, for testing move generation.

use super::Game;

/// Counts the move sequences of exactly `depth` moves from `position` (passes count as moves;
/// a finished game has none). The last ply is counted with [`Game::count_moves`], without
/// playing its moves.
pub fn perft<G: Game>(position: &G, depth: u32) -> u64 {
    let mut buffers: Vec<G::Buffer> = (0..depth).map(|_| G::Buffer::default()).collect();
    perft_with(position, depth, &mut buffers)
}

#[expect(
    clippy::expect_used,
    reason = "perft passes one buffer per ply of its depth"
)]
fn perft_with<G: Game>(position: &G, depth: u32, buffers: &mut [G::Buffer]) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves() as u64,
        _ => {
            let (buffer, rest) = buffers.split_first_mut().expect("one buffer per ply");
            position.generate(buffer);
            let mut total = 0;
            for &mv in G::moves(buffer).iter() {
                let mut child = *position;
                child.play(mv);
                total += perft_with(&child, depth - 1, rest);
            }
            total
        }
    }
}

/// Perft per root move, for finding where two move generators disagree.
pub fn divide<G: Game>(position: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut buffer = G::Buffer::default();
    position.generate(&mut buffer);
    G::moves(&mut buffer)
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
