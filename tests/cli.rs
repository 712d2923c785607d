//! The `cathedral` binary: drawing, listing moves, playing, writing files, perft.

use assert_cmd::Command;
use cathedral::MoveList;
use cathedral::file::load;
use cathedral::{Piece, Player, Position, Rules};
use predicates::prelude::*;
use std::path::Path;

mod common;

use common::{cathedral, replay, stdout_of};

const MIDGAME: &str = "puzzles/examples/midgame.yaml";
const OPENING: &str = "puzzles/examples/opening.yaml";

/// From the opening: Light's Tavern alone in the a10 corner, then Dark's Inn walls it in.
const CAPTURE: [&str; 6] = [
    "cathedral:e7,d6,e6,f6,e5,e4",
    "dark:castle:a1,b1,c1,a2,c2",
    "light:square:h8,i8,h9,i9",
    "dark:bridge:d1,e1,f1",
    "light:tavern:a10",
    "dark:inn:a9,b9,b10",
];

fn json_of(cmd: &mut Command) -> serde_json::Value {
    serde_json::from_str(&stdout_of(cmd)).expect("valid JSON")
}

#[test]
fn show_draws_the_default_position_in_plain_ascii_when_piped() {
    let out = stdout_of(cathedral().arg("show"));
    assert!(
        out.contains("   +---+---+---+---+---+---+---+---+---+---+\n"),
        "{out}"
    );
    assert!(out.contains("10 |"), "{out}");
    assert!(
        out.contains("     a   b   c   d   e   f   g   h   i   j"),
        "{out}"
    );
    assert!(out.contains("Light to move"), "{out}");
    assert!(out.contains("Legend:"), "{out}");
    assert!(out.is_ascii(), "not plain ASCII:\n{out}");
}

#[test]
fn show_color_always_uses_escapes_and_box_drawing() {
    let out = stdout_of(cathedral().args(["show", "--color", "always"]));
    assert!(out.contains('\u{1b}'));
    assert!(out.contains('┌'));
    let out = stdout_of(
        cathedral()
            .args(["show", "--color", "auto"])
            .env("NO_COLOR", "1"),
    );
    assert!(out.is_ascii());
}

#[test]
fn show_json_has_the_expected_keys() {
    let view = json_of(cathedral().args(["show", "--json"]));
    for key in [
        "rules",
        "to_move",
        "cathedral",
        "light",
        "dark",
        "game_over",
        "legal_placements",
    ] {
        assert!(view.get(key).is_some(), "no `{key}` in {view}");
    }
    assert_eq!(view["rules"]["preset"], "classic");
    assert_eq!(view["to_move"], "light");
    assert_eq!(view["cathedral"]["status"], "on-board");
    for player in ["light", "dark"] {
        for key in [
            "buildings",
            "hand",
            "unplaced_squares",
            "territory",
            "first_move_made",
        ] {
            assert!(view[player].get(key).is_some(), "no {player}.{key}");
        }
    }
    assert_eq!(view["light"]["territory"], serde_json::json!(["j8", "j10"]));
    assert_eq!(view["dark"]["hand"]["tavern"], 2);
    let position = load(Path::new(MIDGAME)).expect("midgame").position;
    assert_eq!(
        view["legal_placements"].as_array().map(Vec::len),
        Some(position.count_moves() as usize)
    );
}

#[test]
fn moves_total_matches_the_library() {
    let position = load(Path::new(MIDGAME)).expect("midgame").position;
    let expected = position.count_moves() as u64;
    let json = json_of(cathedral().args(["moves", "--json"]));
    assert_eq!(json["total"].as_u64(), Some(expected));
    assert_eq!(
        json["moves"].as_array().map(Vec::len),
        Some(expected as usize)
    );
    let out = stdout_of(cathedral().args(["moves", MIDGAME]));
    assert!(
        out.contains(&format!("Light to move: {expected} legal moves in total")),
        "{out}"
    );
    assert!(out.contains("| academy"), "{out}");
    let all = stdout_of(cathedral().args(["moves", "--all"]));
    let listed = all.lines().filter(|l| l.starts_with("  ")).count();
    assert_eq!(listed as u64, expected);
}

#[test]
fn play_explains_a_capture() {
    let out = stdout_of(cathedral().arg("play").arg(OPENING).args(CAPTURE));
    assert!(out.contains("6. Dark places Dark Inn (a9,b9,b10)"), "{out}");
    assert!(
        out.contains("claims 1 square (a10), walled in by Dark Inn (a9,b9,b10) and the north and west edges; captures Light Tavern (a10)"),
        "{out}"
    );
    assert!(out.contains("Light to move"), "{out}");
}

