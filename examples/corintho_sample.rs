//! Both solver methods on fresh Corintho positions: random games from the two-player start
//! (each move drawn from those that leave the opponent no immediate win),
//! stopped after each of PLIES plies (games over before then are left out and counted), each
//! position solved to win/draw/loss by alpha-beta and by proof-number search within SECONDS,
//! on THREADS threads. Prints, per ply, how many each method proved and their median time on
//! the positions both proved (docs/corintho.md, "The start: what is proven", and
//! docs/solver.md, "Which method").
//!
//! `cargo run --release --features tools --example corintho_sample -- SEED COUNT SECONDS THREADS PLIES...`

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::{Method, Rng, SolveOptions, game_seed, solve};
use cathedral::corintho::{CorinthoPosition, CorinthoRules, Folded};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let (seed, count, seconds, threads) = (number(1, 1), number(2, 10), number(3, 5), number(4, 1));
    let plies: Vec<usize> = args[5.min(args.len())..]
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect();
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players"));
    println!(
        "seed {seed}, {count} games a ply, {seconds} s a position and method, {threads} thread(s)"
    );
    println!(
        "ply  sampled  over  alpha-beta proven  median s   proof-number proven  median s   values (first player: win/draw/loss)"
    );
    for &ply in &plies {
        let (mut sampled, mut over) = (0, 0);
        let mut proven = [0usize; 2];
        let mut both_times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        let mut values = [0usize; 3];
        for game in 0..count {
            let mut rng = Rng::new(game_seed(seed ^ ply as u64, game));
            let mut position = start;
            let mut finished = false;
            for _ in 0..ply {
                // A sensible random move: one that hands the opponent no immediate win.
                let Some(mv) = position.sensible_random_move(&mut rng) else {
                    finished = true;
                    break;
                };
                position.play(mv);
            }
            if finished || position.legal_moves().is_empty() {
                over += 1;
                continue;
            }
            sampled += 1;
            let mut results = [None, None];
            let mut times = [0.0; 2];
            for (i, method) in [Method::AlphaBeta, Method::ProofNumbers]
                .into_iter()
                .enumerate()
            {
                let options = SolveOptions {
                    threads: threads as usize,
                    tt_mb: 512,
                    initial_tt_mb: Some(16),
                    wdl: true,
                    root_values: false,
                    time_limit: Some(Duration::from_secs(seconds)),
                    method,
                    ..SolveOptions::default()
                };
                let s = solve(&Folded::new(position), &options, &|_| {});
                times[i] = s.stats.elapsed.as_secs_f64();
                if s.lower == s.upper {
                    proven[i] += 1;
                    let first = if position.to_move() == 0 {
                        s.lower
                    } else {
                        -s.lower
                    };
                    results[i] = Some(first);
                }
            }
            if let [Some(a), Some(b)] = results {
                assert_eq!(a, b, "the two methods disagree on game {game} at ply {ply}");
                for i in 0..2 {
                    both_times[i].push(times[i]);
                }
            }
            if let Some(v) = results[0].or(results[1]) {
                values[(1 - v) as usize] += 1;
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2)
                .map_or("-".to_string(), |m| format!("{m:.2}"))
        };
        println!(
            "{ply:>3}  {sampled:>7}  {over:>4}  {:>17}  {:>8}   {:>19}  {:>8}   {}/{}/{}",
            proven[0],
            median(&mut both_times[0]),
            proven[1],
            median(&mut both_times[1]),
            values[0],
            values[1],
            values[2]
        );
    }
}
