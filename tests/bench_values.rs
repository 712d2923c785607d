//! The benchmark suite `puzzles/bench/`: every file loads and round-trips with its `solution:`,
//! the tiers are as named, and every stored value of a position with up to 7 buildings left per
//! player is re-solved and must agree, as must those of larger tiers that the solver proves
//! within 2 million nodes (all are checked by `cathedral bench`); those of tiers 7 and 8 also
//! with two threads (tier 8 within 4 million nodes).

use cathedral::boardgame::{Method, SolveOptions, solve};
use cathedral::file::{PositionFile, load, parse_str, to_yaml};
use cathedral::sampler::Tier;
use std::path::PathBuf;

fn bench_files() -> Vec<(PathBuf, PositionFile)> {
    files_in("puzzles/bench")
}

fn files_in(dir: &str) -> Vec<(PathBuf, PositionFile)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect(dir)
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let file = load(&p).unwrap_or_else(|e| panic!("{e}"));
            (p, file)
        })
        .collect()
}

#[test]
fn the_suite_has_ten_positions_per_tier_named_after_their_tier() {
    let files = bench_files();
    for tier in Tier::ALL {
        let n = files
            .iter()
            .filter(|(p, _)| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(tier.name()))
            })
            .count();
        assert!(n >= 10, "only {n} positions of tier {tier}");
    }
    for (path, file) in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let tier = Tier::of(&file.position);
        assert!(name.starts_with(tier.name()), "{name} is of tier {tier}");
        assert!(file.meta.tags.contains(&tier.name().to_string()), "{name}");
        assert!(!file.position.is_game_over(), "{name}");
    }
}

#[test]
fn bench_files_round_trip_with_their_solutions() {
    let files = bench_files();
    assert!(files.iter().any(|(_, f)| f.solution.is_some()));
    for (path, file) in files {
        let again = parse_str("again.yaml", &to_yaml(&file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, file, "{}", path.display());
    }
}

#[test]
fn stored_values_are_confirmed_by_the_solver() {
    let (mut checked, mut larger) = (0, 0);
    for (path, file) in bench_files() {
        let Some(stored) = &file.solution else {
            continue;
        };
        // Up to tier 7 every position is solved again; larger ones within a node budget (with
        // one thread node counts are exact, so which ones fit does not depend on the machine).
        let budget = (Tier::of(&file.position) > Tier::T7).then_some(2_000_000);
        let options = SolveOptions {
            wdl: stored.wdl,
            root_values: false,
            tt_mb: 64,
            threads: 1,
            max_nodes: budget,
            ..SolveOptions::default()
        };
        let solution = solve(&file.position, &options, &|_| {});
        if budget.is_some() && !solution.is_exact() {
            continue;
        }
        assert!(solution.is_exact(), "{}: not solved", path.display());
        assert_eq!(solution.lower, stored.value, "{}", path.display());
        checked += 1;
        larger += usize::from(budget.is_some());
    }
    assert!(checked >= 36, "only {checked} stored values checked");
    assert!(larger >= 6, "only {larger} values of tier 8 and up checked");
}

#[test]
fn proof_number_search_confirms_the_stored_values() {
    // The second method, bracketing the value with "at least v?" questions: every stored value
    // up to tier 7 (exact and, on one and two threads, its sign).
    let mut checked = 0;
    for (path, file) in bench_files() {
        let Some(stored) = &file.solution else {
            continue;
        };
        if Tier::of(&file.position) > Tier::T7 {
            continue;
        }
        for (threads, wdl) in [(1, stored.wdl), (1, true), (2, true)] {
            let options = SolveOptions {
                wdl,
                root_values: false,
                tt_mb: 16,
                threads,
                method: Method::ProofNumbers,
                ..SolveOptions::default()
            };
            let solution = solve(&file.position, &options, &|_| {});
            let expected = if wdl {
                stored.value.signum()
            } else {
                stored.value
            };
            assert_eq!(
                solution.value(),
                Some(expected),
                "{}, {threads} threads, wdl {wdl}",
                path.display()
            );
            assert!(!solution.best_line.is_empty(), "{}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} stored values checked");
}

#[test]
fn two_threads_confirm_the_stored_values() {
    // Two threads leave subtrees that the other has decided (`Stats::unwinds`; the logic has
    // its own unit test): whatever the timing, the values must stay those stored.
    let (mut checked, mut unwinds) = (0, 0);
    for (path, file) in bench_files() {
        let Some(stored) = file.solution.as_ref().filter(|s| !s.wdl) else {
            continue;
        };
        let tier = Tier::of(&file.position);
        if tier < Tier::T7 {
            continue;
        }
        let budget = (tier > Tier::T7).then_some(4_000_000);
        let options = SolveOptions {
            root_values: false,
            tt_mb: 64,
            threads: 2,
            max_nodes: budget,
            ..SolveOptions::default()
        };
        let solution = solve(&file.position, &options, &|_| {});
        if budget.is_some() && !solution.is_exact() {
            continue;
        }
        assert_eq!(solution.value(), Some(stored.value), "{}", path.display());
        checked += 1;
        unwinds += solution.stats.unwinds;
    }
    eprintln!("{checked} values, {unwinds} subtrees left");
    assert!(checked >= 14, "only {checked} values checked");
}

#[test]
fn a_wrong_solution_block_is_refused() {
    let (_, file) = bench_files()
        .into_iter()
        .find(|(_, f)| f.solution.as_ref().is_some_and(|s| s.best_line.len() >= 2))
        .expect("a stored best line");
    let mut wrong = file.clone();
    let solution = wrong.solution.as_mut().unwrap();
    solution.value += 1;
    let error = parse_str("wrong.yaml", &to_yaml(&wrong)).unwrap_err();
    assert!(
        error.message.contains("best_line ends the game"),
        "{}",
        error.message
    );
    let mut wrong = file.clone();
    wrong.solution.as_mut().unwrap().best_line.swap(0, 1);
    let error = parse_str("wrong.yaml", &to_yaml(&wrong)).unwrap_err();
    assert!(error.message.contains("solution:"), "{}", error.message);
    let mut wrong = file;
    wrong.solution.as_mut().unwrap().value = 48;
    let error = parse_str("wrong.yaml", &to_yaml(&wrong)).unwrap_err();
    assert!(error.message.contains("out of range"), "{}", error.message);
}
