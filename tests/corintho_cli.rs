//! Corintho from the command line: `--game corintho` or a file with `game: corintho` selects it
//! for show, moves, play, perft, solve and render; errors are located, in words, never a panic.

mod common;

use common::{LEAKS, cathedral, stdout_of, stdout_with};
use predicates::prelude::*;

#[test]
fn show_the_start_and_a_file() {
    let out = stdout_of(cathedral().args(["show", "--game", "corintho"]));
    assert!(
        out.contains("Player 1 to move") && out.contains("Player 2: B4 C4 K4"),
        "{out}"
    );
    // Detected from the file.
    let out = stdout_of(cathedral().args(["show", "puzzles/corintho/21-fig4-unless.yaml"]));
    assert!(out.contains("...unless the next player"), "{out}");
    for line in out.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

#[test]
fn moves_and_perft() {
    let out = stdout_of(cathedral().args(["moves", "--game", "corintho"]));
    assert!(
        out.contains("Player 1 to move: 48 legal moves in total") && out.contains("column"),
        "{out}"
    );
    let out = stdout_of(cathedral().args(["perft", "--game", "corintho", "3"]));
    assert!(out.contains("perft(3) = 90720"), "{out}");
    let out = stdout_of(cathedral().args([
        "perft",
        "puzzles/corintho/04-move-a-section.yaml",
        "1",
        "--divide",
    ]));
    assert!(out.contains("b2-b3: 1"), "{out}");
}

#[test]
fn play_explains_claims_and_wins() {
    let out = stdout_of(cathedral().args([
        "play", "--game", "corintho", "C@b1", "K@a4", "C@c2", "B@d1", "C@d3",
    ]));
    assert!(out.contains("It makes a row: columns on b1 c2 d3"), "{out}");
    assert!(out.contains("player 1 wins"), "{out}");
    for line in out.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    // Fig. 5: the end capped, the row of three stands.
    let out = stdout_of(cathedral().args([
        "play",
        "puzzles/corintho/22-fig5-end-capped.yaml",
        "C@d1",
        "a2-a1",
    ]));
    assert!(out.contains("still stands: player 2 wins"), "{out}");
}

#[test]
fn illegal_moves_are_refused_in_words() {
    cathedral()
        .args([
            "play",
            "puzzles/corintho/09-stacks-never-split.yaml",
            "c2-b2",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "move 1 (`c2-b2`) cannot be played",
        ))
        .stderr(predicate::str::contains("capitals rest on columns"));
    cathedral()
        .args(["play", "--game", "corintho", "B@a1", "C@e9"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("not a move"));
}

#[test]
fn solve_a_small_endgame_and_refuse_three_players() {
    let out = stdout_of(cathedral().args([
        "solve",
        "puzzles/corintho/30-small-endgame-solved.yaml",
        "--threads",
        "1",
    ]));
    assert!(out.contains("Value: draw for player 1"), "{out}");
    assert!(out.contains("Best line"), "{out}");
    for line in out.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    cathedral()
        .args(["solve", "puzzles/corintho/22-fig5-end-capped.yaml"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("two-player"));
}

#[test]
fn render_draws_a_valid_svg() {
    let svg =
        stdout_of(cathedral().args(["render", "puzzles/corintho/23-fig6-middle-capped.yaml"]));
    let tree =
        resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).expect("valid SVG");
    assert!(tree.size().width() > 300.0);
    // One red line per row standing: a1 b1 c1.
    assert_eq!(svg.matches("stroke=\"#c02020\"").count(), 1);
}

#[test]
fn bad_files_are_located_and_never_panic() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "game: corintho\nboard:\n  - '. . . .'\n  - '. CB . .'\n  - '. . . .'\n  - '. . . .'\n",
            ":4:",
        ),
        ("game: corintho\nplayers: many\nboard: []\n", ":2:"),
        (
            "game: corintho\nboard: ['. . . .', '. . . .', '. . . .', '. . . .']\nlocked: [b2]\n",
            ":3:",
        ),
        ("game: corintho\nboard: ['. . . .'\n", ":"),
    ];
    for (i, (text, place)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.yaml"));
        std::fs::write(&path, text).unwrap();
        for command in ["show", "moves", "solve"] {
            let output = cathedral().arg(command).arg(&path).output().unwrap();
            assert_eq!(output.status.code(), Some(3), "{command} {text}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.contains(place), "{command} {text}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            for leak in LEAKS {
                assert!(!stderr.contains(leak), "{leak} in {stderr}");
            }
        }
    }
}

