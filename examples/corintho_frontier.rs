//! The Corintho solve frontier: every position after `K` opening plies (one per symmetry class
//! of the square's 8 symmetries), each solved exactly (win/draw/loss) within a node budget.
//!
//! `cargo run --release --example corintho_frontier -- K MAX_NODES [THREADS]`
//! (docs/performance.md, "Corintho").

use cathedral::boardgame::{SolveOptions, solve};
use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Square};
use std::collections::BTreeMap;
use std::time::Instant;

/// The square under symmetry `s` (0..8: 4 rotations, each maybe mirrored).
fn map(sq: Square, s: u8) -> Square {
    let (mut f, mut r) = (sq.file(), sq.rank());
    if s & 4 != 0 {
        f = 3 - f;
    }
    for _ in 0..(s & 3) {
        (f, r) = (r, 3 - f);
    }
    Square::at(f, r).expect("on the board")
}

fn map_move(mv: CorinthoMove, s: u8) -> CorinthoMove {
    match mv {
        CorinthoMove::Place { level, to } => CorinthoMove::Place {
            level,
            to: map(to, s),
        },
        CorinthoMove::Stack { from, to } => CorinthoMove::Stack {
            from: map(from, s),
            to: map(to, s),
        },
        CorinthoMove::Pass => CorinthoMove::Pass,
    }
}

/// The smallest key among the position's 8 images: equal for symmetric positions.
fn canonical(line: &[CorinthoMove]) -> (u64, u64) {
    let rules = CorinthoRules::for_players(2).expect("2 players");
    (0..8)
        .map(|s| {
            let mut p = CorinthoPosition::new(rules);
            for &mv in line {
                p.play(map_move(mv, s));
            }
            p.key()
        })
        .min()
        .expect("8 symmetries")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let plies: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let max_nodes: u64 = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let threads: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players"));
    // Every line of `plies` moves, one per symmetry class of the position reached.
    let mut lines: BTreeMap<(u64, u64), (Vec<CorinthoMove>, u64)> = BTreeMap::new();
    let mut frontier = vec![(start, Vec::new())];
    for _ in 0..plies {
        let mut next = Vec::new();
        let mut seen = BTreeMap::new();
        for (p, line) in frontier {
            for mv in p.legal_moves() {
                let mut child: CorinthoPosition = p;
                child.play(mv);
                let mut l: Vec<CorinthoMove> = line.clone();
                l.push(mv);
                let key = canonical(&l);
                *seen.entry(key).or_insert(0u64) += 1;
                if seen[&key] == 1 {
                    next.push((child, l));
                }
            }
        }
        frontier = next;
        lines = frontier
            .iter()
            .map(|(_, l)| (canonical(l), (l.clone(), seen[&canonical(l)])))
            .collect();
    }
    if plies == 0 {
        lines.insert(start.key(), (Vec::new(), 1));
    }
    println!(
        "{} positions after {plies} plies up to symmetry; node budget {max_nodes} each, {threads} thread(s)",
        lines.len()
    );
    let total = Instant::now();
    let (mut solved, mut nodes) = (0, 0u64);
    let mut counts = BTreeMap::new();
    for (line, _) in lines.values() {
        let mut p = start;
        for &mv in line {
            p.play(mv);
        }
        let options = SolveOptions {
            threads,
            tt_mb: 512,
            wdl: true,
            root_values: false,
            max_nodes: Some(max_nodes),
            ..SolveOptions::default()
        };
        let s = solve(&p, &options, &|_| {});
        nodes += s.stats.nodes;
        // Values from the first player's view.
        let sign = if p.to_move() == 0 { 1 } else { -1 };
        let text: Vec<String> = line.iter().map(ToString::to_string).collect();
        let value = match s.value() {
            Some(v) => {
                solved += 1;
                let word =
                    ["first player loses", "draw", "first player wins"][(v * sign + 1) as usize];
                *counts.entry(word).or_insert(0) += 1;
                word.to_string()
            }
            None => format!("unproven [{}, {}] for the side to move", s.lower, s.upper),
        };
        let best: Vec<String> = s
            .best_line
            .iter()
            .take(12)
            .map(ToString::to_string)
            .collect();
        println!(
            "{:<16} {value:<22} {:>12} nodes {:>8.2} s  line: {}",
            text.join(" "),
            s.stats.nodes,
            s.stats.elapsed.as_secs_f64(),
            best.join(" ")
        );
    }
    println!(
        "solved {solved} of {} ({counts:?}); {nodes} nodes in {:.1} s",
        lines.len(),
        total.elapsed().as_secs_f64()
    );
}
