//! Corintho through the front ends every game shares: game records (`play --record`, `replay`),
//! `match` between Corintho engines, written records that read back.

use crate::common;

use assert_cmd::Command;
use common::{cathedral, stdout_of};

#[test]
fn play_record_then_replay() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.yaml");
    let position = dir.path().join("p.yaml");
    stdout_of(
        cathedral()
            .args(["play", "--game", "corintho", "C@b1", "K@a4"])
            .arg("-o")
            .arg(&position),
    );
    stdout_of(
        cathedral()
            .args(["play", "--game", "corintho", "C@b1", "K@a4", "--record"])
            .arg(&record),
    );
    // The record ends where the file starts: the next moves extend the same game.
    stdout_of(
        cathedral()
            .arg("play")
            .arg(&position)
            .args(["C@c2", "B@d1", "C@d3", "--record"])
            .arg(&record),
    );
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.starts_with("game: corintho\n"), "{text}");
    assert!(text.contains("result: player 1 wins"), "{text}");
    let out = stdout_of(cathedral().arg("replay").arg(&record));
    assert!(
        out.contains("5. C@d3: Player 1 places a column on d3"),
        "{out}"
    );
    assert!(out.contains("Game over: player 1 wins."), "{out}");
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        cathedral().arg("replay").arg(&record).arg("--json"),
    ))
    .unwrap();
    assert_eq!(json["plies"], 5);
    assert_eq!(json["position"]["outcome"], "won by player 1");
    // The position after move 3, as a file that loads.
    let after = dir.path().join("after.yaml");
    stdout_of(
        cathedral()
            .arg("replay")
            .arg(&record)
            .args(["--ply", "3", "-o"])
            .arg(&after),
    );
    let out = stdout_of(cathedral().arg("moves").arg(&after));
    assert!(out.contains("Player 2 to move"), "{out}");
    // A record that ends elsewhere is refused, and left as it was.
    cathedral()
        .arg("play")
        .arg(&position)
        .args(["C@c2", "--record"])
        .arg(&record)
        .assert()
        .code(3)
        .stderr(predicates::str::contains("ends elsewhere"));
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);
}

#[test]
fn a_bad_record_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("bad.yaml");
    std::fs::write(&record, "game: corintho\nmoves:\n- C@b1\n- C@b1\n").unwrap();
    cathedral()
        .arg("replay")
        .arg(&record)
        .assert()
        .code(3)
        .stderr(predicates::str::contains("bad.yaml:4"))
        .stderr(predicates::str::contains(
            "move 2 (`C@b1`) cannot be played",
        ));
    std::fs::write(&record, "game: corintho\nmoves: [C@b1]\nresult: drawn\n").unwrap();
    cathedral()
        .arg("replay")
        .arg(&record)
        .assert()
        .code(3)
        .stderr(predicates::str::contains(
            "`result: drawn` but the moves end with the game still going",
        ));
}

/// Four games of the engine at level 3 against random moves, seed 9.
fn engine_against_random() -> Command {
    let mut cmd = cathedral();
    cmd.args([
        "match",
        "--game",
        "corintho",
        "--a",
        "engine:level=3",
        "--b",
        "random",
    ])
    .args(["--games", "4", "--seed", "9", "--color", "never"]);
    cmd
}

