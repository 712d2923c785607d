//! How the Corintho solve grows towards the start: the positions along one line, from its end
//! back towards the start, each solved (win/draw/loss, value only) within a node budget, until
//! one is not proven (docs/performance.md, "Corintho").
//!
//! `cargo run --release --features tools --example corintho_line -- MAX_NODES THREADS "K@d1 C@a3 C@a1 ..." [LEVERS]`
//!
//! LEVERS as in `corintho_frontier`: `win` (the default), `sym`, `both`, `plain`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::{Phase, SolveOptions, solve};
use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Folded};
use std::sync::atomic::Ordering;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_nodes: u64 = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let threads: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let line: Vec<CorinthoMove> = args
        .get(3)
        .map(|text| {
            text.split_whitespace()
                .map(|m| CorinthoMove::parse(m).expect("a move"))
                .collect()
        })
        .unwrap_or_default();
    let levers = args.get(4).map_or("win", String::as_str);
    let (symmetry, knowledge) = match levers {
        "sym" => (true, false),
        "both" => (true, true),
        "plain" => (false, false),
        _ => (false, true),
    };
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players"));
    for plies in (0..=line.len()).rev() {
        let mut p = start;
        for &mv in &line[..plies] {
            p.play(mv);
        }
        let options = SolveOptions {
            threads,
            tt_mb: 4096,
            initial_tt_mb: Some(16),
            wdl: true,
            root_values: false,
            max_nodes: Some(max_nodes),
            ..SolveOptions::default()
        };
        // The value only: stop once the solve moves on to writing out a line (its nodes are
        // then counted up to the next progress report, at most about 150 ms later).
        let stop = options.stop.clone();
        let s = solve(
            &Folded::with(p, symmetry, knowledge),
            &options,
            &|progress| {
                if progress.phase == Phase::Line {
                    stop.store(true, Ordering::Relaxed);
                }
            },
        );
        // The first player's view.
        let sign = if p.to_move() == 0 { 1 } else { -1 };
        let value = if s.lower == s.upper {
            (s.lower * sign).to_string()
        } else {
            "unproven".to_string()
        };
        println!(
            "ply {plies:>2}: {value:>8} {:>12} nodes {:>8.2} s  table hits {:.1}%",
            s.stats.nodes,
            s.stats.elapsed.as_secs_f64(),
            s.stats.hit_rate().unwrap_or(0.0)
        );
        if s.lower != s.upper {
            break;
        }
    }
}
