//! The learned evaluation's parts, each on the same positions: the inputs before the planes
//! (counting placements), the inference from them and the planes' sums, the accumulator's
//! update by one move, and the estimate from scratch. Two sets of positions from 40 seeded
//! policy games: every position with at most 13 buildings in the larger hand (where the network
//! judges), and those with at most 9 (`endgame/`: where the accuracy suite's searches start and
//! go deeper, smaller hands and larger territories; the two sets can disagree on what a change
//! saves, `docs/engine.md`, "A cheaper evaluation, bit for bit").
//!
//! Run: `cargo bench --bench evaluation -- --measurement-time 3 --warm-up-time 1`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::Rng;
use cathedral::engine::accumulator::PlaneSums;
use cathedral::engine::eval::NETWORK_BUILDINGS;
use cathedral::engine::inputs::{SparseInputs, summary_of};
use cathedral::engine::network::Network;
use cathedral::policy::{Policy, play_game};
use cathedral::sampler::buildings_left;
use cathedral::{Position, Rules};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// The games' lines, cut to the positions with at most `buildings` buildings in the larger hand.
fn lines(buildings: u32) -> Vec<Vec<Position>> {
    let policy = Policy::default();
    (0..40)
        .map(|game| {
            let mut rng = Rng::new(4900 + game);
            play_game(Position::new(Rules::CLASSIC), &policy, &mut rng, |_, _| {
                false
            })
            .into_iter()
            .filter(|p| !p.cathedral_to_place() && buildings_left(p) <= buildings)
            .collect()
        })
        .collect()
}

fn evaluation(c: &mut Criterion) {
    parts(c, "evaluation", NETWORK_BUILDINGS);
    parts(c, "endgame", 9);
}

/// The parts on the positions with at most `buildings` buildings in the larger hand, as the
/// benchmark group `name`.
fn parts(c: &mut Criterion, name: &str, buildings: u32) {
    let network = Network::builtin();
    let lines = lines(buildings);
    let positions: Vec<Position> = lines.iter().flatten().copied().collect();
    let moves: Vec<(Position, Position)> = lines
        .iter()
        .flat_map(|line| line.windows(2).map(|pair| (pair[0], pair[1])))
        .collect();
    let sums: Vec<PlaneSums> = positions
        .iter()
        .map(|p| PlaneSums::of(network, p))
        .collect();
    let summaries: Vec<_> = positions.iter().map(summary_of).collect();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("inputs", |b| {
        b.iter(|| {
            for position in &positions {
                black_box(summary_of(black_box(position)));
            }
        })
    });
    group.bench_function("inference", |b| {
        b.iter(|| {
            for ((position, summary), sums) in positions.iter().zip(&summaries).zip(&sums) {
                let (view, skip) = sums.view(position.to_move()).expect("a position's sums");
                black_box(network.estimate_summed(black_box(summary), view, skip));
            }
        })
    });
    group.bench_function("estimate from scratch", |b| {
        b.iter(|| {
            for position in &positions {
                black_box(network.estimate(&SparseInputs::of(black_box(position))));
            }
        })
    });
    group.throughput(Throughput::Elements(moves.len() as u64));
    let from: Vec<PlaneSums> = moves
        .iter()
        .map(|(p, _)| PlaneSums::of(network, p))
        .collect();
    group.bench_function("accumulator update", |b| {
        let mut out = PlaneSums::default();
        b.iter(|| {
            for ((parent, child), from) in moves.iter().zip(&from) {
                out.update(network, parent, from, black_box(child));
                black_box(&out);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
