//! Puzzles from played games (`cathedral generate --from`, docs/puzzles.md): the hand-made
//! record `tests/data/blunder-games.yaml` holds a game with a known blunder at move 21 and a
//! second game whose last move was the one best move; every claim is checked with the solver
//! directly.

use cathedral::file::{GameRecord, load_records, parse_str, to_yaml};
use cathedral::legality::parse_move;
use cathedral::notation::format_move_with_player;
use cathedral::puzzle::{
    AnalyseOptions, FromGameOptions, GamePuzzle, MoveVerdict, Reject, TryKind, analyse, from_games,
    from_games_judged, game_puzzle_file, solve_line, stored_try,
};
use cathedral::sampler::buildings_left;
use cathedral::{Player, Position};
use predicates::prelude::*;
use std::path::Path;

use crate::common;

use common::cathedral;

const RECORD: &str = "tests/data/blunder-games.yaml";

fn records() -> Vec<GameRecord> {
    load_records(Path::new(RECORD)).unwrap_or_else(|e| panic!("{e}"))
}

fn options(all: bool, max_buildings: u32) -> FromGameOptions {
    FromGameOptions {
        all,
        max_buildings,
        threads: 1,
        ..FromGameOptions::default()
    }
}

/// The position before move `ply` (counted from 1) of `game`.
fn before(game: &GameRecord, ply: usize) -> Position {
    game.positions()[ply - 1]
}

fn find(puzzles: &[GamePuzzle], game: usize, ply: usize) -> Option<&GamePuzzle> {
    puzzles.iter().find(|p| p.game == game && p.ply == ply)
}

