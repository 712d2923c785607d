//! Writes the development solver positions `puzzles/bench-dev/`: a seeded playout preferring big
//! pieces (uniformly among the placements of the largest piece on offer), stopped once both
//! players have at most N buildings in hand.
//!
//! `cargo run --release --features tools --example make_bench_dev`

use cathedral::boardgame::Rng;
use cathedral::file::{PositionFile, save};
use cathedral::{MoveList, Player, Position, Rules, table};
use std::path::Path;

fn playout(seed: u64, left: u32) -> Option<Position> {
    let mut rng = Rng::new(seed);
    let mut position = Position::new(Rules::CLASSIC);
    let mut moves = MoveList::new();
    loop {
        let in_hand = |p: Player| position.side(p).hand.buildings();
        if !position.cathedral_to_place()
            && in_hand(Player::Light) <= left
            && in_hand(Player::Dark) <= left
        {
            return (!position.is_game_over()).then_some(position);
        }
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let size = |i: usize| {
            moves.as_slice()[i]
                .placement()
                .map_or(0, |id| table().get(id).piece.size())
        };
        let largest = (0..moves.len()).map(size).max().unwrap_or(0);
        let top: Vec<usize> = (0..moves.len()).filter(|&i| size(i) == largest).collect();
        let pick = top[rng.below(top.len() as u64) as usize];
        position.play(moves.as_slice()[pick]);
    }
}

fn main() {
    let dir = Path::new("puzzles/bench-dev");
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("{e}");
        return;
    }
    for (left, seeds) in [(3, [1, 2]), (5, [1, 2]), (7, [1, 2])] {
        for seed in seeds {
            let Some(position) = (seed..).take(50).find_map(|s| playout(s * 31, left)) else {
                continue;
            };
            let mut file = PositionFile::from_position(position);
            file.meta.title = Some(format!(
                "Policy playout to {left} buildings left (seed {seed})"
            ));
            file.meta.source = Some("examples/make_bench_dev.rs".to_string());
            let path = dir.join(format!("left{left}-{seed}.yaml"));
            match save(&path, &file, true) {
                Ok(()) => println!("{}", path.display()),
                Err(e) => eprintln!("{e}"),
            }
        }
    }
}
