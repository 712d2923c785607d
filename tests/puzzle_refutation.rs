//! Every teaching puzzle stores its most tempting wrong move with the refutation
//! (`puzzle.tempting`), checked on load; `cathedral puzzles refute` adds it to older files.

use assert_cmd::Command;
use cathedral::file::{PositionFile, parse_str, to_yaml};
use cathedral::legality::parse_move;
use cathedral::puzzle::{
    AnalyseOptions, TryKind, stored_check, stored_try, tempting_block, wrong_try,
};
use std::path::Path;

const DIR: &str = "puzzles/teaching";

fn shipped() -> Vec<(String, String, PositionFile)> {
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("puzzle-") && n.ends_with(".yaml"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(Path::new(DIR).join(&name)).unwrap();
            let file = parse_str(&name, &text).unwrap();
            (name, text, file)
        })
        .collect()
}

/// Puzzles whose tempting move `puzzles refute` found none for (every move as good as the
/// answer, or not solved in time): none today.
const NO_TEMPTING_MOVE: [&str; 0] = [];

#[test]
fn every_shipped_puzzle_carries_its_tempting_move_refuted() {
    let files = shipped();
    assert_eq!(files.len(), 349);
    for (name, _, file) in &files {
        let puzzle = file.puzzle.as_ref().unwrap();
        if NO_TEMPTING_MOVE.contains(&name.as_str()) {
            assert!(puzzle.tempting.is_none(), "{name}");
            continue;
        }
        // Loaded: the move legal, its value below the solution's, the refutation legal and
        // ending the game at that value. Read back without solving, as the sheet reads it.
        let tempting = puzzle.tempting.as_ref().unwrap_or_else(|| panic!("{name}"));
        let wrong = stored_try(file).unwrap_or_else(|| panic!("{name}"));
        assert!(
            matches!(wrong.kind, TryKind::Greedy | TryKind::Closest),
            "{name}"
        );
        assert_eq!(wrong.played.notation, tempting.played, "{name}");
        assert!(wrong.loss > 0, "{name}");
        assert_eq!(wrong.reply_line.len(), tempting.refutation.len(), "{name}");
        // The verdict the trainer gives for it from the file (for the shipped collection).
        let mv = parse_move(&file.position, &tempting.played).unwrap();
        let report = stored_check(file, mv).unwrap_or_else(|| panic!("{name}"));
        assert!(!report.is_correct(), "{name}");
        assert_eq!(report.played_value, tempting.value, "{name}");
        let best = file.solution.as_ref().unwrap().best_move.clone().unwrap();
        let report = stored_check(file, parse_move(&file.position, &best).unwrap()).unwrap();
        assert!(report.is_correct(), "{name}");
    }
}

#[test]
fn the_block_round_trips_and_is_optional() {
    let text = std::fs::read_to_string(Path::new(DIR).join("puzzle-001.yaml")).unwrap();
    let file = parse_str("puzzle-001.yaml", &text).unwrap();
    assert!(file.puzzle.as_ref().unwrap().tempting.is_some());
    let back = parse_str("back.yaml", &to_yaml(&file)).unwrap();
    assert_eq!(back, file);
    // Old files, without it, still load.
    let mut old = file.clone();
    old.puzzle.as_mut().unwrap().tempting = None;
    let back = parse_str("old.yaml", &to_yaml(&old)).unwrap();
    assert_eq!(back, old);
    assert!(stored_try(&back).is_none());
}

