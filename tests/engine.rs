//! The playing engine: the exact solver takes over where it can (and then every move is
//! optimal), the search is reproducible under a node budget, and `bestmove` reports which of
//! exact and estimate it gives.

use crate::common;

use cathedral::boardgame::{SolveOptions, solve};
use cathedral::engine::{Choice, Judgement, PlayOptions, choose, ladder};
use cathedral::file::load;
use cathedral::notation::format_move_with_player;
use cathedral::{MoveList, Position, Rules};
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
        let choice = exact_and_optimal(&name, &position, value, 40_000_000);
        // The line replays.
        let mut replay = position;
        for &mv in &choice.pv {
            let mut list = MoveList::new();
            replay.legal_moves(&mut list);
            assert!(list.contains(mv), "{name}: the line has an illegal move");
            replay.play(mv);
        }
    }
}

/// The engine's choice in `position` with a budget of `nodes` nodes and the default options.
fn choose_at(position: &Position, nodes: u64) -> Choice {
    let options = PlayOptions {
        nodes: Some(nodes),
        time: None,
        ..PlayOptions::default()
    };
    choose(position, &options, &mut |_| {})
}

/// The engine's choice in `position` at `nodes` nodes, held to an exact answer of `value`
/// whose move is optimal (the position after it solved again).
fn exact_and_optimal(name: &str, position: &Position, value: i32, nodes: u64) -> Choice {
    let choice = choose_at(position, nodes);
    assert_eq!(choice.judgement, Judgement::Exact, "{name}");
    assert_eq!(choice.value, value * 100, "{name}");
    let best = choice.best.expect("a move");
    let mut after = *position;
    after.play(best);
    assert_eq!(
        -exact_value(&after),
        value,
        "{name}: {} is not optimal",
        format_move_with_player(position, best)
    );
    choice
}

#[test]
fn the_solver_is_tried_from_nine_buildings() {
    // Suite positions with 9 buildings per player that the solver proves in a few thousand
    // nodes (a draw among them): the engine answers with the proof, the suite's value, and an
    // optimal move.
    for name in ["b09-298", "b09-707", "b09-708"] {
        let path = format!("puzzles/accuracy/{name}.yaml");
        let file = load(path.as_ref()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cathedral::sampler::buildings_left(&file.position), 9);
        let value = file.solution.expect("an exact value").value;
        exact_and_optimal(name, &file.position, value, 400_000);
    }
}

