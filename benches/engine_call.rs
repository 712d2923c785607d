//! What one call of the playing engine costs at each node budget (1, 200, 2,000, 20,000 and
//! 1,000,000 nodes), at full strength with the default table (64 MiB): a call should cost what its
//! nodes cost, not its table (issue 76). The positions are 16 from seeded policy games, 8 after
//! 8 plies and 8 after 20; each iteration is one call on the next of them, in a process that has
//! made calls before (as a training loop, a match or a session does).
//!
//! Run: `cargo bench --bench engine_call -- --warm-up-time 1 --measurement-time 3`; the figures
//! before and after the budget-sized table are in `docs/engine.md`, "What a call costs".

use cathedral::boardgame::Rng;
use cathedral::engine::{PlayOptions, choose};
use cathedral::policy::{Policy, play_game};
use cathedral::{Position, Rules};
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use std::time::Duration;

fn positions() -> Vec<Position> {
    let policy = Policy::default();
    let mut positions = Vec::new();
    for game in 0..8 {
        let line = play_game(
            Position::new(Rules::CLASSIC),
            &policy,
            &mut Rng::new(7600 + game),
            |_, _| false,
        );
        for ply in [8, 20] {
            if let Some(p) = line.get(ply).filter(|p| !p.is_game_over()) {
                positions.push(*p);
            }
        }
    }
    positions
}

fn engine_call(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("engine-call");
    for nodes in [1u64, 200, 2_000, 20_000, 1_000_000] {
        if nodes >= 1_000_000 {
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(20));
        }
        let options = PlayOptions {
            nodes: Some(nodes),
            time: None,
            ..PlayOptions::default()
        };
        let mut next = 0;
        group.bench_function(format!("nodes/{nodes}"), |b| {
            b.iter(|| {
                next = (next + 1) % positions.len();
                black_box(choose(&positions[next], &options, &mut |_| {}).best)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, engine_call);
criterion_main!(benches);
