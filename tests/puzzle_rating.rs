//! Glicko-2 ratings of puzzles and learners (`docs/puzzles.md`, "Ratings"): the update's
//! direction, `cathedral puzzles rate` (deterministic, rewrites only what changes, keeps the rest
//! of each file), the shipped collection's stored ratings (present, reproducible, ordered by
//! grade, the solvers' calibration). `POST /api/rating` is tested with the rest of the API in
//! tests/web_api.rs.

use assert_cmd::Command;
use cathedral::file::{PositionFile, load, parse_str, to_yaml};
use cathedral::puzzle::rating::{
    DEFAULT_ATTEMPTS, DEFAULT_SEED, Glicko, RateOptions, SOLVERS, calibrate, glicko_of, measure,
    rate_puzzle, update, with_rating,
};
use std::path::Path;

const DIR: &str = "puzzles/teaching";

fn collection() -> Vec<(String, String, PositionFile)> {
    let mut paths: Vec<_> = std::fs::read_dir(DIR)
        .expect("puzzles/teaching")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let file = load(&p).unwrap_or_else(|e| panic!("{e}"));
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, text, file)
        })
        .collect()
}

fn puzzle(rating: f64, deviation: f64) -> Glicko {
    Glicko {
        rating,
        deviation,
        volatility: 0.06,
    }
}

#[test]
fn the_update_moves_ratings_the_right_way() {
    let learner = Glicko::LEARNER;
    let (easy_win, easy) = update(learner, puzzle(1200.0, 60.0), true);
    let (hard_win, hard) = update(learner, puzzle(1800.0, 60.0), true);
    assert!(easy_win.rating > learner.rating);
    assert!(
        hard_win.rating > easy_win.rating,
        "a win against a harder puzzle raises more"
    );
    assert!(easy.rating < 1200.0 && hard.rating < 1800.0);
    assert!(hard_win.deviation < learner.deviation && easy_win.deviation < learner.deviation);
    // One attempt by an unknown learner tells little about the puzzle: its deviation barely moves.
    assert!((hard.deviation - 60.0).abs() < 2.0, "{}", hard.deviation);
    let (easy_loss, _) = update(learner, puzzle(1200.0, 60.0), false);
    let (hard_loss, hard_after) = update(learner, puzzle(1800.0, 60.0), false);
    assert!(easy_loss.rating < hard_loss.rating && hard_loss.rating < learner.rating);
    assert!(hard_after.rating > 1800.0);
    // A sure learner moves little; deviations never exceed 350.
    let sure = Glicko {
        deviation: 40.0,
        ..Glicko::LEARNER
    };
    let (sure_win, sure_puzzle) = update(sure, puzzle(1800.0, 60.0), true);
    assert!(sure_win.rating - sure.rating < hard_win.rating - learner.rating);
    assert!(sure_win.deviation < hard_win.deviation && sure_puzzle.deviation < hard.deviation);
    let (_, new) = update(learner, puzzle(1500.0, 350.0), true);
    assert!(new.deviation <= 350.0);
}

/// The solvers' ratings were calibrated once on the collection's first 72 puzzles
/// (`docs/puzzles.md`, "Calibration"); the puzzles added later are rated with those constants,
/// not refitted, so the calibration is checked on the 72 it was made with.
const CALIBRATION_SET: usize = 72;

/// Every shipped puzzle (over 300) is measured again: about 6 s for 349 in the test profile.
#[test]
fn every_shipped_puzzle_carries_a_reproducible_rating_ordered_by_grade() {
    let options = RateOptions::default();
    assert_eq!(
        (options.seed, options.attempts),
        (DEFAULT_SEED, DEFAULT_ATTEMPTS)
    );
    let mut by_grade = std::collections::BTreeMap::<String, Vec<u32>>::new();
    let mut measurements = Vec::new();
    for (name, _, file) in collection() {
        let stored = glicko_of(&file).unwrap_or_else(|| panic!("{name}: no glicko rating"));
        let puzzle = file.puzzle.as_ref().unwrap();
        assert!(puzzle.near_best.is_some(), "{name}: no near_best");
        // Measured again with the default seed and attempts: the same rating.
        let rated = rate_puzzle(&file, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rated.glicko.stored(), stored, "{name}: rating");
        by_grade
            .entry(puzzle.difficulty.clone())
            .or_default()
            .push(stored.rating);
        if is_calibration_puzzle(&name) {
            measurements.push(rated.measurement);
        }
    }
    assert_eq!(measurements.len(), CALIBRATION_SET);
    let median = |grade: &str| {
        let mut list = by_grade[grade].clone();
        list.sort_unstable();
        list[list.len() / 2]
    };
    assert!(
        median("easy") < median("medium") && median("medium") < median("hard"),
        "medians: easy {}, medium {}, hard {}",
        median("easy"),
        median("medium"),
        median("hard")
    );
    // The solvers' ratings are the calibration's on puzzle-001..072 (docs/puzzles.md).
    let fitted = calibrate(&measurements);
    for (solver, rating) in SOLVERS.iter().zip(fitted) {
        assert_eq!(solver.rating, rating.round(), "{}", solver.name);
    }
}