#[test]
fn a_corintho_match_plays_pairs_and_writes_records() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let text = stdout_of(engine_against_random().arg("-o").arg(&out));
    assert!(text.contains("games with A as player 1"), "{text}");
    assert!(text.contains("A: engine level 3, 1000 ms\n"), "{text}");
    // Every record replays to the result the match counted.
    for pair in 1..=2 {
        let file = out.join(format!("pair-{pair:04}.yaml"));
        for game in ["1", "2"] {
            let json: serde_json::Value = serde_json::from_str(&stdout_of(
                cathedral()
                    .arg("replay")
                    .arg(&file)
                    .args(["--game", game, "--json"]),
            ))
            .unwrap();
            assert_ne!(json["position"]["outcome"], "ongoing", "{json}");
        }
    }
    // The same seed, the same games.
    let again = stdout_of(engine_against_random().arg("--json"));
    let json: serde_json::Value = serde_json::from_str(&again).unwrap();
    let first = std::fs::read_to_string(out.join("pair-0001.yaml")).unwrap();
    let moves: Vec<String> = json["pairs"][0]["games"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("- {}", m.as_str().unwrap()))
        .collect();
    assert!(first.contains(&moves.join("\n")), "{first}");
    assert!(json["summary"]["as_player_1"]["wins"].is_u64(), "{json}");
    // Cathedral's players and rules are refused in words.
    cathedral()
        .args([
            "match", "--game", "corintho", "--a", "policy", "--b", "random", "--games", "2",
        ])
        .assert()
        .code(3)
        .stderr(predicates::str::contains("plays Cathedral only"));
    cathedral()
        .args([
            "match",
            "--game",
            "corintho",
            "--a",
            "random",
            "--b",
            "random",
            "--rules",
            "moore1978",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("standard two-player rules"));
}

#[test]
fn analyse_position_ranks_every_move_by_the_solver() {
    let out = stdout_of(cathedral().args([
        "analyse-position",
        "puzzles/corintho/30-small-endgame-solved.yaml",
        "--time",
        "30",
    ]));
    // Rule case 30: a draw, 8 moves draw and 2 lose (docs/corintho.md, "Solver figures").
    assert!(out.contains("Value: draw for player 1"), "{out}");
    assert!(
        out.contains("draw  ( 8)") && out.contains("loss  ( 2)"),
        "{out}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout_of(cathedral().args([
        "analyse-position",
        "puzzles/corintho/30-small-endgame-solved.yaml",
        "--json",
    ])))
    .unwrap();
    assert_eq!(json["root_moves"].as_array().unwrap().len(), 10, "{json}");
    assert!(
        json["root_moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["lower"] == r["upper"]),
        "{json}"
    );
}

#[test]
fn standard_input_is_read_as_the_game_it_declares() {
    let file = std::fs::read_to_string("puzzles/corintho/21-fig4-unless.yaml").unwrap();
    let out = stdout_of(cathedral().args(["moves", "-"]).write_stdin(file));
    assert!(
        out.contains("Player 1 to move: 37 legal moves in total"),
        "{out}"
    );
    let record = "game: corintho\nnames: [Ann, Bob]\nmoves: [C@b1, K@a4]\n";
    let out = stdout_of(cathedral().args(["replay", "-"]).write_stdin(record));
    assert!(
        out.starts_with("Game 1: Ann (player 1) v Bob (player 2)"),
        "{out}"
    );
    // A Cathedral file on standard input is still Cathedral's.
    let file = std::fs::read_to_string("puzzles/examples/midgame.yaml").unwrap();
    let out = stdout_of(cathedral().args(["moves", "-"]).write_stdin(file));
    assert!(out.contains("Light to move"), "{out}");
}

#[test]
fn render_outlines_a_move_and_can_leave_the_supplies_out() {
    let file = "puzzles/corintho/04-move-a-section.yaml";
    let outline = "stroke=\"#1f5fbf\"";
    let plain = stdout_of(cathedral().args(["render", file]));
    assert_eq!(plain.matches(outline).count(), 0);
    assert!(plain.contains("P1: "), "{plain}");
    let stacked = stdout_of(cathedral().args(["render", file, "--move", "b2-b3", "--no-hands"]));
    // A stacking move outlines both of its platforms.
    assert_eq!(stacked.matches(outline).count(), 2, "{stacked}");
    assert!(!stacked.contains("P1: "), "{stacked}");
    cathedral()
        .args(["render", file, "--move", "b2-d4"])
        .assert()
        .code(3)
        .stderr(predicates::str::contains("cannot be played here"));
}