#[test]
fn a_wrong_stored_refutation_is_refused_where_it_is_written() {
    let text = std::fs::read_to_string(Path::new(DIR).join("puzzle-001.yaml")).unwrap();
    let line_of = |needle: &str| text.lines().position(|l| l == needle).unwrap() + 1;
    let cases = [
        // A value the refutation contradicts.
        (
            "    value: -3",
            "    value: -4",
            "puzzle.tempting: value is -4 but the refutation ends the game at -3",
        ),
        // Better than the answer.
        (
            "    value: -3",
            "    value: -1",
            "puzzle.tempting: value -1 is better than the solution's value -2",
        ),
        // As good as the answer: not a wrong move.
        (
            "    value: -3",
            "    value: -2",
            "puzzle.tempting: value -2 is the solution's value",
        ),
        // An illegal move in the refutation.
        (
            "    - dark:tavern:d5",
            "    - dark:tavern:a5",
            "puzzle.tempting: refutation move 1 (`dark:tavern:a5`) cannot be played",
        ),
        // An illegal tempting move.
        (
            "    move: light:stable:h1,i1",
            "    move: light:stable:a1,a2",
            "puzzle.tempting: move `light:stable:a1,a2` cannot be played",
        ),
        // A refutation cut short.
        (
            "    - dark:stable:j7,j8\n  near_best",
            "  near_best",
            "puzzle.tempting: the refutation stops before the end of the game",
        ),
        // An unknown kind.
        (
            "    kind: closest",
            "    kind: sneaky",
            "puzzle.tempting.kind",
        ),
    ];
    for (good, bad, words) in cases {
        assert!(text.contains(good), "{good}");
        let tampered = text.replacen(good, bad, 1);
        let error = parse_str("bad.yaml", &tampered).unwrap_err();
        assert!(error.to_string().contains(words), "{bad}: {error}");
        let line = error.line.unwrap_or_else(|| panic!("{bad}: not located"));
        let first = good.lines().next().unwrap();
        let expected = if words.contains("ends the game") || words.contains("value") {
            line_of("    value: -3")
        } else if words.contains("stops before") {
            line_of("    - light:pass")
        } else {
            line_of(first)
        };
        assert_eq!(line, expected, "{bad}: {error}");
    }
}

fn refute(dir: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("cathedral")
        .unwrap()
        .args(["puzzles", "refute"])
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn puzzles_refute_adds_the_block_keeping_every_other_line_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["puzzle-001.yaml", "puzzle-040.yaml", "puzzle-200.yaml"];
    let mut shipped = Vec::new();
    for name in names {
        let text = std::fs::read_to_string(Path::new(DIR).join(name)).unwrap();
        // The file as it was before: the block's lines taken out, nothing else touched.
        let mut old = String::new();
        let mut inside = false;
        for line in text.split_inclusive('\n') {
            if line.starts_with("  tempting:") {
                inside = true;
            } else if !line.starts_with("    ") {
                inside = false;
            }
            if !inside {
                old.push_str(line);
            }
        }
        assert!(
            parse_str(name, &old)
                .unwrap()
                .puzzle
                .unwrap()
                .tempting
                .is_none()
        );
        std::fs::write(dir.path().join(name), &old).unwrap();
        shipped.push(text);
    }
    let read = || {
        names
            .iter()
            .map(|n| std::fs::read_to_string(dir.path().join(n)).unwrap())
            .collect::<Vec<_>>()
    };
    let before = read();
    let dry = refute(dir.path(), &["--dry-run"]);
    assert!(dry.contains("3 of 3 puzzle files would change"), "{dry}");
    assert_eq!(read(), before, "--dry-run writes nothing");
    let first = refute(dir.path(), &[]);
    assert!(first.contains("3 of 3 puzzle files changed"), "{first}");
    // Exactly the shipped files: the block added, every other line byte-identical.
    assert_eq!(read(), shipped);
    let again = refute(dir.path(), &[]);
    assert!(again.contains("0 of 3 puzzle files changed"), "{again}");
    assert!(again.contains("3 already stored"), "{again}");
    assert_eq!(read(), shipped);
}

fn solved_block(file: &PositionFile) -> Option<cathedral::file::PuzzleTempting> {
    let options = AnalyseOptions {
        time_limit: std::time::Duration::from_secs(60),
        max_nodes: u64::MAX,
        ..AnalyseOptions::default()
    };
    wrong_try(&file.position, &options).and_then(|w| tempting_block(&w))
}

#[test]
fn the_stored_block_is_what_the_solver_finds() {
    // A sample (every 16th puzzle): solving again gives the stored block exactly.
    for (name, _, file) in shipped().iter().step_by(16) {
        let stored = file.puzzle.as_ref().unwrap().tempting.clone();
        assert_eq!(solved_block(file), stored, "{name}");
    }
}

#[test]
fn generate_stores_the_tempting_move() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("cathedral")
        .unwrap()
        .args(["generate", "--count", "1", "--threads", "1", "-o"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let name = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "yaml"))
        .expect("a puzzle file");
    let file = cathedral::file::load(&name).unwrap();
    let stored = file.puzzle.as_ref().unwrap().tempting.clone();
    assert!(stored.is_some(), "{}", to_yaml(&file));
    assert_eq!(solved_block(&file), stored);
    // Nothing left for `refute` to add.
    let again = refute(dir.path(), &[]);
    assert!(again.contains("0 of 1 puzzle file changed"), "{again}");
}
