//! Puzzle generation: every generated puzzle meets the criteria (checked independently of the
//! generator's own code), generation is deterministic whatever the number of threads, and the
//! puzzle files round-trip.

use cathedral::PlacementId;
use cathedral::boardgame::{SolveOptions, solve};
use cathedral::file::{parse_str, to_yaml};
use cathedral::legality::parse_move;
use cathedral::puzzle::{Difficulty, greedy_choices};
use cathedral::puzzle::{GenerateOptions, generate, puzzle_file};
use cathedral::{Position, Rules};
use std::collections::BTreeMap;

/// The exact value of every different move (capture variants of one placement are one move).
fn move_values(position: &Position) -> (i32, BTreeMap<Option<PlacementId>, i32>) {
    let solution = solve(
        position,
        &SolveOptions {
            threads: 1,
            tt_mb: 32,
            ..SolveOptions::default()
        },
        &|_| {},
    );
    assert!(solution.complete && solution.is_exact());
    let mut values = BTreeMap::new();
    for root in &solution.root_moves {
        assert_eq!(root.lower, root.upper);
        let v = values.entry(root.mv.placement()).or_insert(root.lower);
        *v = (*v).max(root.lower);
    }
    (solution.lower, values)
}

fn options(count: usize, seed: u64, threads: usize) -> GenerateOptions {
    GenerateOptions {
        count,
        seed,
        threads,
        ..GenerateOptions::default()
    }
}

#[test]
fn generated_puzzles_meet_the_criteria_and_round_trip() {
    let found = generate(&options(4, 11, 2), &|_| {});
    assert_eq!(found.len(), 4);
    for g in &found {
        let file = puzzle_file(g, "test".into(), 1);
        let text = to_yaml(&file);
        let again = parse_str("again.yaml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(again, file);
        assert_eq!(to_yaml(&again), text);

        let position = file.position;
        let stored = file.solution.as_ref().expect("solution");
        let puzzle = file.puzzle.as_ref().expect("puzzle");
        let (value, values) = move_values(&position);
        assert_eq!(stored.value, value);
        assert!(puzzle.question.contains(&format!("win by {value}")) || value <= 0);
        let best = parse_move(&position, stored.best_move.as_deref().expect("best move"))
            .expect("legal best move");
        assert!(!best.is_pass());
        assert_eq!(values[&best.placement()], value, "the best move is best");
        for (placement, v) in &values {
            if *placement != best.placement() {
                assert!(
                    *v <= value - puzzle.margin,
                    "second best too close: {v} vs {value}"
                );
            }
        }
        assert_eq!(stored.explanations.len(), stored.best_line.len());
        // Not trivial unless easy: the greedy player's choices do not include the answer.
        let greedy_finds_it = greedy_choices(&position)
            .iter()
            .any(|m| m.placement() == best.placement());
        if greedy_finds_it {
            assert_eq!(puzzle.difficulty, Difficulty::Easy.name());
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzles_with_any_number_of_threads() {
    let key = |o: &GenerateOptions| -> Vec<(u64, Position, i32)> {
        generate(o, &|_| {})
            .into_iter()
            .map(|g| (g.index, g.analysis.position, g.analysis.value))
            .collect()
    };
    let one = key(&options(3, 5, 1));
    let two = key(&options(3, 5, 2));
    assert_eq!(one.len(), 3);
    assert_eq!(one, two);
    assert_ne!(one, key(&options(3, 6, 2)));
}

#[test]
fn a_difficulty_filter_keeps_only_that_difficulty() {
    let found = generate(
        &GenerateOptions {
            difficulty: Some(Difficulty::Medium),
            rules: Rules::CLASSIC,
            ..options(2, 3, 2)
        },
        &|_| {},
    );
    assert_eq!(found.len(), 2);
    for g in &found {
        assert_eq!(g.analysis.difficulty, Difficulty::Medium);
        assert!(!g.analysis.greedy_finds_it);
    }
}
