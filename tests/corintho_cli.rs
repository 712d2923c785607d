//! Corintho from the command line: `--game corintho` or a file with `game: corintho` selects it
//! for show, moves, play, perft, solve and render; errors are located, in words, never a panic.

use crate::common;

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

/// The position after `moves` from the two-player start.
fn corintho_after(moves: &[&str]) -> cathedral::corintho::CorinthoPosition {
    use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules};
    let mut position = CorinthoPosition::new(CorinthoRules::default());
    for mv in moves {
        position.play(CorinthoMove::parse(mv).unwrap());
    }
    position
}

/// The solver's win/draw/loss value of `position` for the side to move.
fn corintho_value(position: &cathedral::corintho::CorinthoPosition) -> Option<i32> {
    use cathedral::boardgame::{SolveOptions, solve};
    let options = SolveOptions {
        threads: 1,
        tt_mb: 1,
        wdl: true,
        root_values: false,
        max_nodes: Some(100_000),
        ..SolveOptions::default()
    };
    solve(position, &options, &|_| {}).value()
}

#[test]
fn analyse_judges_a_corintho_record_and_marks_a_missed_forced_win() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.yaml");
    // Player 1's C@c2 leaves the column row b1 c2 d3 to whoever completes it; player 2 misses
    // it (B@d1) and player 1 completes it.
    let moves = ["C@b1", "K@a4", "C@c2", "B@d1", "C@d3"];
    let mut play = cathedral();
    play.args(["play", "--game", "corintho"])
        .args(moves)
        .arg("--record")
        .arg(&record);
    stdout_of(&mut play);
    // The solver proves it: player 2 had a forced win, and B@d1 leaves player 1 a won game.
    assert_eq!(corintho_value(&corintho_after(&moves[..3])), Some(1));
    assert_eq!(corintho_value(&corintho_after(&moves[..4])), Some(1));

    let budget = ["--nodes-per-move", "20000", "--threads", "1"];
    let out = stdout_of(
        cathedral()
            .arg("analyse")
            .arg(&record)
            .args(budget)
            .args(["--color", "never"]),
    );
    assert!(out.contains("Result: player 1 wins."), "{out}");
    for (n, mv) in moves.iter().enumerate() {
        assert!(out.contains(&format!("| {} | {mv} |", n + 1)), "{out}");
    }
    assert!(
        out.contains("4. B@d1 ?? (blunder, gives up 2.0 points, exact); best was C@d3"),
        "{out}"
    );
    assert!(out.contains("missed win: C@d3 wins at once"), "{out}");
    assert!(
        out.contains("Biggest losses: 4. Player 2 (2.0 points, exact);"),
        "{out}"
    );
    assert!(out.contains("Player 2: 2 moves"), "{out}");

    let v = json_of(
        cathedral()
            .arg("analyse")
            .arg(&record)
            .args(budget)
            .arg("--json"),
    );
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 5);
    let missed = &plies[3];
    assert_eq!(missed["played"], "B@d1");
    assert_eq!(missed["mover"], 2);
    assert_eq!(missed["mark"], "blunder");
    assert_eq!(missed["before"]["judgement"], "exact");
    assert_eq!(missed["before"]["value"], 1.0);
    assert_eq!(missed["loss_is_exact"], true);
    assert_eq!(
        (&missed["outcome_before"], &missed["outcome_after"]),
        (&"win".into(), &"loss".into())
    );
    // The move that allowed the win is marked too; the winning move is not.
    assert!(plies[2]["mark"].is_string(), "{}", plies[2]);
    assert!(plies[4]["mark"].is_null(), "{}", plies[4]);
    assert!(
        v["turning_points"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(4))
    );
    assert_eq!(v["player_2"]["blunders"], 1);
    assert_eq!(v["end"]["judgement"], "exact");

    // Every game of the file, one line each; no HTML report for Corintho.
    let out = stdout_of(cathedral().arg("analyse").arg(&record).args([
        "--all",
        "--nodes-per-move",
        "2000",
        "--color",
        "never",
    ]));
    assert!(
        out.contains("player 1 wins") && out.contains("Player 2 marks"),
        "{out}"
    );
    cathedral()
        .arg("analyse")
        .arg(&record)
        .arg("--html")
        .arg(dir.path().join("r.html"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--html writes Cathedral reports only",
        ));
    assert!(!dir.path().join("r.html").exists());
    cathedral()
        .arg("analyse")
        .arg(&record)
        .arg("--annotate")
        .arg(dir.path().join("r.yaml"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--annotate writes Cathedral records only",
        ));
    assert!(!dir.path().join("r.yaml").exists());
}

#[test]
fn standings_of_corintho_records_rank_the_winner_first() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.yaml");
    let second = dir.path().join("second.yaml");
    // Ann wins both: as player 1 (she completes the row), then as player 2.
    std::fs::write(
        &first,
        "game: corintho\nnames: [Ann, Bob]\nmoves: [C@b1, K@a4, C@c2, B@d1, C@d3]\nresult: player 1 wins\n",
    )
    .unwrap();
    std::fs::write(
        &second,
        "game: corintho\nnames: [Bob, Ann]\nmoves: [C@b1, K@a4, C@c2, C@d3]\nresult: player 2 wins\n",
    )
    .unwrap();
    let out = stdout_of(
        cathedral()
            .arg("standings")
            .args([&first, &second])
            .args(["--color", "never"]),
    );
    let ann = out.find("| Ann ").expect("Ann in the table");
    let bob = out.find("| Bob ").expect("Bob in the table");
    assert!(ann < bob, "{out}");
    assert!(out.contains("| score |"), "{out}");
    assert!(out.contains("Ann 0 - 4 Bob: Ann wins"), "{out}");
    let v = json_of(
        cathedral()
            .arg("standings")
            .args([&first, &second])
            .arg("--json"),
    );
    assert_eq!(v["table"][0]["player"], "Ann");
    assert_eq!(v["table"][0]["rank"], 1);
    assert_eq!(v["table"][0]["game_wins"], 2);
    assert_eq!(v["table"][1]["player"], "Bob");
    assert_eq!(v["matches"].as_array().unwrap().len(), 1);
}

#[test]
fn a_bad_corintho_record_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    std::fs::write(
        &path,
        "game: corintho\nnames: [Ann, Bob]\nmoves:\n- C@b1\n- C@b1\n",
    )
    .unwrap();
    for command in ["analyse", "standings"] {
        let out = cathedral().arg(command).arg(&path).assert().failure();
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            err.contains("bad.yaml:5:3") && err.contains("move 2 (`C@b1`) cannot be played"),
            "{command}: {err}"
        );
        for leak in LEAKS {
            assert!(!err.contains(leak), "{command} leaks {leak}: {err}");
        }
    }
}
