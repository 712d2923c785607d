//! Move generation, make-move with claim evaluation, and perft throughput on fixed mid-game
//! positions (lines of `tests/data/independent-games.jsonl`), under `classic` and, for two of
//! them, `moore1978` (optional capture).
//!
//! Run: `cargo bench --bench movegen -- --measurement-time 2 --warm-up-time 1`.

use cathedral::boardgame::perft;
use cathedral::legality::parse_move;
use cathedral::{MoveList, Position, Rules};
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};

/// Seed 1, first 7 plies: Light to move, 563 moves.
const EARLY: &[&str] = &[
    "cathedral:a8,b7,b8,b9,c8,d8",
    "inn:a3,a4,b4",
    "castle:f5,f6,g6,h5,h6",
    "castle:c1,c2,d2,e1,e2",
    "tower:e3,e4,f2,f3,g2",
    "square:f8,f9,g8,g9",
    "abbey:d9,d10,e8,e9",
];

/// Seed 5, first 9 plies: Light to move, 496 moves of which 31 capture.
const CAPTURES: &[&str] = &[
    "cathedral:g5,h3,h4,h5,h6,i5",
    "tower:c5,d4,d5,e3,e4",
    "inn:a2,a3,b3",
    "tavern:i10",
    "inn:i2,j2,j3",
    "bridge:g8,g9,g10",
    "stable:e9,e10",
    "castle:d7,d8,e8,f7,f8",
    "tavern:f4",
];

/// Seed 1, first 11 plies: Dark to move, 241 moves.
const MIDGAME: &[&str] = &[
    "cathedral:a8,b7,b8,b9,c8,d8",
    "inn:a3,a4,b4",
    "castle:f5,f6,g6,h5,h6",
    "castle:c1,c2,d2,e1,e2",
    "tower:e3,e4,f2,f3,g2",
    "square:f8,f9,g8,g9",
    "abbey:d9,d10,e8,e9",
    "manor:b5,c4,c5,c6",
    "tavern:b2",
    "stable:i4,i5",
    "infirmary:h9,i8,i9,i10,j9",
];

/// Seed 9, first 19 plies: Dark to move, 55 moves of which 11 capture.
const LATE: &[&str] = &[
    "cathedral:e5,f4,f5,f6,g5,h5",
    "academy:d8,e8,e9,f7,f8",
    "stable:j7,j8",
    "square:c2,c3,d2,d3",
    "manor:d5,d6,d7,e6",
    "stable:b9,b10",
    "bridge:f2,g2,h2",
    "tavern:e1",
    "inn:i5,i6,j5",
    "inn:g8,g9,h9",
    "stable:b2,b3",
    "tower:b5,b6,c4,c5,d4",
    "infirmary:g7,h6,h7,h8,i7",
    "bridge:b1,c1,d1",
    "tavern:c7",
    "inn:i2,i3,j2",
    "tavern:h3",
    "tavern:e2",
    "inn:e3,e4,f3",
];

fn replay(moves: &[&str]) -> Position {
    replay_with(Rules::CLASSIC, moves)
}

fn replay_with(rules: Rules, moves: &[&str]) -> Position {
    let mut position = Position::new(rules);
    for text in moves {
        let mv = parse_move(&position, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        position.play(mv);
    }
    position
}

fn positions() -> Vec<(&'static str, Position)> {
    vec![
        ("early-563", replay(EARLY)),
        ("captures-496", replay(CAPTURES)),
        ("midgame-241", replay(MIDGAME)),
        ("late-55", replay(LATE)),
        // Optional capture: every placement's captures must be worked out.
        ("moore-midgame-249", replay_with(Rules::MOORE_1978, MIDGAME)),
        ("moore-late-67", replay_with(Rules::MOORE_1978, LATE)),
    ]
}

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for (name, position) in positions() {
        let mut list = MoveList::new();
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&position).legal_moves(&mut list);
                list.len()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("count_moves");
    for (name, position) in positions() {
        group.bench_function(name, |b| b.iter(|| black_box(&position).count_moves()));
    }
    group.finish();
}

/// Copy the position and play one move, claims included; the throughput figure is moves per
/// second, so its inverse is the mean time of one move.
fn make_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("play_each_legal_move");
    for (name, position) in positions() {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        group.throughput(Throughput::Elements(list.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut occupied = 0u32;
                for &mv in list.as_slice() {
                    let mut child = *black_box(&position);
                    child.play(mv);
                    occupied ^= child.side(child.to_move()).territory.count();
                }
                occupied
            })
        });
    }
    group.finish();
}

/// Perft throughput in leaves (move sequences) per second.
fn perft_speed(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, rules, moves, depth) in [
        ("midgame-241-d3", Rules::CLASSIC, MIDGAME, 3),
        ("late-55-d5", Rules::CLASSIC, LATE, 5),
        ("moore-midgame-249-d3", Rules::MOORE_1978, MIDGAME, 3),
        ("moore-late-67-d5", Rules::MOORE_1978, LATE, 5),
    ] {
        let position = replay_with(rules, moves);
        group.throughput(Throughput::Elements(perft(&position, depth)));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&position), depth)));
    }
    group.finish();
}

criterion_group!(benches, movegen, make_move, perft_speed);
criterion_main!(benches);
