//! Proves the result of the Corintho position after LINE (from the two-player start) with
//! proof-number search and writes its certificate to OUT, for `corintho_verify` to check.
//!
//! `cargo run --release --features tools --example corintho_certificate -- "LINE" OUT [MAX_NODES] [THREADS] [TABLE_MIB]`

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::ProofSearch;
use cathedral::corintho::certificate::{Claim, write_certificate};
use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Folded};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(line), Some(out)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: corintho_certificate \"LINE\" OUT [MAX_NODES] [THREADS] [TABLE_MIB]");
        std::process::exit(2);
    };
    let number = |i: usize, default: u64| {
        args.get(i)
            .and_then(|a| a.parse::<u64>().ok())
            .unwrap_or(default)
    };
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players"));
    let moves: Vec<CorinthoMove> = line
        .split_whitespace()
        .map(|m| CorinthoMove::parse(m).expect("a move"))
        .collect();
    let mut position = start;
    for &mv in &moves {
        position.check(mv).expect("a legal move");
        position.play(mv);
    }
    let mut search = ProofSearch::new(number(4, 1) as usize, number(5, 1024) as usize)
        .with_node_limit(Some(number(3, 100_000_000)));
    let clock = Instant::now();
    let folded = Folded::new(position);
    let (mover, other) = (position.to_move(), 1 - position.to_move());
    let claim = match search.at_least(&folded, 1) {
        Some(true) => Claim::Wins(mover),
        Some(false) => match search.at_least(&folded, 0) {
            Some(true) => Claim::DoesNotLose(mover),
            Some(false) => Claim::Wins(other),
            None => Claim::DoesNotLose(other),
        },
        None => {
            eprintln!(
                "not proven within the node limit ({} nodes)",
                search.nodes()
            );
            std::process::exit(1);
        }
    };
    // A draw needs both sides' certificates; the other side's is the second question's.
    let proven_in = clock.elapsed();
    let proof_nodes = search.nodes();
    let mut file = std::io::BufWriter::new(std::fs::File::create(out).expect("the output file"));
    let written =
        write_certificate(&start, &moves, claim, &mut search, &mut file).unwrap_or_else(|why| {
            eprintln!("{why}");
            std::process::exit(1);
        });
    println!(
        "{}: proven in {proof_nodes} nodes, {:.2} s; certificate {out}: {} moves, {} positions, written in {:.2} s",
        claim.words(),
        proven_in.as_secs_f64(),
        written.moves,
        written.positions,
        (clock.elapsed() - proven_in).as_secs_f64()
    );
}
