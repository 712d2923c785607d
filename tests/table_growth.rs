//! A solve that starts with a small table and moves to larger ones (8 times larger each time) when
//! it proves large (`SolveOptions::initial_tt_mb`) reaches the same exact values as the stored
//! ones: the probe abandoned for a move is searched again, and the larger table keeps every entry.

use cathedral::boardgame::{GROW_AFTER_NODES, SolveOptions, solve};
use cathedral::file::load;
use std::path::Path;

fn check(path: &str, threads: usize) {
    let file = load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
    let stored = file.solution.expect("a stored value").value;
    let options = SolveOptions {
        threads,
        tt_mb: 64,
        initial_tt_mb: Some(1),
        ..SolveOptions::default()
    };
    let solution = solve(&file.position, &options, &|_| {});
    assert!(
        solution.stats.nodes > GROW_AFTER_NODES,
        "{path}: too small to grow ({} nodes)",
        solution.stats.nodes
    );
    // 1 MiB, then 8 MiB from 2^18 nodes on (64 MiB would come at 2^21).
    assert!(
        solution.stats.tt_bytes > 7 << 20,
        "{path}: the table did not grow"
    );
    assert!(solution.complete, "{path}");
    assert_eq!(solution.value(), Some(stored), "{path}, {threads} threads");
    let best = solution.root_moves.first().expect("root moves");
    assert_eq!((best.lower, best.upper), (stored, stored), "{path}");
    assert!(
        solution
            .root_moves
            .iter()
            .all(|m| m.is_exact() && m.upper <= stored)
    );
    // The best line replays to the value.
    let mut end = file.position;
    for &mv in &solution.best_line {
        end.play(mv);
    }
    assert!(end.is_game_over(), "{path}");
    let me = file.position.to_move();
    let value = end.unplaced_squares(me.opponent()) as i32 - end.unplaced_squares(me) as i32;
    assert_eq!(value, stored, "{path}");
}

#[test]
fn a_growing_table_keeps_values_exact_on_one_thread() {
    check("puzzles/bench/t8-01.yaml", 1);
}

#[test]
fn a_growing_table_keeps_values_exact_on_two_threads() {
    check("puzzles/bench/t8-01.yaml", 2);
}

#[test]
fn a_small_solve_never_touches_the_large_table() {
    let file = load(Path::new("puzzles/bench/t5-02.yaml")).unwrap_or_else(|e| panic!("{e}"));
    let options = SolveOptions {
        threads: 1,
        tt_mb: 1024,
        initial_tt_mb: Some(1),
        ..SolveOptions::default()
    };
    let solution = solve(&file.position, &options, &|_| {});
    assert!(
        solution.stats.tt_bytes <= 1 << 20,
        "the small solve grew its table"
    );
    assert_eq!(solution.value(), file.solution.map(|s| s.value));
}

#[test]
fn a_long_solve_grows_through_every_stage_to_the_full_table() {
    // Since techniques 5 and 6 and fastest-first ordering most t8 values take too few nodes (and
    // every win-or-loss question); the value of t8-06 still takes millions.
    let file = load(Path::new("puzzles/bench/t8-06.yaml")).unwrap_or_else(|e| panic!("{e}"));
    let options = SolveOptions {
        threads: 1,
        tt_mb: 64,
        initial_tt_mb: Some(1),
        root_values: false,
        ..SolveOptions::default()
    };
    let solution = solve(&file.position, &options, &|_| {});
    assert!(
        solution.stats.nodes > GROW_AFTER_NODES * 8,
        "too small to grow twice"
    );
    assert!(
        solution.stats.tt_bytes > 63 << 20,
        "the table did not reach 64 MiB"
    );
    assert_eq!(solution.value(), file.solution.map(|s| s.value), "value");
}
