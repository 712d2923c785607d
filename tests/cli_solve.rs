//! `cathedral solve`, `bench` and `sample` from the command line. Only the solver's public API
//! is used, so these tests hold for any correct solver.

use cathedral::Player;
use cathedral::boardgame::{SolveOptions, solve};
use cathedral::file::{PositionFile, StoredSolution, load, parse_str, to_yaml};
use cathedral::legality::parse_move;
use cathedral::notation::format_move_with_player;
use predicates::prelude::*;
use std::path::Path;

use crate::common;

use common::{cathedral, stdout_of, stdout_with};

/// Small positions (up to 3 buildings left per player).
const SMALL: &str = "puzzles/bench/t3-03.yaml";
const SMALL_2: &str = "puzzles/bench/t3-05.yaml";

/// The position file at `path` without its stored solution.
fn unsolved(path: &str) -> PositionFile {
    let mut file = load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
    file.solution = None;
    file
}

/// The exact value of a file's position by the library, with its best line in notation.
fn library_solution(file: &PositionFile) -> StoredSolution {
    let solution = solve(&file.position, &SolveOptions::default(), &|_| {});
    assert!(solution.is_exact());
    let mut position = file.position;
    let mut line = Vec::new();
    for &mv in &solution.best_line {
        line.push(format_move_with_player(&position, mv));
        position.play(mv);
    }
    StoredSolution {
        value: solution.lower,
        wdl: false,
        best_move: line.first().cloned(),
        best_line: line,
        nodes: None,
        explanations: Vec::new(),
        ..StoredSolution::default()
    }
}

#[test]
fn solve_prints_an_exact_value_whose_best_line_replays_to_it() {
    let file = unsolved(SMALL);
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(cathedral().args(["solve", SMALL, "--json"])))
            .expect("valid JSON");
    assert_eq!(json["complete"], true);
    let value = json["value"].as_i64().expect("an exact value") as i32;
    assert_eq!(json["lower"], json["upper"]);
    let line = json["best_line"].as_array().expect("best_line");
    assert!(!line.is_empty());
    let mut position = file.position;
    for text in line {
        let text = text.as_str().expect("a move");
        let mv = parse_move(&position, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        position.play(mv);
    }
    assert!(position.is_game_over());
    let mover = file.position.to_move();
    let reached = position.unplaced_squares(mover.opponent()) as i32
        - position.unplaced_squares(mover) as i32;
    assert_eq!(reached, value);
    assert_eq!(
        json["final_unplaced"]["light"],
        position.unplaced_squares(Player::Light)
    );
    assert_eq!(json["best_move"], line[0]);
    let best_root = &json["root_moves"][0];
    assert_eq!(best_root["value"], value);

    let text = stdout_of(cathedral().args(["solve", SMALL]));
    let verdict = match value.signum() {
        1 => format!("to move wins by {value}"),
        -1 => format!("to move loses by {}", -value),
        _ => "to move draws".to_string(),
    };
    assert!(text.contains(&verdict), "{text}");
    for needle in [
        "Best line:",
        "Final position:",
        "Root moves",
        "Searched",
        "nodes/s",
    ] {
        assert!(text.contains(needle), "no `{needle}` in:\n{text}");
    }
    assert!(!text.contains("between"), "{text}");
}

#[test]
fn solve_without_a_file_solves_the_bundled_showcase() {
    let text = stdout_of(cathedral().arg("solve"));
    assert!(text.starts_with("Showcase endgame"), "{text}");
    assert!(text.contains("Dark to move"), "{text}");
    assert!(
        text.contains("captures") || text.contains("claims"),
        "{text}"
    );
}

#[test]
fn solve_yaml_is_a_solution_block_to_paste() {
    let file = unsolved(SMALL);
    let yaml = stdout_of(cathedral().args(["solve", SMALL, "--yaml"]));
    assert!(yaml.starts_with("solution:"), "{yaml}");
    let pasted = format!("{}{yaml}", to_yaml(&file));
    let loaded = parse_str("pasted.yaml", &pasted).unwrap_or_else(|e| panic!("{e}\n{pasted}"));
    let stored = loaded.solution.expect("a solution");
    assert_eq!(stored.value, library_solution(&file).value);
    assert_eq!(stored.best_move.as_ref(), stored.best_line.first());
    // And it round-trips through the canonical writer.
    let again = parse_str("again.yaml", &to_yaml(&loaded_file(&pasted))).unwrap();
    assert_eq!(again.solution, Some(stored));
}