#[test]
fn the_docs_table_of_tunables_is_the_declared_list() {
    use cathedral::boardgame::engine::TUNABLES;
    let doc = std::fs::read_to_string("docs/engine.md").expect("docs/engine.md");
    let section = doc
        .split("### Tunables")
        .nth(1)
        .expect("a section on the tunables");
    let rows: Vec<Vec<&str>> = section
        .lines()
        .skip_while(|l| !l.starts_with("| tunable |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    assert_eq!(rows.len(), TUNABLES.len(), "{rows:?}");
    for (row, tunable) in rows.iter().zip(TUNABLES) {
        assert_eq!(row[0], format!("`{}`", tunable.name));
        assert_eq!(row[1], tunable.default.to_string(), "{}", tunable.name);
        assert_eq!(
            row[2],
            format!("{} to {}", tunable.min, tunable.max),
            "{}",
            tunable.name
        );
        // The table says in its words what the declaration's line says.
        let what = tunable.what.trim().trim_end_matches('.');
        assert_eq!(
            what.to_lowercase(),
            row[3].to_lowercase(),
            "{}",
            tunable.name
        );
        // The section it names is in the doc, besides this table.
        if let Some(named) = row[4].split('"').nth(1) {
            assert!(doc.matches(named).count() >= 2, "{}: {named}", tunable.name);
        }
    }
}

#[test]
fn the_search_alone_finds_optimal_moves_when_it_sees_to_the_end() {
    // Below level 10 no exact solve is tried; with no noise budget to speak of at level 10
    // minus nothing, use a position small enough that the search reaches every end.
    // With two threads sharing the root moves and the table the same holds.
    for threads in [1, 2] {
        for (name, position) in bench("t3-").into_iter().chain(bench("t5-0")) {
            let value = exact_value(&position);
            let thought = cathedral::boardgame::engine::think(
                &position,
                &cathedral::boardgame::engine::EngineOptions {
                    nodes: None,
                    time: None,
                    threads,
                    ..Default::default()
                },
                &Default::default(),
                &mut |_| {},
            );
            assert_eq!(thought.estimate, value * 100, "{name}, {threads} threads");
            let mut after = position;
            after.play(thought.best.expect("a move"));
            assert_eq!(-exact_value(&after), value, "{name}, {threads} threads");
        }
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
    for level in [10, 7, 4] {
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
        assert_eq!(first.slip, second.slip, "level {level}");
        // A level below 10 searches its own budget at most (the caller's caps it).
        let budget = match ladder::rung(level).search {
            ladder::Search::Nodes(n) => n.min(30_000),
            _ => 30_000,
        };
        assert!(
            first.nodes <= budget + 2_000,
            "level {level}: {} nodes",
            first.nodes
        );
    }
}

/// The position after the Cathedral, Dark's Castle and Light's Square and Bridge: claims to
/// make and territory to fill come later; enough choice for the weak levels to differ.
fn midgame() -> Position {
    let mut position = Position::new(Rules::CLASSIC);
    for text in [
        "light:cathedral:e5,f4,f5,f6,f7,g5",
        "dark:castle:b2,b3,c2,d2,d3",
        "light:square:h8,i8,h9,i9",
        "dark:bridge:j1,j2,j3",
    ] {
        position.play(cathedral::legality::parse_move(&position, text).unwrap());
    }
    position
}

#[test]
fn the_weak_levels_vary_by_seed_and_full_strength_does_not() {
    let position = midgame();
    let decide = |level, seed| {
        choose(
            &position,
            &PlayOptions {
                nodes: Some(4_000),
                time: None,
                seed,
                level,
                ..PlayOptions::default()
            },
            &mut |_| {},
        )
    };
    let moves = |level| {
        (0..16)
            .map(|seed| decide(level, seed).best)
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert!(moves(1).len() >= 4, "level 1: {:?}", moves(1));
    assert!(moves(3).len() >= 2, "level 3: {:?}", moves(3));
    assert_eq!(moves(10).len(), 1, "level 10 has no noise");
    // Level 1 slips on some moves, and says which error it made; level 10 never.
    let slips: Vec<_> = (0..40).filter_map(|seed| decide(1, seed).slip).collect();
    assert!(slips.len() >= 10, "{slips:?}");
    assert!((0..10).all(|seed| decide(10, seed).slip.is_none()));
    // Level 4 looks two plies ahead and no more.
    let four = decide(4, 1);
    assert!(four.depth <= 2, "depth {}", four.depth);
}

#[test]
fn the_halving_levels_of_the_puzzle_tools_still_halve() {
    // The rating solvers and the generators were calibrated on the older weakening.
    let position = midgame();
    for level in [9, 6] {
        let choice = choose(
            &position,
            &PlayOptions {
                nodes: Some(30_000),
                time: None,
                seed: 3,
                level,
                halving: true,
                exact: false,
                ..PlayOptions::default()
            },
            &mut |_| {},
        );
        assert!(choice.slip.is_none());
        assert!(
            choice.nodes <= (30_000 >> (10 - level)) + 2_000,
            "level {level}: {} nodes",
            choice.nodes
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
        "--book",
        "none",
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["judgement"], "estimate");
    assert!(report["best_move"].as_str().is_some());
    assert!(report["line"].as_array().is_some_and(|l| !l.is_empty()));
    assert!(report.get("book").is_none(), "{report}");
    let text = stdout_of(cathedral().args([
        "bestmove",
        "puzzles/examples/opening.yaml",
        "--nodes",
        "20000",
        "--book",
        "none",
    ]));
    assert!(text.contains("(estimate, depth"), "{text}");
}

/// At the start the bundled opening book answers (its move, its statistics, labelled an
/// estimate); a book file of one's own is read, and a bad one refused at its line.
#[test]
fn bestmove_plays_from_the_opening_book() {
    let dir = tempfile::tempdir().expect("tempdir");
    let start = dir.path().join("start.yaml");
    std::fs::write(&start, "rules: classic\n").expect("write");
    let json = stdout_of(cathedral().args(["bestmove", start.to_str().unwrap(), "--json"]));
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["judgement"], "estimate");
    let book = &report["book"];
    let moves = book["moves"].as_array().expect("the book's moves");
    assert_eq!(moves.len(), 224, "every Cathedral placement");
    let best = report["best_move"].as_str().expect("a move");
    let chosen = moves
        .iter()
        .find(|m| m["move"] == best)
        .expect("the move is the book's");
    assert!(chosen["games"].as_u64().unwrap() >= 2);
    assert_eq!(report["value"], chosen["margin"]);
    assert!(
        report["verdict"].as_str().unwrap().contains("opening book"),
        "{report}"
    );
    // With the book switched off or below level 10, the engine searches.
    for args in [["--book", "none"], ["--level", "9"]] {
        let json = stdout_of(
            cathedral()
                .args([
                    "bestmove",
                    start.to_str().unwrap(),
                    "--nodes",
                    "2000",
                    "--json",
                ])
                .args(args),
        );
        let report: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert!(report.get("book").is_none(), "{args:?}: {report}");
    }
    // A book of one's own.
    let mine = dir.path().join("mine.yaml");
    std::fs::write(
        &mine,
        "book: mine\nrules: classic\nnodes_per_move: 5\npositions:\n- line: []\n  moves:\n  - {move: \"light:cathedral:a3,b1,b2,b3,b4,c3\", games: 3, margin: 1.5, worst: -2}\n",
    )
    .expect("write");
    let json = stdout_of(cathedral().args([
        "bestmove",
        start.to_str().unwrap(),
        "--book",
        mine.to_str().unwrap(),
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["book"]["name"], "mine");
    assert_eq!(
        report["book"]["moves"].as_array().unwrap().len(),
        4,
        "in every rotation"
    );
    // A bad one: its line and what is wrong.
    std::fs::write(&mine, "book: mine\nrules: classic\nnodes_per_move: 5\npositions:\n- line: [\"dark:tavern:a1\"]\n  moves: []\n").expect("write");
    let output = cathedral()
        .args([
            "bestmove",
            start.to_str().unwrap(),
            "--book",
            mine.to_str().unwrap(),
        ])
        .assert()
        .failure()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("mine.yaml:5"), "{err}");
    assert!(err.contains("dark:tavern:a1"), "{err}");
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

#[test]
fn analyse_position_ranks_moves_by_proven_values_or_estimates() {
    let json = stdout_of(cathedral().args([
        "analyse-position",
        "puzzles/bench/t5-01.yaml",
        "--candidates",
        "4",
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["judgement"], "exact");
    let position = load(std::path::Path::new("puzzles/bench/t5-01.yaml"))
        .unwrap()
        .position;
    let candidates = report["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 4);
    assert_eq!(candidates[0]["mv"], report["best_move"]);
    assert_eq!(candidates[0]["value"], report["value"]);
    let mut previous = f64::INFINITY;
    for candidate in candidates {
        let value = candidate["value"].as_f64().unwrap();
        assert!(value <= previous, "not best first: {json}");
        previous = value;
        let mv =
            cathedral::legality::parse_move(&position, candidate["mv"].as_str().unwrap()).unwrap();
        let mut after = position;
        after.play(mv);
        assert_eq!(f64::from(-exact_value(&after)), value, "{candidate}");
    }
    let json = stdout_of(cathedral().args([
        "analyse-position",
        "puzzles/examples/midgame.yaml",
        "--candidates",
        "3",
        "--nodes",
        "50000",
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(report["judgement"], "estimate");
    let candidates = report["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 3);
    assert_eq!(candidates[0]["mv"], report["best_move"]);
    assert_eq!(candidates[0]["value"], report["value"]);
    let values: Vec<f64> = candidates
        .iter()
        .map(|c| c["value"].as_f64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    let text = stdout_of(cathedral().args([
        "analyse-position",
        "puzzles/examples/midgame.yaml",
        "--nodes",
        "50000",
    ]));
    assert!(text.contains("estimate"), "{text}");
    assert!(text.contains("not proven"), "{text}");
}

/// Plain negamax to `depth` plies with the engine's evaluation at the horizon: the reference
/// for the engine's search without reductions or pruning. Memoised by (position, depth), which
/// changes nothing but the time it takes.
fn reference(
    position: &Position,
    depth: u32,
    memo: &mut std::collections::HashMap<((u64, u64), u32), i32>,
) -> i32 {
    use cathedral::boardgame::Game;
    use cathedral::boardgame::engine::{Evaluate, SCALE};
    if position.is_over() {
        return position.terminal_value() * SCALE;
    }
    if depth == 0 {
        return position.evaluate(&Default::default());
    }
    let key = (Game::key(position), depth);
    if let Some(&value) = memo.get(&key) {
        return value;
    }
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let value = list
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            -reference(&child, depth - 1, memo)
        })
        .max()
        .expect("a move: the game is not over");
    memo.insert(key, value);
    value
}

#[test]
fn without_reductions_or_pruning_the_search_value_is_plain_minimax_to_its_depth() {
    use cathedral::boardgame::engine::{EngineOptions, think};
    // Endgames, and middle games of policy games (more varied estimates), as deep as the
    // reference can go in a second or two.
    // Transpositions (and so table cut-offs) need four plies or more.
    let mut positions: Vec<(String, Position, u32)> = bench("t5-")
        .into_iter()
        .map(|(name, p)| (name, p, 7))
        .chain(bench("t7-").into_iter().map(|(name, p)| (name, p, 4)))
        .collect();
    for game in 0..6 {
        let mut rng = cathedral::boardgame::Rng::new(game);
        let plies = cathedral::policy::play_game(
            Position::new(Rules::CLASSIC),
            &cathedral::policy::Policy::default(),
            &mut rng,
            |_, ply| ply > 40,
        );
        for (ply, depth) in [(14, 2), (22, 2), (30, 3), (34, 3)] {
            if let Some(&p) = plies.get(ply).filter(|p| !p.is_game_over()) {
                positions.push((format!("policy game {game} ply {ply}"), p, depth));
            }
        }
    }
    // Two threads share each iteration's root moves and the table; every entry either stores
    // is of the iteration's own depth, so the value is still plain minimax's.
    let mut checked = 0;
    for (name, position, deepest) in positions {
        for depth in 1..=deepest {
            let mut memo = std::collections::HashMap::new();
            let expected = reference(&position, depth, &mut memo);
            for threads in [1, 2] {
                let thought = think(
                    &position,
                    &EngineOptions {
                        nodes: None,
                        time: None,
                        max_depth: depth,
                        reductions: false,
                        pruning: false,
                        threads,
                        ..Default::default()
                    },
                    &Default::default(),
                    &mut |_| {},
                );
                if thought.depth < depth {
                    continue; // the game ends sooner: nothing deeper to compare
                }
                assert_eq!(
                    thought.estimate, expected,
                    "{name} depth {depth}, {threads} threads"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 160, "only {checked} comparisons");
}

#[test]
fn the_one_move_ranked_is_the_move_chosen_even_when_the_budget_ends_an_iteration() {
    // Node budgets that end the search in the middle of an iteration: the unfinished iteration
    // may change the move chosen, and the ranked move (bestmove --json's candidates) must follow.
    let mut start = Position::new(Rules::CLASSIC);
    let mut list = MoveList::new();
    let mut positions = Vec::new();
    for ply in 0..6 {
        start.legal_moves(&mut list);
        let mv = list.as_slice()[(ply * 7) % list.len()];
        start.play(mv);
        positions.push(start);
    }
    let mut checked = 0;
    for position in &positions {
        for nodes in [3_000, 7_000, 20_000, 45_000] {
            let choice = choose_at(position, nodes);
            let [ranked] = choice.candidates.as_slice() else {
                panic!("one move ranked, got {:?}", choice.candidates.len());
            };
            assert_eq!(Some(ranked.mv), choice.best, "at {nodes} nodes");
            assert_eq!(ranked.estimate, choice.value, "at {nodes} nodes");
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}
