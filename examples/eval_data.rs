//! Labels positions with exact values, for training the learned evaluation
//! (`examples/train_eval.rs`, `docs/engine.md`, "The learned evaluation").
//!
//! `cargo run --release --example eval_data -- OUT [games] [seed] [max-left] [max-nodes] [first-game] [min-left] [search-nodes]`
//!
//! Plays policy games `first-game..games` (the sampling policy, seeded like `cathedral sample`:
//! game `g` plays with `Rng::new(game_seed(seed, g))`), takes every position of each game with
//! at most `max-left` buildings in the larger hand that is not over, solves it exactly (one
//! thread per position, at most `max-nodes` nodes; positions over budget are left out) and
//! appends a line `game ply value key` to OUT for each: the game, the number of moves from its
//! start, the exact value for the side to move, and the position's Zobrist key in hex, by which
//! the trainer checks that replaying the game reaches the same position. Games are solved 64
//! at a time and written after each batch, so an interrupted run keeps what it found and goes on
//! with `first-game` set past the last game in OUT. OUT is never overwritten: lines are appended.
//!
//! Earlier in the game, where exact values cost minutes to hours, `search-nodes` above 0 labels
//! the positions with `min-left` to `max-left` buildings in the larger hand by the engine's
//! estimating search instead (the learned evaluation, `search-nodes` nodes, no solver): the
//! value, in hundredths of a square, is an estimate, and the header says so. Each generation of
//! the network so labels the data of the next (bootstrapping).

use cathedral::boardgame::engine::SCALE;
use cathedral::boardgame::{Rng, SolveOptions, solve};
use cathedral::engine::eval::Evaluation;
use cathedral::engine::{PlayOptions, choose};
use cathedral::policy::{Policy, play_game};
use cathedral::sampler::{buildings_left, game_seed};
use cathedral::{Position, Rules};
use rayon::prelude::*;
use std::io::Write;

fn arg<T: std::str::FromStr>(n: usize, default: T) -> T {
    match std::env::args().nth(n) {
        None => default,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("argument {n} ({text:?}) is not a number");
            std::process::exit(2)
        }),
    }
}

fn main() -> std::io::Result<()> {
    let Some(out) = std::env::args().nth(1) else {
        eprintln!(
            "usage: eval_data OUT [games] [seed] [max-left] [max-nodes] [first-game]\n(lines are appended to OUT)"
        );
        std::process::exit(2)
    };
    let games: u64 = arg(2, 2000);
    let seed: u64 = arg(3, 41);
    let max_left: u32 = arg(4, 8);
    let max_nodes: u64 = arg(5, 1_000_000);
    let first: u64 = arg(6, 0);
    let min_left: u32 = arg(7, 0);
    let search_nodes: u64 = arg(8, 0);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)?;
    if first == 0 {
        if search_nodes == 0 {
            writeln!(
                file,
                "# eval_data: policy games, seed {seed}, at most {max_left} buildings in the larger hand, at most {max_nodes} nodes; game ply value key"
            )?;
        } else {
            writeln!(
                file,
                "# eval_data: policy games, seed {seed}, {min_left} to {max_left} buildings in the larger hand, estimates by the search at {search_nodes} nodes with the network; game ply value key"
            )?;
        }
    }
    let policy = Policy::default();
    let started = std::time::Instant::now();
    let (mut kept, mut dropped) = (0usize, 0usize);
    let mut game = first;
    while game < games {
        let batch: Vec<u64> = (game..games.min(game + 64)).collect();
        let positions: Vec<(u64, usize, Position)> = batch
            .iter()
            .flat_map(|&g| {
                let mut rng = Rng::new(game_seed(seed, g));
                play_game(Position::new(Rules::CLASSIC), &policy, &mut rng, |_, _| {
                    false
                })
                .into_iter()
                .enumerate()
                .filter(|(_, p)| {
                    !p.is_game_over()
                        && !p.cathedral_to_place()
                        && (min_left..=max_left).contains(&buildings_left(p))
                })
                .map(move |(ply, p)| (g, ply, p))
            })
            .collect();
        let solved: Vec<Option<String>> = positions
            .par_iter()
            .map(|(g, ply, position)| {
                if search_nodes > 0 {
                    let choice = choose(
                        position,
                        &PlayOptions {
                            nodes: Some(search_nodes),
                            time: None,
                            exact: false,
                            evaluation: Evaluation::Network,
                            tt_mb: 16,
                            ..PlayOptions::default()
                        },
                        &mut |_| {},
                    );
                    return Some(format!(
                        "{g} {ply} {:.2} {:x}",
                        f64::from(choice.value) / f64::from(SCALE),
                        position.key().halves().0
                    ));
                }
                let options = SolveOptions {
                    threads: 1,
                    tt_mb: 16,
                    max_nodes: Some(max_nodes),
                    ..SolveOptions::default()
                };
                let solution = solve(position, &options, &|_| {});
                solution
                    .value()
                    .map(|value| format!("{g} {ply} {value} {:x}", position.key().halves().0))
            })
            .collect();
        for line in &solved {
            match line {
                Some(line) => {
                    writeln!(file, "{line}")?;
                    kept += 1;
                }
                None => dropped += 1,
            }
        }
        file.flush()?;
        game = batch.last().map_or(games, |g| g + 1);
        eprintln!(
            "games {first}..{game}: {kept} positions labelled, {dropped} over {max_nodes} nodes, {:.0} s",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
