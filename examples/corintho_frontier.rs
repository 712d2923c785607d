//! The Corintho solve frontier: every position after `K` opening plies (one per symmetry class
//! of the square's 8 symmetries), each solved (win/draw/loss) within a node budget, and what
//! that proves about the positions before it, up to the start: a position is a win if some
//! move leads to a proven loss, a loss if every move leads to a proven win, and so on
//! (docs/corintho.md, "The start: what is proven").
//!
//! `cargo run --release --features tools --example corintho_frontier -- K MAX_NODES [THREADS] [TT_MB] [LEVERS] [METHOD]`
//!
//! METHOD: `alpha-beta` (the default) or `proof-number`.
//!
//! LEVERS: `win` (the default: [`Folded`] with the immediate-win test), `sym` (symmetry
//! folding only), `both`, or `plain` (the positions as they are, without either).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::{Method, SolveOptions, solve};
use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Folded, Outcome};
use std::collections::BTreeMap;
use std::time::Instant;

/// The position's symmetry class: the key of its least image.
fn class(p: &CorinthoPosition) -> (u64, u64) {
    p.canonical().0.key()
}

/// One ply's positions by symmetry class, each with a line reaching it.
type Level = BTreeMap<(u64, u64), (CorinthoPosition, Vec<CorinthoMove>)>;

/// Bounds `(lower, upper)` from the first player's view.
type Bounds = (i32, i32);

fn word(v: i32) -> &'static str {
    ["first player loses", "draw", "first player wins"][(v + 1) as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let plies: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let max_nodes: u64 = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let threads: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let tt_mb: usize = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(512);
    let method = match args.get(6).map(String::as_str) {
        Some("proof-number") => Method::ProofNumbers,
        _ => Method::AlphaBeta,
    };
    let levers = args.get(5).map_or("win", String::as_str);
    let plain = levers == "plain";
    let (symmetry, knowledge) = match levers {
        "sym" => (true, false),
        "both" => (true, true),
        _ => (false, true),
    };
    let start = CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players"));
    // The classes of each ply, with one line reaching each, and how many lines reach it.
    let mut levels: Vec<Level> = vec![BTreeMap::from([(class(&start), (start, Vec::new()))])];
    for _ in 0..plies {
        let mut next = BTreeMap::new();
        for (p, line) in levels.last().expect("a level").values() {
            for mv in p.legal_moves() {
                let mut child = *p;
                child.play(mv);
                next.entry(class(&child)).or_insert_with(|| {
                    let mut l = line.clone();
                    l.push(mv);
                    (child, l)
                });
            }
        }
        levels.push(next);
    }
    let frontier = levels.last().expect("a level");
    println!(
        "{} positions after {plies} plies up to symmetry; node budget {max_nodes} each, {threads} thread(s), table up to {tt_mb} MiB{}",
        frontier.len(),
        if plain {
            ", plain (no folding, no immediate-win test)"
        } else {
            ""
        }
    );
    let total = Instant::now();
    let (mut solved, mut nodes) = (0, 0u64);
    let mut counts = BTreeMap::new();
    let mut known: BTreeMap<(u64, u64), Bounds> = BTreeMap::new();
    for (key, (p, line)) in frontier {
        let options = SolveOptions {
            threads,
            tt_mb,
            initial_tt_mb: Some(16.min(tt_mb)),
            wdl: true,
            root_values: false,
            max_nodes: Some(max_nodes),
            method,
            ..SolveOptions::default()
        };
        let immediate = if plain { None } else { p.winning_move() };
        let (lower, upper, best, stats) = if let Some(mv) = immediate {
            // The immediate-win test alone: no search (a solve would prove the value at once
            // but could search long for its line, the win storing no move in the table).
            (1, 1, vec![mv], Default::default())
        } else if plain {
            let s = solve(p, &options, &|_| {});
            (s.lower, s.upper, s.best_line, s.stats)
        } else {
            let s = solve(&Folded::with(*p, symmetry, knowledge), &options, &|_| {});
            let best = if symmetry {
                Folded::unfold_line(p, &s.best_line)
            } else {
                s.best_line
            };
            (s.lower, s.upper, best, s.stats)
        };
        nodes += stats.nodes;
        // Values from the first player's view.
        let sign = if p.to_move() == 0 { 1 } else { -1 };
        let bounds = if sign == 1 {
            (lower, upper)
        } else {
            (-upper, -lower)
        };
        known.insert(*key, bounds);
        let text: Vec<String> = line.iter().map(ToString::to_string).collect();
        let value = if lower == upper {
            solved += 1;
            *counts.entry(word(bounds.0)).or_insert(0) += 1;
            word(bounds.0).to_string()
        } else {
            format!("unproven [{}, {}]", bounds.0, bounds.1)
        };
        let best: Vec<String> = best.iter().take(14).map(ToString::to_string).collect();
        println!(
            "{:<24} {value:<20} {:>12} nodes {:>8.2} s  line: {}",
            text.join(" "),
            stats.nodes,
            stats.elapsed.as_secs_f64(),
            best.join(" ")
        );
    }
    println!(
        "solved {solved} of {} ({counts:?}); {nodes} nodes in {:.1} s",
        frontier.len(),
        total.elapsed().as_secs_f64()
    );
    // Back up the frontier's bounds to the start (first player's view: player 1 maximises).
    for depth in (0..plies).rev() {
        let mut level_known = BTreeMap::new();
        let (mut exact, mut tally) = (0, BTreeMap::new());
        for (key, (p, line)) in &levels[depth] {
            let first = p.to_move() == 0;
            let mut bounds: Option<Bounds> = None;
            for mv in p.legal_moves() {
                let mut child = *p;
                child.play(mv);
                let b = known.get(&class(&child)).copied().unwrap_or((-1, 1));
                bounds = Some(match bounds {
                    None => b,
                    Some((lo, hi)) if first => (lo.max(b.0), hi.max(b.1)),
                    Some((lo, hi)) => (lo.min(b.0), hi.min(b.1)),
                });
            }
            let b = bounds.unwrap_or_else(|| {
                // Over: the value from the first player's view.
                let v = match p.outcome() {
                    Outcome::Won(w) => 1 - 2 * i32::from(w),
                    _ => 0,
                };
                (v, v)
            });
            if b.0 == b.1 {
                exact += 1;
                *tally.entry(word(b.0)).or_insert(0) += 1;
            }
            if depth < 2 || b.0 == b.1 {
                let text: Vec<String> = line.iter().map(ToString::to_string).collect();
                if depth < 2 {
                    println!(
                        "backed up, ply {depth}: {:<12} first player's value in [{}, {}]",
                        if text.is_empty() {
                            "start".to_string()
                        } else {
                            text.join(" ")
                        },
                        b.0,
                        b.1
                    );
                }
            }
            level_known.insert(*key, b);
        }
        println!(
            "backed up to ply {depth}: {exact} of {} proven ({tally:?})",
            levels[depth].len()
        );
        known = level_known;
    }
}