#[test]
fn the_blunder_becomes_a_puzzle_with_the_move_played_as_the_wrong_try() {
    let games = records();
    let (puzzles, summary) = from_games(&games, &options(false, 6));
    // Without --all: only the blunder.
    assert_eq!(puzzles.len(), 1, "{puzzles:?}");
    assert_eq!(summary.counts.found, 1);
    assert!(!summary.stopped);
    let puzzle = &puzzles[0];
    assert_eq!((puzzle.game, puzzle.ply), (1, 21));
    let position = before(&games[0], 21);
    assert_eq!(position.to_move(), Player::Light);
    assert_eq!(puzzle.analysis.position, position);

    // Verified by solving: the answer is worth -7, the move played -9.
    let budget = AnalyseOptions::default();
    let analysis = analyse(&position, &budget).expect("a puzzle position");
    assert_eq!(analysis.value, -7);
    assert_eq!(
        format_move_with_player(&position, analysis.best_move),
        "light:stable:g1,h1"
    );
    let played = parse_move(&position, "light:inn:a4,a5,b5").unwrap();
    let mut after = position;
    after.play(played);
    let (child, line, _) = solve_line(&after, &budget).expect("solved");
    assert_eq!(-child, -9);

    assert_eq!(puzzle.analysis.value, -7);
    assert_eq!(puzzle.analysis.best_move, analysis.best_move);
    assert_eq!(puzzle.played, played);
    assert_eq!(puzzle.played_value, -9);
    assert_eq!(puzzle.loss(), 2);
    assert!(!puzzle.lost_result(), "a loss by 7 became a loss by 9");
    assert_eq!(puzzle.refutation, line);

    // The puzzle file: the answer proven, the move played with its loss and refutation, the
    // game's number, players, event and the move number.
    let file = game_puzzle_file(puzzle, "puzzle-001: test".into(), 1);
    let text = to_yaml(&file);
    let back = parse_str("puzzle-001.yaml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.position, position);
    let solution = back.solution.as_ref().unwrap();
    assert_eq!(solution.value, -7);
    assert_eq!(solution.best_move.as_deref(), Some("light:stable:g1,h1"));
    let info = back.puzzle.as_ref().unwrap();
    assert_eq!(info.question, "Light to play and lose by only 7 squares");
    let game = info.game.as_ref().expect("the game block");
    assert_eq!((game.number, game.move_number), (1, 21));
    assert_eq!(game.light.as_deref(), Some("Ann"));
    assert_eq!(game.dark.as_deref(), Some("Bob"));
    assert_eq!(game.event.as_deref(), Some("Test club"));
    assert_eq!(game.round.as_deref(), Some("1"));
    assert_eq!(game.played, "light:inn:a4,a5,b5");
    assert_eq!(game.played_value, -9);
    assert_eq!(game.refutation.len(), line.len());
    assert!(back.meta.tags.contains(&"from-game".to_string()));
    let description = back.meta.description.as_deref().unwrap();
    assert!(
        description.contains("Light (Ann) played light:inn:a4,a5,b5, giving away 2 squares"),
        "{description}"
    );
    // The wrong try the worksheet shows: the move played, refuted, without solving again.
    let wrong = stored_try(&back).expect("a wrong try");
    assert_eq!(wrong.kind, TryKind::Played);
    assert_eq!(wrong.played.notation, "light:inn:a4,a5,b5");
    assert_eq!((wrong.value, wrong.loss), (-9, 2));
    assert_eq!(wrong.reply_line.len(), line.len());
}

#[test]
fn positions_that_are_not_mistakes_are_not_puzzles() {
    let games = records();
    let (puzzles, summary) = from_games(&games, &options(false, 6));
    // Game 2's last move was the one best move: not a puzzle without --all ...
    let last = before(&games[1], 25);
    let analysis = analyse(&last, &AnalyseOptions::default()).expect("one best move");
    assert_eq!(
        format_move_with_player(&last, analysis.best_move),
        "light:inn:i3,j3,j4"
    );
    assert!(find(&puzzles, 2, 25).is_none());
    assert_eq!(summary.counts.played_best, 1);
    // ... and "find the move that was played" with it.
    let (all, all_summary) = from_games(&games, &options(true, 6));
    assert_eq!(all.len(), 2);
    let found = find(&all, 2, 25).expect("the move played");
    assert_eq!(found.loss(), 0);
    assert_eq!(found.played, analysis.best_move);
    assert!(find(&all, 1, 21).is_some());
    assert_eq!(all_summary.counts.tried, summary.counts.tried);
    let file = game_puzzle_file(found, "t".into(), 1);
    assert!(stored_try(&file).is_none(), "nothing lost: no wrong try");
    let game = file.puzzle.as_ref().unwrap().game.as_ref().unwrap();
    assert_eq!((game.number, game.move_number), (2, 25));
    assert_eq!(game.light.as_deref(), Some("Carl"));

    // Dark's reply to the blunder had several best moves: proven, and no puzzle.
    let several = before(&games[0], 22);
    assert!(matches!(
        analyse(&several, &AnalyseOptions::default()),
        Err(Reject::NotUnique { .. })
    ));
    assert!(find(&all, 1, 22).is_none());
    assert!(summary.counts.not_unique > 0);
    // Every tried position is accounted for.
    let c = all_summary.counts;
    assert_eq!(c.tried, c.skipped + c.not_unique + c.found);
}

#[test]
fn early_positions_are_not_tried_and_unproven_ones_are_skipped() {
    let games = records();
    // The blunder position has more than 2 buildings in the larger hand: not tried at 2.
    let position = before(&games[0], 21);
    let left = buildings_left(&position);
    assert!(left > 2 && left <= 6, "{left}");
    let (puzzles, summary) = from_games(&games, &options(true, 2));
    assert!(find(&puzzles, 1, 21).is_none());
    let within: usize = games
        .iter()
        .map(|g| {
            let positions = g.positions();
            g.moves
                .iter()
                .enumerate()
                .filter(|(i, m)| {
                    !m.mv.is_pass()
                        && !positions[*i].is_game_over()
                        && buildings_left(&positions[*i]) <= 2
                })
                .count()
        })
        .sum();
    assert_eq!(summary.counts.tried, within);
    assert_eq!(
        summary.positions,
        games.iter().map(|g| g.moves.len()).sum::<usize>()
    );

    // A budget too small to prove most positions: those are skipped and counted, nothing
    // guessed; what it still proves (positions the solver settles at once) agrees with the full
    // budget.
    let mut tiny = options(true, 6);
    tiny.analyse.max_nodes = 1;
    let (few, skipped) = from_games(&games, &tiny);
    let c = skipped.counts;
    assert!(c.skipped > 0 && c.tried > c.skipped, "{c:?}");
    assert_eq!(c.tried, c.skipped + c.not_unique + c.found);
    assert!(
        find(&few, 1, 21).is_none(),
        "the blunder needs more than one node"
    );
    let (full, _) = from_games(&games, &options(true, 6));
    for puzzle in &few {
        let same = find(&full, puzzle.game, puzzle.ply).expect("proven with the full budget too");
        assert_eq!(
            (puzzle.analysis.value, puzzle.played_value),
            (same.analysis.value, same.played_value)
        );
    }
}

#[test]
fn the_game_block_is_checked_when_loading_and_older_files_still_load() {
    let games = records();
    let (puzzles, _) = from_games(&games, &options(false, 6));
    let text = to_yaml(&game_puzzle_file(&puzzles[0], "t".into(), 1));
    // An older puzzle without the block loads as before.
    let old = cathedral::file::load(Path::new("puzzles/teaching/puzzle-001.yaml")).unwrap();
    assert!(old.puzzle.unwrap().game.is_none());
    // A move played that cannot be played here.
    let bad = text.replace("played: light:inn:a4,a5,b5", "played: light:inn:a1,a2,b2");
    let error = parse_str("bad.yaml", &bad).unwrap_err().to_string();
    assert!(
        error.contains("puzzle.game: played `light:inn:a1,a2,b2` cannot be played"),
        "{error}"
    );
    // A move played better than the answer.
    let bad = text.replace("played_value: -9", "played_value: -3");
    let error = parse_str("bad.yaml", &bad).unwrap_err().to_string();
    assert!(
        error.contains("better than the solution's value -7"),
        "{error}"
    );
    // A value the refutation contradicts.
    let bad = text.replace("played_value: -9", "played_value: -8");
    let error = parse_str("bad.yaml", &bad).unwrap_err().to_string();
    assert!(
        error.contains("the refutation ends the game at -9"),
        "{error}"
    );
    // A missing field, in the format's words.
    let bad = text.replace("    number: 1\n", "");
    let error = parse_str("bad.yaml", &bad).unwrap_err().to_string();
    assert!(error.contains("`number` is missing"), "{error}");
}

#[test]
fn the_command_writes_puzzles_and_an_index_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p");
    let run = || {
        let mut cmd = cathedral();
        cmd.args(["generate", "--from", RECORD, "--quiet"])
            .arg("-o")
            .arg(&out);
        cmd
    };
    let six = ["--max-buildings", "6"];
    run()
        .args(six)
        .assert()
        .success()
        .stdout(predicate::str::contains("game 1, move 21"))
        .stdout(predicate::str::contains(
            "1 puzzle from 2 games (53 positions)",
        ))
        .stdout(predicate::str::contains("17 tried"))
        .stdout(predicate::str::contains("0 skipped"));
    let file = cathedral::file::load(&out.join("puzzle-001.yaml")).unwrap();
    assert_eq!(
        file.puzzle.unwrap().game.unwrap().played,
        "light:inn:a4,a5,b5"
    );
    assert!(!out.join("puzzle-002.yaml").exists());
    let index = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(index.contains("puzzle-001.yaml"));
    // A second run refuses to overwrite.
    run()
        .args(six)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not overwriting"));
    // --force does; --all adds the move found over the board; --json reports the counts.
    let output = run()
        .args(six)
        .args(["--all", "--force", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["puzzles"].as_array().unwrap().len(), 2);
    assert_eq!(json["puzzles"][0]["loss"], 2);
    assert_eq!(json["puzzles"][0]["played"], "light:inn:a4,a5,b5");
    assert_eq!(json["puzzles"][1]["game"], 2);
    assert_eq!(json["puzzles"][1]["move"], 25);
    assert_eq!(json["tried"], 17);
    assert_eq!(json["skipped"], 0);
    // The worksheet shows the move played as the tempting wrong move.
    let sheet = dir.path().join("sheet.html");
    cathedral()
        .args(["sheet", "--quiet"])
        .arg(&out)
        .arg("-o")
        .arg(&sheet)
        .assert()
        .success();
    let html = std::fs::read_to_string(&sheet).unwrap();
    assert!(html.contains("the move played in the game"), "{html}");
    // Options that make no sense with --from, or without it, are usage errors.
    for args in [
        &["--count", "3"][..],
        &["--seed", "2"][..],
        &["--theme", "capture"][..],
    ] {
        run().args(args).assert().code(2);
    }
    run().args(["--max-buildings", "0"]).assert().code(2);
    cathedral()
        .args(["generate", "--all", "-o"])
        .arg(&out)
        .assert()
        .code(2);
}

/// Every move of a game gets its verdict, which says why it made no puzzle (issue 75); a search
/// of some moves only (a longer search's) judges those alone, the same way.
#[test]
fn every_move_gets_a_verdict_in_words() {
    let games = records();
    let (puzzles, summary, reports) = from_games_judged(&games, &options(false, 6));
    assert_eq!(puzzles.len(), 1);
    assert_eq!(reports.len(), summary.positions, "one verdict a move");
    let verdict = |game: usize, ply: usize| {
        reports
            .iter()
            .find(|r| (r.game, r.ply) == (game, ply))
            .unwrap()
            .verdict
    };
    assert_eq!(verdict(1, 21), MoveVerdict::Puzzle);
    assert_eq!(verdict(2, 25), MoveVerdict::PlayedBest);
    assert!(matches!(
        verdict(1, 22),
        MoveVerdict::NotPuzzle(Reject::NotUnique { .. })
    ));
    let early = before(&games[0], 1);
    assert_eq!(
        verdict(1, 1),
        MoveVerdict::TooEarly {
            buildings: buildings_left(&early),
            limit: 6
        }
    );
    for (game, record) in games.iter().enumerate() {
        for (ply, m) in record.moves.iter().enumerate() {
            if m.mv.is_pass() {
                assert_eq!(verdict(game + 1, ply + 1), MoveVerdict::Passed);
            }
        }
    }
    // The counts agree with the verdicts.
    let tried = reports
        .iter()
        .filter(|r| {
            !matches!(
                r.verdict,
                MoveVerdict::TooEarly { .. } | MoveVerdict::Passed
            )
        })
        .count();
    assert_eq!(tried, summary.counts.tried);
    // In words, none of them a token.
    assert_eq!(
        MoveVerdict::TooEarly {
            buildings: 11,
            limit: 8
        }
        .words(),
        "too early in the game to prove exactly: 11 buildings left in the larger hand, and the solver tries positions with 8 at most"
    );
    assert_eq!(
        MoveVerdict::NotPuzzle(Reject::NotUnique { gap: 0 }).words(),
        "another move was just as good as the best: the puzzle would have no single answer"
    );
    assert_eq!(
        MoveVerdict::NotPuzzle(Reject::NotUnique { gap: 1 }).words(),
        "the second best move was only 1 square worse than the best: no clear answer"
    );
    assert!(MoveVerdict::Unproven.unsettled() && MoveVerdict::OutOfTime.unsettled());
    assert!(!MoveVerdict::PlayedBest.unsettled());

    // Some moves only: those, judged the same; a budget of one node leaves them unproven.
    let mut some = options(false, 6);
    some.only = Some(vec![(1, 21), (1, 1), (2, 25)]);
    let (found, _, judged) = from_games_judged(&games, &some);
    assert_eq!(found.len(), 1);
    let got: Vec<_> = judged.iter().map(|r| (r.game, r.ply, r.verdict)).collect();
    assert_eq!(
        got,
        [
            (1, 1, verdict(1, 1)),
            (1, 21, MoveVerdict::Puzzle),
            (2, 25, MoveVerdict::PlayedBest)
        ]
    );
    some.analyse.max_nodes = 1;
    let (_, _, starved) = from_games_judged(&games, &some);
    assert_eq!(starved[1].verdict, MoveVerdict::Unproven);
}