/// Whether `name` is one of puzzle-001..072, the puzzles the solvers were calibrated on.
fn is_calibration_puzzle(name: &str) -> bool {
    name.strip_prefix("puzzle-")
        .and_then(|n| n.strip_suffix(".yaml"))
        .and_then(|n| n.parse::<usize>().ok())
        .is_some_and(|n| (1..=CALIBRATION_SET).contains(&n))
}

/// Three shipped puzzles in a fresh directory, without their ratings.
fn unrated_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["puzzle-002.yaml", "puzzle-030.yaml", "puzzle-050.yaml"] {
        let text = std::fs::read_to_string(Path::new(DIR).join(name)).unwrap();
        let mut file = parse_str(name, &text).unwrap();
        let p = file.puzzle.as_mut().unwrap();
        p.near_best = None;
        p.glicko = None;
        std::fs::write(dir.path().join(name), to_yaml(&file)).unwrap();
    }
    dir
}

fn rate_dir(dir: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("cathedral")
        .unwrap()
        .args(["puzzles", "rate"])
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn texts(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn puzzles_rate_is_deterministic_and_rewrites_only_what_changes() {
    let a = unrated_copy();
    let b = unrated_copy();
    let before = texts(a.path());
    let dry = rate_dir(a.path(), &["--seed", "7", "--attempts", "3", "--dry-run"]);
    assert!(dry.contains("3 of 3 puzzle files would change"), "{dry}");
    assert_eq!(texts(a.path()), before, "--dry-run writes nothing");
    let first = rate_dir(a.path(), &["--seed", "7", "--attempts", "3"]);
    assert!(first.contains("3 of 3 puzzle files changed"), "{first}");
    rate_dir(b.path(), &["--seed", "7", "--attempts", "3"]);
    assert_eq!(texts(a.path()), texts(b.path()), "same seed, same ratings");
    let again = rate_dir(a.path(), &["--seed", "7", "--attempts", "3"]);
    assert!(again.contains("0 of 3 puzzle files changed"), "{again}");
    // Only the two fields were added, at the end of the puzzle block.
    for (old, new) in before.iter().zip(texts(a.path())) {
        let added: Vec<&str> = new
            .lines()
            .filter(|l| !old.lines().any(|o| o == *l))
            .collect();
        assert_eq!(added.len(), 5, "{added:?}");
        assert!(added[0].starts_with("  near_best: "));
        assert_eq!(added[1], "  glicko:");
        assert_eq!(new.lines().count(), old.lines().count() + 5);
        let file = parse_str("rated", &new).unwrap();
        assert!(glicko_of(&file).is_some());
    }
    // The default seed and attempts give the shipped ratings.
    rate_dir(a.path(), &[]);
    for name in ["puzzle-002.yaml", "puzzle-030.yaml", "puzzle-050.yaml"] {
        assert_eq!(
            std::fs::read_to_string(a.path().join(name)).unwrap(),
            std::fs::read_to_string(Path::new(DIR).join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn ratings_round_trip_and_are_optional() {
    for (name, text, file) in collection().into_iter().take(10) {
        let p = file.puzzle.as_ref().unwrap();
        let stored = p.glicko.unwrap();
        // Storing the same rating gives the same text; the canonical writer agrees.
        assert_eq!(
            with_rating(&text, &file, p.near_best.unwrap(), stored).unwrap(),
            text
        );
        assert_eq!(to_yaml(&file), text, "{name}");
        // Without the fields the file loads and measures the same.
        let mut bare = file.clone();
        bare.puzzle.as_mut().unwrap().glicko = None;
        bare.puzzle.as_mut().unwrap().near_best = None;
        let bare_text = to_yaml(&bare);
        let loaded = parse_str(&name, &bare_text).unwrap();
        assert_eq!(glicko_of(&loaded), None);
        assert_eq!(
            with_rating(&bare_text, &loaded, p.near_best.unwrap(), stored).unwrap(),
            text
        );
    }
    let (_, text, file) = collection().remove(0);
    let m = measure(&file, &RateOptions::default()).unwrap();
    assert_eq!(Some(m.near_best), file.puzzle.as_ref().unwrap().near_best);
    // A rating out of range is refused in words.
    for (bad, words) in [
        ("rating: 1560", "rating: -3"),
        ("deviation: 55", "deviation: 400"),
        ("volatility: 0.06", "volatility: zero"),
    ] {
        assert!(text.contains(bad), "{bad}");
        let error = parse_str("bad.yaml", &text.replace(bad, words)).unwrap_err();
        assert!(error.message.contains("puzzle.glicko"), "{}", error.message);
    }
    let error = parse_str(
        "bad.yaml",
        &text.replace("  glicko:\n", "  glicko:\n    elo: 3\n"),
    )
    .unwrap_err();
    assert!(error.message.contains("`elo`"), "{}", error.message);
}
