//! Proof-number search within a node budget on 30 fresh Corintho positions (10 sensible random
//! games each stopped at plies 7, 9 and 11, as in `corintho_sample`): how many are proven and the
//! nodes spent on those (docs/performance.md, "Proof-number search against alpha-beta").
//!
//! `cargo run --release --features tools --example corintho_pn_budget -- MAX_NODES`

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::{Method, Rng, SolveOptions, game_seed, solve};
use cathedral::corintho::{CorinthoPosition, CorinthoRules, Folded};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nodes: u64 = args[1].parse().unwrap();
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
    let (mut proven, mut spent, mut total) = (0, 0u64, 0);
    let clock = std::time::Instant::now();
    for ply in [7usize, 9, 11] {
        for game in 0..10 {
            let mut rng = Rng::new(game_seed(77 ^ ply as u64, game));
            let mut position = start;
            for _ in 0..ply {
                let Some(mv) = position.sensible_random_move(&mut rng) else {
                    break;
                };
                position.play(mv);
            }
            if position.legal_moves().is_empty() {
                continue;
            }
            total += 1;
            let options = SolveOptions {
                threads: 1,
                tt_mb: 256,
                wdl: true,
                root_values: false,
                max_nodes: Some(nodes),
                method: Method::ProofNumbers,
                ..SolveOptions::default()
            };
            let s = solve(&Folded::new(position), &options, &|_| {});
            if s.lower == s.upper {
                proven += 1;
                spent += s.stats.nodes;
            }
        }
    }
    println!(
        "proven {proven} of {total}, {spent} nodes on the proven, {:.1} s",
        clock.elapsed().as_secs_f64()
    );
}
