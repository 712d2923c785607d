//! A fixed set of Corintho positions solved exactly (win/draw/loss, value only, one thread):
//! nodes and time per position, to measure solver changes (docs/performance.md, "Corintho").
//!
//! `cargo run --release --features tools --example corintho_bench -- [MAX_NODES] [MODE]`, MODE one of `plain`
//! (the position as it is), `sym` (symmetry folding), `win` (the immediate-win test), `both`
//! (the default).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::{Rng, SolveOptions, solve};
use cathedral::corintho::file::parse;
use cathedral::corintho::{CorinthoPosition, CorinthoRules, Folded};
use std::time::Instant;

const BOARD: &str = "board:\n  - \"C . . K\"\n  - \". . B .\"\n  - \". C . .\"\n  - \"BC . . B\"\n";

fn endgame(a: [u8; 3], b: [u8; 3]) -> CorinthoPosition {
    let text = format!(
        "game: corintho\nsupply:\n  - {{base: {}, column: {}, capital: {}}}\n  - {{base: {}, column: {}, capital: {}}}\n{BOARD}",
        a[0], a[1], a[2], b[0], b[1], b[2]
    );
    parse("bench", &text).expect("a valid file").position
}

/// The bench: two endgames of docs/corintho.md's table and positions after random openings.
pub fn positions() -> Vec<(String, CorinthoPosition)> {
    let mut out = vec![
        ("endgame 1/1/1 1/1/1".to_string(), endgame([1; 3], [1; 3])),
        (
            "endgame 2/1/1 1/2/2".to_string(),
            endgame([2, 1, 1], [1, 2, 2]),
        ),
    ];
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players"));
    let mut rng = Rng::new(7);
    for plies in [8, 8, 9, 9, 10, 10, 11, 11, 12, 12] {
        let mut p = start;
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            line.push(mv.to_string());
            p.play(mv);
        }
        out.push((line.join(" "), p));
    }
    out
}

fn main() {
    let max_nodes: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30_000_000);
    let mode = std::env::args().nth(2).unwrap_or("both".to_string());
    let (mut nodes, total) = (0, Instant::now());
    for (name, p) in positions() {
        let options = SolveOptions {
            threads: 1,
            tt_mb: 256,
            wdl: true,
            root_values: false,
            max_nodes: Some(max_nodes),
            ..SolveOptions::default()
        };
        let (symmetry, knowledge) = match mode.as_str() {
            "sym" => (true, false),
            "win" => (false, true),
            _ => (true, true),
        };
        let s = if mode == "plain" {
            let s = solve(&p, &options, &|_| {});
            (s.value(), s.stats)
        } else {
            let s = solve(&Folded::with(p, symmetry, knowledge), &options, &|_| {});
            (s.value(), s.stats)
        };
        let s = Outcome {
            value: s.0,
            stats: s.1,
        };
        nodes += s.stats.nodes;
        let value = s.value.map_or("?".to_string(), |v| v.to_string());
        println!(
            "{name:<50} {value:>2} {:>11} nodes {:>7.2} s",
            s.stats.nodes,
            s.stats.elapsed.as_secs_f64()
        );
    }
    println!("total {nodes} nodes {:.2} s", total.elapsed().as_secs_f64());
}

struct Outcome {
    value: Option<i32>,
    stats: cathedral::boardgame::Stats,
}
