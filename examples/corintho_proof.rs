//! Proof-number search on Corintho positions: for the position after each given line, "does
//! the side to move win?" and "does it at least draw?", with nodes and time (docs/corintho.md,
//! "The start: what is proven").
//!
//! `cargo run --release --features tools --example corintho_proof -- MAX_NODES THREADS TABLE_MIB "LINE" ["LINE" ...]`
//!
//! A LINE is moves from the two-player start (`"K@d1 C@a3"`), empty for the start itself.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::ProofSearch;
use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Folded};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let (max_nodes, threads, table_mib) = (number(1, 10_000_000), number(2, 1), number(3, 1024));
    let lines: Vec<&str> = if args.len() > 4 {
        args[4..].iter().map(String::as_str).collect()
    } else {
        vec![""]
    };
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players"));
    for line in lines {
        let mut position = start;
        for text in line.split_whitespace() {
            let mv = CorinthoMove::parse(text).expect("a move");
            position.check(mv).expect("a legal move");
            position.play(mv);
        }
        let mut search =
            ProofSearch::new(threads as usize, table_mib as usize).with_node_limit(Some(max_nodes));
        let folded = Folded::new(position);
        let clock = Instant::now();
        let win = search.at_least(&folded, 1);
        let draw = if win == Some(false) {
            search.at_least(&folded, 0)
        } else {
            None
        };
        let verdict = match (win, draw) {
            (Some(true), _) => "win",
            (Some(false), Some(true)) => "draw",
            (Some(false), Some(false)) => "loss",
            (None, _) => "unproven (win?)",
            (Some(false), None) => "not a win; draw? unproven",
        };
        println!(
            "{:<40} side to move: {verdict:<28} {:>12} nodes {:>8.2} s",
            if line.is_empty() { "(start)" } else { line },
            search.nodes(),
            clock.elapsed().as_secs_f64()
        );
    }
}
