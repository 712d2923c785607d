//! The `cathedral` binary: drawing, listing moves, playing, writing files, perft.

use assert_cmd::Command;
use cathedral::MoveList;
use cathedral::file::load;
use cathedral::{Piece, Player, Position, Rules};
use predicates::prelude::*;
use std::path::Path;

use crate::common;

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
    let commands = commands_of(&help);
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

/// The subcommands a help text lists, with their descriptions: a command's line starts two
/// columns in, and a description too long for the width goes on under it, indented further.
fn commands_of(help: &str) -> Vec<(String, String)> {
    let mut commands: Vec<(String, String)> = Vec::new();
    let section = help
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .expect("a Commands section");
    for line in section.lines().filter(|l| !l.trim().is_empty()) {
        if line.starts_with("  ") && !line.starts_with("   ") {
            let line = line.trim();
            let (name, description) = line.split_once(' ').unwrap_or((line, ""));
            commands.push((name.to_string(), description.trim().to_string()));
        } else if let Some((_, description)) = commands.last_mut() {
            description.push(' ');
            description.push_str(line.trim());
        }
    }
    commands
}

/// Every help text of the command line, with the arguments that print it: `--help`, each
/// subcommand's and each of their subcommands' (`puzzles rate`).
fn every_help(columns: &str) -> Vec<(Vec<String>, String)> {
    let help_of = |args: &[String]| {
        let out = cathedral()
            .args(args)
            .arg("--help")
            .env("COLUMNS", columns)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?} --help failed");
        String::from_utf8(out.stdout).unwrap()
    };
    let mut helps = vec![(Vec::new(), help_of(&[]))];
    let mut i = 0;
    while i < helps.len() {
        let (args, text) = helps[i].clone();
        if text.contains("Commands:") {
            for (name, _) in commands_of(&text) {
                if name != "help" {
                    let mut sub = args.clone();
                    sub.push(name);
                    let text = help_of(&sub);
                    helps.push((sub, text));
                }
            }
        }
        i += 1;
    }
    helps
}

/// clap's `wrap_help`: every help text fits the terminal's width, broken between words.
#[test]
fn help_wraps_at_words_within_80_columns() {
    let helps = every_help("80");
    assert!(helps.len() >= 28, "{} help texts", helps.len());
    for (args, text) in &helps {
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80,
                "`cathedral {} --help` has a line of {} columns at COLUMNS=80:\n{line}",
                args.join(" "),
                line.chars().count()
            );
        }
    }
    // Wrapped between words: the long description of `solve --method` stays readable.
    let solve = &helps.iter().find(|(a, _)| a == &["solve"]).unwrap().1;
    assert!(solve.contains("proof-number search"), "{solve}");
    assert!(!solve.contains("proof-n\n"), "{solve}");
    // And the wider a terminal, the wider the text (to clap's 100 columns).
    let wide = every_help("100");
    let widest = |helps: &[(Vec<String>, String)]| {
        helps
            .iter()
            .flat_map(|(_, t)| t.lines().map(|l| l.chars().count()))
            .max()
            .unwrap_or(0)
    };
    assert!(
        widest(&wide) > 80 && widest(&wide) <= 100,
        "{}",
        widest(&wide)
    );
}

/// Status and explanation lines are wrapped only on a terminal: piped, each stays one line,
/// whatever the environment says of the width.
#[test]
fn piped_output_is_never_wrapped() {
    let out = stdout_of(
        cathedral()
            .args([
                "play",
                "puzzles/rules/07-capture-of-a-lone-building.yaml",
                "dark:bridge:c1,c2,c3",
            ])
            .env("COLUMNS", "40"),
    );
    let claim = out
        .lines()
        .find(|l| l.contains("claims 4 squares"))
        .unwrap_or_else(|| panic!("no claim in:\n{out}"));
    assert!(claim.len() > 80, "{claim}");
    assert!(claim.ends_with("returns to Light's hand"), "{claim}");
    let out = stdout_of(cathedral().arg("show").env("COLUMNS", "40"));
    let light = out.lines().find(|l| l.starts_with("Light: ")).unwrap();
    assert!(light.len() > 80, "{light}");
    assert!(light.ends_with("first move made"), "{light}");
    let out = stdout_of(
        cathedral()
            .args(["solve", "--threads", "1"])
            .env("COLUMNS", "40"),
    );
    let stats = out.lines().find(|l| l.starts_with("Searched ")).unwrap();
    assert!(stats.ends_with(" MiB"), "{stats}");
}

