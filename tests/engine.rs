//! The playing engine: the exact solver takes over where it can (and then every move is
//! optimal), the search is reproducible under a node budget, and `bestmove` reports which of
//! exact and estimate it gives.

mod common;

use cathedral::boardgame::{SolveOptions, solve};
use cathedral::engine::{Judgement, PlayOptions, choose};
use cathedral::file::load;
use cathedral::notation::format_move_with_player;
use cathedral::{Position, Rules};
use common::{cathedral, stdout_of};

fn exact_value(position: &Position) -> i32 {
    let solution = solve(
        position,
        &SolveOptions {
            threads: 1,
            tt_mb: 16,
            root_values: false,
            ..SolveOptions::default()
        },
        &|_| {},
    );
    solution.value().expect("no limit set")
}

fn bench(prefix: &str) -> Vec<(String, Position)> {
    let mut files: Vec<_> = std::fs::read_dir("puzzles/bench")
        .expect("puzzles/bench")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let file = load(&p).unwrap_or_else(|e| panic!("{e}"));
            (p.display().to_string(), file.position)
        })
        .collect()
}

#[test]
fn on_solved_bench_positions_the_engine_plays_an_optimal_move_and_says_exact() {
    let mut positions = bench("t3-");
    positions.extend(bench("t5-"));
    positions.extend(bench("t7-").into_iter().take(3));
    assert!(positions.len() >= 23);
    for (name, position) in positions {
        let value = exact_value(&position);
        let choice = choose(
            &position,
            &PlayOptions {
                nodes: Some(40_000_000),
                time: None,
                ..PlayOptions::default()
            },
            &mut |_| {},
        );
        assert_eq!(choice.judgement, Judgement::Exact, "{name}");
        assert_eq!(choice.value, value * 100, "{name}");
        let best = choice.best.expect("a move");
        let mut after = position;
        after.play(best);
        assert_eq!(
            -exact_value(&after),
            value,
            "{name}: {} is not optimal",
            format_move_with_player(&position, best)
        );
        // The line replays.
        let mut replay = position;
        for &mv in &choice.pv {
            let mut list = cathedral::MoveList::new();
            replay.legal_moves(&mut list);
            assert!(list.contains(mv), "{name}: the line has an illegal move");
            replay.play(mv);
        }
    }
}

#[test]
fn the_search_alone_finds_optimal_moves_when_it_sees_to_the_end() {
    // Below level 10 no exact solve is tried; with no noise budget to speak of at level 10
    // minus nothing, use a position small enough that the search reaches every end.
    for (name, position) in bench("t3-") {
        let value = exact_value(&position);
        let thought = cathedral::boardgame::engine::think(
            &position,
            &cathedral::boardgame::engine::EngineOptions {
                nodes: None,
                time: None,
                ..Default::default()
            },
            &Default::default(),
            &mut |_| {},
        );
        assert_eq!(thought.estimate, value * 100, "{name}");
        let mut after = position;
        after.play(thought.best.expect("a move"));
        assert_eq!(-exact_value(&after), value, "{name}");
    }
}

#[test]
fn a_node_budget_and_a_seed_give_the_same_decision_every_time() {
    let mut position = Position::new(Rules::CLASSIC);
    for text in [
        "light:cathedral:e5,f4,f5,f6,f7,g5",
        "dark:castle:b2,b3,c2,d2,d3",
    ] {
        position.play(cathedral::legality::parse_move(&position, text).unwrap());
    }
    for level in [10, 4] {
        let options = PlayOptions {
            nodes: Some(30_000),
            time: None,
            seed: 9,
            level,
            ..PlayOptions::default()
        };
        let first = choose(&position, &options, &mut |_| {});
        let second = choose(&position, &options, &mut |_| {});
        assert_eq!(first.judgement, Judgement::Estimate);
        assert_eq!(first.best, second.best, "level {level}");
        assert_eq!(first.pv, second.pv, "level {level}");
        assert_eq!(first.value, second.value, "level {level}");
        assert_eq!(first.nodes, second.nodes, "level {level}");
        // Each level below 10 halves the budget.
        let budget = 30_000 >> (10 - level);
        assert!(
            first.nodes <= budget + 2_000,
            "level {level}: {} nodes",
            first.nodes
        );
    }
}

#[test]
fn bestmove_says_exact_or_estimate() {
    let exact =
        stdout_of(cathedral().args(["bestmove", "puzzles/bench/t5-01.yaml", "--nodes", "1000000"]));
    assert!(exact.contains("(exact)"), "{exact}");
    assert!(exact.contains("Best move: dark:"), "{exact}");
    let json = stdout_of(cathedral().args([
        "bestmove",
        "puzzles/examples/opening.yaml",
        "--nodes",
        "20000",
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["judgement"], "estimate");
    assert!(report["best_move"].as_str().is_some());
    assert!(report["line"].as_array().is_some_and(|l| !l.is_empty()));
    let text = stdout_of(cathedral().args([
        "bestmove",
        "puzzles/examples/opening.yaml",
        "--nodes",
        "20000",
    ]));
    assert!(text.contains("(estimate, depth"), "{text}");
}

#[test]
fn bestmove_refuses_bad_options() {
    for args in [
        ["--level", "0"],
        ["--level", "11"],
        ["--nodes", "0"],
        ["--time", "0"],
    ] {
        let output = cathedral()
            .args(["bestmove", "puzzles/bench/t5-01.yaml"])
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        assert!(!String::from_utf8_lossy(&output).contains("panicked"));
    }
}
