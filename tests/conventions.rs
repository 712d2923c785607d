//! The conventions of a modern command line and the JSON that tools read: completions and a man
//! page, `NO_COLOR`, JSON fields (`passes`, every hand count, the title, each move's position),
//! file numbers that sort, counts in good English.

use crate::common;

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

/// `cmd`'s standard output as JSON, whatever its exit status.
fn json_with(code: i32, cmd: &mut assert_cmd::Command) -> serde_json::Value {
    let out = common::stdout_with(code, cmd);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn every_reporting_command_speaks_json() {
    // perft: the count, and with --divide the counts below each root move adding up to it.
    let perft = json_of(&["perft", "2", "--divide", "--json"]);
    assert_eq!(perft["depth"], 2);
    let divided = perft["divide"].as_array().expect("divide");
    assert_eq!(divided.len(), 168);
    let sum: u64 = divided
        .iter()
        .map(|d| d["count"].as_u64().expect("n"))
        .sum();
    assert_eq!(perft["count"].as_u64(), Some(sum));
    assert!(divided[0]["move"].as_str().is_some());

    // check: the verdict, both values and the loss, and the exit status still tells.
    let puzzle = "puzzles/teaching/puzzle-001.yaml";
    let wrong = json_with(
        5,
        cathedral().args(["check", puzzle, "stable:i1,j1", "--json", "--threads", "1"]),
    );
    assert_eq!(wrong["correct"], false);
    assert_eq!(
        wrong["loss"].as_i64(),
        Some(wrong["best_value"].as_i64().unwrap() - wrong["played_value"].as_i64().unwrap())
    );
    assert!(wrong["reply_line"].as_array().is_some());
    let answer = wrong["best"]["notation"]
        .as_str()
        .expect("notation")
        .to_string();
    let right = json_of(&["check", puzzle, &answer, "--json", "--tt-mb", "8"]);
    assert_eq!(right["correct"], true);
    assert_eq!(right["loss"], 0);

    // bench: a row per position with its check, and the tier times.
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["t3-01.yaml", "t3-02.yaml"] {
        std::fs::copy(format!("puzzles/bench/{name}"), dir.path().join(name)).expect("copy");
    }
    let bench = json_of(&["bench", dir.path().to_str().unwrap(), "--json", "--quiet"]);
    let rows = bench["positions"].as_array().expect("positions");
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(row["check"], "ok", "{row}");
        assert_eq!(row["value"], row["stored"]);
    }
    assert_eq!(bench["tiers"][0]["positions"], 2);

    // sample and generate: the files written, each loading back.
    let out = tempfile::tempdir().expect("tempdir");
    let sampled = json_of(&[
        "sample",
        "--tier",
        "t5",
        "--count",
        "2",
        "-o",
        out.path().to_str().unwrap(),
        "--json",
    ]);
    let files = sampled["files"].as_array().expect("files");
    assert_eq!(files.len(), 2);
    for f in files {
        cathedral::file::load(std::path::Path::new(f["file"].as_str().unwrap())).expect("loads");
    }
    let generated = json_of(&[
        "generate",
        "--count",
        "1",
        "--threads",
        "1",
        "-o",
        out.path().join("puzzles").to_str().unwrap(),
        "--json",
    ]);
    let puzzle = &generated["puzzles"][0];
    let file = cathedral::file::load(std::path::Path::new(puzzle["file"].as_str().unwrap()))
        .expect("the puzzle loads");
    let stored = file.solution.expect("solution");
    assert_eq!(puzzle["value"].as_i64(), Some(i64::from(stored.value)));
    assert_eq!(puzzle["best_move"].as_str(), stored.best_move.as_deref());
    assert!(generated.get("stopped_by").is_none(), "{generated}");
}

#[test]
fn render_and_sheet_write_to_standard_output_without_a_file() {
    let svg = stdout_of(cathedral().args(["render", "puzzles/teaching/puzzle-001.yaml"]));
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{svg}");
    let dash =
        stdout_of(cathedral().args(["render", "puzzles/teaching/puzzle-001.yaml", "-o", "-"]));
    assert_eq!(svg, dash);
    let html = stdout_of(cathedral().args(["sheet", "puzzles/teaching"]));
    assert!(
        html.contains("<html") && html.contains("puzzle-001"),
        "{}",
        &html[..200]
    );
    assert!(!std::path::Path::new("-").exists());
}

#[test]
fn check_takes_the_search_options_of_solve_and_range_checks_them() {
    let puzzle = "puzzles/teaching/puzzle-001.yaml";
    for bad in [["--threads", "65"], ["--tt-mb", "0"], ["--tt-mb", "100000"]] {
        cathedral()
            .args(["check", puzzle, "pass"])
            .args(bad)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("out of range"));
    }
    let plain = stdout_with_any(cathedral().args(["check", puzzle, "stable:i1,j1"]));
    assert!(plain.starts_with("Not the answer"), "{plain}");
    let coloured =
        stdout_with_any(cathedral().args(["check", puzzle, "stable:i1,j1", "--color", "always"]));
    assert!(coloured.starts_with("\u{1b}["), "{coloured}");
}

fn stdout_with_any(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8(cmd.output().expect("runs").stdout).expect("utf-8")
}