#[test]
fn cathedral_is_still_the_default() {
    let out = stdout_with(0, cathedral().args(["perft", "1"]));
    assert!(!out.contains("perft(1) = 48"), "{out}");
}

#[test]
fn bestmove_plays_three_and_four_players() {
    // Player 1 can win at once with C@d3 (rule case 17's position before its move).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("three.yaml");
    std::fs::write(
        &path,
        "game: corintho\nplayers: 3\nboard: ['K . . .', '. . . .', '. . C .', '. C . B']\n",
    )
    .unwrap();
    let out = stdout_of(
        cathedral()
            .arg("bestmove")
            .arg(&path)
            .args(["--level", "3"]),
    );
    assert!(
        out.contains("Best move: C@d3") && out.contains("forced win"),
        "{out}"
    );
    cathedral()
        .args([
            "analyse-position",
            "puzzles/corintho/27-three-players-extras.yaml",
        ])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "the exact solver plays two-player games",
        ));
}

#[test]
fn play_takes_a_single_move_from_the_start_and_refuses_none() {
    let out = stdout_of(cathedral().args(["play", "--game", "corintho", "C@b1"]));
    assert!(
        out.contains("1. C@b1: Player 1 places a column on b1."),
        "{out}"
    );
    assert!(out.contains("Player 2 to move."), "{out}");
    for args in [
        vec!["play", "puzzles/corintho/09-stacks-never-split.yaml"],
        vec!["play", "puzzles/examples/midgame.yaml"],
    ] {
        cathedral()
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("give the moves to play"));
    }
}

/// Parses a command's standard output as JSON (the command must succeed).
fn json_of(cmd: &mut assert_cmd::Command) -> serde_json::Value {
    let out = stdout_of(cmd);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[test]
fn every_json_option_prints_json() {
    let v = json_of(cathedral().args(["perft", "--game", "corintho", "2", "--json"]));
    assert_eq!(
        (v["depth"].as_u64(), v["count"].as_u64()),
        (Some(2), Some(2160))
    );
    assert!(v["seconds"].is_number() && v.get("divide").is_none(), "{v}");
    let v = json_of(cathedral().args([
        "perft",
        "puzzles/corintho/21-fig4-unless.yaml",
        "2",
        "--divide",
        "--json",
    ]));
    let divide = v["divide"].as_array().unwrap();
    let sum: u64 = divide.iter().map(|d| d["count"].as_u64().unwrap()).sum();
    assert_eq!(Some(sum), v["count"].as_u64());
    assert!(divide.iter().all(|d| d["move"].is_string()), "{v}");

    let v = json_of(cathedral().args(["show", "--game", "corintho", "--json"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 48);
    let v = json_of(cathedral().args(["moves", "--game", "corintho", "--json"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 48);
    assert_eq!(
        (v["total"].as_u64(), v["to_move"].as_u64()),
        (Some(48), Some(1))
    );
    let v = json_of(cathedral().args(["play", "--game", "corintho", "C@b1", "K@a4", "--json"]));
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    assert!(
        v["final"]["yaml"]
            .as_str()
            .unwrap()
            .contains("game: corintho")
    );
    let v = json_of(cathedral().args([
        "solve",
        "puzzles/corintho/30-small-endgame-solved.yaml",
        "--json",
    ]));
    assert_eq!(v["value"].as_i64(), Some(0));
    let v = json_of(cathedral().args([
        "bestmove",
        "puzzles/corintho/27-three-players-extras.yaml",
        "--level",
        "1",
        "--json",
    ]));
    assert!(v["best_move"].is_string(), "{v}");
    // A game that is over: still JSON.
    let v = json_of(cathedral().args([
        "bestmove",
        "puzzles/corintho/26-exhaustion-draw.yaml",
        "--json",
    ]));
    assert!(v["best_move"].is_null(), "{v}");
}
