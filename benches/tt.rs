//! The solver's lock-free transposition table against a `dashmap` holding the same bounds.
//!
//! Each iteration probes, then stores, 4,096 random 128-bit keys in a table of 64 MiB (the lock-free
//! table) or a map of the same number of entries, 1 and 2 threads.
//!
//! Run: `cargo bench --bench tt -- --measurement-time 2 --warm-up-time 1`.

use cathedral::boardgame::Table;
use criterion::{Criterion, Throughput, black_box, criterion_group, criterion_main};
use dashmap::DashMap;

const BATCH: u64 = 4096;

fn key(i: u64) -> (u64, u64) {
    let mut z = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let a = z ^ (z >> 27);
    (a, a.rotate_left(17) ^ 0x94D0_49BB_1331_11EB)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt");
    group.throughput(Throughput::Elements(2 * BATCH));
    let table = Table::new(64);
    let entries = table.bytes() / 24;
    let map: DashMap<(u64, u64), (i8, i8, u32)> = DashMap::with_capacity(entries);
    // Fill both to the same number of positions first.
    for i in 0..entries as u64 / 2 {
        table.store(key(i), -3, 5, Some(7), 4);
        map.insert(key(i), (-3, 5, 7));
    }
    for threads in [1usize, 2] {
        let mut round = 0u64;
        group.bench_function(format!("lock-free/{threads}"), |b| {
            b.iter(|| {
                round += 1;
                std::thread::scope(|s| {
                    for t in 0..threads as u64 {
                        let table = &table;
                        s.spawn(move || {
                            for i in 0..BATCH / threads as u64 {
                                let k = key(round * BATCH * 2 + t * BATCH + i);
                                black_box(table.probe(k));
                                table.store(k, -1, 1, Some(3), 2);
                            }
                        });
                    }
                });
            })
        });
        let mut round = 0u64;
        group.bench_function(format!("dashmap/{threads}"), |b| {
            b.iter(|| {
                round += 1;
                std::thread::scope(|s| {
                    for t in 0..threads as u64 {
                        let map = &map;
                        s.spawn(move || {
                            for i in 0..BATCH / threads as u64 {
                                let k = key(round * BATCH * 2 + t * BATCH + i);
                                black_box(map.get(&k).map(|e| *e));
                                // A fixed-size table: the map replaces instead of growing.
                                if map.len() >= entries {
                                    map.remove(&key(round * BATCH * 2 + t * BATCH + i - 1));
                                }
                                map.insert(k, (-1, 1, 3));
                            }
                        });
                    }
                });
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
