//! Writes the development solver positions `puzzles/bench-dev/`: a seeded playout preferring big
//! pieces (uniformly among the placements of the largest piece on offer), stopped once both
//! players have at most N buildings in hand.
//!
//! `cargo run --release --example make_bench_dev`

use cathedral::file::{PositionFile, save};
use cathedral::{MoveList, Player, Position, Rules, table};
use std::path::Path;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n as u64) as usize
    }
}

fn playout(seed: u64, left: u32) -> Option<Position> {
    let mut rng = Rng(seed);
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
        let pick = top[rng.below(top.len())];
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