/// A count of one takes the singular: `1 legal move`, `1 node`, `1 pair`, `1 move`.
#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().expect("temp dir");
    let over = dir.path().join("over.yaml");
    let out = stdout_of(cathedral().args([
        "play",
        "puzzles/rules/08-forced-pass-and-game-end.yaml",
        "pass",
        "-o",
        over.to_str().unwrap(),
    ]));
    assert!(out.contains("Dark to move (1 legal move)"), "{out}");
    cathedral()
        .args(["play", OPENING, "castle:a1"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the Castle covers 5 squares, but 1 cell is given",
        ));
    // The record ends after one move, elsewhere than the position played from.
    let record = dir.path().join("rec.yaml");
    let record = record.to_str().unwrap();
    let first = "cathedral:e3,f2,f3,f4,g3,h3";
    stdout_of(cathedral().args(["play", OPENING, first, "--record", record]));
    cathedral()
        .args(["play", OPENING, first, "--record", record])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "its last game ends after 1 move with Dark to move",
        ));
    let out = stdout_of(cathedral().args(["moves", over.to_str().unwrap()]));
    assert!(out.contains("Dark to move: 1 legal move in total"), "{out}");
    let out = stdout_of(cathedral().args([
        "match",
        "--a",
        "engine:level=2",
        "--b",
        "greedy",
        "--games",
        "2",
        "--nodes",
        "2000",
        "--seed",
        "3",
        "--color",
        "never",
    ]));
    assert!(out.contains("\n1 pair, 2000 nodes per move"), "{out}");
    assert!(!out.contains("1 pairs"), "{out}");
}

/// A move or a cell is named once in a message, not by the message and again by its reason.
#[test]
fn a_bad_move_or_cell_is_named_once() {
    let stderr = |args: &[&str]| {
        let out = cathedral().args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?} succeeded");
        String::from_utf8(out.stderr).unwrap()
    };
    let err = stderr(&["play", OPENING, "castle:a1,b1"]);
    assert_eq!(err.matches("castle:a1,b1").count(), 1, "{err}");
    let err = stderr(&[
        "check",
        "puzzles/teaching/puzzle-001.yaml",
        "light:tavern:k11",
    ]);
    assert_eq!(err.matches("k11").count(), 2, "{err}");
    // A study's cell: the cell's own error names it.
    let dir = tempfile::tempdir().expect("temp dir");
    let study = dir.path().join("study.yaml");
    let text = std::fs::read_to_string("puzzles/learn/01-placing-buildings.yaml").unwrap();
    assert!(text.contains("  highlights: [a1, a2, b1, b2]"));
    std::fs::write(
        &study,
        text.replace(
            "  highlights: [a1, a2, b1, b2]",
            "  highlights: [a1, k11, b1, b2]",
        ),
    )
    .unwrap();
    let err = stderr(&["study", "check", study.to_str().unwrap()]);
    assert_eq!(err.matches("`k11` is not a cell").count(), 1, "{err}");
}

/// `cathedral ladder`: the anchors' and the levels' matches, one line each, then the chained
/// table; `--up-to` stops the ladder early; bad values are refused naming the option.
#[test]
fn the_ladder_measures_the_levels_from_the_greedy_player_up() {
    let out = stdout_of(cathedral().args([
        "ladder", "--games", "8", "--up-to", "3", "--nodes", "2000", "--seed", "4", "--color",
        "never",
    ]));
    for line in [
        "greedy against level 1: 4 pairs, ",
        "random against level 1: 4 pairs, ",
        "level 1 against level 2: 4 pairs, ",
        "level 2 against level 3: 4 pairs, ",
        "8 games a match, level 10 at 2000 nodes a move, seed 4",
        "0 (the anchor)",
        "a beginner: misses captures",
    ] {
        assert!(out.contains(line), "{line:?} in {out}");
    }
    assert!(!out.contains("level 3 against level 4"), "{out}");
    assert!(!out.contains("level 4 "), "{out}");
    let json = common::json_of(cathedral().args([
        "ladder", "--games", "4", "--up-to", "2", "--nodes", "2000", "--json",
    ]));
    assert_eq!(json["matches"].as_array().unwrap().len(), 3, "{json}");
    assert_eq!(json["ladder"].as_array().unwrap().len(), 4, "{json}");
    assert_eq!(json["ladder"][1]["rating"]["elo"], 0.0, "{json}");
    for (args, words) in [
        (&["--games", "3"][..], "--games"),
        (&["--up-to", "11"][..], "--up-to"),
        (&["--nodes", "0"][..], "--nodes"),
    ] {
        cathedral()
            .arg("ladder")
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(words));
    }
}
