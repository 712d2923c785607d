//! `replay` and `convert` from the command line.

use crate::common;

use common::{cathedral, stdout_of};

#[test]
fn replay_shows_each_move_explained_and_writes_any_moment_as_a_position_file() {
    let text =
        stdout_of(cathedral().args(["replay", "puzzles/games/example.yaml", "--color", "never"]));
    assert!(
        text.starts_with("Game 1: Ann (Light) v Bob (Dark), Club night"),
        "{text}"
    );
    assert!(
        text.contains("4. Dark places Dark Tower (h9,h10,i8,i9,j8)"),
        "{text}"
    );
    assert!(text.contains("claims 3 squares (i10,j9,j10)"), "{text}");
    assert!(text.contains("(a corner claim in the making)"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("after2.yaml");
    stdout_of(
        cathedral()
            .args(["replay", "puzzles/games/example.yaml", "--ply", "2", "-o"])
            .arg(&out),
    );
    let file = cathedral::file::load(&out).unwrap();
    assert_eq!(file.position.to_move(), cathedral::Player::Light);
    assert!(file.meta.title.unwrap().contains("after move 2"));
    // Written once; not again without --force.
    cathedral()
        .args(["replay", "puzzles/games/example.yaml", "--ply", "2", "-o"])
        .arg(&out)
        .assert()
        .failure();
    // Out of range.
    cathedral()
        .args(["replay", "puzzles/games/example.yaml", "--ply", "5"])
        .assert()
        .code(2);
    cathedral()
        .args(["replay", "puzzles/games/example.yaml", "--game", "2"])
        .assert()
        .code(2);
}

#[test]
fn convert_turns_the_independent_games_into_a_record_that_replays() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("independent.yaml");
    cathedral()
        .args(["convert", "tests/data/independent-games.jsonl", "-o"])
        .arg(&out)
        .assert()
        .success();
    let games = cathedral::file::load_records(&out).unwrap();
    assert_eq!(games.len(), 29);
    let json = stdout_of(
        cathedral()
            .arg("replay")
            .arg(&out)
            .args(["--game", "29", "--json"]),
    );
    let replay: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        replay["plies"].as_u64().unwrap() as usize,
        games[28].moves.len()
    );
    // A bad move list: input error, located.
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "light:cathedral:e5,f4,f5,f6,f7,g5\nlight:inn:a1,a2,b2\n",
    )
    .unwrap();
    let output = cathedral()
        .arg("convert")
        .arg(&bad)
        .assert()
        .code(3)
        .get_output()
        .stderr
        .clone();
    let message = String::from_utf8_lossy(&output);
    assert!(message.contains("bad.txt:2:1"), "{message}");
}

#[test]
fn play_appends_to_a_record_only_where_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.yaml");
    std::fs::write(&empty, "rules: classic\n").unwrap();
    let record = dir.path().join("game.yaml");
    cathedral()
        .arg("play")
        .arg(&empty)
        .args([
            "light:cathedral:e5,f4,f5,f6,f7,g5",
            "dark:castle:b2,b3,c2,d2,d3",
            "--record",
        ])
        .arg(&record)
        .assert()
        .success();
    let after = dir.path().join("after.yaml");
    cathedral()
        .arg("replay")
        .arg(&record)
        .arg("-o")
        .arg(&after)
        .assert()
        .success();
    cathedral()
        .arg("play")
        .arg(&after)
        .args(["light:inn:a1,a2,b1", "--record"])
        .arg(&record)
        .assert()
        .success();
    let games = cathedral::file::load_records(&record).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        games[0].start, None,
        "a game from the empty board has no start"
    );
    assert_eq!(games[0].moves.len(), 3);
    // From elsewhere: refused, the record unchanged.
    let before = std::fs::read_to_string(&record).unwrap();
    cathedral()
        .arg("play")
        .arg(&empty)
        .args(["light:cathedral:e5,f4,f5,f6,f7,g5", "--record"])
        .arg(&record)
        .assert()
        .code(3);
    assert_eq!(std::fs::read_to_string(&record).unwrap(), before);
}

#[test]
fn standings_score_a_match_from_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    cathedral()
        .args([
            "match", "--a", "engine", "--b", "random", "--games", "4", "--nodes", "2000", "-o",
        ])
        .arg(&games)
        .assert()
        .success();
    let mut files: Vec<_> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let json = stdout_of(cathedral().arg("standings").args(&files).arg("--json"));
    let result: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(result["matches"].as_array().unwrap().len(), 2);
    let table = result["table"].as_array().unwrap();
    assert_eq!(table.len(), 2);
    assert_eq!(table[0]["games"], 4);
    assert!(table[0]["squares"].as_u64() <= table[1]["squares"].as_u64());
    assert!(result["unpaired"].as_array().unwrap().is_empty());
    // A record that does not load is an input error, located.
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "moves:\n- light:inn:a1\n").unwrap();
    cathedral().arg("standings").arg(&bad).assert().code(3);
}
