//! The conventions of a modern command line and the JSON that tools read: completions and a man
//! page, `NO_COLOR`, JSON fields (`passes`, every hand count, the title, each move's position),
//! file numbers that sort, counts in good English.

mod common;

use common::{cathedral, stdout_of};
use predicates::prelude::*;

fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(cathedral().args(args))).expect("valid JSON")
}

#[test]
fn completions_and_a_man_page_are_generated() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout_of(cathedral().args(["completions", shell]));
        assert!(
            script.contains("solve") && script.contains("time-limit"),
            "{shell}"
        );
    }
    let page = stdout_of(cathedral().arg("man"));
    assert!(
        page.starts_with(".ie") || page.contains(".TH cathedral 1"),
        "{page}"
    );
    assert!(page.contains("solve"));
}

/// Only the pipe half of the `NO_COLOR` rule can be checked without a terminal: a pipe is plain
/// whatever `NO_COLOR` says, and `--color always` still draws colours and boxes. (On a terminal,
/// `NO_COLOR=1 cathedral show` draws Unicode boxes without escapes: checked by hand under a pty.)
#[test]
fn pipes_stay_plain_and_explicit_colour_choices_win() {
    let plain = stdout_of(cathedral().args(["show"]).env("NO_COLOR", "1"));
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let fancy = stdout_of(cathedral().args(["show", "--color", "always"]));
    assert!(fancy.contains('\u{1b}') && fancy.contains('─'));
}

#[test]
fn show_json_has_the_title_passes_and_every_hand_count() {
    let view = json_of(&["show", "--json", "puzzles/examples/endgame.yaml"]);
    assert!(view["title"].is_string(), "{view}");
    assert!(view["passes"].is_number(), "{view}");
    let hand = view["light"]["hand"].as_object().expect("hand");
    assert_eq!(hand.len(), 11, "every kind, zero counts included: {hand:?}");
}

#[test]
fn play_json_gives_each_moves_position_and_legal_moves() {
    let json = json_of(&[
        "play",
        "puzzles/examples/opening.yaml",
        "cathedral:e7,d6,e6,f6,e5,e4",
        "dark:castle:a1,b1,c1,a2,c2",
        "--json",
    ]);
    let first = &json["moves"][0];
    assert!(first["after"]["legal_move_count"].as_u64().expect("count") > 0);
    assert_eq!(
        json["moves"][1]["after"]["to_move"],
        json["final"]["to_move"]
    );
    assert!(first["claims"].is_array(), "{first}");
}

#[test]
fn sampled_files_sort_in_order_past_99() {
    let dir = tempfile::tempdir().expect("temp dir");
    cathedral()
        .args([
            "sample", "--tier", "t3", "--count", "2", "--first", "99", "-o",
        ])
        .arg(dir.path())
        .assert()
        .success();
    assert!(dir.path().join("t3-099.yaml").exists());
    assert!(dir.path().join("t3-100.yaml").exists());
}

#[test]
fn counts_are_in_good_english() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        "puzzles/teaching/puzzle-001.yaml",
        dir.path().join("puzzle-001.yaml"),
    )
    .expect("copy");
    cathedral()
        .arg("index")
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("(1 puzzle)"));
    cathedral()
        .args(["play", "puzzles/examples/midgame.yaml", "tavern:a1,a2"])
        .assert()
        .stderr(predicate::str::contains("covers 1 square,"));
}

#[test]
fn perft_says_its_rate_in_words() {
    let out = stdout_of(cathedral().args(["perft", "puzzles/examples/opening.yaml", "2"]));
    let rate = out.lines().last().expect("a rate line");
    assert!(
        rate.ends_with(" M moves/s") || rate.ends_with(" k moves/s"),
        "{rate}"
    );
}