#[test]
fn play_refuses_an_illegal_move_with_its_reason() {
    cathedral()
        .arg("play")
        .arg(OPENING)
        .args(&CAPTURE[..2])
        .arg("light:tavern:e4")
        .assert()
        .failure()
        .stderr(predicate::str::contains("move 3 (`light:tavern:e4`)"))
        .stderr(predicate::str::contains(
            "e4 is already covered by Cathedral",
        ));
    cathedral()
        .args(["play", OPENING, "castle:a1,b1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("move 1"));
}

#[test]
fn play_writes_a_file_that_round_trips_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("after.yaml");
    let run = |force: bool| {
        let mut cmd = cathedral();
        cmd.arg("play")
            .arg(OPENING)
            .args(CAPTURE)
            .arg("-o")
            .arg(&out);
        if force {
            cmd.arg("--force");
        }
        cmd.assert()
    };
    run(false).success();
    let written = load(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written.position, replay(Rules::CLASSIC, &CAPTURE));
    assert_eq!(
        written
            .position
            .side(Player::Light)
            .hand
            .count(Piece::Tavern),
        2
    );
    run(false)
        .failure()
        .stderr(predicate::str::contains("already exists"))
        .stderr(predicate::str::contains("--force"));
    run(true).success();
    assert_eq!(
        load(&out).expect("reload").position,
        replay(Rules::CLASSIC, &CAPTURE)
    );
}

#[test]
fn play_json_lists_reports_and_the_final_position() {
    let json = json_of(
        cathedral()
            .arg("play")
            .arg(OPENING)
            .args(CAPTURE)
            .arg("--json"),
    );
    let moves = json["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), CAPTURE.len());
    assert_eq!(moves[5]["claims"][0]["captured"]["piece"], "tavern");
    assert_eq!(json["final"]["to_move"], "light");
}

#[test]
fn perft_counts_depth_two_from_the_start() {
    let start = Position::new(Rules::CLASSIC);
    let mut list = MoveList::new();
    start.legal_moves(&mut list);
    assert_eq!(list.len(), 224);
    let expected: u64 = list
        .iter()
        .map(|&mv| {
            let mut child = start;
            child.play(mv);
            child.count_moves() as u64
        })
        .sum();
    let out = stdout_of(cathedral().args(["perft", OPENING, "2"]));
    assert!(out.contains(&format!("perft(2) = {expected}\n")), "{out}");
    assert!(out.contains("moves/s"), "{out}");
    let divided = stdout_of(cathedral().args(["perft", OPENING, "2", "--divide"]));
    assert_eq!(
        divided
            .lines()
            .filter(|l| l.starts_with("cathedral:"))
            .count(),
        224
    );
    assert!(divided.contains(&format!("perft(2) = {expected}\n")));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    cathedral()
        .args(["perft", "two"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a depth"));
    cathedral()
        .args(["show", "no/such/file.yaml"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no/such/file.yaml"));
}

/// `cathedral --help` lists every subcommand with its own one-line description: none empty, none
/// repeated, and each speaks of its own command (the protocol's text once sat under
/// `analyse-position`, and `engine` had none).
#[test]
fn every_subcommand_has_its_own_description() {
    let out = Command::cargo_bin("cathedral")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let commands: Vec<(String, String)> = help
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .expect("a Commands section")
        .lines()
        .filter(|line| line.starts_with("  ") && !line.trim().is_empty())
        .map(|line| {
            let line = line.trim();
            let (name, description) = line.split_once(' ').unwrap_or((line, ""));
            (name.to_string(), description.trim().to_string())
        })
        .collect();
    assert!(commands.len() >= 20, "{commands:?}");
    let mut seen = std::collections::HashSet::new();
    for (name, description) in &commands {
        assert!(!description.is_empty(), "`{name}` has no description");
        assert!(
            seen.insert(description.clone()),
            "`{name}` repeats a description: {description}"
        );
    }
    let of = |name: &str| &commands.iter().find(|(n, _)| n == name).unwrap().1;
    assert!(of("engine").contains("engine protocol"), "{}", of("engine"));
    assert!(
        !of("analyse-position").contains("protocol"),
        "{}",
        of("analyse-position")
    );
    assert!(of("analyse-position").starts_with("Judge a position"));
}
