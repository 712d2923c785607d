//! `match --sprt`: the sequential test stops a match as soon as it decides, on the pairs in their
//! order, whatever the number of jobs.

use crate::common;

use common::{cathedral, json_of};

/// Level 3 against random, 200 nodes a move, `--sprt 0,200` with `extra` options, as JSON.
fn level_3_against_random(extra: &[&str]) -> serde_json::Value {
    json_of(
        cathedral()
            .args([
                "match",
                "--a",
                "engine:level=3",
                "--b",
                "random",
                "--games",
                "200",
                "--nodes",
                "200",
                "--sprt",
                "0,200",
                "--json",
            ])
            .args(extra),
    )
}

#[test]
fn a_clear_difference_is_accepted_early() {
    let v = level_3_against_random(&[]);
    assert_eq!(v["sprt"]["verdict"], "accept-h1", "{}", v["sprt"]);
    let pairs = v["summary"]["pairs"].as_u64().unwrap();
    assert!(pairs < 30, "{pairs} pairs");
    let counted: u64 = v["sprt"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(counted, pairs);
    assert!(v["sprt"]["llr"].as_f64().unwrap() >= v["sprt"]["upper_bound"].as_f64().unwrap());
}

#[test]
fn equal_players_accept_h0_the_same_way_with_one_job_or_two() {
    let run = |jobs: &str| {
        json_of(cathedral().args([
            "match", "--a", "random", "--b", "random", "--games", "2000", "--nodes", "1", "--sprt",
            "0,30", "--jobs", jobs, "--json",
        ]))
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["sprt"]["verdict"], "accept-h0", "{}", one["sprt"]);
    assert_eq!(one["sprt"]["pentanomial"], two["sprt"]["pentanomial"]);
    assert_eq!(one["sprt"]["llr"], two["sprt"]["llr"]);
    // The decision came before the last pair: the match stopped early.
    assert!(one["summary"]["pairs"].as_u64().unwrap() < 1000);
}

#[test]
fn sprt_options_are_checked() {
    for args in [
        vec!["--sprt", "10,0"],
        vec!["--sprt", "5"],
        vec!["--sprt", "a,b"],
        vec!["--sprt", "0,5000"],
        vec!["--alpha", "0.1"],
        vec!["--sprt", "0,10", "--alpha", "0.7"],
        vec!["--sprt", "0,10", "--beta", "0"],
        vec!["--sprt-on", "pairs"],
        vec!["--sprt", "0,10", "--sprt-on", "moves"],
    ] {
        cathedral()
            .args(["match", "--a", "random", "--b", "random"])
            .args(&args)
            .assert()
            .code(2);
    }
}

#[test]
fn on_pairs_the_test_counts_each_pair_by_its_total_score() {
    let run = |on: &str| level_3_against_random(&["--sprt-on", on]);
    let pairs = run("pairs");
    assert_eq!(pairs["sprt"]["verdict"], "accept-h1", "{}", pairs["sprt"]);
    let counts: Vec<u64> = pairs["sprt"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    // A pair is won, drawn or lost: 4, 2 or 0 half-points, never 1 or 3.
    assert_eq!((counts[1], counts[3]), (0, 0), "{counts:?}");
    assert_eq!(
        counts.iter().sum::<u64>(),
        pairs["summary"]["pairs"].as_u64().unwrap()
    );
    // The same games as the test on games, which stops at its own pair.
    let games = run("games");
    assert_eq!(games["sprt"]["verdict"], "accept-h1");
    assert!(pairs["pairs"][0].is_object());
    assert_eq!(pairs["pairs"][0], games["pairs"][0]);
}