fn loaded_file(text: &str) -> PositionFile {
    parse_str("text.yaml", text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_stopped_solve_prints_bounds_not_a_value() {
    // A position with many buildings left: no probe finishes at once.
    const LARGE: &str = "puzzles/bench/t8-01.yaml";
    // Exit status 4: not proven.
    let text = stdout_with(4, cathedral().args(["solve", LARGE, "--time-limit", "0"]));
    assert!(text.contains("value is between"), "{text}");
    assert!(text.contains("search stopped"), "{text}");
    assert!(
        !text.contains("wins by") && !text.contains("loses by"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout_with(
        4,
        cathedral().args(["solve", LARGE, "--json", "--time-limit", "0"]),
    ))
    .unwrap();
    assert_eq!(json["complete"], false);
    assert!(json["value"].is_null());
    cathedral()
        .args(["solve", LARGE, "--yaml", "--time-limit", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("not proven"));
}

#[test]
fn a_time_limit_during_a_deep_search_stops_cleanly() {
    // Too hard to finish in 0.2 s for a simple search; a fast solver may still prove it.
    let output = cathedral()
        .args(["solve", "puzzles/bench/t8-01.yaml", "--time-limit", "0.2"])
        .output()
        .expect("runs");
    // 0 if proven in time, 4 if not.
    assert!(matches!(output.status.code(), Some(0 | 4)), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    // Stopped before the value, after the value but before the line, or done.
    assert!(
        text.contains("value is between")
            || text.contains("The value is proven, but the search stopped")
            || text.contains("Best line:"),
        "{text}"
    );
    assert!(text.contains("Searched"), "{text}");
}

#[test]
fn solve_refuses_bad_input_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "to_move: purple\n").unwrap();
    cathedral()
        .arg("solve")
        .arg(&bad)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("bad.yaml").and(predicate::str::contains("panicked").not()),
        );
    cathedral()
        .args(["solve", SMALL, "--time-limit", "-1"])
        .assert()
        .failure();
    cathedral()
        .args(["bench", "no/such/dir"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no/such/dir"));
}

#[test]
fn bench_names_a_wrong_stored_value_and_records_missing_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut right = unsolved(SMALL);
    right.solution = Some(library_solution(&right));
    let mut wrong = unsolved(SMALL_2);
    let correct = library_solution(&wrong).value;
    wrong.solution = Some(StoredSolution {
        value: correct + 1,
        ..StoredSolution::default()
    });
    std::fs::write(dir.path().join("a-right.yaml"), to_yaml(&right)).unwrap();
    std::fs::write(dir.path().join("b-wrong.yaml"), to_yaml(&wrong)).unwrap();
    // --quiet: no line per position on standard error, only the error names a file there.
    cathedral()
        .arg("bench")
        .arg(dir.path())
        .arg("--quiet")
        .assert()
        .failure()
        .stdout(predicate::str::contains("a-right.yaml").and(predicate::str::contains("MISMATCH")))
        .stderr(
            predicate::str::contains("b-wrong.yaml").and(predicate::str::contains("a-right").not()),
        );
    // --record never replaces a stored value.
    cathedral()
        .arg("bench")
        .arg(dir.path())
        .arg("--record")
        .assert()
        .failure();
    let still = load(&dir.path().join("b-wrong.yaml")).unwrap();
    assert_eq!(still.solution.unwrap().value, correct + 1);

    // A file without a value gets one with --record, and then checks out.
    let fresh = tempfile::tempdir().unwrap();
    let path = fresh.path().join("t3-01.yaml");
    std::fs::write(&path, to_yaml(&unsolved(SMALL_2))).unwrap();
    let out = stdout_of(cathedral().arg("bench").arg(fresh.path()).arg("--record"));
    assert!(out.contains("recorded"), "{out}");
    let recorded = load(&path).unwrap().solution.expect("recorded");
    assert_eq!(recorded.value, correct);
    let out = stdout_of(cathedral().arg("bench").arg(fresh.path()));
    assert!(out.contains("ok"), "{out}");
    assert!(out.contains("median time"), "{out}");
}

#[test]
fn sample_is_deterministic_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    for out in [&one, &two] {
        cathedral()
            .args([
                "sample", "--count", "2", "--tier", "t5", "--seed", "9", "-o",
            ])
            .arg(out)
            .assert()
            .success();
    }
    for name in ["t5-01.yaml", "t5-02.yaml"] {
        let a = std::fs::read_to_string(one.join(name)).unwrap();
        let b = std::fs::read_to_string(two.join(name)).unwrap();
        assert_eq!(a, b);
        let file = load(&one.join(name)).unwrap();
        assert_eq!(
            cathedral::sampler::Tier::of(&file.position),
            cathedral::sampler::Tier::T5
        );
        assert!(file.meta.tags.contains(&"t5".to_string()));
        assert!(file.meta.source.as_deref().unwrap_or("").contains("ply"));
    }
    let before = std::fs::read_to_string(one.join("t5-01.yaml")).unwrap();
    cathedral()
        .args([
            "sample", "--count", "2", "--tier", "t5", "--seed", "10", "-o",
        ])
        .arg(&one)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not overwriting"));
    assert_eq!(
        before,
        std::fs::read_to_string(one.join("t5-01.yaml")).unwrap()
    );
    cathedral()
        .args([
            "sample", "--count", "2", "--tier", "t5", "--seed", "10", "--force", "-o",
        ])
        .arg(&one)
        .assert()
        .success();
    cathedral()
        .args(["sample", "--tier", "t4", "-o"])
        .arg(&one)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a tier"));
}

#[test]
fn sample_by_buildings_left_from_engine_games_at_a_level() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &std::path::Path| {
        cathedral()
            .args([
                "sample",
                "--count",
                "2",
                "--buildings",
                "11",
                "--players",
                "engine",
                "--nodes",
                "2000",
                "--level",
                "4",
                "--seed",
                "3",
                "-q",
                "-o",
            ])
            .arg(out)
            .assert()
            .success();
    };
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    run(&one);
    run(&two);
    for name in ["b11-01.yaml", "b11-02.yaml"] {
        let text = std::fs::read_to_string(one.join(name)).unwrap();
        assert_eq!(text, std::fs::read_to_string(two.join(name)).unwrap());
        assert!(text.contains("--buildings 11 --players engine --nodes 2000 --level 4 --seed 3"));
        let file = load(&one.join(name)).unwrap();
        assert_eq!(cathedral::sampler::buildings_left(&file.position), 11);
    }
    // A tier and a number of buildings are one or the other; the number is range-checked.
    for args in [
        &["--tier", "t5", "--buildings", "9"][..],
        &["--buildings", "14"],
        &["--buildings", "9", "--level", "11"],
    ] {
        cathedral()
            .arg("sample")
            .args(args)
            .arg("-o")
            .arg(dir.path().join("none"))
            .assert()
            .failure()
            .code(2);
    }
    assert!(!dir.path().join("none").exists());
}

#[test]
fn both_methods_give_the_same_result_from_the_command_line() {
    // Cathedral (exact and win/draw/loss) and Corintho (whose default, `auto`, is proof-number
    // search on the folded position): the same value, and a line and root moves in the moves
    // of the position asked.
    for (file, wdl) in [
        ("puzzles/bench/t5-02.yaml", false),
        ("puzzles/bench/t7-02.yaml", true),
        ("puzzles/corintho/30-small-endgame-solved.yaml", true),
    ] {
        let mut values = Vec::new();
        for method in ["alpha-beta", "proof-number", "auto"] {
            let mut cmd = cathedral();
            cmd.args([
                "solve",
                file,
                "--json",
                "--threads",
                "1",
                "--method",
                method,
            ]);
            if wdl {
                cmd.arg("--wdl");
            }
            let report: serde_json::Value =
                serde_json::from_str(&stdout_of(&mut cmd)).expect("json");
            assert!(report["value"].is_i64(), "{file} {method}: {report}");
            assert!(
                report["root_moves"]
                    .as_array()
                    .is_some_and(|m| !m.is_empty()),
                "{file} {method}"
            );
            values.push(report["value"].clone());
        }
        assert!(
            values.windows(2).all(|w| w[0] == w[1]),
            "{file}: {values:?}"
        );
    }
    // A method that does not exist is refused, naming the choices.
    cathedral()
        .args(["solve", SMALL, "--method", "minimax"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("alpha-beta"));
}

#[test]
fn bench_records_win_draw_loss_and_later_the_exact_value_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t3.yaml");
    let file = unsolved(SMALL_2);
    let exact = library_solution(&file).value;
    std::fs::write(&path, to_yaml(&file)).unwrap();
    let run = |wdl: bool| {
        let mut cmd = cathedral();
        cmd.arg("bench")
            .arg(dir.path())
            .args(["--record", "--only-missing", "--quiet"]);
        if wdl {
            cmd.arg("--wdl");
        }
        stdout_of(&mut cmd)
    };
    assert!(run(true).contains("Recorded 1 value"));
    let stored = load(&path).unwrap().solution.unwrap();
    assert!(stored.wdl);
    assert_eq!(stored.value, exact.signum());
    // A --wdl run finds nothing missing; an exact one replaces the sign by the value.
    assert!(!run(true).contains("Recorded"));
    assert!(run(false).contains("Recorded 1 value"));
    let stored = load(&path).unwrap().solution.unwrap();
    assert!(!stored.wdl);
    assert_eq!(stored.value, exact);
    assert!(!run(false).contains("Recorded"));
}
