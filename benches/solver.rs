//! The exact solver on a few small benchmark positions (up to 3 buildings left per player, from
//! `puzzles/bench/`). Kept light on purpose; `cathedral bench` times the whole suite.
//!
//! Run: `cargo bench --bench solver -- --measurement-time 2 --warm-up-time 1`.

use cathedral::boardgame::{SolveOptions, solve};
use cathedral::file::parse_str;
use criterion::{Criterion, black_box, criterion_group, criterion_main};

const POSITIONS: [(&str, &str); 3] = [
    ("t3-02", include_str!("../puzzles/bench/t3-02.yaml")),
    ("t3-03", include_str!("../puzzles/bench/t3-03.yaml")),
    ("t3-05", include_str!("../puzzles/bench/t3-05.yaml")),
];

fn solver(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(20);
    for (name, text) in POSITIONS {
        let position = parse_str(name, text)
            .unwrap_or_else(|e| panic!("{e}"))
            .position;
        let options = SolveOptions {
            threads: 1,
            tt_mb: 16,
            ..SolveOptions::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| solve(black_box(&position), &options, &|_| {}).lower)
        });
    }
    group.finish();
}

criterion_group!(benches, solver);
criterion_main!(benches);
