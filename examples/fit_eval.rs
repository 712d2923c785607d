//! Fits the engine's evaluation weights (`src/cathedral/engine/eval.rs`) to exact values.
//!
//! `cargo run --release --features tools --example fit_eval -- [games] [seed] [max-left] [max-nodes]`
//!
//! Plays `games` policy games (the sampling policy, seeded), takes every position of each game
//! with at most `max-left` buildings in the larger hand, solves it exactly (one thread, at most
//! `max-nodes` nodes; positions over budget are left out), and fits the weights by least squares
//! on one half of the games; the other half measures the error. Prints the weights to paste into
//! `WEIGHTS`, and the errors of the fitted and of the current weights.

// Matrix code reads best with indices.
#![allow(clippy::needless_range_loop)]

use cathedral::boardgame::{Rng, SolveOptions, solve};
use cathedral::engine::eval::{FEATURES, WEIGHTS, Weights, features};
use cathedral::policy::{Policy, play_game};
use cathedral::sampler::game_seed;
use cathedral::{Player, Position, Rules};
use rayon::prelude::*;

struct Example {
    features: [f64; FEATURES],
    value: f64,
    game: u64,
}

fn arg<T: std::str::FromStr>(n: usize, default: T) -> T {
    std::env::args()
        .nth(n)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn buildings_left(position: &Position) -> u32 {
    Player::BOTH
        .iter()
        .map(|&p| position.side(p).hand.buildings())
        .max()
        .unwrap_or(0)
}

/// Solves `a x = b` (small, symmetric positive definite) by Gaussian elimination.
fn solve_linear(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let p = a[col][col];
        if p.abs() < 1e-12 {
            continue;
        }
        for row in 0..FEATURES {
            if row != col {
                let f = a[row][col] / p;
                for k in col..FEATURES {
                    a[row][k] -= f * a[col][k];
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = [0.0; FEATURES];
    for i in 0..FEATURES {
        if a[i][i].abs() >= 1e-12 {
            x[i] = b[i] / a[i][i];
        }
    }
    x
}

fn predict(weights: &[f64; FEATURES], features: &[f64; FEATURES]) -> f64 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}

/// Mean absolute error and the share of positions whose sign (win/draw/loss) is right.
fn errors(weights: &[f64; FEATURES], examples: &[&Example]) -> (f64, f64) {
    let n = examples.len().max(1) as f64;
    let mae = examples
        .iter()
        .map(|e| (predict(weights, &e.features) - e.value).abs())
        .sum::<f64>()
        / n;
    let sign = |v: f64| {
        if v > 0.5 {
            1
        } else if v < -0.5 {
            -1
        } else {
            0
        }
    };
    let right = examples
        .iter()
        .filter(|e| sign(predict(weights, &e.features)) == sign(e.value))
        .count() as f64
        / n;
    (mae, right)
}

fn main() {
    let games: u64 = arg(1, 200);
    let seed: u64 = arg(2, 1);
    let max_left: u32 = arg(3, 6);
    let max_nodes: u64 = arg(4, 3_000_000);
    let policy = Policy::default();
    let positions: Vec<(u64, Position)> = (0..games)
        .flat_map(|game| {
            let mut rng = Rng::new(game_seed(seed, game));
            play_game(Position::new(Rules::CLASSIC), &policy, &mut rng, |_, _| {
                false
            })
            .into_iter()
            .filter(|p| !p.is_game_over() && buildings_left(p) <= max_left)
            .map(move |p| (game, p))
        })
        .collect();
    eprintln!("{} positions from {games} games", positions.len());
    let examples: Vec<Example> = positions
        .par_iter()
        .filter_map(|&(game, position)| {
            let solution = solve(
                &position,
                &SolveOptions {
                    threads: 1,
                    tt_mb: 16,
                    root_values: false,
                    max_nodes: Some(max_nodes),
                    ..SolveOptions::default()
                },
                &|_| {},
            );
            solution.value().map(|value| Example {
                features: features(&position),
                value: f64::from(value),
                game,
            })
        })
        .collect();
    let train: Vec<&Example> = examples.iter().filter(|e| e.game % 2 == 0).collect();
    let test: Vec<&Example> = examples.iter().filter(|e| e.game % 2 == 1).collect();
    eprintln!(
        "{} solved within {max_nodes} nodes: {} to fit, {} to test",
        examples.len(),
        train.len(),
        test.len()
    );
    let mut xtx = [[0.0; FEATURES]; FEATURES];
    let mut xty = [0.0; FEATURES];
    for e in &train {
        for i in 0..FEATURES {
            xty[i] += e.features[i] * e.value;
            for j in 0..FEATURES {
                xtx[i][j] += e.features[i] * e.features[j];
            }
        }
    }
    let fitted = solve_linear(xtx, xty);
    let rounded = fitted.map(|w| (w * 1000.0).round() / 1000.0);
    println!("fitted weights: {rounded:?}");
    for (name, weights) in [
        ("fitted", rounded),
        ("current", WEIGHTS),
        ("guessed", Weights::GUESSED.0),
        ("material", Weights::MATERIAL.0),
    ] {
        let (mae_train, sign_train) = errors(&weights, &train);
        let (mae_test, sign_test) = errors(&weights, &test);
        println!(
            "{name:>8}: mean absolute error {mae_train:.2} squares (fit half), {mae_test:.2} (test half); sign right {:.1} % / {:.1} %",
            100.0 * sign_train,
            100.0 * sign_test
        );
    }
}
